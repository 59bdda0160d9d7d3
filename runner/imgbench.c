/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "imgbench.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cleanup.h"
#include "command.h"
#include "files.h"
#include "log.h"
#include "qcow2cache.h"

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

int imgbench_run(const char *image, const struct imgbench_opts *o,
		 struct results *ret)
{
	char count[32], step[32], flush[48], depth[16];
	_cleanup_free_ char *opts = NULL, *out = NULL;
	const char *argv[16];
	int n = 0, r;

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
	if (o->depth) {
		snprintf(depth, sizeof(depth), "%u", o->depth);
		argv[n++] = "-d";
		argv[n++] = depth;
	}
	if (o->write) {
		argv[n++] = "-w";
		if (o->flush_interval) {
			snprintf(flush, sizeof(flush), "--flush-interval=%" PRIu64,
				 o->flush_interval);
			argv[n++] = flush;
		}
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

	struct command_opts copts = {.stderr_path = o->log};
	r = command_check((char *const *)argv, &copts, &out);
	if (r < 0) {
		char last[256];
		if (o->log && files_last_line(o->log, last, sizeof(last)))
			log_error("qemu-img bench failed: %s", last);
		return r;
	}
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
