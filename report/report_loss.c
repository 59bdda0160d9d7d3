/* The loss half of the report: what a durability cell's crashes lost,
 * the crash as its unit (lib/crashloss.h), with what the journal
 * recorded of each host crash; and each level's loss against its
 * reference's, per pair of cells and pooled, by the verdict rules of
 * docs/results.md ("Loss by crash").  Records are never pooled across
 * crashes: the records of one crash are not independent trials. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cleanup.h"
#include "crashloss.h"
#include "report_builder.h"

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
	if (!f->present)
		return 0;
	o->has_host_crash = true;
	o->dirty_kib = f->dirty_kib < 0 ? NAN : (double)f->dirty_kib;
	o->writeback_kib = f->writeback_kib < 0 ? NAN : (double)f->writeback_kib;
	o->to_kernel_seconds = f->to_kernel_seconds;
	o->to_sweep_seconds = f->to_sweep_seconds;
	if (!(o->mechanism = strdup(f->mechanism)) ||
	    (f->fallback[0] && !(o->fallback = strdup(f->fallback))) ||
	    (f->disk_write_cache[0] && !(o->disk_write_cache = strdup(f->disk_write_cache))))
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

/* --- comparisons --------------------------------------------------------- */

static struct model_loss_side side_of(const struct crashloss *s)
{
	return (struct model_loss_side){.crashes = (unsigned)s->crashes,
					.lost_any = (unsigned)s->lost_any,
					.low = s->low, .high = s->high, .min = s->min,
					.max = s->max};
}

/* "n=5 crashes each", "n=1 crash each", "n=3 vs 5 crashes". */
static void crashes_text(size_t a, size_t b, char *buf, size_t size)
{
	if (a == b)
		snprintf(buf, size, "n=%zu crash%s each", a, a == 1 ? "" : "es");
	else
		snprintf(buf, size, "n=%zu vs %zu crashes", a, b);
}

/* The verdict of docs/results.md's rules on A (at LEVEL) against B (at
 * REF), into BUF. */
