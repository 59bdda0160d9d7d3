#include "tool.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cleanup.h"
#include "log.h"

extern char **environ;

const char *tool_cmdline(char *const argv[], char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; argv[i] && used < len; i++) {
		int r = snprintf(buf + used, len - used, "%s%s", i ? " " : "",
				 argv[i]);
		if (r < 0)
			break;
		used += (size_t)r;
	}
	return buf;
}

/* Reads FD to EOF into a growing buffer. */
static int read_all(int fd, char **ret)
{
	_cleanup_free_ char *buf = NULL;
	size_t len = 0, cap = 0;

	for (;;) {
		ssize_t n;

		if (cap - len < 4096) {
			char *p = realloc(buf, cap + 65536);
			if (!p)
				return -ENOMEM;
			buf = p;
			cap += 65536;
		}
		n = read(fd, buf + len, cap - len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			break;
		len += (size_t)n;
	}
	buf[len] = '\0';
	*ret = TAKE_PTR(buf);
	return 0;
}

int tool_run(char *const argv[], const char *stdin_path, char **ret_out)
{
	char cmd[1024];
	posix_spawn_file_actions_t fa;
	_cleanup_free_ char *out = NULL;
	int pipefd[2], status, r, k;
	pid_t pid;

	if (pipe2(pipefd, O_CLOEXEC) < 0)
		return log_error_errno(-errno, "pipe");
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, stdin_path ? stdin_path : "/dev/null",
					 O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, pipefd[1], 1);
	r = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(pipefd[1]);
	if (r != 0) {
		close(pipefd[0]);
		return log_error_errno(r, "cannot run '%s'", argv[0]);
	}
	k = read_all(pipefd[0], &out);
	close(pipefd[0]);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return log_error_errno(-errno, "waitpid");
	if (k < 0)
		return log_error_errno(k, "reading the output of '%s'",
				       argv[0]);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		if (WIFEXITED(status))
			log_error("'%s' failed with exit status %d",
				  tool_cmdline(argv, cmd, sizeof(cmd)),
				  WEXITSTATUS(status));
		else
			log_error("'%s' was killed by signal %d",
				  tool_cmdline(argv, cmd, sizeof(cmd)),
				  WTERMSIG(status));
		return -EIO;
	}
	if (ret_out)
		*ret_out = TAKE_PTR(out);
	return 0;
}
