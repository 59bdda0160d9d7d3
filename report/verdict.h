/* Verdicts on a published claim from a comparison's interval, by the
 * rules of docs/results.md ("Verdicts"): a claim about a direction
 * ("lower", "higher", optionally by at least a factor) is reproduced only
 * when the whole interval lies on the claim's side of its boundary; a
 * claim of closeness ("close to") needs an equivalence bound and the
 * interval of two one-sided tests inside it; anything else is "not
 * resolved at n=...", with the runs a side that would resolve it at the
 * measured spread. */
#ifndef BUILDAPP_VERDICT_H
#define BUILDAPP_VERDICT_H

#include <stdbool.h>
#include <stddef.h>

enum verdict_claim_kind {
	VERDICT_LOWER,      /* the level's mean below the reference's */
	VERDICT_HIGHER,     /* above it */
	VERDICT_EQUIVALENT, /* within +-bound of it */
	/* No worse than it by more than the bound: the ratio at most
	 * 1 + bound (a metric better lower), or at least 1 - bound. */
	VERDICT_NOT_ABOVE,
	VERDICT_NOT_BELOW,
};

struct verdict_claim {
	enum verdict_claim_kind kind;
	/* LOWER/HIGHER: by at least this factor (2: half, or twice); 1: any
	 * difference. */
	double factor;
	/* EQUIVALENT, NOT_ABOVE, NOT_BELOW: the bound as a fraction (0.1:
	 * the ratio within [0.9, 1.1], at most 1.1, at least 0.9); 0 or
	 * NAN: none stated, which no interval can satisfy. */
	double bound;
};

/* A comparison as the report gives it (model.h's struct model_comparison):
 * the ratio of the level's geometric mean to the reference's, its
 * two-sided CONFIDENCE interval (NAN: a side had fewer than 2 runs), the
 * Welch-Satterthwaite degrees of freedom and the runs on each side.
 * A comparison whose runs did not vary, or over settings that go
 * different ways, is not resolved, whatever its ratio. */
struct verdict_ratio {
	double ratio, low, high, df;
	unsigned n_level, n_reference;
	/* No run varied at the resolution the values were recorded to
	 * (compare.h's no_spread): there is no interval.  An interval of no
	 * width (LOW == HIGH) reads the same. */
	bool no_spread;
	/* Over several settings that were shown to go different ways (the
	 * model's settings_disagree): no answer over them. */
	bool disagree;
};

enum verdict_outcome {
	VERDICT_REPRODUCED,
	VERDICT_NOT_REPRODUCED,
	VERDICT_NOT_RESOLVED,
	VERDICT_CANNOT_JUDGE, /* an equivalence claim with no bound */
};

/* The runs a side past which VERDICT_NOT_RESOLVED's estimate is not
 * given ("more than ..."). */
#define VERDICT_N_MAX 1000

struct verdict {
	enum verdict_outcome outcome;
	/* NOT_RESOLVED with an interval: the runs a side with which an
	 * interval of the measured spread around the measured ratio would
	 * no longer hold the claim's boundary; VERDICT_N_MAX + 1 when not
	 * within VERDICT_N_MAX (or never: a ratio on the boundary), 0 when
	 * there is no interval to scale. */
	unsigned n_needed;
	/* EQUIVALENT, NOT_ABOVE, NOT_BELOW: the interval whose ends are the
	 * one-sided tests at 1 - CONFIDENCE (a 90% interval for 95%). */
	double tost_low, tost_high;
	/* The verdict in words: "reproduced", "not reproduced: the other
	 * way", "not resolved at n=3 each: about 12 runs a side would
	 * resolve it at the measured spread", ... */
	char text[192];
};

/* Judges CLAIM on R at CONFIDENCE (0.95: R's interval is a 95% one) into
 * *RET.  The ratio is level over reference whatever the metric's better
 * direction: LOWER means a smaller mean.  Returns 0, or -EINVAL when R's
 * ratio is not a positive finite number or CLAIM's factor is below 1. */
int verdict_judge(const struct verdict_claim *claim, const struct verdict_ratio *r,
		  double confidence, struct verdict *ret);

/* R the other way round: reference over level, its interval inverted. */
struct verdict_ratio verdict_ratio_inverse(const struct verdict_ratio *r);

#endif
