#include "imgbench.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cleanup.h"
#include "log.h"
#include "qcow2cache.h"

extern char **environ;

int imgbench_parse_output(const char *out, double *ret)
{
	static const char key[] = "Run completed in ";
	const char *p = strstr(out, key);
	if (!p)
		return -EBADMSG;
	char *end;
	double s = strtod(p + sizeof(key) - 1, &end);
	if (end == p + sizeof(key) - 1 || strncmp(end, " seconds", 8) != 0 ||
	    !isfinite(s) || s < 0)
		return -EBADMSG;
	*ret = s;
	return 0;
}

/* --image-opts value: a comma in a file name is written twice. */
static char *image_opts(const char *image, const struct imgbench_opts *o)
{
	size_t n = strlen(image);
	_cleanup_free_ char *esc = malloc(2 * n + 1);
	if (!esc)
		return NULL;
	char *q = esc;
	for (const char *p = image; *p; p++) {
		*q++ = *p;
		if (*p == ',')
			*q++ = ',';
	}
	*q = '\0';
	char *s = NULL;
	if (asprintf(&s, "driver=%s,file.filename=%s," QCOW2CACHE_OPTION "=%" PRIu64,
		     o->format ? o->format : "qcow2", esc, o->cache_size) < 0)
		return NULL;
	return s;
}

/* Runs ARGV with stdout captured into *ret (NUL-terminated). */
static int spawn_capture(char *const *argv, char **ret, int *status)
{
	int pfd[2];
	if (pipe2(pfd, O_CLOEXEC) < 0)
		return -errno;
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, pfd[1], STDOUT_FILENO);
	pid_t pid;
	int r = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(pfd[1]);
	if (r != 0) {
		close(pfd[0]);
		return -r;
	}
	_cleanup_free_ char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);
	char chunk[4096];
	ssize_t n;
	while ((n = read(pfd[0], chunk, sizeof(chunk))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 || !mem)
			break;
		fwrite(chunk, 1, n, mem);
	}
	close(pfd[0]);
	if (mem)
		fclose(mem);
	while (waitpid(pid, status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	if (!buf)
		return -ENOMEM;
	*ret = TAKE_PTR(buf);
	return 0;
}

int imgbench_run(const char *image, const struct imgbench_opts *o,
		 struct results *ret)
{
	char count[32], step[32];
	_cleanup_free_ char *opts = NULL, *out = NULL;
	const char *argv[16];
	int n = 0, status, r;

	snprintf(count, sizeof(count), "%" PRIu64, o->count);
	snprintf(step, sizeof(step), "%" PRIu64, o->step);
	argv[n++] = o->qemu_img ? o->qemu_img : "qemu-img";
	argv[n++] = "bench";
	argv[n++] = "-c";
	argv[n++] = count;
	argv[n++] = "-S";
	argv[n++] = step;
	if (o->cache) {
		argv[n++] = "-t";
		argv[n++] = o->cache;
	}
	if (o->cache_size) {
		opts = image_opts(image, o);
		if (!opts)
			return log_error_code(-ENOMEM, "out of memory");
		argv[n++] = "--image-opts";
		argv[n++] = opts;
	} else {
		if (o->format) {
			argv[n++] = "-f";
			argv[n++] = o->format;
		}
		argv[n++] = image;
	}
	argv[n] = NULL;

	r = spawn_capture((char *const *)argv, &out, &status);
	if (r < 0)
		return log_error_errno(r, "cannot run %s", argv[0]);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		return log_error_code(-EIO, "'%s bench' on '%s' failed",
				      argv[0], image);
	double secs;
	if (imgbench_parse_output(out, &secs) < 0)
		return log_error_code(-EBADMSG,
				      "'%s bench' printed no run time",
				      argv[0]);
	memset(ret, 0, sizeof(*ret));
	ret->begun = ret->ended = true;
	results_add(ret, "bench_seconds", secs, "s");
	/* qemu-img prints milliseconds: a run too short to time has no
	 * rate. */
	if (secs > 0)
		results_add(ret, "bench_iops", o->count / secs, "IOPS");
	return 0;
}
