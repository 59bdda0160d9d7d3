/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "hwwatch.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "command.h"
#include "hostcrash.h"
#include "journal.h"
#include "log.h"
#include "sweeplines.h"

#define SYSFS_WATCHDOG0 "/sys/class/watchdog/watchdog0"

/* "2026-12-06 13:11:45 UTC" of Unix time T into BUF. */
static const char *utc_text(double t, char *buf, size_t len)
{
	time_t s = (time_t)t;
	struct tm tm;

	if (t <= 0 || !gmtime_r(&s, &tm) || strftime(buf, len, "%Y-%m-%d %H:%M:%S UTC", &tm) == 0)
		snprintf(buf, len, "an unknown time");
	return buf;
}

/* The first run of PLAN, in the sweep's order, that the journal at
 * JOURNAL_PATH does not hold and that no crash file of RESULTS_DIR
 * finishes: the run under way when the sweep stopped.  NULL: none. */
static const struct plan_run *run_under_way(const struct plan *plan, const char *results_dir,
					    const char *journal_path)
{
	struct journal j = {.n_runs = 0};
	const struct plan_run *found = NULL;
	char crash[PATH_MAX];

	if (journal_read(journal_path, &j) < 0)
		return NULL;
	for (size_t i = 0; i < plan->n_runs && !found; i++) {
		const struct plan_run *pr = &plan->runs[i];
		if (journal_has_run(&j, plan->cells[pr->cell].id, pr->index))
			continue;
		hostcrash_path(results_dir, pr->position, crash, sizeof(crash));
		if (access(crash, F_OK) == 0)
			break; /* a host crash's run, which its boot finishes */
		found = pr;
	}
	journal_release(&j);
	return found;
}

/* The run PR cut short by the reset WHY: journaled failed with it, its
 * result line to RESULT_LINES. */
static void journal_cut_run(const struct plan *plan, const struct plan_run *pr,
			    const char *journal_path, const char *why, FILE *result_lines)
{
	struct journal_run jr;

	journal_run_init(&jr);
	jr.cell = plan->cells[pr->cell];
	jr.index = pr->index;
	jr.position = pr->position;
	snprintf(jr.status, sizeof(jr.status), "failed");
	snprintf(jr.message, sizeof(jr.message), "%.*s", (int)sizeof(jr.message) - 1, why);
	if (journal_append(journal_path, &jr) == 0) {
		log_info("run %u/%zu (%s, run %u) journaled failed: %s", pr->position + 1,
			 plan->n_runs, jr.cell.id, pr->index + 1, why);
		if (result_lines)
			sweeplines_run(result_lines, &jr);
	}
	journal_run_release(&jr);
}

bool hwwatch_check_reset(struct hwwatch *w, const char *results_dir, const struct plan *plan,
			 FILE *result_lines)
{
	char path[PATH_MAX], journal_path[PATH_MAX], when[64];
	struct hwwatchdog_record rec;

	w->reset_before = false;
	if (!results_dir)
		return false;
	snprintf(path, sizeof(path), "%s/%s", results_dir, HWWATCH_RECORD);
	if (hwwatchdog_record_read(path, &rec) < 0)
		return false;
	w->rec = rec;
	if (!rec.armed)
		return false;
	if (hwwatchdog_boot_reset(SYSFS_WATCHDOG0) != 1) {
		/* A host crash, a power cut or a reset button leaves it armed
		 * too; only the driver can say it was the watchdog. */
		log_info("the boot before ended with the hardware watchdog armed, and the driver "
			 "does not say it reset this server: not counted as its reset");
		return false;
	}
	w->reset_before = true;
	snprintf(w->reset_text, sizeof(w->reset_text),
		 "the hardware watchdog (%s, %u s) reset the server during '%.400s', a step "
		 "started at %.40s: nothing fed it for %u s",
		 rec.identity, rec.timeout, rec.step[0] ? rec.step : "no step",
		 utc_text(rec.step_at, when, sizeof(when)), rec.timeout);
	log_error("%s", w->reset_text);
	snprintf(journal_path, sizeof(journal_path), "%s/runs.jsonl", results_dir);
	const struct plan_run *pr = plan->n_runs && strncmp(rec.step, "run ", 4) == 0
					    ? run_under_way(plan, results_dir, journal_path)
					    : NULL;
	if (pr)
		journal_cut_run(plan, pr, journal_path, w->reset_text, result_lines);
	if (rec.n_resets < HWWATCHDOG_RESETS_MAX)
		snprintf(rec.resets[rec.n_resets++], HWWATCHDOG_TEXT_MAX, "%.*s",
			 HWWATCHDOG_TEXT_MAX - 1, w->reset_text);
	rec.armed = false;
	hwwatchdog_record_write(path, &rec);
	w->rec = rec;
	return true;
}

void hwwatch_arm(struct hwwatch *w, unsigned timeout, const char *results_dir)
{
	char record[PATH_MAX], why[256] = "";
	struct hwwatchdog_record rec;
	int r;

	w->armed = false;
	if (timeout == 0) {
		snprintf(w->state, sizeof(w->state), "off ([appliance] hardware_watchdog = 0)");
		return;
	}
	/* A server whose only watchdog is its BMC's: ipmi_watchdog makes
	 * one of it (ipmi_si found the BMC at coldplug); it starts nothing
	 * when loaded. */
	if (access(HWWATCH_DEVICE, F_OK) < 0) {
		command_run((char *[]){"modprobe", "-q", "ipmi_watchdog", NULL}, NULL, 1);
		for (int i = 0; i < 20 && access(HWWATCH_DEVICE, F_OK) < 0; i++)
			usleep(100 * 1000);
	}
	if (results_dir)
		snprintf(record, sizeof(record), "%s/%s", results_dir, HWWATCH_RECORD);
	r = hwwatchdog_arm(HWWATCH_DEVICE, timeout, results_dir ? record : NULL, &rec, why,
			   sizeof(why));
	if (r == -ENOENT) {
		snprintf(w->state, sizeof(w->state),
			 "none: this server has no %s (no watchdog driver bound, no BMC's)",
			 HWWATCH_DEVICE);
		log_info("hardware watchdog: %s", w->state);
		return;
	}
	if (r < 0) {
		snprintf(w->state, sizeof(w->state), "not armed: %s", why);
		log_warning("hardware watchdog: %s", w->state);
		return;
	}
	w->armed = true;
	/* The resets the boots before recorded stay with it. */
	w->rec = rec;
	snprintf(w->state, sizeof(w->state),
		 "armed: %s (%s), %u s%s, fed while the boot's work makes progress", rec.identity,
		 rec.device, rec.timeout, rec.timeout == timeout ? "" : " (the driver's nearest)");
	log_info("hardware watchdog: %s", w->state);
}

void hwwatch_write_report(const struct hwwatch *w, FILE *f)
{
	if (w->state[0])
		fprintf(f, "hardware_watchdog: %s\n", w->state);
	fprintf(f, "hardware_watchdog_resets: %zu\n", w->rec.n_resets);
	for (size_t i = 0; i < w->rec.n_resets; i++)
		fprintf(f, "hardware_watchdog_reset: %s\n", w->rec.resets[i]);
}
