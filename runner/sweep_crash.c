/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The runs a host crash ended (crash = host, hostcrash.h), finished by
 * the boot after it (sweep_finish_crashes, sweep.h): each crashed run's
 * records read back from its volume, counted against the
 * acknowledgements made durable before the crash, and journaled with how
 * the host went down and came back; and the crash runs that cannot be
 * made here (sweep_crash_not_made). */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "acklog.h"
#include "durability.h"
#include "hostcrash.h"
#include "journal.h"
#include "log.h"
#include "sweep_parts.h"
#include "sweeplines.h"
#include "watchdog.h"

/* The run of crash file PATH, finished: its records read back and
 * counted against the acknowledgements its host made durable before it
 * crashed, journaled, and the file removed.  The file of a run already
 * journaled (a boot that went down after the journal line, before the
 * removal was on the disk) is removed; one that does not belong to this
 * plan is said and left. */
static int finish_crash(const struct sweep_env *env, const char *path,
			const char *journal_path, const struct journal *done)
{
	const struct plan *plan = env->plan;
	struct hostcrash c;
	struct journal_run jr;
	struct results res = {.status = -1};
	char ack_path[PATH_MAX];
	uint64_t acks = 0;
	ssize_t ci;
	int r;

	r = hostcrash_read(path, &c);
	if (r < 0)
		return r == -ENOMEM ? r : 0;
	ci = plan_cell_find(plan, c.cell);
	if (ci < 0 || journal_has_run(done, c.cell, c.index)) {
		if (ci < 0)
			log_warning("'%s': cell '%s' is not in this plan: left as it is",
				    path, c.cell);
		else if (unlink(path) == 0)
			log_info("'%s': its run (cell %s, run %u) is journaled already: removed",
				 path, c.cell, c.index + 1);
		hostcrash_release(&c);
		return 0;
	}
	const struct plan_cell *cell = &plan->cells[ci];
	const struct storage_volume *vol = sweep_find_volume(env, cell);
	bool cut = strcmp(c.facts.mechanism, "power") == 0;
	const char *after = cut ? "the power cut" : "the host crash";
	watchdog_step(vol ? watchdog_extra_for_bytes(vol->size) : 0,
		      "run of cell %s, run %u/%u: reading its records back after %s", c.cell,
		      c.index + 1, profile_cell_runs(&plan->profile.sweep, cell->workload), after);
	journal_run_init(&jr);
	jr.cell = *cell;
	jr.index = c.index;
	jr.position = c.position;
	sweep_set_status(&jr, "ok", "");
	snprintf(jr.reset, sizeof(jr.reset), "%s", c.reset);
	snprintf(jr.crash, sizeof(jr.crash), "%s", crash_kind_name(cut ? CRASH_POWER : CRASH_HOST));
	jr.host_crash = c.facts;
	jr.host_crash.to_kernel_seconds = hostcrash_seconds_to_kernel(&c);
	sweep_run_file(env->results_dir, c.position, "acks", ack_path, sizeof(ack_path));
	log_clear_last_error();
	r = acklog_read(ack_path, &acks);
	if (r < 0)
		sweep_set_status(&jr, "failed", "the acknowledgements made before the host "
					  "crash cannot be read");
	else if (acks != c.acks)
		sweep_set_status(&jr, "failed", "the acknowledgements file does not hold the "
					  "count the crash file names");
	else if (!vol)
		sweep_set_status(&jr, "failed", "no volume provisioned for the cell");
	else
		r = sweep_check_durability(vol, acks, c.ack_seconds,
				     durability_run_id(plan->profile.sweep.seed, c.position),
				     c.records, strlen(c.records), &jr, &res);
	r = r == -ENOMEM ? r : 0;
	for (size_t i = 0; r >= 0 && i < res.n_metrics; i++)
		r = journal_run_add_metric(&jr, res.metrics[i].name, res.metrics[i].value,
					   res.metrics[i].unit);
	/* The run's start to its journal line, the reboot and boot included:
	 * the crash's way back ends here, where the sweep resumes. */
	double since = sweep_realtime_seconds() - c.crashed_at;
	if (c.crashed_at > 0 && since >= 0) {
		jr.host_crash.to_sweep_seconds = since;
		if (isfinite(c.run_seconds))
			jr.phases.total = c.run_seconds + since;
	}
	if (r >= 0)
		r = journal_append(journal_path, &jr);
	if (r >= 0 && env->result_lines)
		sweeplines_run(env->result_lines, &jr);
	if (r >= 0) {
		const struct result_metric *lost = journal_run_metric(&jr, "lost");
		char way[128], kernel[32] = "?", here[32] = "?";
		if (isfinite(jr.host_crash.to_kernel_seconds))
			snprintf(kernel, sizeof(kernel), "%.0f", jr.host_crash.to_kernel_seconds);
		if (isfinite(jr.host_crash.to_sweep_seconds))
			snprintf(here, sizeof(here), "%.0f", jr.host_crash.to_sweep_seconds);
		if (cut)
			snprintf(way, sizeof(way), "back by a cold boot: %s s to the next kernel, "
				 "%s s to here", kernel, here);
		else
			snprintf(way, sizeof(way), "back by %s: %s s to the next kernel, %s s to here",
				 c.facts.mechanism, kernel, here);
		if (lost)
			log_info("run of cell %s, run %u/%u: finished after %s (%s): "
				 "lost %.0f of %" PRIu64 " acknowledged",
				 cell->id, c.index + 1,
				 profile_cell_runs(&plan->profile.sweep, cell->workload), after, way,
				 lost->value, acks);
		else
			log_info("run of cell %s, run %u/%u: %s after %s (%s): %s",
				 cell->id, c.index + 1,
				 profile_cell_runs(&plan->profile.sweep, cell->workload), jr.status,
				 after, way,
				 jr.message);
		unlink(path); /* the journal line holds what it said */
	}
	journal_run_release(&jr);
	hostcrash_release(&c);
	return r;
}

