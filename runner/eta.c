/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "eta.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static unsigned kind_of(const struct plan_cell *cell)
{
	unsigned w = (unsigned)cell->workload < _WORKLOAD_MAX ? (unsigned)cell->workload : 0;

	return 2 * w + (cell->host ? 1 : 0);
}

void eta_init(struct eta *e)
{
	memset(e, 0, sizeof(*e));
}

void eta_add_left(struct eta *e, const struct plan_cell *cell)
{
	e->left[kind_of(cell)]++;
}

void eta_add_done(struct eta *e, const struct plan_cell *cell, double seconds)
{
	unsigned k = kind_of(cell);

	if (e->left[k])
		e->left[k]--;
	if (isfinite(seconds) && seconds >= 0) {
		e->sum[k] += seconds;
		e->done[k]++;
	}
}

struct eta_estimate eta_estimate(const struct eta *e)
{
	struct eta_estimate est = {0, 0, 0};

	for (unsigned k = 0; k < ETA_KINDS; k++) {
		if (!e->left[k])
			continue;
		if (e->done[k]) {
			est.seconds += e->sum[k] / e->done[k] * e->left[k];
			est.timed += e->left[k];
		} else {
			est.untimed += e->left[k];
		}
	}
	return est;
}

void eta_format_duration(double seconds, char *buf, size_t len)
{
	long t = isfinite(seconds) && seconds > 0 ? lround(seconds) : 0;

	snprintf(buf, len, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
}

/* The workloads not yet timed, "bonnie, host dd", into BUF. */
static void untimed_names(const struct eta *e, char *buf, size_t len)
{
	size_t at = 0;

	buf[0] = '\0';
	for (unsigned k = 0; k < ETA_KINDS && at < len; k++) {
		if (!e->left[k] || e->done[k])
			continue;
		int n = snprintf(buf + at, len - at, "%s%s%s", at ? ", " : "",
				 k % 2 ? "host " : "", workload_kind_name(k / 2));
		at += n > 0 ? (size_t)n : 0;
	}
}

void eta_format(const struct eta *e, char *buf, size_t len)
{
	struct eta_estimate est = eta_estimate(e);
	char t[32], names[160];

	eta_format_duration(est.seconds, t, sizeof(t));
	if (!est.untimed) {
		snprintf(buf, len, "%s", t);
		return;
	}
	untimed_names(e, names, sizeof(names));
	if (!est.timed)
		snprintf(buf, len, "unknown: %u run%s not yet timed (%s)", est.untimed,
			 est.untimed == 1 ? "" : "s", names);
	else
		snprintf(buf, len, "%s + %u run%s not yet timed (%s)", t, est.untimed,
			 est.untimed == 1 ? "" : "s", names);
}
