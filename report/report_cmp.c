/* The comparisons of the report model: every varied axis's levels
 * against its reference level per pair of cells and pooled, with their
 * sentences; and the check against a baseline bundle. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cleanup.h"
#include "compare.h"
#include "report_builder.h"
#include "stats.h"

static struct model_ratio ratio_of(const struct compare_ratio *c)
{
	return (struct model_ratio){.ratio = c->ratio, .low = c->low, .high = c->high};
}

/* The cell against the same cell of the --baseline bundle. */
int report_cmp_baseline(struct builder *bd, const struct rcell *c,
			const struct summary_metric *m, const double *v, size_t n,
			struct model_cell *out)
{
	const struct bundle *base = &bd->base;
	if (!bd->has_base)
		return 0;
	for (size_t i = 0; i < base->s.n_cells; i++) {
		if (strcmp(base->s.cells[i].cell.id, sc_of(c)->cell.id) != 0)
			continue;
		const struct bundle_runs *cr = &base->cr[i];
		_cleanup_free_ double *bv = calloc(cr->n ? cr->n : 1, sizeof *bv);
		struct compare_ratio cmp;
		if (!bv)
			return -ENOMEM;
		size_t bn = bundle_values(cr, m->name, bv, NULL);
		if (n == 0 || bn == 0 ||
		    compare_ratio(v, n, bv, bn, CONFIDENCE, &cmp) < 0)
			return 0;
		bool worse = cmp.shown && !is_better(cmp.ratio, m->lower_is_better);
		out->has_baseline = true;
		out->baseline = (struct model_cell_baseline){.r = ratio_of(&cmp), .worse = worse};
		if (worse) {
			struct model_worse *w = MODEL_PUSH(bd->m->worse, bd->m->n_worse);
			if (!w)
				return -ENOMEM;
			w->r = ratio_of(&cmp);
			if (!(w->host = strdup(c->b->label)) ||
			    !(w->cell = strdup(sc_of(c)->cell.id)) || !(w->metric = strdup(m->name)))
				return -ENOMEM;
		}
		return 0;
	}
	return 0;
}


static size_t real_levels(const struct axis *ax)
{
	size_t n = 0;
	for (size_t l = 0; l < ax->n_levels; l++)
		n += strcmp(ax->levels[l], "-") != 0;
	return n;
}

/* Axes whose levels belong to a level of another: a preallocation mode
 * is its backend's own, an L2 cache size qcow2's. */
static bool nested(const char *axis, const char *within)
{
	static const char *const pairs[][2] = {
		{"preallocation", "backend"}, {"preallocation", "format"},
		{"l2_cache", "backend"},      {"l2_cache", "format"},
	};
	for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++)
		if (strcmp(pairs[i][0], axis) == 0 && strcmp(pairs[i][1], within) == 0)
			return true;
	return false;
}

/* Whether axis K is held when cells C and D are compared on axis A.  Not
 * when K's levels belong to A's (raw's preallocation against qcow2's:
 * each pair is compared), nor when A's level decides K's and K is not
 * what A belongs to (format follows backend; a preallocation mode
 * decides the backend, but is compared within it), nor when either cell
 * has no K at all (a host cell has no cache mode, raw no L2 cache). */
static bool held_axis(const struct builder *bd, size_t a, size_t k,
		      const struct rcell *c, const struct rcell *d)
{
	const struct axis *x = &bd->axes[k];
	const char *an = bd->axes[a].name;
	if (k == a || !varied(x) || nested(x->name, an) ||
	    (bd->decides[a][k] && !nested(an, x->name)))
		return false;
	return strcmp(x->levels[c->lev[k]], "-") != 0 &&
	       (!d || strcmp(x->levels[d->lev[k]], "-") != 0);
}

const struct rcell *report_cmp_partner(const struct builder *bd, const struct mcells *m,
				       const struct rcell *c, size_t a, size_t l, size_t *i)
{
	for (; *i < m->n; (*i)++) {
		bool same = m->c[*i]->lev[a] == l;
		for (size_t k = 0; k < bd->n_axes && same; k++)
			if (held_axis(bd, a, k, c, m->c[*i]))
				same = m->c[*i]->lev[k] == c->lev[k];
		if (same)
			return m->c[(*i)++];
	}
	return NULL;
}

