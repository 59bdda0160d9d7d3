/* The comparisons of the report model: every varied axis's levels
 * against its reference level per pair of cells and pooled, with their
 * sentences; and the check against a baseline bundle. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cleanup.h"
#include "compare.h"
#include "jsonget.h"
#include "report_model.h"

static json_object *ratio_json(const struct compare_ratio *c)
{
	json_object *o = json_object_new_object();
	json_object_object_add(o, "ratio", jsonget_new_number(c->ratio));
	json_object_object_add(o, "ratio_low", jsonget_new_number(c->low));
	json_object_object_add(o, "ratio_high", jsonget_new_number(c->high));
	return o;
}

/* The cell against the same cell of the --baseline bundle. */
json_object *report_cmp_baseline(struct builder *bd, const struct rcell *c,
				 const struct summary_metric *m, const double *v, size_t n)
{
	const struct bundle *base = &bd->base;
	if (!bd->has_base)
		return NULL;
	for (size_t i = 0; i < base->s.n_cells; i++) {
		if (strcmp(base->s.cells[i].cell.id, sc_of(c)->cell.id) != 0)
			continue;
		const struct bundle_runs *cr = &base->cr[i];
		_cleanup_free_ double *bv = calloc(cr->n ? cr->n : 1, sizeof *bv);
		struct compare_ratio cmp;
		if (!bv)
			return NULL;
		size_t bn = bundle_values(cr, m->name, bv, NULL);
		if (n == 0 || bn == 0 ||
		    compare_ratio(v, n, bv, bn, CONFIDENCE, &cmp) < 0)
			return NULL;
		bool worse = cmp.shown && !is_better(cmp.ratio, m->lower_is_better);
		json_object *o = ratio_json(&cmp);
		json_object_object_add(o, "worse", json_object_new_boolean(worse));
		if (worse) {
			json_object *w = ratio_json(&cmp);
			json_object_object_add(w, "host", json_object_new_string(c->b->label));
			json_object_object_add(w, "cell", json_object_new_string(sc_of(c)->cell.id));
			json_object_object_add(w, "metric", json_object_new_string(m->name));
			json_object_array_add(bd->worse, w);
		}
		return o;
	}
	return NULL;
}


/* The cell of M that is C but for axis A at level L, or NULL. */
static const struct rcell *partner(const struct builder *bd, const struct mcells *m,
				   const struct rcell *c, size_t a, size_t l)
{
	for (size_t i = 0; i < m->n; i++) {
		bool same = m->c[i]->lev[a] == l;
		for (size_t k = 0; k < bd->n_axes && same; k++)
			if (k != a && varied(&bd->axes[k]))
				same = m->c[i]->lev[k] == c->lev[k];
		if (same)
			return m->c[i];
	}
	return NULL;
}

static void n_text(const struct compare_ratio *c, char *buf, size_t size)
{
	if (c->n_level == c->n_reference)
		snprintf(buf, size, "n=%zu each", c->n_level);
	else
		snprintf(buf, size, "n=%zu vs %zu", c->n_level, c->n_reference);
}

/* "unsafe vs directsync, fio_write_iops (fio, backend=raw): +54% [+41%,
 * +68%], n=5 each, better" or "...: no difference shown at n=2 each (+3%
 * [-10%, +18%])". */
static void sentence(const struct mcells *m, const char *level, const char *ref,
		     const char *where, const struct compare_ratio *c,
		     char *buf, size_t size)
{
	char ns[48], pr[24], lo[24], hi[24];
	int dec = compare_percent_decimals(c->low, c->high);

	n_text(c, ns, sizeof ns);
	compare_percent(c->ratio, dec, pr, sizeof pr);
	compare_percent(c->low, dec, lo, sizeof lo);
	compare_percent(c->high, dec, hi, sizeof hi);
	int len = snprintf(buf, size, "%s vs %s, %s (%s%s%s): ", level, ref, m->metric,
			   m->workload, *where ? ", " : "", where);
	if (len < 0 || (size_t)len >= size)
		return;
	if (isnan(c->low))
		snprintf(buf + len, size - (size_t)len, "%s, too few runs for an interval (%s)",
			 pr, ns);
	else if (c->shown)
		snprintf(buf + len, size - (size_t)len, "%s [%s, %s], %s, %s", pr, lo, hi, ns,
			 is_better(c->ratio, m->lower) ? "better" : "worse");
	else
		snprintf(buf + len, size - (size_t)len, "no difference shown at %s (%s [%s, %s])",
			 ns, pr, lo, hi);
}

