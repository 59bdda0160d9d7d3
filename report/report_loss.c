/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The loss half of the report: what a durability cell's crashes lost,
 * the crash as its unit (lib/crashloss.h), with what the journal
 * recorded of each host crash; and each level's loss against its
 * reference's, per pair of cells and over the pairs as the strata of one
 * exact test, by the verdict rules of docs/results.md ("Loss by crash").
 * Records are never pooled across crashes (the records of one crash are
 * not independent trials), nor crashes across the settings of another
 * axis (the settings may differ in their crashes, and the sums could
 * answer what no setting does). */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cleanup.h"
#include "crashloss.h"
#include "report_builder.h"
#include "stats.h"

/* The crash the runs of cell C ended with ("host", "guest"), or "?". */
static const char *crash_of(const struct rcell *c)
{
	const struct bundle_runs *cr = &c->b->cr[c->i];

	for (size_t i = 0; i < cr->n; i++)
		if (cr->runs[i]->crash[0])
			return cr->runs[i]->crash;
	return "?";
}

/* A journal run's host crash record into the model's crash O. */
static int crash_facts(const struct crashfacts *f, struct model_crash *o)
{
	o->dirty_kib = o->writeback_kib = o->to_kernel_seconds = o->to_sweep_seconds = NAN;
	o->qemu_stopped_seconds = o->writeback_stopped_seconds = NAN;
	o->results_synced_seconds = o->facts_read_seconds = NAN;
	if (!f->present)
		return 0;
	o->has_host_crash = true;
	o->qemu_stopped_seconds = f->qemu_stopped_seconds;
	o->writeback_stopped_seconds = f->writeback_stopped_seconds;
	o->results_synced_seconds = f->results_synced_seconds;
	o->facts_read_seconds = f->facts_read_seconds;
	o->dirty_kib = f->dirty_kib < 0 ? NAN : (double)f->dirty_kib;
	o->writeback_kib = f->writeback_kib < 0 ? NAN : (double)f->writeback_kib;
	o->to_kernel_seconds = f->to_kernel_seconds;
	o->to_sweep_seconds = f->to_sweep_seconds;
	if (!(o->mechanism = strdup(f->mechanism)) ||
	    (f->fallback[0] && !(o->fallback = strdup(f->fallback))) ||
	    (f->disk_write_cache[0] && !(o->disk_write_cache = strdup(f->disk_write_cache))) ||
	    (f->bmc[0] && !(o->bmc = strdup(f->bmc))))
		return -ENOMEM;
	return 0;
}

int report_loss_cell(const struct rcell *c, struct model_cell *out)
{
	const struct summary_cell *sc = sc_of(c);
	const struct bundle_runs *cr = &c->b->cr[c->i];
	_cleanup_free_ double *fraction = NULL;
	char text[1024];
	struct model_loss *l;
	int r;

	if (!sc->n_crashes)
		return 0;
	if (!(l = out->loss = calloc(1, sizeof *l)) ||
	    !(l->runs = calloc(sc->n_crashes, sizeof *l->runs)) ||
	    !(fraction = calloc(sc->n_crashes, sizeof *fraction)) ||
	    !(l->crash = strdup(crash_of(c))))
		return -ENOMEM;
	*l = (struct model_loss){.crash = l->crash, .runs = l->runs,
				 .crashes = (unsigned)sc->loss.crashes,
				 .lost_any = (unsigned)sc->loss.lost_any,
				 .low = sc->loss.low, .high = sc->loss.high,
				 .median = sc->loss.median, .min = sc->loss.min,
				 .max = sc->loss.max, .mean = sc->loss.mean,
				 .mean_low = sc->loss.mean_low, .mean_high = sc->loss.mean_high};
	/* The summary's crashes are these runs, in the same order. */
	for (size_t i = 0; i < cr->n && l->n_runs < sc->n_crashes; i++) {
		double lost, acked;
		if (!summary_run_crash(cr->runs[i], &lost, &acked))
			continue;
		struct model_crash *o = &l->runs[l->n_runs++];
		*o = (struct model_crash){.index = cr->runs[i]->index, .lost = lost,
					  .acknowledged = acked, .fraction = lost / acked};
		fraction[l->n_runs - 1] = o->fraction;
		if ((r = crash_facts(&cr->runs[i]->host_crash, o)) < 0)
			return r;
	}
	crashloss_text(&sc->loss, fraction, l->n_runs, text, sizeof text);
	free(out->display);
	out->too_few_runs = false;
	return (out->display = strdup(text)) ? 0 : -ENOMEM;
}

