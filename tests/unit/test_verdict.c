/* Verdict rules (report/verdict.c) on comparisons built from a known
 * log-scale standard error: the intervals are made here from t quantiles
 * of published tables (t(0.975, 4) = 2.776445, t(0.975, 10) = 2.228139,
 * t(0.95, 10) = 1.812461), and the runs a side that would resolve a claim
 * were computed independently (Simpson's rule on the t density and
 * bisection, in Python) for the same spread: 12 for the direction case,
 * 19 for the equivalence case. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "verdict.h"

/* A ratio with the 95% interval of a log-scale se at DF, N runs a side. */
static struct verdict_ratio ratio_of(double ratio, double se, double t975, double df, unsigned n)
{
	double d = log(ratio), half = t975 * se;
	return (struct verdict_ratio){ratio, exp(d - half), exp(d + half), df, n, n, false, false};
}

static struct verdict judge(enum verdict_claim_kind kind, double factor, double bound,
			    struct verdict_ratio r)
{
	struct verdict_claim c = {kind, factor, bound};
	struct verdict v;
	assert_int_equal(verdict_judge(&c, &r, 0.95, &v), 0);
	return v;
}

static void test_direction(void **state)
{
	(void)state;
	/* 0.5 [0.379, 0.660]: lower, shown. */
	struct verdict_ratio half = ratio_of(0.5, 0.1, 2.776445, 4, 3);
	struct verdict v = judge(VERDICT_LOWER, 1, 0, half);
	assert_int_equal(v.outcome, VERDICT_REPRODUCED);
	assert_string_equal(v.text, "reproduced");
	v = judge(VERDICT_HIGHER, 1, 0, half);
	assert_int_equal(v.outcome, VERDICT_NOT_REPRODUCED);
	assert_string_equal(v.text, "not reproduced: the other way");
	/* The claim worded the other way round: the inverse is higher. */
	struct verdict_ratio inv = verdict_ratio_inverse(&half);
	assert_true(fabs(inv.ratio - 2.0) < 1e-12);
	assert_true(fabs(inv.low - 1.0 / half.high) < 1e-12);
	v = judge(VERDICT_HIGHER, 1, 0, inv);
	assert_int_equal(v.outcome, VERDICT_REPRODUCED);

	/* "At least twice as fast" on a ratio measured at 0.5: the interval
	 * holds the boundary, and no number of runs moves it off. */
	v = judge(VERDICT_LOWER, 2, 0, half);
	assert_int_equal(v.outcome, VERDICT_NOT_RESOLVED);
	assert_int_equal(v.n_needed, VERDICT_N_MAX + 1);
	assert_string_equal(v.text, "not resolved at n=3 each: more than 1000 runs a side "
				    "would be needed at the measured spread");

	/* 0.7 [0.6, 0.8]-ish: lower, but not by 2x. */
	v = judge(VERDICT_LOWER, 2, 0, ratio_of(0.7, 0.05, 2.776445, 4, 3));
	assert_int_equal(v.outcome, VERDICT_NOT_REPRODUCED);
	assert_string_equal(v.text, "not reproduced: lower, but by less than 2x");
	/* 1.0 +- a little: neither 2x lower nor a difference. */
	v = judge(VERDICT_LOWER, 2, 0, ratio_of(1.0, 0.05, 2.776445, 4, 3));
	assert_string_equal(v.text, "not reproduced: not 2x lower (the interval excludes it)");

	/* 0.9 with se 0.1 at n=3 (df 4): not resolved; 12 runs a side. */
	v = judge(VERDICT_LOWER, 1, 0, ratio_of(0.9, 0.1, 2.776445, 4, 3));
	assert_int_equal(v.outcome, VERDICT_NOT_RESOLVED);
	assert_int_equal(v.n_needed, 12);
	assert_string_equal(v.text, "not resolved at n=3 each: about 12 runs a side would "
				    "resolve it at the measured spread");
}

