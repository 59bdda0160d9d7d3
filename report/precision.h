/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Runs until the profile's questions are answered: which cells of a
 * sweep under way need more runs so that each comparison the profile asks
 * ([report] compare) reaches the precision target ([sweep] target_ci),
 * read from the bundle as the report reads it (docs/results.md, "Runs
 * until the questions are answered").  The sweep (runner/sweep.c) calls
 * it through a pointer its callers give, as the runner does not link the
 * report. */
#ifndef BUILDAPP_PRECISION_H
#define BUILDAPP_PRECISION_H

#include <stdbool.h>

struct plan;

/* For the one bundle DIR of PLAN's sweep: sets WANT[i] (PLAN's cells)
 * for the cells of each asked comparison whose 95% interval is still
 * wider than PLAN's target_ci (its half-width, in percentage points of
 * the ratio) or has none yet: the cells of the comparison's two levels,
 * its held axes at their levels.  Only on width, never on whether the
 * interval excludes no difference.  Logs each comparison still too wide.
 * Returns how many comparisons are (0: every question answered to the
 * target), or a negative errno (reported). */
int precision_cells_wanting_runs(const struct plan *plan, const char *dir, bool *want);

/* The rule, for one comparison's ratio interval [LOW, HIGH] (NAN: none
 * yet): whether it wants more runs for a TARGET half-width in percentage
 * points; its half-width into *HALF (NAN when none).  The sweep's and
 * scripts/bench-replay.sh's replays both decide with it. */
bool precision_too_wide(double low, double high, double target, double *half);

#endif
