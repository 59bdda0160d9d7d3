#include "tempfiles.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "command.h"

struct tempfile {
	char path[PATH_MAX];
	volatile sig_atomic_t used;
	int is_dir;
	unsigned long seq; /* registration order, for tempfiles_remove_since */
};

static struct tempfile entries[TEMPFILES_MAX];
static volatile pid_t child_pid;
static unsigned long next_seq = 1;

/* rm -rf PATH with fork and execve, which are async-signal-safe. */
static void remove_tree(const char *path)
{
	char *const argv[] = {"rm", "-rf", "--", (char *)path, NULL};
	char *const envp[] = {NULL};
	pid_t pid = fork();

	if (pid == 0) {
		execve("/bin/rm", argv, envp);
		_exit(127);
	}
	if (pid > 0)
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
}

/* Only async-signal-safe calls: it runs from the signal handler too.
 * Files first, then directories, then trees. */
static void remove_entries(unsigned long since)
{
	for (int pass = 0; pass < 3; pass++)
		for (int i = TEMPFILES_MAX - 1; i >= 0; i--) {
			struct tempfile *t = &entries[i];
			if (!t->used || t->is_dir != pass || t->seq < since)
				continue;
			if (t->is_dir == TEMPFILE_TREE)
				remove_tree(t->path);
			else if (t->is_dir)
				rmdir(t->path);
			else
				unlink(t->path);
			t->used = 0;
		}
}

static void on_signal(int sig)
{
	int saved = errno;

	pid_t tool = command_current_child();

	if (child_pid > 0)
		kill(child_pid, SIGKILL);
	/* A tool writing into a temporary directory would refill it. */
	if (tool > 0) {
		kill(-tool, SIGKILL);
		waitpid(tool, NULL, 0);
	}
	remove_entries(0);
	signal(sig, SIG_DFL);
	errno = saved;
	raise(sig);
}

void tempfiles_install_handlers(void)
{
	static int installed;
	struct sigaction sa;

	if (installed)
		return;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	installed = 1;
}

/* Registry changes run with the signals blocked so the handler never sees
 * a half-written entry. */
static void block(sigset_t *old)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigprocmask(SIG_BLOCK, &set, old);
}

int tempfiles_add(const char *path, int is_dir)
{
	sigset_t old;
	int r = -ENOSPC;

	if (strlen(path) >= PATH_MAX)
		return -ENAMETOOLONG;
	block(&old);
	for (int i = 0; i < TEMPFILES_MAX; i++)
		if (!entries[i].used) {
			strcpy(entries[i].path, path);
			entries[i].is_dir = is_dir;
			entries[i].seq = next_seq++;
			entries[i].used = 1;
			r = 0;
			break;
		}
	sigprocmask(SIG_SETMASK, &old, NULL);
	return r;
}

void tempfiles_forget(const char *path)
{
	sigset_t old;

	block(&old);
	for (int i = 0; i < TEMPFILES_MAX; i++)
		if (entries[i].used && strcmp(entries[i].path, path) == 0)
			entries[i].used = 0;
	sigprocmask(SIG_SETMASK, &old, NULL);
}

void tempfiles_remove_all(void)
{
	tempfiles_remove_since(0);
}

unsigned long tempfiles_mark(void)
{
	return next_seq;
}

void tempfiles_remove_since(unsigned long mark)
{
	sigset_t old;

	block(&old);
	remove_entries(mark);
	sigprocmask(SIG_SETMASK, &old, NULL);
}

void tempfiles_set_child(pid_t pid)
{
	child_pid = pid;
}