/* LEVEL of axis AXIS as a sentence names it: a bare count ("4 vs 1")
 * does not say what it counts, so it gets the axis ("fio_iodepth=4 vs
 * 1"); a name ("unsafe") or a size ("1M") says it itself. */
static const char *said_level(const char *axis, const char *level, char *buf, size_t size)
{
	if (!level || !*level || level[strspn(level, "0123456789")])
		return level;
	snprintf(buf, size, "%s=%s", axis, level);
	return buf;
}

/* The resolution the runs of the strata S (N of them) were recorded to,
 * as a number (0.001), NAN when their values show none. */
static double resolution_of(const struct compare_sample *level,
			    const struct compare_sample *ref, size_t n)
{
	int place = 0;
	for (size_t i = 0; i < n; i++) {
		int a = stats_resolution_place(level[i].v, level[i].n),
		    b = stats_resolution_place(ref[i].v, ref[i].n);
		if (a == INT_MIN || b == INT_MIN)
			return NAN;
		place = a < place ? a : place;
		place = b < place ? b : place;
	}
	return pow(10, place);
}

/* What a comparison whose runs did not vary (compare.h's no_spread) says
 * after its change: why it has no interval, and what would answer. */
static void no_spread_text(const struct mcells *m, double resolution, char *buf, size_t size)
{
	char at[64] = "";

	if (isfinite(resolution)) {
		int dec = resolution < 1 ? (int)lround(-log10(resolution)) : 0;
		snprintf(at, sizeof at, " at the metric's resolution (%.*f %s)", dec, resolution,
			 m->unit ? m->unit : "");
	}
	snprintf(buf, size, "not shown: no run varied%s, so there is no interval; runs "
		 "read to a finer resolution (longer runs) would answer, more runs only if "
		 "they vary", at);
}

/* "unsafe vs directsync, fio_write_iops (fio, backend=raw): +54% [+41%,
 * +68%], n=5 each, better" or "...: no difference shown at n=2 each (+3%
 * [-10%, +18%])"; RESOLUTION the runs' (no_spread). */
static void sentence(const struct mcells *m, const char *level, const char *ref,
		     const char *where, const struct compare_ratio *c, double resolution,
		     char *buf, size_t size)
{
	char ns[48], pr[24], lo[24], hi[24];
	int dec = compare_percent_decimals(c->low, c->high);

	compare_n_text(c->n_level, c->n_reference, ns, sizeof ns);
	compare_percent(c->ratio, dec, pr, sizeof pr);
	compare_percent(c->low, dec, lo, sizeof lo);
	compare_percent(c->high, dec, hi, sizeof hi);
	int len = snprintf(buf, size, "%s vs %s, %s (%s%s%s): ", level, ref, m->metric,
			   m->workload, *where ? ", " : "", where);
	if (len < 0 || (size_t)len >= size)
		return;
	if (c->no_spread) {
		char why[256];
		/* Two significant digits of the change, no interval to say more. */
		double pct = fabs(c->ratio - 1) * 100;
		compare_percent(c->ratio, pct < 1 ? 2 : pct < 10 ? 1 : 0, pr, sizeof pr);
		no_spread_text(m, resolution, why, sizeof why);
		snprintf(buf + len, size - (size_t)len, "%s, %s, %s", pr, ns, why);
	} else if (isnan(c->low))
		snprintf(buf + len, size - (size_t)len, "%s, too few runs for an interval (%s)",
			 pr, ns);
	else if (c->shown)
		snprintf(buf + len, size - (size_t)len, "%s [%s, %s], %s, %s", pr, lo, hi, ns,
			 is_better(c->ratio, m->lower) ? "better" : "worse");
	else
		snprintf(buf + len, size - (size_t)len, "no difference shown at %s (%s [%s, %s])",
			 ns, pr, lo, hi);
}

/* "unsafe vs directsync, fio_write_iops (fio, pooled over 2 settings of
 * backend): the settings point different ways (shown better in 1 and
 * worse in 1 of the 2), so no answer is given over them (each setting's
 * stands); their mean +0% [-5%, +5%], n=15 each". */
