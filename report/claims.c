/* Claims of a study judged on the report's comparisons (claims.h).  The
 * comparison for a claim is found among its metric's, the right way
 * round or inverted (the report compares each level with its axis's
 * reference level, a claim may be worded the other way), holding the
 * claim's axes at their levels and, where several still match, the one
 * that holds the fewest: the pooled one. */
#include "claims.h"

#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <string.h>

#include "cleanup.h"
#include "jsonget.h"
#include "model.h"
#include "parse.h"
#include "verdict.h"

#define ORDER_MAX 8

static const struct model_axis *model_axis(const struct model *m, const char *name)
{
	for (size_t i = 0; i < m->n_axes; i++)
		if (strcmp(m->axes[i].name, name) == 0)
			return &m->axes[i];
	return NULL;
}

static bool axis_has_level(const struct model_axis *a, const char *level)
{
	for (size_t i = 0; a && i < a->n_levels; i++)
		if (strcmp(a->levels[i], level) == 0)
			return true;
	return false;
}

/* A claim's level as the report names it: "smallest" and "largest" are
 * the axis's extreme sizes (l2_cache: the study's too small and large
 * enough caches, whatever sizes a profile sweeps); NULL when the axis has
 * no sized level. */
static const char *resolve_level(const struct model *m, const char *axis, const char *level)
{
	bool largest = strcmp(level, "largest") == 0;
	if (!largest && strcmp(level, "smallest") != 0)
		return level;
	const struct model_axis *a = model_axis(m, axis);
	const char *best = NULL;
	uint64_t best_v = 0;
	for (size_t i = 0; a && i < a->n_levels; i++) {
		uint64_t v;
		if (parse_size(a->levels[i], &v) < 0)
			continue;
		if (!best || (largest ? v > best_v : v < best_v)) {
			best = a->levels[i];
			best_v = v;
		}
	}
	return best;
}

static const struct model_metric *find_metric(const struct model *m, const char *workload,
					      const char *metric)
{
	for (size_t w = 0; w < m->n_workloads; w++) {
		if (strcmp(m->workloads[w].name, workload) != 0)
			continue;
		for (size_t k = 0; k < m->workloads[w].n_metrics; k++)
			if (strcmp(m->workloads[w].metrics[k].name, metric) == 0)
				return &m->workloads[w].metrics[k];
	}
	return NULL;
}

static bool held_has(const struct model_held *h, size_t n, const char *axis, const char *level)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(h[i].axis, axis) == 0 && strcmp(h[i].level, level) == 0)
			return true;
	return false;
}

/* Whether C holds every axis of HELD (a claim's {axis: level}) at its
 * level, or has it on the one side that has the axis (raw vs qcow2 at
 * l2_cache=1M). */
static bool holds(const struct model *m, const struct model_comparison *c, json_object *held)
{
	if (!held)
		return true;
	json_object_object_foreach(held, axis, want)
	{
		const char *level = resolve_level(m, axis, json_object_get_string(want));
		if (!level || (!held_has(c->held, c->n_held, axis, level) &&
			       !held_has(c->at, c->n_at, axis, level)))
			return false;
	}
	return true;
}

/* The comparison of LEVEL against REFERENCE on AXIS in METRIC holding
 * HELD, into *RET (inverted when the report has it the other way), and
 * its sentence; NULL when there is none. */
static const struct model_comparison *find_comparison(const struct model *m,
						      const struct model_metric *metric,
						      const char *axis, const char *level,
						      const char *reference, json_object *held,
						      struct verdict_ratio *ret)
{
	const struct model_comparison *best = NULL;
	bool inverted = false;
	for (size_t i = 0; i < metric->n_comparisons; i++) {
		const struct model_comparison *c = &metric->comparisons[i];
		if (c->unmeasured || strcmp(c->axis, axis) != 0 || !holds(m, c, held))
			continue;
		bool same = strcmp(c->level, level) == 0 && strcmp(c->reference, reference) == 0;
		bool other = strcmp(c->level, reference) == 0 && strcmp(c->reference, level) == 0;
		if ((same || other) && (!best || c->n_held < best->n_held)) {
			best = c;
			inverted = other;
		}
	}
	if (!best)
		return NULL;
	struct verdict_ratio r = {best->r.ratio, best->r.low, best->r.high, best->df,
				  best->n_level, best->n_reference, best->no_spread, best->disagree};
	*ret = inverted ? verdict_ratio_inverse(&r) : r;
	return best;
}

static int claim_kind(const char *s, enum verdict_claim_kind *ret)
{
	static const struct {
		const char *name;
		enum verdict_claim_kind kind;
	} kinds[] = {
		{"lower", VERDICT_LOWER},
		{"higher", VERDICT_HIGHER},
		{"equivalent", VERDICT_EQUIVALENT},
		{"no_worse", VERDICT_NOT_ABOVE}, /* NOT_BELOW when higher is better */
		{"order", VERDICT_LOWER},	 /* each level lower than the next */
	};
	for (size_t i = 0; s && i < sizeof kinds / sizeof kinds[0]; i++)
		if (strcmp(kinds[i].name, s) == 0) {
			*ret = kinds[i].kind;
			return 0;
		}
	return -EINVAL;
}

