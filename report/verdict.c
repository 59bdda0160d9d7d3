/* The verdict rules of docs/results.md ("Verdicts"), on the log scale of
 * the report's comparisons: a ratio r with interval [low, high] is
 * d = ln r with a half-width of t * se, so se is recovered from the
 * interval and the degrees of freedom, and the interval that more runs
 * would give is estimated by scaling se by sqrt(n / n'), the degrees of
 * freedom by (n' - 1) / (n - 1). */
#include "verdict.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>

#include "compare.h"
#include "stats.h"

/* Degrees of freedom beyond which t is the normal quantile to the digits
 * that matter here (stats_t_quantile wants a finite one). */
#define DF_MAX 1e6

static double t_quantile(double p, double df)
{
	return stats_t_quantile(p, isfinite(df) && df < DF_MAX ? df : DF_MAX);
}

struct verdict_ratio verdict_ratio_inverse(const struct verdict_ratio *r)
{
	struct verdict_ratio v = *r;
	v.ratio = 1.0 / r->ratio;
	v.low = 1.0 / r->high;
	v.high = 1.0 / r->low;
	v.n_level = r->n_reference;
	v.n_reference = r->n_level;
	return v;
}

/* The fewest runs a side (more than R's fewer side has) with which an
 * interval of quantile P around d, its se scaled from SE, ends short of a
 * boundary DISTANCE away; VERDICT_N_MAX + 1 past that. */
static unsigned runs_needed(const struct verdict_ratio *r, double se, double p, double distance)
{
	unsigned n0 = r->n_level < r->n_reference ? r->n_level : r->n_reference;
	double df = r->df;
	if (n0 < 2 || !(se > 0) || !isfinite(se))
		return 0;
	if (!(distance > 0))
		return VERDICT_N_MAX + 1;
	for (unsigned n = n0 + 1; n <= VERDICT_N_MAX; n++) {
		double df_n = isfinite(df) ? df * (double)(n - 1) / (double)(n0 - 1) : df;
		double se_n = se * sqrt((double)n0 / (double)n);
		if (t_quantile(p, df_n) * se_n < distance)
			return n;
	}
	return VERDICT_N_MAX + 1;
}

static void not_resolved(const struct verdict_ratio *r, struct verdict *v)
{
	char n[32];
	compare_n_text(r->n_level, r->n_reference, n, sizeof n);
	v->outcome = VERDICT_NOT_RESOLVED;
	if (r->disagree)
		snprintf(v->text, sizeof v->text,
			 "not resolved at %s: the settings point different ways", n);
	else if (r->no_spread)
		snprintf(v->text, sizeof v->text,
			 "not resolved at %s: no run varied at the metric's resolution, so there "
			 "is no interval (a finer resolution would answer)", n);
	else if (v->n_needed == 0)
		snprintf(v->text, sizeof v->text, "not resolved at %s: too few runs for an interval", n);
	else if (v->n_needed > VERDICT_N_MAX)
		snprintf(v->text, sizeof v->text,
			 "not resolved at %s: more than %u runs a side would be needed at the measured spread",
			 n, VERDICT_N_MAX);
	else
		snprintf(v->text, sizeof v->text,
			 "not resolved at %s: about %u runs a side would resolve it at the measured spread",
			 n, v->n_needed);
}

/* A direction claim: the boundary is ln(factor) away from no change, on
 * the claim's side. */
static void judge_direction(const struct verdict_claim *c, const struct verdict_ratio *r,
			    double d, double lo, double hi, double se,
			    double confidence, struct verdict *v)
{
	bool lower = c->kind == VERDICT_LOWER;
	double b = lower ? -log(c->factor) : log(c->factor);
	/* Log ends as seen from the claim: "past" is beyond the boundary in
	 * the claim's direction. */
	double near = lower ? hi : lo, far = lower ? lo : hi;
	bool past = lower ? near < b : near > b;
	bool short_of = lower ? far > b : far < b;
	const char *way = lower ? "lower" : "higher";

	if (past) {
		v->outcome = VERDICT_REPRODUCED;
		snprintf(v->text, sizeof v->text, "reproduced");
		return;
	}
	if (short_of) {
		v->outcome = VERDICT_NOT_REPRODUCED;
		bool other_way = lower ? lo > 0 : hi < 0;
		bool same_way = lower ? hi < 0 : lo > 0;
		if (other_way)
			snprintf(v->text, sizeof v->text, "not reproduced: the other way");
		else if (same_way)
			snprintf(v->text, sizeof v->text,
				 "not reproduced: %s, but by less than %gx", way, c->factor);
		else
			snprintf(v->text, sizeof v->text,
				 "not reproduced: not %gx %s (the interval excludes it)",
				 c->factor, way);
		return;
	}
	v->n_needed = runs_needed(r, se, 1.0 - (1.0 - confidence) / 2.0, fabs(d - b));
	not_resolved(r, v);
}