int sweep_finish_crashes(const struct sweep_env *env)
{
	char journal_path[PATH_MAX];
	struct journal done = {.n_runs = 0};
	char **paths = NULL;
	size_t n = 0;
	int r;

	snprintf(journal_path, sizeof(journal_path), "%s/runs.jsonl", env->results_dir);
	r = hostcrash_list(env->results_dir, &paths, &n);
	if (r < 0)
		return log_error_errno(r, "cannot list the crash files of '%s'",
				       env->results_dir);
	if (n > 0)
		r = journal_read(journal_path, &done);
	for (size_t i = 0; i < n; i++) {
		if (r >= 0)
			r = finish_crash(env, paths[i], journal_path, &done);
		free(paths[i]);
	}
	free(paths);
	journal_release(&done);
	return r;
}

size_t sweep_host_crashes_left(const struct plan *plan, const char *results_dir)
{
	char journal_path[PATH_MAX], **paths = NULL;
	struct journal done = {.n_runs = 0};
	size_t left = 0, pending = 0, n = 0;

	if (!crash_takes_server_down(plan->profile.workload.crash))
		return 0;
	snprintf(journal_path, sizeof(journal_path), "%s/runs.jsonl", results_dir);
	if (journal_read(journal_path, &done) < 0)
		done.n_runs = 0;
	for (size_t i = 0; i < plan->n_runs; i++) {
		const struct plan_cell *cell = &plan->cells[plan->runs[i].cell];
		left += cell->workload == WORKLOAD_DURABILITY &&
			!journal_has_run(&done, cell->id, plan->runs[i].index);
	}
	/* A crash file this boot finishes is no crash to make; one of a run
	 * already journaled (removed by sweep_finish_crashes) is none. */
	if (hostcrash_list(results_dir, &paths, &n) < 0)
		n = 0;
	for (size_t i = 0; i < n; i++) {
		struct hostcrash c;
		if (hostcrash_read(paths[i], &c) == 0) {
			pending += plan_cell_find(plan, c.cell) >= 0 &&
				   !journal_has_run(&done, c.cell, c.index);
			hostcrash_release(&c);
		}
		free(paths[i]);
	}
	free(paths);
	journal_release(&done);
	return left > pending ? left - pending : 0;
}

bool sweep_crash_not_made(const struct sweep_env *env, const struct plan_cell *cell,
			  struct journal_run *jr)
{
	enum crash_kind kind = env->plan->profile.workload.crash;
	char why[sizeof(jr->message)];

	if (cell->workload != WORKLOAD_DURABILITY || !crash_takes_server_down(kind))
		return false;
	if (env->results_in_ram)
		snprintf(why, sizeof(why), "crash = %s needs RESULTS on a disk that survives the "
			 "%s; here they are in RAM (no RESULTS partition): the run was not made",
			 crash_kind_name(kind), kind == CRASH_HOST ? "reboot" : "power cut");
	else if (kind == CRASH_POWER && (!env->power || !env->power->cycle))
		snprintf(why, sizeof(why), "not made: crash = power, and %.*s",
			 (int)sizeof(why) - 40,
			 env->power && env->power->refused[0]
				 ? env->power->refused
				 : "no BMC to cut the power here (only a booted kit asks its "
				   "server's BMC)");
	else
		return false;
	snprintf(jr->crash, sizeof(jr->crash), "%s", crash_kind_name(kind));
	sweep_set_status(jr, "failed", why);
	return true;
}