static const char *outcome_name(enum verdict_outcome o)
{
	switch (o) {
	case VERDICT_REPRODUCED:
		return "reproduced";
	case VERDICT_NOT_REPRODUCED:
		return "not reproduced";
	case VERDICT_NOT_RESOLVED:
		return "not resolved";
	case VERDICT_CANNOT_JUDGE:
		return "cannot be judged";
	}
	return "?";
}

/* Why a claim's comparison of LEVELS[0..N) (NULL: a level the axis does
 * not have) is not in the report, into BUF. */
static void untestable(const struct model *m, const struct model_metric *metric,
		       const char *workload, const char *metric_name, const char *axis,
		       const char *const *levels, size_t n_levels, char *buf, size_t size)
{
	const struct model_axis *a = model_axis(m, axis);
	if (!metric) {
		snprintf(buf, size, "cannot be tested by this sweep: no %s run measured %s",
			 workload, metric_name);
		return;
	}
	if (!a) {
		snprintf(buf, size, "cannot be tested by this sweep: it does not vary %s", axis);
		return;
	}
	for (size_t i = 0; i < n_levels; i++) {
		if (levels[i] && axis_has_level(a, levels[i]))
			continue;
		int len = snprintf(buf, size, "cannot be tested by this sweep: %s %s is not swept (%s:",
				   axis, levels[i] ? levels[i] : "of that size", axis);
		for (size_t k = 0; k < a->n_levels && len > 0 && (size_t)len < size; k++)
			if (strcmp(a->levels[k], "-") != 0)
				len += snprintf(buf + len, size - (size_t)len, "%s %s",
						k ? "," : "", a->levels[k]);
		if (len > 0 && (size_t)len < size)
			snprintf(buf + len, size - (size_t)len, ")");
		return;
	}
	if (n_levels == 2)
		snprintf(buf, size,
			 "cannot be tested by this sweep: the report has no %s vs %s comparison of %s (%s) (a side without a measured run, or not compared with the other: [report] compare can ask for it)",
			 levels[0], levels[1], metric_name, workload);
	else
		snprintf(buf, size, "cannot be tested by this sweep: the report lacks a comparison of two of these levels of %s ([report] compare can ask for it)",
			 axis);
}

static json_object *verdict_json(const char *claim, const char *outcome, const char *text,
				 json_object *sentences)
{
	json_object *o = json_object_new_object();
	json_object_object_add(o, "claim", json_object_new_string(claim));
	json_object_object_add(o, "outcome", json_object_new_string(outcome));
	json_object_object_add(o, "verdict", json_object_new_string(text));
	json_object_object_add(o, "comparisons", sentences);
	return o;
}

/* An order claim: each level of LEVELS that the sweep ran lower than the
 * next that it ran; reproduced when every such pair is, not reproduced
 * when one is not, else not resolved (the most runs any pair needs).
 * *RET_OUTCOME is NULL when fewer than two of the levels ran; a pair
 * without its comparison cannot be tested. */
static int judge_order(const struct model *m, const char *workload,
		       const struct model_metric *metric, const char *axis, json_object *held,
		       const char *const *levels, size_t n, json_object *sentences, char *text,
		       size_t size, const char **ret_outcome)
{
	const char *ran[ORDER_MAX];
	size_t n_ran = 0;
	const struct model_axis *a = model_axis(m, axis);
	for (size_t i = 0; i < n; i++)
		if (axis_has_level(a, levels[i]))
			ran[n_ran++] = levels[i];
	*ret_outcome = NULL;
	if (n_ran < 2)
		return 0;
	struct verdict worst = {.outcome = VERDICT_REPRODUCED};
	char pair[64] = "", names[128] = "";
	size_t len = 0;
	for (size_t i = 0; i < n_ran; i++)
		len += (size_t)snprintf(names + len, len < sizeof names ? sizeof names - len : 0,
					"%s%s", i ? " < " : "", ran[i]);
	for (size_t i = 0; i + 1 < n_ran; i++) {
		struct verdict_ratio r;
		const struct model_comparison *c =
			find_comparison(m, metric, axis, ran[i], ran[i + 1], held, &r);
		if (!c) {
			const char *missing[2] = {ran[i], ran[i + 1]};
			untestable(m, metric, workload, metric->name, axis, missing, 2, text, size);
			*ret_outcome = "cannot be tested";
			return 0;
		}
		json_object_array_add(sentences, json_object_new_string(c->sentence));
		struct verdict v;
		struct verdict_claim claim = {.kind = VERDICT_LOWER, .factor = 1};
		if (verdict_judge(&claim, &r, m->confidence, &v) < 0)
			return -EINVAL;
		bool worse = v.outcome == VERDICT_NOT_REPRODUCED ||
			     (v.outcome == VERDICT_NOT_RESOLVED && worst.outcome == VERDICT_REPRODUCED) ||
			     (v.outcome == VERDICT_NOT_RESOLVED && worst.outcome == VERDICT_NOT_RESOLVED &&
			      v.n_needed > worst.n_needed);
		if (worst.outcome != VERDICT_NOT_REPRODUCED && worse) {
			worst = v;
			snprintf(pair, sizeof pair, "%s < %s", ran[i], ran[i + 1]);
		}
	}
	if (worst.outcome == VERDICT_REPRODUCED)
		snprintf(text, size, "reproduced for the %zu levels swept (%s)", n_ran, names);
	else
		snprintf(text, size, n_ran == 2 ? "%s (%s)" : "%s (%s, of %s)", worst.text, pair,
			 names);
	*ret_outcome = outcome_name(worst.outcome);
	return 0;
}