/* Up to this many crashes' counts are listed; more by their range. */
#define RECORDS_LISTED 6

int report_loss_records_cell(const struct summary_metric *m, const double *v, size_t n,
			     struct model_cell *out)
{
	char text[256], counts[200];
	bool lost = strcmp(m->unit, "records lost") == 0, alike = true;

	if (!summary_unit_records(m->unit) || !m->crashes || !n)
		return 0;
	for (size_t i = 1; i < n; i++)
		alike &= v[i] == v[0];
	/* Each crash's count: "192 in each", "50, 5", "0 to 192, median
	 * 192". */
	if (alike) {
		snprintf(counts, sizeof counts, "%.6g in each", v[0]);
	} else if (n <= RECORDS_LISTED) {
		size_t used = 0;
		for (size_t i = 0; i < n && used < sizeof counts; i++)
			used += (size_t)snprintf(counts + used, sizeof counts - used, "%s%.6g",
						 i ? ", " : "", v[i]);
	} else {
		snprintf(counts, sizeof counts, "%.6g to %.6g, median %.6g", m->stats.min,
			 m->stats.max, stats_median(v, n));
	}
	const char *one = crashloss_unit(m->cuts, false);
	if (!lost && alike)
		snprintf(text, sizeof text, "%s of %zu %s", counts, n, crashloss_unit(m->cuts, n != 1));
	else if (!lost)
		snprintf(text, sizeof text, "per %s %s", one, counts);
	else if (m->crashes_above_zero == 0)
		snprintf(text, sizeof text, "in 0 of %zu %s", m->crashes,
			 crashloss_unit(m->cuts, m->crashes != 1));
	else
		snprintf(text, sizeof text, "in %zu of %zu %s; per %s %s", m->crashes_above_zero,
			 m->crashes, crashloss_unit(m->cuts, m->crashes != 1), one, counts);
	free(out->display);
	out->too_few_runs = false;
	return (out->display = strdup(text)) ? 0 : -ENOMEM;
}

/* --- comparisons --------------------------------------------------------- */

static struct model_loss_side side_of(const struct crashloss *s)
{
	return (struct model_loss_side){.crashes = (unsigned)s->crashes,
					.lost_any = (unsigned)s->lost_any,
					.low = s->low, .high = s->high, .min = s->min,
					.max = s->max};
}

/* "n=5 crashes each", "n=1 crash each", "n=3 vs 5 crashes" (CUTS:
 * "cuts"). */
static void crashes_text(size_t a, size_t b, bool cuts, char *buf, size_t size)
{
	if (a == b)
		snprintf(buf, size, "n=%zu %s each", a, crashloss_unit(cuts, a != 1));
	else
		snprintf(buf, size, "n=%zu vs %zu %s", a, b, crashloss_unit(cuts, true));
}

/* The verdict of docs/results.md's rules on A (at LEVEL) against B (at
 * REF), into BUF. */
static void verdict_text(const char *level, const char *ref, const struct crashloss *a,
			 const struct crashloss *b, const struct crashloss_verdict *v,
			 char *buf, size_t size)
{
	char ns[48], p[24];
	const char *unit = crashloss_unit(a->cuts, true);

	crashes_text(a->crashes, b->crashes, a->cuts, ns, sizeof ns);
	stats_p_text(v->p, 1 - CRASHLOSS_CONFIDENCE, p, sizeof p);
	if (v->shown) {
		/* k a / n a against k b / n b, cross-multiplied. */
		bool more = a->lost_any * b->crashes > b->lost_any * a->crashes;
		snprintf(buf, size, "%s loses them in more %s (%s, %s)",
			 more ? level : ref, unit, v->test, p);
	} else if (a->lost_any == 0 && b->lost_any == 0) {
		snprintf(buf, size, "no loss shown at %s", ns);
	} else if (v->resolve == 0) {
		snprintf(buf, size, "no difference shown at %s (%s, %s), nor "
			 "would more %s show one at these proportions", ns, v->test, p, unit);
	} else if (v->resolve > CRASHLOSS_RESOLVE_MAX) {
		snprintf(buf, size, "no difference shown at %s (%s, %s): more "
			 "than %d %s a side would be needed at these proportions", ns, v->test,
			 p, CRASHLOSS_RESOLVE_MAX, unit);
	} else {
		snprintf(buf, size, "no difference shown at %s (%s, %s): about "
			 "%u %s a side would show one if each lost as these did", ns, v->test,
			 p, v->resolve, unit);
	}
}

