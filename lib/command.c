/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "command.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cleanup.h"
#include "log.h"
#include "monotonic.h"
#include "signals.h"

extern char **environ;

/* environ followed by EXTRA; an EXTRA entry replaces a variable of the
 * same name.  The strings are borrowed, only the array is allocated. */
static char **env_merge(char *const extra[])
{
	size_t n = 0, m = 0;
	char **env;

	while (environ[n])
		n++;
	while (extra && extra[m])
		m++;
	env = calloc(n + m + 1, sizeof(char *));
	if (!env)
		return NULL;
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		const char *eq = strchr(environ[i], '=');
		size_t len = eq ? (size_t)(eq - environ[i]) + 1 : strlen(environ[i]);
		int replaced = 0;
		for (size_t j = 0; j < m && !replaced; j++)
			replaced = strncmp(extra[j], environ[i], len) == 0;
		if (!replaced)
			env[k++] = environ[i];
	}
	for (size_t j = 0; j < m; j++)
		env[k++] = extra[j];
	return env;
}

/* Starts ARGV with stdout going to OUT_FD (-1: inherited, -2: stderr,
 * -3: /dev/null),
 * leading a process group of its own (supermin runs tar and cpio, qemu-img
 * threads: a signal kills them all at once), registered with the signal
 * policy before a signal can come in between. */
static int start(char *const argv[], const struct command_opts *o, int out_fd,
		 pid_t *ret_pid)
{
	_cleanup_free_ char **merged = o->env ? NULL : env_merge(o->env_extra);
	char *const *env = o->env ? o->env : merged;
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	sigset_t old, dfl;
	int r;

	if (!env)
		return -ENOMEM;
	signals_install();
	r = posix_spawn_file_actions_init(&fa);
	if (r)
		return -r;
	r = posix_spawn_file_actions_addopen(&fa, 0, o->stdin_path ? o->stdin_path : "/dev/null",
					     O_RDONLY, 0);
	if (!r && o->stderr_path)
		r = posix_spawn_file_actions_addopen(&fa, 2, o->stderr_path,
						     O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (!r && out_fd == -2)
		r = posix_spawn_file_actions_adddup2(&fa, 2, 1);
	else if (!r && out_fd == -3)
		r = posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	else if (!r && out_fd >= 0)
		r = posix_spawn_file_actions_adddup2(&fa, out_fd, 1);
	/* Nothing else of ours: a descriptor a library opened without
	 * O_CLOEXEC (libvirt's log file) is no tool's business, and LVM
	 * names each one it inherits on the console as a leak. */
	if (!r)
		r = posix_spawn_file_actions_addclosefrom_np(&fa, 3);
	if (!r)
		r = posix_spawnattr_init(&attr);
	if (r) {
		posix_spawn_file_actions_destroy(&fa);
		return -r;
	}
	/* Blocked from before the child exists until it is registered; the
	 * child gets our mask as it was and the default handlers. */
	signals_block(&old);
	sigemptyset(&dfl);
	sigaddset(&dfl, SIGINT);
	sigaddset(&dfl, SIGTERM);
	sigaddset(&dfl, SIGHUP);
	r = posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK |
					    POSIX_SPAWN_SETSIGDEF);
	if (!r)
		r = posix_spawnattr_setpgroup(&attr, 0);
	if (!r)
		r = posix_spawnattr_setsigmask(&attr, &old);
	if (!r)
		r = posix_spawnattr_setsigdefault(&attr, &dfl);
	if (!r)
		r = posix_spawnp(ret_pid, argv[0], &fa, &attr, argv, env);
	if (!r && signals_add_child(*ret_pid, true) < 0)
		/* Too many at once (threads): it still runs, unprotected. */
		r = 0;
	signals_unblock(&old);
	posix_spawnattr_destroy(&attr);
	posix_spawn_file_actions_destroy(&fa);
	return -r;
}

/* Past DEADLINE (0: none) the child's whole group is killed. */
static bool expired(pid_t pid, double deadline, struct command_result *res)
{
	if (!deadline || res->timed_out || monotonic_seconds() < deadline)
		return false;
	kill(-pid, SIGKILL);
	res->timed_out = true;
	return true;
}

static int wait_child(pid_t pid, double deadline, struct command_result *res)
{
	int status;
	pid_t w;

	/* With a deadline, looked at every 20 ms: a tool's wait is long. */
	while ((w = waitpid(pid, &status, deadline && !res->timed_out ? WNOHANG : 0)) <= 0) {
		if (w < 0 && errno != EINTR) {
			int r = -errno;
			signals_forget_child(pid);
			return r;
		}
		if (w == 0 && !expired(pid, deadline, res))
			nanosleep(&(struct timespec){.tv_nsec = 20000000}, NULL);
	}
	signals_forget_child(pid);
	if (res->timed_out)
		return -ETIME;
	if (WIFEXITED(status)) {
		res->exit_status = WEXITSTATUS(status);
		return res->exit_status;
	}
	res->signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
	return -EINTR;
}

/* Reads FD to its end into RES, keeping at most MAX bytes (0: all):
 * past the limit it keeps reading, or a child blocked on a full pipe
 * would never exit. */
static int read_all(int fd, size_t max, pid_t pid, double deadline,
		    struct command_result *res)
{
	_cleanup_free_ char *buf = NULL;
	size_t len = 0, cap = 0;
	char sink[4096];
	bool cut = false;
	int err = 0;