/* A claim against an equivalence bound: within it both ways
 * (EQUIVALENT, two one-sided tests) or no worse than it one way (one
 * test), each at 1 - CONFIDENCE: the ends of the 1 - 2 (1 - CONFIDENCE)
 * interval, at quantile CONFIDENCE. */
static void judge_bounded(const struct verdict_claim *c, const struct verdict_ratio *r,
			  double d, double se, double confidence, struct verdict *v)
{
	if (!(c->bound > 0)) {
		v->outcome = VERDICT_CANNOT_JUDGE;
		snprintf(v->text, sizeof v->text,
			 "cannot be judged: the profile states no equivalence bound ([report] equivalence)");
		return;
	}
	bool below = c->kind != VERDICT_NOT_ABOVE, above = c->kind != VERDICT_NOT_BELOW;
	double lb = below && c->bound < 1 ? log(1.0 - c->bound) : -INFINITY;
	double ub = above ? log(1.0 + c->bound) : INFINITY;
	double half = se > 0 ? t_quantile(confidence, r->df) * se : 0;
	v->tost_low = exp(d - half);
	v->tost_high = exp(d + half);
	char lo[16], hi[16], interval[64];
	int dec = compare_percent_decimals(v->tost_low, v->tost_high);
	compare_percent(v->tost_low, dec, lo, sizeof lo);
	compare_percent(v->tost_high, dec, hi, sizeof hi);
	snprintf(interval, sizeof interval, "%.0f%% interval [%s, %s]",
		 (1.0 - 2.0 * (1.0 - confidence)) * 100.0, lo, hi);
	double pct = c->bound * 100.0;

	if (d - half > lb && d + half < ub) {
		v->outcome = VERDICT_REPRODUCED;
		if (c->kind == VERDICT_EQUIVALENT)
			snprintf(v->text, sizeof v->text,
				 "reproduced: within ±%g%% (two one-sided tests: %s)", pct, interval);
		else
			snprintf(v->text, sizeof v->text,
				 "reproduced: no more than %g%% worse (one-sided test: %s)", pct,
				 interval);
		return;
	}
	if (d + half < lb || d - half > ub) {
		v->outcome = VERDICT_NOT_REPRODUCED;
		if (c->kind == VERDICT_EQUIVALENT)
			snprintf(v->text, sizeof v->text,
				 "not reproduced: differs by more than %g%% (%s)", pct, interval);
		else
			snprintf(v->text, sizeof v->text,
				 "not reproduced: worse by more than %g%% (%s)", pct, interval);
		return;
	}
	double distance = d > lb && d < ub ? fmin(d - lb, ub - d) : fmax(lb - d, d - ub);
	v->n_needed = runs_needed(r, se, confidence, distance);
	not_resolved(r, v);
}

int verdict_judge(const struct verdict_claim *claim, const struct verdict_ratio *r,
		  double confidence, struct verdict *ret)
{
	bool bounded = claim->kind != VERDICT_LOWER && claim->kind != VERDICT_HIGHER;
	if (!(r->ratio > 0) || !isfinite(r->ratio) || (!bounded && !(claim->factor >= 1)))
		return -EINVAL;

	struct verdict v = {.tost_low = NAN, .tost_high = NAN};
	double d = log(r->ratio);
	/* An interval of no width is runs that did not vary, not a ratio
	 * known exactly. */
	if (r->disagree || r->no_spread || (isfinite(r->low) && r->low == r->high)) {
		struct verdict_ratio still = *r;
		still.no_spread = !r->disagree;
		if (bounded && !(claim->bound > 0))
			judge_bounded(claim, &still, d, NAN, confidence, &v);
		else
			not_resolved(&still, &v);
		*ret = v;
		return 0;
	}
	bool interval = isfinite(r->low) && isfinite(r->high) && r->low > 0;
	double lo = interval ? log(r->low) : NAN, hi = interval ? log(r->high) : NAN;
	/* No interval (a side with one run): nothing to judge or scale. */
	if (!interval) {
		if (bounded && !(claim->bound > 0))
			judge_bounded(claim, r, d, NAN, confidence, &v);
		else
			not_resolved(r, &v);
		*ret = v;
		return 0;
	}
	double se = 0;
	if (hi > lo)
		se = (hi - lo) / 2.0 / t_quantile(1.0 - (1.0 - confidence) / 2.0, r->df);

	if (bounded)
		judge_bounded(claim, r, d, se, confidence, &v);
	else
		judge_direction(claim, r, d, lo, hi, se, confidence, &v);
	*ret = v;
	return 0;
}