/* The loss answer after "LEVEL vs REF, " or after a speed answer's "; ":
 * "after a host crash (backend=lvm): lost acknowledged writes in 5 of 5
 * crashes [48%, 100%], 3% to 100% of them per crash, vs 0 of 5 [0%,
 * 52%]; unsafe loses them in more crashes (Boschloo's exact test,
 * p=0.0079)". */
static void loss_text(const char *level, const char *ref, const char *crash, const char *where,
		      const struct crashloss *a, const struct crashloss *b,
		      const struct crashloss_verdict *v, char *buf, size_t size)
{
	char ca[96], ra[64], cb[64], rb[64], verdict[256];

	crashloss_counts_text(a, false, ca, sizeof ca);
	crashloss_range_text(a, ra, sizeof ra);
	crashloss_counts_text(b, true, cb, sizeof cb);
	crashloss_range_text(b, rb, sizeof rb);
	verdict_text(level, ref, a, b, v, verdict, sizeof verdict);
	snprintf(buf, size, "after %s%s%s%s: %s%s, vs %s%s; %s", crashloss_after(crash),
		 *where ? " (" : "", where, *where ? ")" : "", ca, ra, cb, rb, verdict);
}

/* The pairs of cells of one level's comparison: each a stratum, its
 * crashes that lost on either side and its settings ("backend=lvm"); and
 * the cells in them (a cell in two pairs makes them dependent). */
struct strata {
	struct stats_table *t;
	char **where;
	const struct rcell **seen;
	size_t n, n_seen;
	bool shared;
};

static void strata_release(struct strata *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->where[i]);
	free(s->where);
	free(s->t);
	free(s->seen);
}

/* Cell C into S's cells; a cell already there makes S's pairs shared. */
static int strata_cell(struct strata *s, const struct rcell *c)
{
	for (size_t i = 0; i < s->n_seen; i++)
		if (s->seen[i] == c) {
			s->shared = true;
			return 0;
		}
	const struct rcell **seen = realloc(s->seen, (s->n_seen + 1) * sizeof *seen);
	if (!seen)
		return -ENOMEM;
	s->seen = seen;
	s->seen[s->n_seen++] = c;
	return 0;
}

/* The pair C (at the level) and P (at the reference), whose settings
 * read WHERE, as a stratum of S. */
static int strata_add(struct strata *s, const struct rcell *c, const struct rcell *p,
		      const char *where)
{
	const struct crashloss *a = &sc_of(c)->loss, *b = &sc_of(p)->loss;
	struct stats_table *t = realloc(s->t, (s->n + 1) * sizeof *t);
	if (!t)
		return -ENOMEM;
	s->t = t;
	char **w = realloc(s->where, (s->n + 1) * sizeof *w);
	if (!w)
		return -ENOMEM;
	s->where = w;
	if (!(s->where[s->n] = strdup(where)))
		return -ENOMEM;
	s->t[s->n++] = (struct stats_table){.x1 = a->lost_any, .n1 = a->crashes,
					    .x2 = b->lost_any, .n2 = b->crashes};
	int r = strata_cell(s, c);
	return r < 0 ? r : strata_cell(s, p);
}

/* Fills comparison O of LEVEL against REF (its held axes already in). */
static int comparison_fill(const struct axis *ax, const char *level, const char *ref,
			   const char *crash, const struct crashloss *a,
			   const struct crashloss *b, const struct crashloss_verdict *v,
			   const char *where, struct model_loss_comparison *o)
{
	char text[1024], tail[900];

	loss_text(level, ref, crash, where, a, b, v, tail, sizeof tail);
	snprintf(text, sizeof text, "%s vs %s, %s", level, ref, tail);
	*o = (struct model_loss_comparison){.held = o->held, .n_held = o->n_held,
					    .at = o->at, .n_at = o->n_at, .strata = 1,
					    .l = side_of(a), .r = side_of(b), .p = v->p,
					    .shown = v->shown, .resolve = v->resolve};
	if (!(o->axis = strdup(ax->name)) || !(o->level = strdup(level)) ||
	    !(o->test = strdup(v->test)) ||
	    !(o->reference = strdup(ref)) || !(o->crash = strdup(crash)) ||
	    !(o->sentence = strdup(text)))
		return -ENOMEM;
	return 0;
}

/* The strata S of LEVEL against REF, their crashes never added across
 * them (docs/results.md, "Loss by crash"): each setting's counts, then
 * the exact stratified test's verdict, or none where the settings point
 * different ways, into comparison O. */
static int stratified_fill(const struct axis *ax, const char *level, const char *ref,
			   const char *crash, const struct strata *s, const char *where,
			   struct model_loss_comparison *o)
{
	char text[1024], p[24];
	double excess;
	bool more = false, less = false, lost = false;
	int r, len;

