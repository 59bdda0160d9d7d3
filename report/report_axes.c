/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The report's axes: each bundle's cells placed on the axes the sweeps
 * varied, their levels in the order the profiles list them, and each
 * axis's reference level (report_builder.h). */
#include "report_builder.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <json.h>

#include "log.h"

static struct axis *axis_get(struct builder *bd, const char *name)
{
	for (size_t i = 0; i < bd->n_axes; i++)
		if (strcmp(bd->axes[i].name, name) == 0)
			return &bd->axes[i];
	if (bd->n_axes == MAX_AXES)
		return NULL;
	struct axis *a = &bd->axes[bd->n_axes++];
	snprintf(a->name, sizeof a->name, "%s", name);
	return a;
}

static int axis_level(struct axis *a, const char *level, size_t *ret)
{
	for (size_t i = 0; i < a->n_levels; i++)
		if (strcmp(a->levels[i], level) == 0) {
			*ret = i;
			return 0;
		}
	char **grown = realloc(a->levels, (a->n_levels + 1) * sizeof *grown);
	if (!grown)
		return -ENOMEM;
	a->levels = grown;
	if (!(a->levels[a->n_levels] = strdup(level)))
		return -ENOMEM;
	*ret = a->n_levels++;
	return 0;
}

/* Registers the axis levels of CELL as the report prints them
 * (plan_cell_axis_text: "-" for an axis the cell does not have), filling
 * LEV when given. */
static int place(struct builder *bd, const struct plan_cell *cell, size_t *lev)
{
	const char *name;

	for (size_t i = 0; (name = plan_axis(i)); i++) {
		struct axis *a = axis_get(bd, name);
		char buf[64];
		size_t l;
		int r;
		if (!a)
			return -E2BIG;
		r = axis_level(a, plan_cell_axis_text(cell, name, buf, sizeof buf), &l);
		if (r < 0)
			return r;
		if (lev)
			lev[a - bd->axes] = l;
	}
	return 0;
}

static int cmp_first_position(const void *a, const void *b)
{
	const struct rcell *x = a, *y = b;
	if (x->b != y->b)
		return x->b < y->b ? -1 : 1;
	unsigned px = x->b->cr[x->i].first_position, py = y->b->cr[y->i].first_position;
	return (px > py) - (px < py);
}

/* Sorted so that charts draw them grouped: workload, then the axes'
 * levels in axis order (host last). */
static int cmp_levels(const void *a, const void *b, void *n_axes)
{
	size_t n = *(const size_t *)n_axes;
	const struct rcell *x = a, *y = b;
	int wx = (int)x->b->s.cells[x->i].cell.workload,
	    wy = (int)y->b->s.cells[y->i].cell.workload;
	if (wx != wy)
		return wx - wy;
	for (size_t k = 0; k < n; k++)
		if (x->lev[k] != y->lev[k])
			return x->lev[k] < y->lev[k] ? -1 : 1;
	return 0;
}

/* The plans' levels that no journaled cell has (a sweep cut short, a
 * plan that differs) would make an axis look varied: only their order is
 * kept. */
static void drop_unused_levels(struct builder *bd)
{
	for (size_t a = 0; a < bd->n_axes; a++) {
		struct axis *ax = &bd->axes[a];
		size_t map[PLAN_MAX_CELLS], kept = 0;
		bool *used = calloc(ax->n_levels ? ax->n_levels : 1, sizeof *used);
		if (!used || ax->n_levels > PLAN_MAX_CELLS) {
			free(used);
			continue; /* keeping them is only less tidy */
		}
		for (size_t i = 0; i < bd->n_cells; i++)
			used[bd->cells[i].lev[a]] = true;
		for (size_t l = 0; l < ax->n_levels; l++) {
			if (!used[l]) {
				free(ax->levels[l]);
				continue;
			}
			map[l] = kept;
			ax->levels[kept++] = ax->levels[l];
		}
		ax->n_levels = kept;
		for (size_t i = 0; i < bd->n_cells; i++)
			bd->cells[i].lev[a] = map[bd->cells[i].lev[a]];
		free(used);
	}
}

/* The levels of each axis a plan's profile lists, in its order, before
 * any cell's: its first is the axis's reference level even where the
 * planner left that level's first cell out (aio=native under a cache
 * mode without O_DIRECT).  A plan of an older buildapp lists them in its
 * table's order, which is the order its cells met them in. */