static void disagree_sentence(const struct mcells *m, const char *level, const char *ref,
			      const char *where, const struct compare_ratio *c, size_t k,
			      size_t better, size_t worse, char *buf, size_t size)
{
	char ns[48], pr[24], lo[24], hi[24], shown[96];
	int dec = compare_percent_decimals(c->low, c->high);

	compare_n_text(c->n_level, c->n_reference, ns, sizeof ns);
	compare_percent(c->ratio, dec, pr, sizeof pr);
	compare_percent(c->low, dec, lo, sizeof lo);
	compare_percent(c->high, dec, hi, sizeof hi);
	if (better && worse)
		snprintf(shown, sizeof shown, "shown better in %zu and worse in %zu", better, worse);
	else
		snprintf(shown, sizeof shown, "shown %s in %zu", better ? "better" : "worse",
			 better ? better : worse);
	int n = snprintf(buf, size, "%s vs %s, %s (%s%s%s): the settings point different ways "
			 "(%s of the %zu), so no answer is given over them (each setting's "
			 "stands); their mean %s [%s, %s], %s", level, ref, m->metric,
			 m->workload, *where ? ", " : "", where, shown, k, pr, lo, hi, ns);
	if (n < 0)
		buf[0] = '\0'; /* (a longer one is cut short) */
}

/* Fills comparison O (its held axes already in) of level LEVEL of AXIS
 * against REF over STRATA pairs.  Returns 0 or -ENOMEM. */
static int comparison_fill(const struct mcells *m, const char *axis, const char *level,
			   const char *ref, size_t strata, const struct compare_ratio *c,
			   const char *text, struct model_comparison *o)
{
	o->pooled = strata > 1;
	o->strata = (unsigned)strata;
	o->r = ratio_of(c);
	o->df = c->df;
	o->n_level = (unsigned)c->n_level;
	o->n_reference = (unsigned)c->n_reference;
	o->shown = c->shown;
	o->better = c->shown && is_better(c->ratio, m->lower);
	o->no_spread = c->no_spread;
	o->resolution = NAN;
	if (!(o->axis = strdup(axis)) || !(o->level = strdup(level)) ||
	    !(o->reference = strdup(ref)) || !(o->sentence = strdup(text)))
		return -ENOMEM;
	return 0;
}

/* The values of cell C for M into a new array in *V; returns n. */
static size_t values_of(const struct mcells *m, const struct rcell *c, double **v)
{
	const struct bundle_runs *cr = &c->b->cr[c->i];
	*v = calloc(cr->n ? cr->n : 1, sizeof **v);
	return *v ? bundle_values(cr, m->metric, *v, NULL) : 0;
}

/* Pairs that share a cell are not pooled; up to this many become
 * headlines each (the comparisons of their metric list them all). */
#define MAX_DEPENDENT_HEADLINES 4

/* The pairs of cells compared for one level: their samples, and the
 * cells themselves (a cell in two pairs makes them dependent). */
struct strata {
	struct compare_sample *level, *ref;
	const struct rcell **cells; /* 2 per pair: the level's, the reference's */
	size_t n, cap;
};

static void strata_release(struct strata *s)
{
	for (size_t i = 0; i < s->n; i++) {
		free((void *)s->level[i].v);
		free((void *)s->ref[i].v);
	}
	free(s->level);
	free(s->ref);
	free(s->cells);
}

/* Room for one more pair. */
static int strata_room(struct strata *s)
{
	if (s->n < s->cap)
		return 0;
	size_t n = s->cap ? 2 * s->cap : 16;
	struct compare_sample *l = realloc(s->level, n * sizeof *l);
	if (!l)
		return -ENOMEM;
	s->level = l;
	struct compare_sample *r = realloc(s->ref, n * sizeof *r);
	if (!r)
		return -ENOMEM;
	s->ref = r;
	const struct rcell **c = realloc(s->cells, 2 * n * sizeof *c);
	if (!c)
		return -ENOMEM;
	s->cells = c;
	s->cap = n;
	return 0;
}

