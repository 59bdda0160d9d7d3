/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The qemu-img-bench workload: host side, no guest.  Runs
 * `qemu-img bench -c N -S STEP` on an image (the qcow2 L2 cache study,
 * ../shared/reference/qcow2-l2-cache-rhbz1656507.txt) and times it. */
#ifndef BUILDAPP_IMGBENCH_H
#define BUILDAPP_IMGBENCH_H

#include <stdint.h>

#include "results.h"

struct imgbench_opts {
	uint64_t count;     /* -c: requests */
	uint64_t step;      /* -S: bytes between requests */
	uint64_t cache_size; /* qcow2 cache-size (qcow2cache.h), bytes; 0: default */
	const char *format; /* "qcow2", "raw"; NULL: probe */
	const char *cache;  /* -t: none, writeback...; NULL: default */
	unsigned depth;     /* -d; 0: qemu-img's default */
	bool write;         /* -w: writes, the image opened read-write */
	uint64_t flush_interval; /* with WRITE: --flush-interval; 0 none */
	const char *qemu_img; /* program; NULL: "qemu-img" on PATH */
	/* qemu-img's stderr goes here (the run's console log), and its last
	 * line into the error of a failed run; NULL: ours. */
	const char *log;
};

/* Runs the benchmark on IMAGE (read-only unless O->write) and adds
 * bench_seconds and bench_iops to *ret (ret->status 0, begun/ended set).
 * Returns 0, or a negative errno after reporting why (with the last line
 * qemu-img wrote to O's log, such as its I/O error). */
int imgbench_run(const char *image, const struct imgbench_opts *o,
		 struct results *ret);

/* Parses "Run completed in X seconds." from qemu-img bench's output.
 * Returns 0 and the seconds in *ret, or -EBADMSG. */
int imgbench_parse_output(const char *out, double *ret);

#endif
