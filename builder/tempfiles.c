#include "tempfiles.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

struct tempfile {
	char path[PATH_MAX];
	volatile sig_atomic_t used;
	int is_dir;
};

static struct tempfile entries[TEMPFILES_MAX];
static volatile pid_t child_pid;

/* Only async-signal-safe calls: it runs from the signal handler too. */
static void remove_entries(void)
{
	for (int pass = 0; pass < 2; pass++)
		for (int i = TEMPFILES_MAX - 1; i >= 0; i--) {
			struct tempfile *t = &entries[i];
			if (!t->used || t->is_dir != pass)
				continue;
			if (t->is_dir)
				rmdir(t->path);
			else
				unlink(t->path);
			t->used = 0;
		}
}

static void on_signal(int sig)
{
	int saved = errno;

	if (child_pid > 0)
		kill(child_pid, SIGKILL);
	remove_entries();
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
	sigset_t old;

	block(&old);
	remove_entries();
	sigprocmask(SIG_SETMASK, &old, NULL);
}

void tempfiles_set_child(pid_t pid)
{
	child_pid = pid;
}