	if ((r = stats_stratified_exact(s->t, s->n, &o->p, &excess)) < 0)
		return r;
	bool cuts = s->n && sc_of(s->seen[0])->loss.cuts;
	len = snprintf(text, sizeof text, "%s vs %s, after %s (%s): lost acknowledged "
		       "writes in", level, ref, crashloss_after(crash), where);
	for (size_t i = 0; i < s->n && len > 0 && (size_t)len < sizeof text; i++) {
		const struct stats_table *t = &s->t[i];
		/* The stratum's own direction, x1 / n1 against x2 / n2. */
		more |= t->x1 * t->n2 > t->x2 * t->n1;
		less |= t->x1 * t->n2 < t->x2 * t->n1;
		lost |= t->x1 || t->x2;
		len += snprintf(text + len, sizeof text - (size_t)len, "%s %llu of %llu%s%s vs "
				"%llu of %llu (%s)", i ? "," : "", t->x1, t->n1, i ? "" : " ",
				i ? "" : crashloss_unit(cuts, t->n1 != 1), t->x2, t->n2,
				s->where[i]);
	}
	o->disagree = more && less;
	o->shown = !o->disagree && o->p <= 1 - CRASHLOSS_CONFIDENCE;
	stats_p_text(o->p, 1 - CRASHLOSS_CONFIDENCE, p, sizeof p);
	if (len > 0 && (size_t)len < sizeof text) {
		if (o->disagree)
			snprintf(text + len, sizeof text - (size_t)len,
				 "; the settings point different ways, so no answer is given "
				 "over them (each setting's stands)");
		else if (!lost)
			snprintf(text + len, sizeof text - (size_t)len, "; no loss shown");
		else if (o->shown)
			snprintf(text + len, sizeof text - (size_t)len,
				 "; %s loses them in more %s (%s, %s)",
				 excess > 0 ? level : ref, crashloss_unit(cuts, true),
				 CRASHLOSS_STRATIFIED_TEST, p);
		else
			snprintf(text + len, sizeof text - (size_t)len,
				 "; no difference shown (%s, %s)", CRASHLOSS_STRATIFIED_TEST, p);
	}
	if (o->disagree)
		o->p = NAN;
	o->pooled = true;
	o->strata = (unsigned)s->n;
	if (!(o->axis = strdup(ax->name)) || !(o->level = strdup(level)) ||
	    !(o->test = strdup(CRASHLOSS_STRATIFIED_TEST)) || !(o->reference = strdup(ref)) ||
	    !(o->crash = strdup(crash)) || !(o->sentence = strdup(text)))
		return -ENOMEM;
	return 0;
}

/* Where a level's loss sentences go besides the metric's list. */
enum { TO_METRIC_ONLY = -2, TO_ANSWERS = -1 };
/* Pairs that share a cell are not pooled; up to this many become
 * headlines each (as report_cmp.c's). */
#define MAX_DEPENDENT_HEADLINES 4

static int push_answer(struct builder *bd, int to, const char *sentence)
{
	if (to >= 0)
		return model_push_string(&bd->asked[to], &bd->n_asked[to], sentence);
	return model_push_string(&bd->m->headlines, &bd->m->n_headlines, sentence);
}

/* Question TO's answer: the loss joined to its speed answer when it has
 * one ("...; after a host crash: ..."), else a sentence of its own. */
static int answer_question(struct builder *bd, int to, const struct model_loss_comparison *c,
			   const char *tail)
{
	if (!bd->speed_answer[to])
		return push_answer(bd, to, c->sentence);
	char **speed = &bd->asked[to][bd->speed_answer[to] - 1], *joined;
	if (asprintf(&joined, "%s; %s", *speed, tail) < 0)
		return -ENOMEM;
	free(*speed);
	*speed = joined;
	return 0;
}

/* Level L of axis A against REF_LEVEL: each pair of durability cells,
 * then the pairs as strata of one exact test; the answers to TO. */