static int judge_one(json_object *claim, const struct model *m, double equivalence,
		     json_object *out)
{
	const char *text = jsonget_string(claim, "claim");
	const char *workload = jsonget_string(claim, "workload");
	const char *metric_name = jsonget_string(claim, "metric");
	const char *axis = jsonget_string(claim, "axis");
	const char *kind_name = jsonget_string(claim, "kind");
	json_object *held = NULL, *lv = NULL;
	enum verdict_claim_kind kind;
	double factor = 1;
	if (!text || !workload || !metric_name || !axis || claim_kind(kind_name, &kind) < 0)
		return -EINVAL;
	if (json_object_object_get_ex(claim, "held", &held) &&
	    !json_object_is_type(held, json_type_object))
		return -EINVAL;
	if (json_object_object_get_ex(claim, "factor", &lv) &&
	    (!jsonget_number(claim, "factor", &factor) || !(factor >= 1)))
		return -EINVAL;

	const struct model_metric *metric = find_metric(m, workload, metric_name);
	json_object *sentences = json_object_new_array();
	char verdict[256];
	const char *outcome;

	if (strcmp(kind_name, "order") == 0) {
		const char *levels[ORDER_MAX];
		size_t n = 0;
		if (!json_object_object_get_ex(claim, "levels", &lv) ||
		    !json_object_is_type(lv, json_type_array) ||
		    json_object_array_length(lv) > ORDER_MAX) {
			json_object_put(sentences);
			return -EINVAL;
		}
		for (; n < json_object_array_length(lv); n++)
			levels[n] = json_object_get_string(json_object_array_get_idx(lv, n));
		outcome = NULL;
		int r = metric ? judge_order(m, workload, metric, axis, held, levels, n, sentences,
					     verdict, sizeof verdict, &outcome)
			       : 0;
		if (r < 0) {
			json_object_put(sentences);
			return r;
		}
		if (!outcome) {
			/* Fewer than two of the levels ran: the first that did not. */
			untestable(m, metric, workload, metric_name, axis, levels, n, verdict,
				   sizeof verdict);
			outcome = "cannot be tested";
		}
	} else {
		const char *level = jsonget_string(claim, "level");
		const char *reference = jsonget_string(claim, "reference");
		if (!level || !reference) {
			json_object_put(sentences);
			return -EINVAL;
		}
		const char *l = resolve_level(m, axis, level), *ref = resolve_level(m, axis, reference);
		struct verdict_ratio r;
		const struct model_comparison *c =
			metric && l && ref ? find_comparison(m, metric, axis, l, ref, held, &r) : NULL;
		if (!c) {
			const char *levels[2] = {l, ref};
			untestable(m, metric, workload, metric_name, axis, levels, 2, verdict,
				   sizeof verdict);
			outcome = "cannot be tested";
		} else {
			if (kind == VERDICT_NOT_ABOVE && !metric->lower_is_better)
				kind = VERDICT_NOT_BELOW;
			struct verdict_claim vc = {.kind = kind, .factor = factor, .bound = equivalence};
			struct verdict v;
			if (verdict_judge(&vc, &r, m->confidence, &v) < 0) {
				json_object_put(sentences);
				return -EINVAL;
			}
			json_object_array_add(sentences, json_object_new_string(c->sentence));
			snprintf(verdict, sizeof verdict, "%s", v.text);
			outcome = outcome_name(v.outcome);
		}
	}
	json_object_array_add(out, verdict_json(text, outcome, verdict, sentences));
	return 0;
}

int claims_judge(json_object *claims, const struct model *report, double equivalence,
		 json_object **ret)
{
	_cleanup_(json_object_putp) json_object *out = json_object_new_array();
	if (!out)
		return -ENOMEM;
	for (size_t i = 0; claims && i < json_object_array_length(claims); i++) {
		int r = judge_one(json_object_array_get_idx(claims, i), report, equivalence, out);
		if (r < 0)
			return r;
	}
	*ret = TAKE_PTR(out);
	return 0;
}