	for (;;) {
		bool keep = !err && (!max || len < max);
		if (keep && cap - len < 4096) {
			size_t want = cap + 65536;
			if (max && want > max + 1)
				want = max + 1;
			char *p = want > cap ? realloc(buf, want) : buf;
			if (!p) {
				err = -ENOMEM;
				continue;
			}
			buf = p;
			cap = want;
		}
		size_t room = keep ? cap - len - 1 : 0;
		if (keep && room == 0)
			keep = false;
		if (deadline && !res->timed_out) {
			double left = deadline - monotonic_seconds();
			struct pollfd pfd = {.fd = fd, .events = POLLIN};
			int p = left > 0 ? poll(&pfd, 1, (int)(left * 1000) + 1) : 0;
			if (p < 0 && errno == EINTR)
				continue;
			if (p == 0 && expired(pid, deadline, res))
				continue; /* its group is dead: read to the end */
			if (p == 0)
				continue;
		}
		ssize_t n = keep ? read(fd, buf + len, room) : read(fd, sink, sizeof(sink));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			err = err ? err : -errno;
			break;
		}
		if (n == 0)
			break;
		if (keep)
			len += (size_t)n;
		else if (!err)
			cut = true;
	}
	if (err)
		return err;
	if (!buf && !(buf = malloc(1)))
		return -ENOMEM;
	buf[len] = '\0';
	res->out = TAKE_PTR(buf);
	res->len = len;
	res->cut = cut;
	return 0;
}

int command_spawn(char *const argv[], const struct command_opts *o,
		  struct command_result *ret)
{
	static const struct command_opts defaults;
	struct command_result res = {0};
	int fds[2] = {-1, -1};
	pid_t pid;
	int r, k = 0;

	if (!o)
		o = &defaults;
	double deadline = o->timeout ? monotonic_seconds() + o->timeout : 0;
	if (o->out == COMMAND_OUT_CAPTURE && pipe2(fds, O_CLOEXEC) < 0)
		return -errno;
	r = start(argv, o, o->out == COMMAND_OUT_CAPTURE ? fds[1] :
			   o->out == COMMAND_OUT_STDERR  ? -2 :
			   o->out == COMMAND_OUT_DISCARD ? -3 : -1, &pid);
	if (fds[1] >= 0)
		close(fds[1]);
	if (r < 0) {
		if (fds[0] >= 0)
			close(fds[0]);
		return r;
	}
	if (fds[0] >= 0) {
		k = read_all(fds[0], o->max, pid, deadline, &res);
		close(fds[0]);
	}
	r = wait_child(pid, deadline, &res);
	if (k < 0 && r >= 0)
		r = k;
	if (ret)
		*ret = res;
	else
		free(res.out);
	return r;
}

int command_run(char *const argv[], char *const env_extra[], int quiet)
{
	struct command_opts o = {
		.env_extra = env_extra,
		.out = quiet ? COMMAND_OUT_STDERR : COMMAND_OUT_INHERIT,
	};
	return command_spawn(argv, &o, NULL);
}

int command_capture(char *const argv[], char *const env_extra[], size_t max,
		    char **ret_out)
{
	struct command_opts o = {
		.env_extra = env_extra,
		.out = COMMAND_OUT_CAPTURE,
		.max = max,
	};
	struct command_result res = {0};
	int r = command_spawn(argv, &o, &res);

	if (res.out)
		*ret_out = res.out;
	return r;
}

int command_check(char *const argv[], const struct command_opts *o,
		  char **ret_out)
{
	struct command_opts opts = o ? *o : (struct command_opts){0};
	struct command_result res = {0};
	char desc[1024];
	int r;

	if (ret_out)
		opts.out = COMMAND_OUT_CAPTURE;
	r = command_spawn(argv, &opts, &res);
	_cleanup_free_ char *out = res.out;
	if (r > 0 && opts.any_status)
		log_debug("'%s' exited with status %d",
			  command_describe(argv, desc, sizeof(desc)), r);
	else if (r > 0)
		return log_error_code(-EIO, "'%s' failed with exit status %d",
				       command_describe(argv, desc, sizeof(desc)), r);
	else if (r == -ETIME)
		return log_error_code(-EIO, "'%s' was still running after %u s: killed",
				       command_describe(argv, desc, sizeof(desc)), opts.timeout);
	else if (r == -EINTR && res.signal)
		return log_error_code(-EIO, "'%s' was killed by signal %d",
				       command_describe(argv, desc, sizeof(desc)),
				       res.signal);
	else if (r < 0)
		return log_error_errno(r, "cannot run '%s'", argv[0]);
	if (ret_out)
		*ret_out = TAKE_PTR(out);
	return 0;
}

const char *command_describe(char *const argv[], char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; argv[i] && used + 1 < len; i++) {
		int n = snprintf(buf + used, len - used, "%s%s", i ? " " : "",
				 argv[i]);
		if (n < 0)
			break;
		used += (size_t)n;
	}
	return buf;
}

void command_run_from_handler(const char *path, char *const argv[])
{
	char *const envp[] = {NULL};
	pid_t pid = fork();

	if (pid == 0) {
		execve(path, argv, envp);
		_exit(127);
	}
	if (pid > 0)
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
}