static void verdict_text(const char *level, const char *ref, const struct crashloss *a,
			 const struct crashloss *b, const struct crashloss_verdict *v,
			 char *buf, size_t size)
{
	char ns[48], p[24];

	crashes_text(a->crashes, b->crashes, ns, sizeof ns);
	if (v->p < 0.0001)
		snprintf(p, sizeof p, "p<0.0001");
	else
		snprintf(p, sizeof p, "p=%.2g", v->p);
	if (v->shown) {
		/* k a / n a against k b / n b, cross-multiplied. */
		bool more = a->lost_any * b->crashes > b->lost_any * a->crashes;
		snprintf(buf, size, "%s loses them in more crashes (%s, %s)",
			 more ? level : ref, v->test, p);
	} else if (a->lost_any == 0 && b->lost_any == 0) {
		snprintf(buf, size, "no loss shown at %s", ns);
	} else if (v->resolve == 0) {
		snprintf(buf, size, "no difference shown at %s (%s, %s), nor "
			 "would more crashes show one at these proportions", ns, v->test, p);
	} else if (v->resolve > CRASHLOSS_RESOLVE_MAX) {
		snprintf(buf, size, "no difference shown at %s (%s, %s): more "
			 "than %d crashes a side would be needed at these proportions", ns, v->test,
			 p, CRASHLOSS_RESOLVE_MAX);
	} else {
		snprintf(buf, size, "no difference shown at %s (%s, %s): about "
			 "%u crashes a side would show one if each lost as these did", ns, v->test,
			 p, v->resolve);
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
	snprintf(buf, size, "after a %s crash%s%s%s: %s%s, vs %s%s; %s", crash, *where ? " (" : "",
		 where, *where ? ")" : "", ca, ra, cb, rb, verdict);
}

/* The crashes of LEVEL's cells and REF's cells pooled: each cell's
 * crashes once, whatever the pairs it is in. */
struct pool {
	double *level, *ref;
	size_t n_level, n_ref;
	const struct rcell **seen;
	size_t n_seen;
};

static void pool_release(struct pool *p)
{
	free(p->level);
	free(p->ref);
	free(p->seen);
}

/* Cell C's crash fractions into P's side, once; false when it was there
 * already (the pairs then share a cell and are not pooled). */
static int pool_add(struct pool *p, const struct rcell *c, bool level, bool *shared)
{
	const struct summary_cell *sc = sc_of(c);
	double **v = level ? &p->level : &p->ref;
	size_t *n = level ? &p->n_level : &p->n_ref;

	for (size_t i = 0; i < p->n_seen; i++)
		if (p->seen[i] == c) {
			*shared = true;
			return 0;
		}
	const struct rcell **seen = realloc(p->seen, (p->n_seen + 1) * sizeof *seen);
	if (!seen)
		return -ENOMEM;
	p->seen = seen;
	p->seen[p->n_seen++] = c;
	double *grown = realloc(*v, (*n + sc->n_crashes) * sizeof *grown);
	if (!grown)
		return -ENOMEM;
	*v = grown;
	for (size_t i = 0; i < sc->n_crashes; i++)
		(*v)[(*n)++] = sc->crashes[i].fraction;
	return 0;
}

/* Fills comparison O of LEVEL against REF (its held axes already in). */
static int comparison_fill(const struct axis *ax, const char *level, const char *ref,
			   const char *crash, size_t strata, const struct crashloss *a,
			   const struct crashloss *b, const struct crashloss_verdict *v,
			   const char *where, struct model_loss_comparison *o)
{
	char text[1024], tail[900];

	loss_text(level, ref, crash, where, a, b, v, tail, sizeof tail);
	snprintf(text, sizeof text, "%s vs %s, %s", level, ref, tail);
	*o = (struct model_loss_comparison){.held = o->held, .n_held = o->n_held,
					    .at = o->at, .n_at = o->n_at,
					    .pooled = strata > 1, .strata = (unsigned)strata,
					    .l = side_of(a), .r = side_of(b), .p = v->p,
					    .shown = v->shown, .resolve = v->resolve};
	if (!(o->axis = strdup(ax->name)) || !(o->level = strdup(level)) ||
	    !(o->test = strdup(v->test)) ||
	    !(o->reference = strdup(ref)) || !(o->crash = strdup(crash)) ||
	    !(o->sentence = strdup(text)))
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
 * then their crashes pooled; the answers to TO. */
static int compare_level(struct builder *bd, const struct mcells *m, size_t a, size_t l,
			 size_t ref_level, struct model_metric *out, int to)
{
	const struct axis *ax = &bd->axes[a];
	const char *level = ax->levels[l], *ref = ax->levels[ref_level];
	size_t first = out->n_loss_comparisons, k = 0;
	struct pool pool = {0};
	bool shared = false;
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
			r = comparison_fill(ax, level, ref, crash_of(c), 1, &sc_of(c)->loss,
					    &sc_of(p)->loss, &v, where, o);
			if (r == 0)
				r = pool_add(&pool, c, true, &shared);
			if (r == 0)
				r = pool_add(&pool, p, false, &shared);
			k++;
		}
	}
	size_t head = k == 1 ? first : SIZE_MAX;
	char tail[900];
	struct crashloss pa, pr;
	struct crashloss_verdict v;
	if (r == 0 && k > 1 && !shared && crashloss_compute(pool.level, pool.n_level, &pa) == 0 &&
	    crashloss_compute(pool.ref, pool.n_ref, &pr) == 0 &&
	    crashloss_compare(&pa, &pr, &v) == 0) {
		struct model_loss_comparison *o =
			MODEL_PUSH(out->loss_comparisons, out->n_loss_comparisons);
		report_cmp_pooled_where(bd, a, k, where, sizeof where);
		r = o ? comparison_fill(ax, level, ref, crash, k, &pa, &pr, &v, where, o) : -ENOMEM;
		head = out->n_loss_comparisons - 1;
	}
	pool_release(&pool);
	if (r < 0 || to == TO_METRIC_ONLY || k == 0)
		return r;
	/* A question's pairs are each an answer too (on LVM, on qcow2);
	 * pairs that share a cell are each a headline, as many as can be
	 * read. */
	for (size_t i = first; r == 0 && k > 1 && i < first + k &&
			       (to >= 0 || (head == SIZE_MAX && i < first + MAX_DEPENDENT_HEADLINES));
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
