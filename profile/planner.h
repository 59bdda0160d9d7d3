/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Expands a profile into its plan: the matrix cells, the cells that are
 * impossible (with the reason) and the order of the runs. */
#ifndef BUILDAPP_PLANNER_H
#define BUILDAPP_PLANNER_H

#include <stddef.h>

#include "plan.h"

/* Fills *ret (released with plan_release) from PROFILE.  Returns 0,
 * -E2BIG when the sweep is over PLAN_MAX_CELLS / PLAN_MAX_RUNS, or
 * -ENOMEM; reports nothing (the caller knows the profile's file). */
int planner_build(const struct profile *profile, struct plan *ret);

/* Counts the cells PROFILE's matrix has, possible and excluded, without
 * building it. */
void planner_count(const struct profile *profile, size_t *ret_cells,
		   size_t *ret_excluded);

/* The most runs PROFILE's sweep can make: each cell's planned runs
 * (profile_cell_runs), or max_runs where target_ci may add to them. */
size_t planner_max_runs(const struct profile *profile);

#endif
