/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The report builder's own types, shared by report.c (the model),
 * report_cmp.c (comparisons and the baseline check) and report_rack.c
 * (servers that stand out) as they fill the model's structures (model.h).
 * Not an interface. */
#ifndef BUILDAPP_REPORT_BUILDER_H
#define BUILDAPP_REPORT_BUILDER_H

#include <stdbool.h>
#include <stddef.h>

#include <json.h>

#include "bundle.h"
#include "model.h"
#include "questions.h"
#include "report.h"

#define CONFIDENCE 0.95
#define MAX_AXES 16
#define AXIS_NAME_MAX 32
#define HOST_AXIS "host"

struct axis {
	char name[AXIS_NAME_MAX];
	char **levels; /* in the order the plan lists them */
	size_t n_levels;
	size_t ref;
};

/* A cell of one bundle, placed on the axes. */
struct rcell {
	struct bundle *b;
	size_t i; /* into b->s.cells */
	json_object *axes; /* the cell's axis values (owned) */
	size_t lev[MAX_AXES];
};

struct builder {
	const struct report_options *o;
	struct bundle *bundles;
	size_t n_bundles;
	struct bundle base;
	bool has_base;
	struct rcell *cells;
	size_t n_cells;
	struct axis axes[MAX_AXES];
	size_t n_axes;
	/* Axis k's level follows from an earlier varied axis's (format from
	 * backend): charts leave it out of the group's name. */
	bool follows[MAX_AXES];
	/* decides[j][k]: every cell's level of axis j gives its level of k. */
	bool decides[MAX_AXES][MAX_AXES];
	/* What is being made: its headlines, the baseline's worse cells and
	 * the servers that stand out are added to as the metrics are made. */
	struct model *m;
	/* The first plan's [report] compare, and each question's answers
	 * as they are made (they lead the model's headlines). */
	struct questions qs;
	char **asked[QUESTIONS_MAX];
	size_t n_asked[QUESTIONS_MAX];
	/* Each question's speed answer that its loss answer joins
	 * (report_loss.c): 1 + its index in asked[q] (the first workload's
	 * other than durability, pooled or the only one); 0: none. */
	size_t speed_answer[QUESTIONS_MAX];
};


/* The cells of one workload's metric: pointers into bd->cells. */
struct mcells {
	const struct rcell **c;
	size_t n;
	const char *workload, *metric, *unit;
	bool lower;
};

/* BD's cells of every bundle, each placed on the axes (its lev[]): the
 * levels of each axis in the order the plans' profiles list them, then
 * as the plans' cells meet them, then (without a plan) as the sweeps
 * first ran them; levels no cell has dropped; with several bundles, a
 * host axis of one level per bundle; the cells sorted by their levels.
 * Returns 0 or a negative errno (-E2BIG: too many axes). */
int report_axes_place(struct builder *bd);

/* The reference level of each axis of BD: WANT (axis:level, the options'
 * or the first plan's [report] baseline) where it names one of the
 * sweep's levels, else the first level the profile lists that a cell has
 * (report_axes_place puts them in that order); the host-native level of
 * the guest axis.  WANT naming no level of this sweep is said. */
void report_axes_pick_references(struct builder *bd, const char *want);

static inline bool varied(const struct axis *a)
{
	return a->n_levels > 1;
}

static inline const struct summary_cell *sc_of(const struct rcell *c)
{
	return &c->b->s.cells[c->i];
}

static inline bool is_better(double ratio, bool lower_is_better)
{
	return lower_is_better ? ratio < 1 : ratio > 1;
}

/* The comparisons of metric M (docs/report.md) into OUT's; with HEADLINE
 * (M is its workload's primary metric) their pooled sentences are added
 * to the model's headlines.  The profile's questions ([report] compare)
 * on M come first, their sentences into bd->asked.  Returns 0 or
 * -ENOMEM. */
int report_cmp(struct builder *bd, const struct mcells *m, bool headline,
	       struct model_metric *out);
/* Cell C's metric M (its ok values V, N of them) against the same cell of
 * the --baseline bundle into OUT's baseline; a worse one is added to the
 * model's.  Returns 0 (OUT has none when there is nothing to compare) or
 * -ENOMEM. */
int report_cmp_baseline(struct builder *bd, const struct rcell *c,
			const struct summary_metric *m, const double *v, size_t n,
			struct model_cell *out);

/* Cell C's loss by crash (lib/crashloss.h) into OUT's loss, with each
 * crash's host crash record, and its display in those words, when C is a
 * durability cell with crashes.  Returns 0 or -ENOMEM. */
int report_loss_cell(const struct rcell *c, struct model_cell *out);
/* A cell's count of records per crash M (a durability workload's
 * acknowledged, lost_missing...; summary_unit_records), its ok values V
 * (N of them), said by crash in OUT's display: "in 2 of 3 crashes; per
 * crash 50, 5, 0", "in 11 of 12 crashes; per crash 0 to 192, median
 * 192", "192 in each of 3 crashes", "per crash 192, 165"; nothing for
 * another metric.  Returns 0 or -ENOMEM. */
int report_loss_records_cell(const struct summary_metric *m, const double *v, size_t n,
			     struct model_cell *out);
/* The loss comparisons of a durability workload's "lost" metric M into
 * OUT's loss_comparisons: the profile's questions first (each answer
 * joined to the question's speed answer, else one of its own), then each
 * varied axis's levels against its reference, per pair of cells and
 * pooled, the pooled (or only) one a headline.  Returns 0 or -ENOMEM. */
int report_loss_cmp(struct builder *bd, const struct mcells *m, struct model_metric *out);

/* Pairing cells, for the comparisons of report_cmp.c and report_loss.c:
 * the next cell of M from *I on that is C but for axis A at level L, or
 * NULL (where C lacks an axis the other cells have, raw against qcow2
 * cells of several L2 cache sizes, each of them is a partner). */
const struct rcell *report_cmp_partner(const struct builder *bd, const struct mcells *m,
				       const struct rcell *c, size_t a, size_t l, size_t *i);
/* What the pair C (at the compared level of axis A) and P (at the
 * reference) holds, added to *HELD (N_HELD of them) and the axes only one
 * side has to *AT (when HELD is not NULL), and the sentence's "where"
 * part into WHERE: each axis held, or named with what each side had.
 * Returns 0 or -ENOMEM. */
int report_cmp_where(const struct builder *bd, size_t a, const struct rcell *c,
		     const struct rcell *p, struct model_held **held, size_t *n_held,
		     struct model_held **at, size_t *n_at, char *where, size_t size);
/* "pooled over K settings of backend, bus" (HOW "pooled"): the other axes
 * of a comparison over K pairs on axis A, into WHERE. */
void report_cmp_pooled_where(const struct builder *bd, size_t a, size_t k, const char *how,
			     char *where, size_t size);
/* Whether axis A is an earlier one under other names (preallocation when
 * each backend has one): its comparisons would repeat that one's. */
bool report_cmp_same_as_earlier(const struct builder *bd, size_t a);
/* Question Q's axis *A, level *L and reference *REF, when the axis is
 * varied and both levels are among its levels. */
bool report_cmp_question_levels(const struct builder *bd, const struct question *q,
				size_t *a, size_t *l, size_t *ref);

/* The servers that stand out in metric M (with at least three bundles)
 * into OUT's outliers; each is added to the model's too and its sentence
 * to its headlines.  Returns 0 or -ENOMEM. */
int report_rack_outliers(struct builder *bd, const struct mcells *m,
			 struct model_metric *out);

#endif