static int compare_level(struct builder *bd, const struct mcells *m, size_t a, size_t l,
			 size_t ref_level, struct model_metric *out, int to)
{
	const struct axis *ax = &bd->axes[a];
	const char *level = ax->levels[l], *ref = ax->levels[ref_level];
	size_t first = out->n_loss_comparisons, k = 0;
	_cleanup_(strata_release) struct strata st = {0};
	const char *crash = NULL;
	char where[256];
	int r = 0;

	for (size_t i = 0; i < m->n && r == 0; i++) {
		const struct rcell *c = m->c[i], *p;
		if (c->lev[a] != l || !sc_of(c)->n_crashes)
			continue;
		for (size_t next = 0; r == 0 && (p = report_cmp_partner(bd, m, c, a, ref_level, &next));) {
			struct crashloss_verdict v;
			/* A cell with no crash has nothing to compare: its
			 * runs' failures are the speed answer's and the
			 * failed runs' list. */
			if (!sc_of(p)->n_crashes ||
			    crashloss_compare(&sc_of(c)->loss, &sc_of(p)->loss, &v) < 0)
				continue;
			struct model_loss_comparison *o =
				MODEL_PUSH(out->loss_comparisons, out->n_loss_comparisons);
			if (!o || report_cmp_where(bd, a, c, p, &o->held, &o->n_held, &o->at,
						   &o->n_at, where, sizeof where) < 0) {
				r = -ENOMEM;
				break;
			}
			const char *kind = crash_of(c);
			crash = !crash || strcmp(crash, kind) == 0 ? kind : "guest or host";
			r = comparison_fill(ax, level, ref, crash_of(c), &sc_of(c)->loss,
					    &sc_of(p)->loss, &v, where, o);
			if (r == 0)
				r = strata_add(&st, c, p, where);
			k++;
		}
	}
	size_t head = k == 1 ? first : SIZE_MAX;
	bool disagree = false;
	char tail[900];
	if (r == 0 && k > 1 && !st.shared) {
		struct model_loss_comparison *o =
			MODEL_PUSH(out->loss_comparisons, out->n_loss_comparisons);
		report_cmp_pooled_where(bd, a, k, "stratified", where, sizeof where);
		r = o ? stratified_fill(ax, level, ref, crash, &st, where, o) : -ENOMEM;
		head = out->n_loss_comparisons - 1;
		disagree = r == 0 && o->disagree;
	}
	if (r < 0 || to == TO_METRIC_ONLY || k == 0)
		return r;
	/* A question's pairs are each an answer too (on LVM, on qcow2);
	 * pairs that share a cell, or whose settings point different ways,
	 * are each a headline, as many as can be read. */
	bool each = to >= 0 || head == SIZE_MAX || disagree;
	for (size_t i = first; r == 0 && k > 1 && each && i < first + k &&
			       (to >= 0 || i < first + MAX_DEPENDENT_HEADLINES);
	     i++)
		r = push_answer(bd, to, out->loss_comparisons[i].sentence);
	if (r < 0 || head == SIZE_MAX)
		return r;
	const struct model_loss_comparison *h = &out->loss_comparisons[head];
	if (to < 0)
		return push_answer(bd, to, h->sentence);
	/* The sentence without its "LEVEL vs REF, ". */
	snprintf(tail, sizeof tail, "%s", h->sentence + strlen(level) + strlen(ref) + 6);
	return answer_question(bd, to, h, tail);
}

/* Whether question Q asks what was lost: of no metric (each workload's
 * primary, and the loss beside them) or of "lost". */
static bool asks_loss(const struct question *q)
{
	return !*q->metric || strcmp(q->metric, "lost") == 0;
}

int report_loss_cmp(struct builder *bd, const struct mcells *m, struct model_metric *out)
{
	size_t a, l, ref;
	int r;

	for (size_t q = 0; q < bd->qs.n; q++)
		if (asks_loss(&bd->qs.q[q]) &&
		    report_cmp_question_levels(bd, &bd->qs.q[q], &a, &l, &ref) &&
		    (r = compare_level(bd, m, a, l, ref, out, (int)q)) < 0)
			return r;
	for (a = 0; a < bd->n_axes; a++) {
		const struct axis *ax = &bd->axes[a];
		if (!varied(ax) || report_cmp_same_as_earlier(bd, a) ||
		    strcmp(ax->levels[ax->ref], "-") == 0)
			continue;
		for (size_t lv = 0; lv < ax->n_levels; lv++) {
			bool asked = false;
			for (size_t q = 0; q < bd->qs.n && !asked; q++) {
				size_t qa, ql, qr;
				asked = asks_loss(&bd->qs.q[q]) &&
					report_cmp_question_levels(bd, &bd->qs.q[q], &qa, &ql, &qr) &&
					qa == a &&
					((ql == lv && qr == ax->ref) || (ql == ax->ref && qr == lv));
			}
			if (lv != ax->ref && strcmp(ax->levels[lv], "-") != 0 && !asked &&
			    (r = compare_level(bd, m, a, lv, ax->ref, out, TO_ANSWERS)) < 0)
				return r;
		}
	}
	return 0;
}