static int place_listed_levels(struct builder *bd)
{
	const char *name;
	size_t l;
	int r;

	for (size_t a = 0; (name = plan_axis(a)); a++)
		if (!axis_get(bd, name))
			return -E2BIG;
	for (size_t i = 0; i < bd->n_bundles; i++) {
		json_object *profile, *list;
		if (!bd->bundles[i].plan ||
		    !json_object_object_get_ex(bd->bundles[i].plan, "profile", &profile))
			continue;
		for (size_t a = 0; (name = plan_axis(a)); a++) {
			if (!(list = plan_axis_listed(profile, a)))
				continue;
			for (size_t k = 0; k < json_object_array_length(list); k++) {
				const char *level =
					json_object_get_string(json_object_array_get_idx(list, k));
				if (level && (r = axis_level(axis_get(bd, name), level, &l)) < 0)
					return r;
			}
		}
	}
	return 0;
}

int report_axes_place(struct builder *bd)
{
	int r;

	if ((r = place_listed_levels(bd)) < 0)
		return r;
	/* The plans list the levels in the profile's order. */
	for (size_t i = 0; i < bd->n_bundles; i++) {
		json_object *cells;
		if (!bd->bundles[i].plan ||
		    !json_object_object_get_ex(bd->bundles[i].plan, "cells", &cells) ||
		    !json_object_is_type(cells, json_type_array))
			continue;
		for (size_t k = 0; k < json_object_array_length(cells); k++) {
			struct plan_cell pc;
			/* A cell the plan reader refuses orders nothing. */
			if (plan_cell_from_json(json_object_array_get_idx(cells, k), &pc) < 0)
				continue;
			if ((r = place(bd, &pc, NULL)) < 0)
				return r;
		}
	}
	size_t total = 0;
	for (size_t i = 0; i < bd->n_bundles; i++)
		total += bd->bundles[i].s.n_cells;
	if (!(bd->cells = calloc(total ? total : 1, sizeof *bd->cells)))
		return -ENOMEM;
	for (size_t i = 0; i < bd->n_bundles; i++)
		for (size_t c = 0; c < bd->bundles[i].s.n_cells; c++) {
			struct rcell *rc = &bd->cells[bd->n_cells++];
			rc->b = &bd->bundles[i];
			rc->i = c;
			if (!(rc->axes = plan_cell_axes_to_json(&rc->b->s.cells[c].cell)))
				return -ENOMEM;
		}
	/* Without a plan, the order the sweep first ran them in. */
	qsort(bd->cells, bd->n_cells, sizeof *bd->cells, cmp_first_position);
	for (size_t i = 0; i < bd->n_cells; i++)
		if ((r = place(bd, &bd->cells[i].b->s.cells[bd->cells[i].i].cell,
			       bd->cells[i].lev)) < 0)
			return r;
	drop_unused_levels(bd);
	if (bd->n_bundles > 1) {
		struct axis *h = axis_get(bd, HOST_AXIS);
		if (!h)
			return -E2BIG;
		for (size_t i = 0; i < bd->n_bundles; i++)
			if ((r = axis_level(h, bd->bundles[i].label, &(size_t){0})) < 0)
				return r;
		for (size_t i = 0; i < bd->n_cells; i++)
			bd->cells[i].lev[h - bd->axes] = (size_t)(bd->cells[i].b - bd->bundles);
	}
	qsort_r(bd->cells, bd->n_cells, sizeof *bd->cells, cmp_levels, &bd->n_axes);
	return 0;
}

void report_axes_pick_references(struct builder *bd, const char *want)
{
	const char *colon = want ? strchr(want, ':') : NULL;
	bool used = false;

	for (size_t i = 0; i < bd->n_axes; i++) {
		struct axis *a = &bd->axes[i];
		/* The first level a cell has ("-": cells without the axis). */
		a->ref = 0;
		while (a->ref + 1 < a->n_levels && strcmp(a->levels[a->ref], "-") == 0)
			a->ref++;
		/* Guest cells are measured against the host-native one. */
		if (strcmp(a->name, "guest") == 0)
			for (size_t l = 0; l < a->n_levels; l++)
				if (strcmp(a->levels[l], "host") == 0)
					a->ref = l;
		if (!colon || strlen(a->name) != (size_t)(colon - want) ||
		    strncmp(a->name, want, (size_t)(colon - want)) != 0)
			continue;
		for (size_t l = 0; l < a->n_levels; l++)
			if (strcmp(a->levels[l], colon + 1) == 0) {
				a->ref = l;
				used = true;
			}
	}
	if (want && !used)
		log_warning("report: baseline '%s' is not a level this sweep varied; each axis is compared with its first level",
			    want);
}
