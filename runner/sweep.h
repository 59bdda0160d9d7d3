/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The sweep: every run of a plan, in plan order.  Each run resets its
 * backend volume to the pristine image, drops the host page cache when the
 * profile says so, runs the workload (a guest through libvirt, or
 * qemu-img bench on the host), parses the results and appends one line
 * to RESULTS/runs.jsonl, fsync'd before the next run starts.  Runs already
 * in the journal are skipped, so an interrupted sweep resumes where it
 * stopped and never loses a finished run. */
#ifndef BUILDAPP_SWEEP_H
#define BUILDAPP_SWEEP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "hostcrash.h"
#include "plan.h"
#include "storage.h"
#include "summary.h"
#include "timings.h"
#include "vm.h"

struct sweep_env {
	const struct plan *plan;
	const char *kernel;   /* guest kernel */
	const char *initrd;   /* guest initramfs (agent, tools) */
	const char *pristine; /* pristine guest image, copied before each run */
	const struct storage_volume *volumes; /* where each cell's disk lives */
	size_t n_volumes;
	const char *results_dir; /* runs.jsonl, console/, summary.* */
	struct vm_host *host;
	/* The guest agent binary, run on the host by host-native cells
	 * (--host); NULL when the plan has none. */
	const char *agent;
	/* The profile's fio job file on this host, which host-native cells
	 * run (the guests have theirs in the kit); NULL: none. */
	const char *job_file;
	/* Where the sweep's wall time went since the command started
	 * (timings.json): the runs' phases are added here.  NULL: the
	 * sweep's own, started by sweep_run. */
	struct timings *timings;
	/* Set true once the summary of what ran is written, whatever
	 * sweep_run returns: the caller's cue to render the report
	 * (report_after_sweep).  NULL: not wanted. */
	bool *summarized;
	/* RESULTS_DIR does not survive a reboot (a netbooted kit's RAM): a
	 * crash = host run could not be finished after it, and is journaled
	 * failed with the reason instead of rebooting the host. */
	bool results_in_ram;
	/* The cells that the profile's questions ([report] compare) still
	 * need runs of to reach [sweep] target_ci (report/precision.h's
	 * precision_cells_wanting_runs, which the runner does not link);
	 * NULL: target_ci applies to each cell instead. */
	int (*precision)(const struct plan *plan, const char *dir, bool *want);
	/* Where each finished run's result line goes (sweeplines.h), for a
	 * lab's engine reading the console; NULL: none. */
	FILE *result_lines;
	/* Sets the disk under test's write cache as SETTING asks and reads
	 * it back into *RET_ON (1/0), before each run of a cell that has a
	 * write cache of its own ([host] write_cache a list); WHY says a
	 * refusal.  Returns 0 or a negative errno.  DATA is
	 * write_cache_data.  NULL: this host cannot (`buildapp run`), and
	 * such a cell's runs are journaled failed with the reason. */
	int (*set_write_cache)(void *data, enum write_cache_setting setting, int *ret_on,
			       char *why, size_t len);
	void *write_cache_data;
	/* The server's BMC for the power cuts of crash = power, as found
	 * before the sweep; NULL or its cycle NULL: none can be made, and
	 * those runs are journaled failed with its reason, unmade. */
	const struct hostcrash_power *power;
};

struct sweep_outcome {
	size_t made;    /* runs made now */
	size_t skipped; /* already in the journal */
	size_t failed;  /* made, but not ok */
	size_t not_made; /* journaled failed without being made: a crash that
			  * cannot take the server down here (its reason) */
};

/* Runs ENV's plan.  A run that fails (timeout, crash, bad output) or
 * cannot start (no volume, a reset that fails, a domain refused) is
 * journaled as such with the reason and the sweep goes on; what stops it
 * is RESULTS with less free space than a run needs (checked before each
 * run), a journal write that fails, or a signal (-EINTR).  Prints a
 * progress line per run with the remaining time (eta.h, from this
 * sweep's and the journal's run times).  With [sweep] target_ci and max_runs, the
 * planned runs are followed by rounds of one more run for each cell that
 * sweep_cell_wants_run() names, until none does.  Writes the summary of
 * whatever ran at the end, stopped or not, after timings.json and the
 * sweep's efficiency (timings.h); the report is the caller's.  Returns 0 (see *ret) or a
 * negative errno, reported. */
int sweep_run(const struct sweep_env *env, struct sweep_outcome *ret);

/* O's runs not made, as the outcome's lines add them (", 4 not made (each
 * journaled failed with its reason)"), into BUF of LEN; "" for none. */
#define SWEEP_NOT_MADE_TEXT_MAX 96
void sweep_not_made_text(const struct sweep_outcome *o, char *buf, size_t len);

/* Finishes the runs whose host crashed (crash = host) before they were
 * journaled, from their crash files (hostcrash.h): each one's records
 * read back from its volume in ENV (opened as they were, not reset) and
 * counted against its acknowledgements, and its journal line appended.
 * Only ENV's plan, volumes and results_dir are used: the caller calls it
 * before the volumes are provisioned again.  Returns 0 or a negative
 * errno (reported): a run that cannot be finished is journaled failed. */
int sweep_finish_crashes(const struct sweep_env *env);

/* The host crashes (or power cuts) PLAN still has to make with the
 * results in RESULTS_DIR: its durability runs with crash = host (power)
 * neither journaled
 * nor left by a crash for this boot to finish (a boot with none left
 * need not ready one: hostcrash_prepare).  A journal that cannot be read
 * counts as empty. */
size_t sweep_host_crashes_left(const struct plan *plan, const char *results_dir);

/* Whether a cell with summary C (all its journaled runs) gets one more
 * run under [sweep] target_ci and max_runs of S: not a durability cell
 * (its runs are crashes, as many as planned), fewer than max_runs runs
 * journaled, something measured, and its primary metric's 95% CI
 * half-width not yet within target_ci percent of the mean (or fewer than
 * two ok runs to tell).  Writes the reason to WHY (LEN bytes) when true. */
bool sweep_cell_wants_run(const struct profile_sweep *s,
			  const struct summary_cell *c, char *why, size_t len);

#endif