/* Whether a cell is in more than one pair: then the pairs are not
 * independent samples and are not pooled. */
static bool strata_share_a_cell(const struct strata *s)
{
	for (size_t i = 0; i < 2 * s->n; i++)
		for (size_t j = i + 1; j < 2 * s->n; j++)
			if (s->cells[i] == s->cells[j])
				return true;
	return false;
}

int report_cmp_where(const struct builder *bd, size_t a, const struct rcell *c,
		     const struct rcell *p, struct model_held **held, size_t *n_held,
		     struct model_held **at, size_t *n_at, char *where, size_t size)
{
	const struct axis *ax = &bd->axes[a];
	size_t used = 0;

	where[0] = '\0';
	for (size_t x = 0; x < bd->n_axes; x++) {
		const char *hv = bd->axes[x].levels[c->lev[x]],
			   *pv = bd->axes[x].levels[p->lev[x]];
		bool held_x = held_axis(bd, a, x, c, p);
		/* An axis not held is named with what each side had,
		 * unless the compared level decides it (format). */
		bool named = real_levels(&bd->axes[x]) > 1 && !bd->follows[x] &&
			     (held_x || (x != a &&
					(!bd->decides[a][x] ||
					 nested(bd->axes[x].name, ax->name)) &&
					strcmp(hv, pv) != 0));
		if (!named)
			continue;
		bool one_side = !held_x && (strcmp(pv, "-") == 0 || strcmp(hv, "-") == 0);
		if ((held_x || one_side) && held) {
			struct model_held *h = held_x ? MODEL_PUSH(*held, *n_held)
						      : MODEL_PUSH(*at, *n_at);
			if (!h || !(h->axis = strdup(bd->axes[x].name)) ||
			    !(h->level = strdup(strcmp(hv, "-") == 0 ? pv : hv)))
				return -ENOMEM;
		}
		if (used >= size)
			continue;
		if (held_x || strcmp(pv, "-") == 0)
			used += (size_t)snprintf(where + used, size - used, "%s%s=%s",
						 used ? ", " : "", bd->axes[x].name, hv);
		else if (strcmp(hv, "-") == 0)
			used += (size_t)snprintf(where + used, size - used, "%s%s=%s",
						 used ? ", " : "", bd->axes[x].name, pv);
		else
			used += (size_t)snprintf(where + used, size - used, "%s%s=%s vs %s",
						 used ? ", " : "", bd->axes[x].name, hv, pv);
	}
	return 0;
}

/* Cell C as the tables group it ("raw / directsync": its levels of the
 * varied axes), and its server's label in a report of several. */
static void cell_name(const struct builder *bd, const struct rcell *c, char *buf, size_t size)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t x = 0; x < bd->n_axes && used < size; x++) {
		const char *v = bd->axes[x].levels[c->lev[x]];
		if (real_levels(&bd->axes[x]) > 1 && !bd->follows[x] && strcmp(v, "-") != 0)
			used += (size_t)snprintf(buf + used, size - used, "%s%s",
						 used ? " / " : "", v);
	}
	if (bd->n_bundles > 1 && used < size)
		snprintf(buf + used, size - used, " on %s", c->b->label);
}

/* "unsafe vs directsync, fio_write_iops (fio, backend=raw): not measured,
 * directsync had no ok run (5 failed)": a pair with a side that has no
 * value, LEVEL_EMPTY or REF_EMPTY, whose failed runs are counted. */
static void unmeasured_sentence(const struct builder *bd, const struct mcells *m,
				const char *level, const char *ref,
				const char *where, const struct rcell *level_empty,
				const struct rcell *ref_empty, char *buf, size_t size)
{
	size_t failed = (level_empty ? sc_of(level_empty)->n_failed : 0) +
			(ref_empty ? sc_of(ref_empty)->n_failed : 0);
	char a[160], b[160], who[340];

	cell_name(bd, level_empty ? level_empty : ref_empty, a, sizeof a);
	if (level_empty && ref_empty) {
		cell_name(bd, ref_empty, b, sizeof b);
		snprintf(who, sizeof who, "neither %s nor %s had", a, b);
	} else {
		snprintf(who, sizeof who, "%s had", a);
	}
	int n = snprintf(buf, size, "%s vs %s, %s (%s%s%s): not measured, %s no ok run "
			 "(%zu failed)", level, ref, m->metric, m->workload,
			 *where ? ", " : "", where, who, failed);
	if (n < 0)
		buf[0] = '\0'; /* (a longer one is cut short) */
}

