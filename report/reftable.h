/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The pieces the studies' layouts (reference.c) are made of: the cells of
 * a report model (docs/report.md) gathered into rows, one per
 * configuration, with one cell per (workload, metric) source; and a table
 * of strings ({columns, rows}) built and printed. */
#ifndef BUILDAPP_REFTABLE_H
#define BUILDAPP_REFTABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <json.h>

#include "model.h"

#define REFTABLE_CELL_MAX 160
#define REFTABLE_MAX_SOURCES 8

struct reftable_source {
	const char *workload, *metric;
};

struct reftable_row {
	const struct model_cell *cell[REFTABLE_MAX_SOURCES]; /* borrowed; NULL: none */
	const struct model_cell *any; /* the first cell found for the row */
	size_t order;     /* rank of first appearance in the model */
	char key[512];
};

struct reftable {
	struct reftable_row *rows;
	size_t n;
};

void reftable_release(struct reftable *t);
static inline void reftable_releasep(struct reftable *t)
{
	reftable_release(t);
}

/* Gathers into *ret the cells of REPORT's workload/metric SRC[0..N) that
 * KEEP accepts (NULL: all), one row per configuration: the same host and
 * the same axis values but the workload.  Returns 0, -EINVAL for N too
 * large, or -ENOMEM; *ret is released with reftable_release. */
int reftable_gather(const struct model *report, const struct reftable_source *src,
		    size_t n, bool (*keep)(const struct model_cell *cell),
		    struct reftable *ret);
/* The same, rows told apart by every axis but those in IGNORE
 * (NULL-terminated): a host-side tool's cell (qemu-img bench: no bus)
 * and a guest's cell on the same storage make one row. */
int reftable_gather_ignoring(const struct model *report,
			     const struct reftable_source *src, size_t n,
			     bool (*keep)(const struct model_cell *cell),
			     const char *const *ignore, struct reftable *ret);

/* Sorts T's rows with CMP (on struct reftable_row); an empty T too. */
void reftable_sort(struct reftable *t, int (*cmp)(const void *, const void *));

/* Axis NAME of a model cell, or NULL (or "-" for the _or form). */
const char *reftable_axis(const struct model_cell *cell, const char *name);
const char *reftable_axis_or(const struct model_cell *cell, const char *name);
/* The cell's host label, "" when it has none. */
const char *reftable_host(const struct model_cell *cell);
/* The cell's mean and interval half-width, NAN when absent (or CELL is
 * NULL); its n, 0 when absent. */
double reftable_mean(const struct model_cell *cell);
double reftable_half_width(const struct model_cell *cell);
unsigned reftable_n(const struct model_cell *cell);

/* Appends to the label in BUF " (axis=value, ...)" for the axes (and the
 * host) that take more than one value among T's rows and are not in
 * SHOWN (NULL-terminated): what tells the row from its neighbours. */
void reftable_label_extra(const struct reftable *t,
			  const struct reftable_row *row,
			  const char *const *shown, char *buf, size_t len);

/* A table being made: the measured one, the notes, and the published
 * table it is set beside (all borrowed). */
struct reftable_out {
	json_object *columns, *rows, *notes, *published;
};

/* The column names, a NULL-terminated list. */
void reftable_columns(struct reftable_out *o, ...);
void reftable_add_row(struct reftable_out *o, char c[][REFTABLE_CELL_MAX],
		      size_t n);
void reftable_note(struct reftable_out *o, const char *text);
/* Notes how many published rows have a measured row with the same first
 * N_KEY columns (WHAT names them), and which, when few, have none. */
void reftable_note_coverage(struct reftable_out *o, size_t n_key,
			    const char *what);

/* TABLE ({columns, rows} of strings) to F, columns aligned, each line
 * indented by INDENT.  Returns 0 or -EIO. */
int reftable_write_text(json_object *table, const char *indent, FILE *f);

#endif