static json_object *comparison_json(const struct mcells *m, const char *axis,
				    const char *level, const char *ref, json_object *held,
				    size_t strata, const struct compare_ratio *c,
				    const char *text)
{
	json_object *o = json_object_new_object();
	json_object_object_add(o, "axis", json_object_new_string(axis));
	json_object_object_add(o, "level", json_object_new_string(level));
	json_object_object_add(o, "reference", json_object_new_string(ref));
	json_object_object_add(o, "held", held);
	json_object_object_add(o, "pooled", json_object_new_boolean(strata > 1));
	json_object_object_add(o, "strata", json_object_new_int64((int64_t)strata));
	json_object_object_add(o, "ratio", jsonget_new_number(c->ratio));
	json_object_object_add(o, "ratio_low", jsonget_new_number(c->low));
	json_object_object_add(o, "ratio_high", jsonget_new_number(c->high));
	json_object_object_add(o, "df", jsonget_new_number(c->df));
	json_object_object_add(o, "n_level", json_object_new_int64((int64_t)c->n_level));
	json_object_object_add(o, "n_reference", json_object_new_int64((int64_t)c->n_reference));
	json_object_object_add(o, "shown", json_object_new_boolean(c->shown));
	json_object_object_add(o, "better",
			       json_object_new_boolean(c->shown && is_better(c->ratio, m->lower)));
	json_object_object_add(o, "sentence", json_object_new_string(text));
	return o;
}

/* The values of cell C for M into a new array in *V; returns n. */
static size_t values_of(const struct mcells *m, const struct rcell *c, double **v)
{
	const struct bundle_runs *cr = &c->b->cr[c->i];
	*v = calloc(cr->n ? cr->n : 1, sizeof **v);
	return *v ? bundle_values(cr, m->metric, *v, NULL) : 0;
}

/* Level L of axis A against the reference, per stratum and pooled. */
static int compare_level(struct builder *bd, const struct mcells *m, size_t a,
			 size_t l, json_object *out, bool headline)
{
	const struct axis *ax = &bd->axes[a];
	const char *level = ax->levels[l], *ref = ax->levels[ax->ref];
	_cleanup_free_ struct compare_sample *sl = calloc(m->n ? m->n : 1, sizeof *sl);
	_cleanup_free_ struct compare_sample *sr = calloc(m->n ? m->n : 1, sizeof *sr);
	size_t k = 0;
	char text[512], where[256];
	int r = 0;

	if (!sl || !sr)
		return -ENOMEM;
	for (size_t i = 0; i < m->n; i++) {
		const struct rcell *c = m->c[i], *p;
		if (c->lev[a] != l || !(p = partner(bd, m, c, a, ax->ref)))
			continue;
		double *lv, *rv;
		sl[k].n = values_of(m, c, &lv);
		sr[k].n = values_of(m, p, &rv);
		sl[k].v = lv;
		sr[k].v = rv;
		struct compare_ratio cmp;
		if (!lv || !rv) {
			r = -ENOMEM;
			k++;
			break;
		}
		if (compare_ratio(lv, sl[k].n, rv, sr[k].n, CONFIDENCE, &cmp) < 0) {
			free(lv);
			free(rv);
			continue; /* nothing measured, or a value with no log */
		}
		json_object *held = json_object_new_object();
		size_t used = 0;
		where[0] = '\0';
		for (size_t x = 0; x < bd->n_axes; x++) {
			if (x == a || !varied(&bd->axes[x]))
				continue;
			const char *hv = bd->axes[x].levels[c->lev[x]];
			json_object_object_add(held, bd->axes[x].name, json_object_new_string(hv));
			if (used < sizeof where)
				used += (size_t)snprintf(where + used, sizeof where - used,
							 "%s%s=%s", used ? ", " : "",
							 bd->axes[x].name, hv);
		}
		sentence(m, level, ref, where, &cmp, text, sizeof text);
		json_object_array_add(out, comparison_json(m, ax->name, level, ref, held, 1,
							   &cmp, text));
		k++;
	}
	if (r == 0 && k > 0) {
		struct compare_ratio cmp;
		json_object *head = k == 1 ? json_object_array_get_idx(
						     out, json_object_array_length(out) - 1)
					   : NULL;
		if (k > 1 && compare_ratio_pooled(sl, sr, k, CONFIDENCE, &cmp) == 0) {
			char over[200];
			size_t used = 0;
			over[0] = '\0';
			for (size_t x = 0; x < bd->n_axes; x++)
				if (x != a && varied(&bd->axes[x]) && used < sizeof over)
					used += (size_t)snprintf(over + used, sizeof over - used,
								 "%s%s", used ? ", " : "",
								 bd->axes[x].name);
			snprintf(where, sizeof where, "pooled over %zu settings of %s", k, over);
			sentence(m, level, ref, where, &cmp, text, sizeof text);
			head = comparison_json(m, ax->name, level, ref, json_object_new_object(),
					       k, &cmp, text);
			json_object_array_add(out, head);
		}
		/* The headline is the pooled sentence, or the only one. */
		if (headline && head)
			json_object_array_add(bd->headlines,
					      json_object_get(json_object_object_get(head, "sentence")));
	}
	for (size_t i = 0; i < k; i++) {
		free((void *)sl[i].v);
		free((void *)sr[i].v);
	}
	return r;
}

json_object *report_cmp_json(struct builder *bd, const struct mcells *m, bool headline)
{
	json_object *out = json_object_new_array();
	for (size_t a = 0; out && a < bd->n_axes; a++) {
		if (!varied(&bd->axes[a]))
			continue;
		for (size_t l = 0; l < bd->axes[a].n_levels; l++)
			if (l != bd->axes[a].ref &&
			    compare_level(bd, m, a, l, out, headline) < 0) {
				json_object_put(out);
				return NULL;
			}
	}
	return out;
}