/* The comparison of a pair where a side has no value (N_LEVEL or N_REF
 * is 0: a cell with no ok run), into OUT. */
static int add_unmeasured(struct builder *bd, const struct mcells *m, size_t a,
			  const struct rcell *c, const struct rcell *p, size_t n_level,
			  size_t n_ref, struct model_metric *out)
{
	const struct axis *ax = &bd->axes[a];
	const char *level = ax->levels[c->lev[a]], *ref = ax->levels[p->lev[a]];
	struct compare_ratio none = {.ratio = NAN, .low = NAN, .high = NAN, .df = NAN,
				     .n_level = n_level, .n_reference = n_ref};
	char text[512], where[256], said[96];
	struct model_comparison *o = MODEL_PUSH(out->comparisons, out->n_comparisons);

	if (!o || report_cmp_where(bd, a, c, p, &o->held, &o->n_held, &o->at, &o->n_at, where,
				   sizeof where) < 0)
		return -ENOMEM;
	unmeasured_sentence(bd, m, said_level(ax->name, level, said, sizeof said), ref, where, n_level ? NULL : c, n_ref ? NULL : p,
			    text, sizeof text);
	o->unmeasured = true;
	return comparison_fill(m, ax->name, level, ref, 1, &none, text, o);
}

void report_cmp_pooled_where(const struct builder *bd, size_t a, size_t k, const char *how,
			     char *where, size_t size)
{
	char over[200];
	size_t used = 0;

	over[0] = '\0';
	for (size_t x = 0; x < bd->n_axes; x++)
		if (x != a && real_levels(&bd->axes[x]) > 1 && !bd->follows[x] &&
		    !bd->decides[a][x] && used < sizeof over)
			used += (size_t)snprintf(over + used, sizeof over - used, "%s%s",
						 used ? ", " : "", bd->axes[x].name);
	snprintf(where, size, "%s over %zu settings of %s", how, k, over);
}

/* Where a comparison's sentences go besides its metric's list: nowhere,
 * the answers, or the answers to question N of the profile (>= 0). */
enum { TO_METRIC_ONLY = -2, TO_ANSWERS = -1 };

static int headline(struct builder *bd, int to, const char *sentence)
{
	if (to >= 0)
		return model_push_string(&bd->asked[to], &bd->n_asked[to], sentence);
	return model_push_string(&bd->m->headlines, &bd->m->n_headlines, sentence);
}

/* Level L of axis A against level REF_LEVEL, per stratum and pooled; the
 * answers' sentences to TO. */
