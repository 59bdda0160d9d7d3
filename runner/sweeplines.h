/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The sweep's result lines: what a lab's engine (LAVA's `monitors`, a
 * console scraper) reads off the lab server's console without knowing
 * buildapp.  One start line, one case line per finished run, per answer
 * and for the sweep's outcome, one end line; their grammar, which is
 * stable, is docs/kit.md's "Result lines on the console":
 *
 *   BUILDAPP-SWEEP start kit=NAME runs=N
 *   BUILDAPP-SWEEP case=ID result=pass|fail|skip [measurement=V] units=U[ TEXT]
 *   BUILDAPP-SWEEP end result=pass|fail made=N failed=F upload=WORD
 *
 * Each line goes out in one write, flushed, so the log lines on the same
 * console (stderr) never split it. */
#ifndef BUILDAPP_SWEEPLINES_H
#define BUILDAPP_SWEEPLINES_H

#include <stdbool.h>
#include <stdio.h>

#include "journal.h"
#include "plan.h"

#define SWEEPLINES_TAG "BUILDAPP-SWEEP"

/* The start line to F of the sweep of KIT (the kit's name, "" when it
 * has none) and its RUNS planned runs. */
void sweeplines_start(FILE *f, const char *kit, size_t runs);

/* The case line of the finished run RUN to F: CELL/run-N (N from 1),
 * pass when its status is ok, with its primary metric (summary.h's rule:
 * the boot time for the tarball workloads, else its first metric) as the
 * measurement; fail without one. */
void sweeplines_run(FILE *f, const struct journal_run *run);

/* A case line to F: ID (white space becomes '_'), RESULT ("pass", "fail"
 * or "skip"), VALUE with UNIT (no measurement when VALUE is not finite),
 * then TEXT for a reader (NULL: none; line ends become spaces). */
void sweeplines_case(FILE *f, const char *id, const char *result, double value,
		     const char *unit, const char *text);

/* The end of PLAN's sweep to F: a fail case for each planned run that
 * RESULTS_DIR's journal does not hold (the sweep stopped, or never
 * started, before it), the case "sweep" (pass when OK and every run
 * made is ok; its measurement the runs that failed), the case "upload"
 * unless UPLOAD is "none" (pass when "sent", fail when "failed"), then
 * the end line, which passes when both do.  Returns 0, or the journal's
 * negative errno (reported; the end line is printed all the same). */
int sweeplines_end(FILE *f, const struct plan *plan, const char *results_dir, bool ok,
		   const char *upload);

#endif
