/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The sweep's remaining-time estimate.  Runs of one workload take about
 * the same time whatever the cell (the workload's size is fixed by the
 * profile), runs of different workloads do not: a fio job of seconds and
 * a bonnie++ of minutes.  So the estimate is, per workload (a host-native
 * cell's apart from a guest's), the mean wall time of its finished runs,
 * reset included, times its runs left; a workload with no finished run
 * yet is counted apart, not guessed. */
#ifndef BUILDAPP_ETA_H
#define BUILDAPP_ETA_H

#include <stddef.h>

#include "plan.h"

#define ETA_KINDS (2 * _WORKLOAD_MAX)

struct eta {
	double sum[ETA_KINDS];  /* seconds of the finished runs */
	unsigned done[ETA_KINDS];
	unsigned left[ETA_KINDS];
};

struct eta_estimate {
	double seconds;   /* of the runs left of timed workloads */
	unsigned timed;   /* runs left counted in seconds */
	unsigned untimed; /* runs left of workloads with no finished run */
};

/* Zeroes E. */
void eta_init(struct eta *e);
/* One more run of CELL still to make. */
void eta_add_left(struct eta *e, const struct plan_cell *cell);
/* A run of CELL finished in SECONDS (its wall time, reset included; not
 * finite: known only to be done): one left fewer, and its time counted. */
void eta_add_done(struct eta *e, const struct plan_cell *cell, double seconds);
/* The estimate of what is left. */
struct eta_estimate eta_estimate(const struct eta *e);
/* The estimate as text into BUF: "0:04:10", "0:04:10 + 3 runs not yet
 * timed (bonnie)", "unknown: 8 runs not yet timed (fio)" or "0:00:00". */
void eta_format(const struct eta *e, char *buf, size_t len);
/* SECONDS as H:MM:SS into BUF. */
void eta_format_duration(double seconds, char *buf, size_t len);

#endif