static int compare_level(struct builder *bd, const struct mcells *m, size_t a,
			 size_t l, size_t ref_level, struct model_metric *out, int to)
{
	const struct axis *ax = &bd->axes[a];
	const char *level = ax->levels[l], *ref = ax->levels[ref_level];
	bool headlines = to != TO_METRIC_ONLY;
	struct strata st = {0};
	char text[512], where[256], said_buf[96];
	const char *said = said_level(ax->name, level, said_buf, sizeof said_buf);
	/* Pairs with a side not measured: added after the measured ones,
	 * which the pooling below counts from the end of OUT. */
	struct model_metric unmeasured = {0};
	/* The pairs shown better and worse: settings that point different
	 * ways get no answer over them. */
	size_t better = 0, worse = 0;
	int r = 0;

	for (size_t i = 0; i < m->n && r == 0; i++) {
		const struct rcell *c = m->c[i], *p;
		if (c->lev[a] != l)
			continue;
		for (size_t next = 0; r == 0 && (p = report_cmp_partner(bd, m, c, a, ref_level, &next));) {
			double *lv, *rv;
			struct compare_ratio cmp;
			if ((r = strata_room(&st)) < 0)
				break;
			struct compare_sample *sl = &st.level[st.n], *sr = &st.ref[st.n];
			sl->n = values_of(m, c, &lv);
			sr->n = values_of(m, p, &rv);
			sl->v = lv;
			sr->v = rv;
			if (!lv || !rv) {
				r = -ENOMEM;
				st.n++;
				break;
			}
			if (compare_ratio(lv, sl->n, rv, sr->n, CONFIDENCE, &cmp) < 0) {
				if (sl->n == 0 || sr->n == 0)
					r = add_unmeasured(bd, m, a, c, p, sl->n, sr->n, &unmeasured);
				free(lv);
				free(rv);
				continue; /* or a value with no log */
			}
			st.cells[2 * st.n] = c;
			st.cells[2 * st.n + 1] = p;
			st.n++;
			struct model_comparison *one = MODEL_PUSH(out->comparisons, out->n_comparisons);
			if (!one || report_cmp_where(bd, a, c, p, &one->held, &one->n_held, &one->at,
						     &one->n_at, where, sizeof where) < 0) {
				r = -ENOMEM;
				break;
			}
			double res = resolution_of(sl, sr, 1);
			sentence(m, said, ref, where, &cmp, res, text, sizeof text);
			r = comparison_fill(m, ax->name, level, ref, 1, &cmp, text, one);
			if (cmp.no_spread)
				one->resolution = res;
			better += cmp.shown && is_better(cmp.ratio, m->lower);
			worse += cmp.shown && !is_better(cmp.ratio, m->lower);
		}
	}
	size_t k = st.n;
	bool dependent = strata_share_a_cell(&st), disagree = false;
	if (r == 0 && k > 0) {
		struct compare_ratio cmp;
		/* The headline: the only pair's, or the pooled one's. */
		size_t head = k == 1 ? out->n_comparisons - 1 : SIZE_MAX;
		if (k > 1 && !dependent &&
		    compare_ratio_pooled(st.level, st.ref, k, CONFIDENCE, &cmp) == 0) {
			double res = resolution_of(st.level, st.ref, k);
			/* Settings shown to go opposite ways, or one shown
			 * against the mean's way: the mean hides them. */
			bool up = is_better(cmp.ratio, m->lower);
			disagree = (better && worse) || (cmp.shown && (up ? worse : better));
			report_cmp_pooled_where(bd, a, k, "pooled", where, sizeof where);
			if (disagree) {
				cmp.shown = false;
				disagree_sentence(m, said, ref, where, &cmp, k, better, worse, text,
						  sizeof text);
			} else {
				sentence(m, said, ref, where, &cmp, res, text, sizeof text);
			}
			struct model_comparison *o = MODEL_PUSH(out->comparisons, out->n_comparisons);
			r = o ? comparison_fill(m, ax->name, level, ref, k, &cmp, text, o) : -ENOMEM;
			if (r == 0 && cmp.no_spread)
				o->resolution = res;
			if (r == 0)
				o->disagree = disagree;
			head = out->n_comparisons - 1;
		}
		/* The headline is the pooled sentence, or the only one; pairs
		 * that share a cell are each a headline.  A question of the
		 * profile is answered per pair too (on LVM, on qcow2), then
		 * pooled. */
		bool pooled = k > 1 && head != SIZE_MAX;
		size_t pairs = out->n_comparisons - k - (pooled ? 1 : 0);
		bool each = to >= 0 || dependent || disagree;
		for (size_t i = pairs; r == 0 && headlines && each && k > 1 &&
				       (to >= 0 || k <= MAX_DEPENDENT_HEADLINES) && i < pairs + k;
		     i++)
			r = headline(bd, to, out->comparisons[i].sentence);
		if (r == 0 && headlines && head != SIZE_MAX) {
			r = headline(bd, to, out->comparisons[head].sentence);
			if (r == 0 && to >= 0 && !bd->speed_answer[to] &&
			    strcmp(m->workload, workload_kind_name(WORKLOAD_DURABILITY)) != 0)
				bd->speed_answer[to] = bd->n_asked[to];
		}
	}
	/* After the measured ones, in the comparisons and the answers (moved
	 * even after a failure, to be freed with the model). */
	for (size_t i = 0; i < unmeasured.n_comparisons; i++) {
		struct model_comparison *o = MODEL_PUSH(out->comparisons, out->n_comparisons);
		if (!o) {
			r = -ENOMEM;
			unmeasured.n_comparisons = i;
			break;
		}
		*o = unmeasured.comparisons[i];
		if (r == 0 && headlines)
			r = headline(bd, to, o->sentence);
	}
	free(unmeasured.comparisons);
	strata_release(&st);
	return r;
}

