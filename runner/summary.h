/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The summary of a sweep, computed from its journal: per cell and metric
 * n, mean, sd, Student-t 95% CI, min, max and the first run on its own;
 * written as results/summary.json and as a text table sorted like the
 * kvm-perf study (each workload's cells by the mean of its primary
 * metric, best first). */
#ifndef BUILDAPP_SUMMARY_H
#define BUILDAPP_SUMMARY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "crashloss.h"
#include "journal.h"
#include "stats.h"

/* The host-measured metric every guest run has (from boot_seconds). */
#define SUMMARY_BOOT_METRIC "boot_to_shutdown"

struct summary_metric {
	char name[RESULTS_NAME_MAX];
	char unit[RESULTS_UNIT_MAX];
	bool lower_is_better; /* from the unit: times are, rates are not */
	/* Over the cell's ok runs, in run index order; a count of records
	 * (summary_unit_records) has no interval (ci95 NAN). */
	struct stats stats;
	/* A durability cell's crashes whose loss counts (summary_run_crash)
	 * with this metric, and those whose value is above 0. */
	size_t crashes, crashes_above_zero;
	bool cuts; /* those crashes were power cuts (crash = power) */
};

/* A crash whose loss counts: an ok durability run that acknowledged
 * records. */
struct summary_crash {
	unsigned index; /* the run's within its cell */
	double lost, acknowledged;
	double fraction; /* lost / acknowledged */
};

struct summary_cell {
	struct plan_cell cell;
	size_t n_runs;   /* journaled, any status */
	size_t n_failed; /* status other than "ok" */
	bool kvm;        /* of its last run */
	size_t n_cache_mismatch; /* runs where QEMU applied other cache flags
				    than the cell's mode asks for */
	size_t n_fast_reset, n_full_reset, n_none_reset; /* runs by their journaled reset */
	struct summary_metric *metrics; /* owned; primary first */
	size_t n_metrics;
	/* A durability cell's crashes in run index order (owned), and their
	 * loss with the crash as its unit, valid when there is one. */
	struct summary_crash *crashes;
	size_t n_crashes;
	struct crashloss loss;
};

struct summary {
	struct summary_cell *cells; /* in table order */
	size_t n_cells;
};

/* Builds the summary of J.  Failed runs are counted, not measured; a
 * metric's first run is that of the lowest run index measured.  The
 * primary metric is boot_to_shutdown for tarball-write and tarball-read
 * (the kvm-perf method), else the first metric the runs report.  Returns
 * 0 or -ENOMEM; *ret is released with summary_release. */
int summary_build(const struct journal *j, struct summary *ret);
void summary_release(struct summary *s);

/* The value of METRIC in run R (boot_to_shutdown is its boot time); NAN
 * when the run did not report it. */
double summary_run_value(const struct journal_run *r, const char *metric);

/* Whether run R is a crash whose loss counts (an ok durability run that
 * acknowledged records): its lost and acknowledged records into
 * *RET_LOST and *RET_ACKED when it is. */
bool summary_run_crash(const struct journal_run *r, double *ret_lost, double *ret_acked);

/* True for a count of records ("records", "records lost": a durability
 * run's), which is said by crash, with no interval over the records. */
bool summary_unit_records(const char *unit);
/* True for units where a smaller value is better ("s", "ms", "us", "ns"). */
bool summary_unit_lower_is_better(const char *unit);

/* summary.json (documented in docs/results.md) to F.  Returns 0 or a
 * negative errno. */
int summary_write_json(const struct summary *s, FILE *f);
/* The text table to F. */
int summary_write_text(const struct summary *s, FILE *f);
/* Reads DIR/runs.jsonl and writes DIR/summary.json and DIR/summary.txt
 * (each replaced atomically).  Reports errors; returns 0 or a negative
 * errno. */
int summary_write_results(const char *dir);

#endif