static void test_equivalence(void **state)
{
	(void)state;
	/* 1.02, se 0.03 at df 10: the 90% interval is [0.966, 1.077]. */
	struct verdict_ratio r = ratio_of(1.02, 0.03, 2.228139, 10, 6);
	struct verdict v = judge(VERDICT_EQUIVALENT, 1, 0.10, r);
	assert_int_equal(v.outcome, VERDICT_REPRODUCED);
	assert_true(fabs(v.tost_low - 0.96602) < 2e-5);
	assert_true(fabs(v.tost_high - 1.07700) < 2e-5);
	assert_string_equal(v.text, "reproduced: within ±10% (two one-sided tests: 90% interval [-3%, +8%])");

	/* Within +-5%: the interval holds +5%; 19 runs a side would do. */
	v = judge(VERDICT_EQUIVALENT, 1, 0.05, r);
	assert_int_equal(v.outcome, VERDICT_NOT_RESOLVED);
	assert_int_equal(v.n_needed, 19);
	assert_string_equal(v.text, "not resolved at n=6 each: about 19 runs a side would "
				    "resolve it at the measured spread");

	/* Well past the bound. */
	v = judge(VERDICT_EQUIVALENT, 1, 0.10, ratio_of(1.5, 0.05, 2.228139, 10, 6));
	assert_int_equal(v.outcome, VERDICT_NOT_REPRODUCED);
	assert_string_equal(v.text, "not reproduced: differs by more than 10% (90% interval [+37%, +64%])");

	/* No worse by more than 10%, lower better: the 90% interval's upper
	 * end (+8%) is the one-sided test. */
	v = judge(VERDICT_NOT_ABOVE, 1, 0.10, r);
	assert_int_equal(v.outcome, VERDICT_REPRODUCED);
	assert_string_equal(v.text, "reproduced: no more than 10% worse (one-sided test: 90% interval [-3%, +8%])");
	/* Higher better, at 0.8 [0.758, 0.845]: more than 10% below. */
	v = judge(VERDICT_NOT_BELOW, 1, 0.10, ratio_of(0.8, 0.03, 2.228139, 10, 6));
	assert_int_equal(v.outcome, VERDICT_NOT_REPRODUCED);
	assert_string_equal(v.text, "not reproduced: worse by more than 10% (90% interval [-24%, -16%])");

	/* No bound stated: nothing can satisfy the claim, however narrow. */
	v = judge(VERDICT_EQUIVALENT, 1, 0, r);
	assert_int_equal(v.outcome, VERDICT_CANNOT_JUDGE);
	assert_string_equal(v.text, "cannot be judged: the profile states no equivalence bound "
				    "([report] equivalence)");
}

static void test_no_interval(void **state)
{
	(void)state;
	struct verdict_ratio one = {0.6, NAN, NAN, NAN, 1, 1, false, false};
	struct verdict v = judge(VERDICT_LOWER, 1, 0, one);
	assert_int_equal(v.outcome, VERDICT_NOT_RESOLVED);
	assert_int_equal(v.n_needed, 0);
	assert_string_equal(v.text, "not resolved at n=1 each: too few runs for an interval");
	one.n_reference = 2;
	v = judge(VERDICT_EQUIVALENT, 1, 0.1, one);
	assert_string_equal(v.text, "not resolved at n=1 vs 2: too few runs for an interval");

	/* Runs that never varied (at the resolution they were read to) are
	 * not a ratio known exactly: an interval of no width resolves
	 * nothing, whichever way the claim goes, and no more than a
	 * comparison that says so (no_spread, no interval). */
	static const char no_spread[] = "not resolved at n=3 each: no run varied at the "
					"metric's resolution, so there is no interval (a "
					"finer resolution would answer)";
	struct verdict_ratio exact = {0.8, 0.8, 0.8, INFINITY, 3, 3, false, false};
	v = judge(VERDICT_LOWER, 1, 0, exact);
	assert_int_equal(v.outcome, VERDICT_NOT_RESOLVED);
	assert_string_equal(v.text, no_spread);
	v = judge(VERDICT_HIGHER, 1, 0, exact);
	assert_string_equal(v.text, no_spread);
	v = judge(VERDICT_EQUIVALENT, 1, 0.5, exact);
	assert_int_equal(v.outcome, VERDICT_NOT_RESOLVED);
	assert_string_equal(v.text, no_spread);
	struct verdict_ratio flagged = {0.8, NAN, NAN, NAN, 3, 3, true, false};
	v = judge(VERDICT_LOWER, 1, 0, flagged);
	assert_string_equal(v.text, no_spread);
	/* ... and the other way round too. */
	struct verdict_ratio back = verdict_ratio_inverse(&flagged);
	v = judge(VERDICT_HIGHER, 1, 0, back);
	assert_string_equal(v.text, no_spread);
	/* Over settings shown to go different ways: not resolved, however
	 * far the mean's interval lies from no change. */
	struct verdict_ratio mixed = {0.5, 0.4, 0.6, 8, 10, 10, false, true};
	v = judge(VERDICT_LOWER, 1, 0, mixed);
	assert_int_equal(v.outcome, VERDICT_NOT_RESOLVED);
	assert_string_equal(v.text, "not resolved at n=10 each: the settings point different ways");
	mixed.disagree = false;
	v = judge(VERDICT_LOWER, 1, 0, mixed);
	assert_int_equal(v.outcome, VERDICT_REPRODUCED);
	/* Without a bound there is still nothing to judge. */
	v = judge(VERDICT_EQUIVALENT, 1, 0, flagged);
	assert_int_equal(v.outcome, VERDICT_CANNOT_JUDGE);

	struct verdict_claim c = {VERDICT_LOWER, 0.5, 0};
	assert_int_equal(verdict_judge(&c, &exact, 0.95, &v), -EINVAL);
	struct verdict_ratio bad = {0, 0, 0, 4, 3, 3, false, false};
	c.factor = 1;
	assert_int_equal(verdict_judge(&c, &bad, 0.95, &v), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_direction),
		cmocka_unit_test(test_equivalence),
		cmocka_unit_test(test_no_interval),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