bool report_cmp_same_as_earlier(const struct builder *bd, size_t a)
{
	for (size_t j = 0; j < a; j++)
		if (real_levels(&bd->axes[j]) > 1 && bd->decides[j][a] && bd->decides[a][j])
			return true;
	return false;
}

/* The index of LEVEL on axis AX, or SIZE_MAX ("-" is no level). */
static size_t level_index(const struct axis *ax, const char *level)
{
	for (size_t l = 0; l < ax->n_levels; l++)
		if (strcmp(ax->levels[l], level) == 0 && strcmp(level, "-") != 0)
			return l;
	return SIZE_MAX;
}

static size_t axis_index(const struct builder *bd, const char *name)
{
	for (size_t a = 0; a < bd->n_axes; a++)
		if (strcmp(bd->axes[a].name, name) == 0)
			return a;
	return SIZE_MAX;
}

bool report_cmp_question_levels(const struct builder *bd, const struct question *q,
				size_t *a, size_t *l, size_t *ref)
{
	if ((*a = axis_index(bd, q->axis)) == SIZE_MAX || !varied(&bd->axes[*a]))
		return false;
	*l = level_index(&bd->axes[*a], q->level);
	*ref = level_index(&bd->axes[*a], q->reference);
	return *l != SIZE_MAX && *ref != SIZE_MAX;
}

/* Whether question Q asks about metric M (PRIMARY: its workload's
 * first), and where: axis *A, levels *L against *REF. */
static bool asks(const struct builder *bd, const struct question *q, const struct mcells *m,
		 bool primary, size_t *a, size_t *l, size_t *ref)
{
	return question_asks_metric(q, m->metric, primary) &&
	       report_cmp_question_levels(bd, q, a, l, ref);
}

/* Whether a question of the profile on M compares levels L and REF of
 * axis A, either way round. */
static bool asked_pair(const struct builder *bd, const struct mcells *m, bool primary,
		       size_t a, size_t l, size_t ref)
{
	size_t qa, ql, qref;
	for (size_t q = 0; q < bd->qs.n; q++)
		if (asks(bd, &bd->qs.q[q], m, primary, &qa, &ql, &qref) && qa == a &&
		    ((ql == l && qref == ref) || (ql == ref && qref == l)))
			return true;
	return false;
}

int report_cmp(struct builder *bd, const struct mcells *m, bool headline,
	       struct model_metric *out)
{
	size_t a, l, ref;
	int r;

	/* The profile's questions first; one that is also a level against
	 * its axis's reference, or that one the other way round, is not
	 * made twice. */
	for (size_t q = 0; q < bd->qs.n; q++)
		if (asks(bd, &bd->qs.q[q], m, headline, &a, &l, &ref) &&
		    (r = compare_level(bd, m, a, l, ref, out, (int)q)) < 0)
			return r;
	for (a = 0; a < bd->n_axes; a++) {
		const struct axis *ax = &bd->axes[a];
		if (!varied(ax) || report_cmp_same_as_earlier(bd, a) || strcmp(ax->levels[ax->ref], "-") == 0)
			continue;
		/* "-": cells that do not have the axis (raw has no L2 cache)
		 * are not one of its levels. */
		for (size_t lv = 0; lv < ax->n_levels; lv++)
			if (lv != ax->ref && strcmp(ax->levels[lv], "-") != 0 &&
			    !asked_pair(bd, m, headline, a, lv, ax->ref) &&
			    (r = compare_level(bd, m, a, lv, ax->ref, out,
					       headline ? TO_ANSWERS : TO_METRIC_ONLY)) < 0)
				return r;
	}
	return 0;
}
