#include "command.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cleanup.h"

extern char **environ;

static volatile pid_t current_child;

pid_t command_current_child(void)
{
	return current_child;
}

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

static int wait_child(pid_t pid)
{
	int status;

	current_child = pid;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			current_child = 0;
			return -errno;
		}
	current_child = 0;
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return -EINTR;
}

/* Starts ARGV with stdout going to OUT_FD (-1: inherited, -2: stderr). */
static int start(char *const argv[], char *const env_extra[], int out_fd,
		 pid_t *ret_pid)
{
	posix_spawn_file_actions_t fa;
	_cleanup_free_ char **env = env_merge(env_extra);
	int r;

	if (!env)
		return -ENOMEM;
	r = posix_spawn_file_actions_init(&fa);
	if (r)
		return -r;
	r = posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	if (!r && out_fd == -2)
		r = posix_spawn_file_actions_adddup2(&fa, 2, 1);
	else if (!r && out_fd >= 0)
		r = posix_spawn_file_actions_adddup2(&fa, out_fd, 1);
	/* Its own process group, so the whole tree of a tool (supermin
	 * runs tar, cpio...) can be killed at once on a signal. */
	posix_spawnattr_t attr;
	if (!r)
		r = posix_spawnattr_init(&attr);
	if (!r) {
		r = posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
		if (!r)
			r = posix_spawnattr_setpgroup(&attr, 0);
		if (!r)
			r = posix_spawnp(ret_pid, argv[0], &fa, &attr, argv, env);
		posix_spawnattr_destroy(&attr);
	}
	posix_spawn_file_actions_destroy(&fa);
	return -r;
}

int command_run(char *const argv[], char *const env_extra[], int quiet)
{
	pid_t pid;
	int r = start(argv, env_extra, quiet ? -2 : -1, &pid);

	if (r < 0)
		return r;
	return wait_child(pid);
}

int command_capture(char *const argv[], char *const env_extra[], size_t max,
		  char **ret_out)
{
	int fds[2];
	pid_t pid;
	size_t len = 0;
	char *buf;
	int r;

	if (pipe2(fds, O_CLOEXEC) < 0)
		return -errno;
	r = start(argv, env_extra, fds[1], &pid);
	close(fds[1]);
	if (r < 0) {
		close(fds[0]);
		return r;
	}
	buf = malloc(max + 1);
	for (;;) {
		char chunk[4096];
		ssize_t n = read(fds[0], chunk, sizeof(chunk));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		size_t take = (size_t)n;
		if (take > max - len)
			take = max - len;
		if (buf && take) {
			memcpy(buf + len, chunk, take);
			len += take;
		}
	}
	close(fds[0]);
	r = wait_child(pid);
	if (!buf)
		return -ENOMEM;
	buf[len] = '\0';
	*ret_out = buf;
	return r;
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
