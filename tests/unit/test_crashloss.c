/* Loss with the crash as its unit (lib/crashloss.h) and the statistics it
 * rests on (lib/stats.h): Fisher's, Boschloo's and the stratified exact
 * tests, the median, Hoeffding's half-width, each crash's fraction, k of
 * n crashes with its exact interval, the crashes that would resolve a
 * comparison, and the texts.  Expected values were computed
 * independently with SciPy 1.10.1 (Debian 12's python3-scipy) or R 4.2.2
 * (tests/unit/data/exact-tests.R), as the comments give them; the test
 * needs neither. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "crashloss.h"
#include "stats.h"

static void assert_close(double got, double want, double rel)
{
	if (!(fabs(got - want) <= rel * fabs(want) + 1e-300)) {
		fprintf(stderr, "got %.17g, want %.17g\n", got, want);
		fail();
	}
}

/* scipy.stats.fisher_exact([[x1, n1 - x1], [x2, n2 - x2]])[1]. */
static void test_fisher(void **state)
{
	static const struct {
		unsigned x1, n1, x2, n2;
		double p;
	} known[] = {
		{5, 5, 0, 5, 0.007936507936507938},   {4, 4, 0, 4, 0.028571428571428567},
		{3, 3, 0, 3, 0.10000000000000002},    {2, 2, 0, 2, 0.3333333333333333},
		{1, 1, 0, 1, 1.0},                    {2, 5, 0, 5, 0.4444444444444444},
		{3, 7, 1, 9, 0.2615384615384615},     {0, 5, 0, 5, 1.0},
		{5, 5, 5, 5, 1.0},                    {12, 40, 3, 38, 0.020121253127225455},
		{6, 6, 0, 6, 0.0021645021645021645},  {10, 20, 10, 20, 1.0},
		{1, 12, 0, 12, 1.0},                  {30, 100, 18, 100, 0.06791000101375219},
		{250, 600, 200, 600, 0.0034585498041490156},
	};
	double p;

	(void)state;
	for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
		assert_int_equal(stats_fisher_exact(known[i].x1, known[i].n1, known[i].x2,
						    known[i].n2, &p), 0);
		assert_close(p, known[i].p, 1e-10);
		/* The test is symmetric in its two rows. */
		assert_int_equal(stats_fisher_exact(known[i].x2, known[i].n2, known[i].x1,
						    known[i].n1, &p), 0);
		assert_close(p, known[i].p, 1e-10);
	}
	assert_int_equal(stats_fisher_exact(0, 0, 0, 5, &p), -EINVAL);
	assert_int_equal(stats_fisher_exact(6, 5, 0, 5, &p), -EINVAL);
}

/* scipy.stats.boschloo_exact([[x1, x2], [n1 - x1, n2 - x2]],
 * alternative='two-sided', n=1024).pvalue, and from 3 of 7 against 10 of
 * 11 on tests/unit/data/exact-tests.R's enumeration (R 4.2.2): sides of
 * any size, none of them Fisher's test. */
static void test_boschloo(void **state)
{
	static const struct {
		unsigned x1, n1, x2, n2;
		double p;
	} known[] = {
		{5, 5, 0, 5, 0.001953125},             {3, 3, 0, 3, 0.031250000000000014},
		{2, 2, 0, 2, 0.125},                   {1, 1, 0, 1, 0.5},
		{4, 5, 0, 5, 0.021484375000000003},    {3, 4, 0, 4, 0.07031250000000003},
		{2, 5, 0, 5, 0.18737689998255908},     {3, 7, 1, 9, 0.24820109734950974},
		{7, 10, 2, 9, 0.049510745264285734},   {12, 20, 3, 18, 0.007104351110086174},
		{0, 5, 0, 5, 1.0},                     {5, 5, 5, 5, 1.0},
		{1, 12, 0, 12, 0.838819742202757},     {20, 40, 10, 38, 0.033200079262733426},
		{3, 7, 10, 11, 0.051110171375061034},  {4, 16, 0, 16, 0.050227551255375195},
		{4, 61, 0, 61, 0.084981409127447477},  {10, 61, 2, 61, 0.023216451609559124},
		{1, 90, 0, 90, 0.9406117367092578},    {5, 90, 0, 90, 0.043871392102875093},
		{4, 89, 0, 89, 0.090825952738050636},  {30, 100, 18, 100, 0.055965744742073394},
		{5, 200, 0, 200, 0.051040223323623839}, {20, 200, 8, 200, 0.024327832554121989},
		{100, 300, 80, 300, 0.079092557502727937},
	};
	double p, f;
	bool at_most;

	(void)state;
	for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
		assert_int_equal(stats_boschloo_exact(known[i].x1, known[i].n1, known[i].x2,
						      known[i].n2, &p), 0);
		assert_close(p, known[i].p, 1e-7);
		assert_int_equal(stats_boschloo_exact(known[i].x2, known[i].n2, known[i].x1,
						      known[i].n1, &p), 0);
		assert_close(p, known[i].p, 1e-7);
		/* The decision the estimate of crashes makes, at 0.05 and
		 * on either side of this p. */
		assert_int_equal(stats_boschloo_at_most(known[i].x1, known[i].n1, known[i].x2,
							known[i].n2, 0.05, &at_most), 0);
		assert_true(at_most == (known[i].p <= 0.05));
		assert_int_equal(stats_boschloo_at_most(known[i].x1, known[i].n1, known[i].x2,
							known[i].n2, known[i].p * 1.001, &at_most), 0);
		assert_true(at_most);
		assert_int_equal(stats_boschloo_at_most(known[i].x1, known[i].n1, known[i].x2,
							known[i].n2, known[i].p * 0.999, &at_most), 0);
		assert_false(at_most);
	}
	/* Not Fisher's past 60 a side: 30 of 100 against 18 of 100 is 0.0679
	 * by Fisher's (test_fisher). */
	assert_int_equal(stats_boschloo_exact(30, 100, 18, 100, &p), 0);
	assert_int_equal(stats_fisher_exact(30, 100, 18, 100, &f), 0);
	assert_true(p < f - 0.01);
	/* Two-sided, Boschloo's test is not uniformly more powerful than
	 * Fisher's: 3 of 7 against 10 of 11 is shown by Fisher's alone (R's
	 * fisher.test: 0.047385620915032657). */
	assert_int_equal(stats_boschloo_exact(3, 7, 10, 11, &p), 0);
	assert_int_equal(stats_fisher_exact(3, 7, 10, 11, &f), 0);
	assert_close(f, 0.047385620915032657, 1e-10);
	assert_true(f <= 0.05 && p > 0.05);
	/* Nor less so: 4 of 16 against none is 0.0502 by Boschloo's, 0.101 by
	 * Fisher's (R: 0.10122358175750827). */
	assert_int_equal(stats_fisher_exact(4, 16, 0, 16, &f), 0);
	assert_close(f, 0.10122358175750827, 1e-10);
	assert_int_equal(stats_boschloo_exact(0, 0, 0, 5, &p), -EINVAL);
	assert_int_equal(stats_boschloo_exact(6, 5, 0, 5, &p), -EINVAL);
	assert_int_equal(stats_boschloo_at_most(6, 5, 0, 5, 0.05, &at_most), -EINVAL);
}

/* The exact conditional test of several strata, against R's
 * mantelhaen.test(exact = TRUE) (tests/unit/data/exact-tests.R); with one
 * stratum, Fisher's test; and the sign of its excess, each stratum's own
 * direction summed. */
static void test_stratified(void **state)
{
	static const struct {
		size_t k;
		struct stats_table t[3];
		double p, excess;
	} known[] = {
		/* The tables whose crashes, added, flip the answer: unsafe
		 * lost in at least as large a share in both settings, 4 of
		 * 15 against 11 of 15 added. */
		{2, {{3, 3, 11, 12}, {1, 12, 0, 3}}, 1.0, 0.4},
		{2, {{5, 5, 0, 5}, {5, 5, 0, 5}}, 3.1494079113126756e-05, 5},
		{3, {{2, 6, 0, 4}, {7, 10, 3, 9}, {1, 4, 1, 4}}, 0.094695552125892701,
		 2.5368421052631582},
		/* Settings that point different ways cancel. */
		{2, {{3, 3, 0, 3}, {0, 3, 3, 3}}, 0.99999999999999989, 0},
		{3, {{3, 4, 0, 4}, {2, 2, 0, 5}, {4, 7, 1, 6}}, 0.001657073085644513,
		 4.2362637362637363},
		/* One stratum: Fisher's (R's fisher.test). */
		{1, {{3, 7, 10, 11}}, 0.047385620915032657, -2.0555555555555554},
	};
	double p, excess;

	(void)state;
	for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
		assert_int_equal(stats_stratified_exact(known[i].t, known[i].k, &p, &excess), 0);
		assert_close(p, known[i].p, 1e-9);
		assert_true(fabs(excess - known[i].excess) < 1e-12);
	}
	struct stats_table bad = {3, 2, 0, 2};
	assert_int_equal(stats_stratified_exact(&bad, 1, &p, &excess), -EINVAL);
	assert_int_equal(stats_stratified_exact(&bad, 0, &p, &excess), -EINVAL);
}

static void test_median_hoeffding(void **state)
{
	const double odd[] = {3, 1, 2}, even[] = {0.26041666666666669, 0.026041666666666668};

	(void)state;
	assert_true(stats_median(odd, 3) == 2);
	assert_true(odd[0] == 3); /* not sorted in place */
	/* statistics.median([50/192, 5/192]) */
	assert_close(stats_median(even, 2), 0.14322916666666669, 1e-15);
	assert_true(isnan(stats_median(odd, 0)));
	/* math.sqrt(math.log(40) / (2 * n)) */
	assert_close(stats_hoeffding_halfwidth(1, 0.95), 1.3581015157406195, 1e-14);
	assert_close(stats_hoeffding_halfwidth(10, 0.95), 0.4294694083467376, 1e-14);
	assert_close(stats_hoeffding_halfwidth(30, 0.95), 0.24795427851769825, 1e-14);
	assert_true(isnan(stats_hoeffding_halfwidth(0, 0.95)));
}

/* k of n crashes with its exact interval: SciPy's
 * binomtest(k, n).proportion_ci(0.95, 'exact'). */
static void test_crashes_that_lost(void **state)
{
	static const struct {
		double fraction[6];
		size_t n, k;
		double low, high;
	} known[] = {
		{{1, 1, 1, 1, 1}, 5, 5, 0.47817624989501856, 1.0},
		{{0, 0, 0, 0, 0}, 5, 0, 0.0, 0.5218237501049814},
		{{50 / 192.0, 5 / 192.0}, 2, 2, 0.15811388300839305, 1.0},
		{{0, 0}, 2, 0, 0.0, 0.841886116991607},
		{{0.03}, 1, 1, 0.025000000000000022, 1.0},
	};
	struct crashloss s;

	(void)state;
	for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
		assert_int_equal(crashloss_compute(known[i].fraction, known[i].n, &s), 0);
		assert_int_equal(s.crashes, known[i].n);
		assert_int_equal(s.lost_any, known[i].k);
		assert_close(s.low, known[i].low, 1e-9);
		assert_close(s.high, known[i].high, 1e-9);
		/* Too few crashes for an interval of the mean fraction. */
		assert_true(isnan(s.mean_low) && isnan(s.mean_high));
	}
	/* Each crash's own fraction: median, range, mean.  3 of 7 crashes
	 * lost: [0.09898827844243689, 0.81594843235993]. */
	const double seven[] = {0, 0.5, 0, 0.01, 0, 0, 1};
	assert_int_equal(crashloss_compute(seven, 7, &s), 0);
	assert_int_equal(s.lost_any, 3);
	assert_close(s.low, 0.09898827844243689, 1e-9);
	assert_close(s.high, 0.81594843235993, 1e-9);
	assert_true(s.median == 0 && s.min == 0 && s.max == 1);
	assert_close(s.mean, 1.51 / 7, 1e-15);
	/* From 10 crashes, Hoeffding's interval of the mean, clipped. */
	const double ten[] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 0.5};
	assert_int_equal(crashloss_compute(ten, 10, &s), 0);
	assert_close(s.mean, 0.95, 1e-15);
	assert_close(s.mean_low, 0.95 - 0.4294694083467376, 1e-12);
	assert_true(s.mean_high == 1);
	/* Bad input. */
	const double bad[] = {0.5, 1.5}, nan_one[] = {NAN};
	assert_int_equal(crashloss_compute(bad, 2, &s), -EINVAL);
	assert_int_equal(crashloss_compute(nan_one, 1, &s), -EINVAL);
	assert_int_equal(crashloss_compute(bad, 0, &s), -EINVAL);
}

static struct crashloss loss_of(size_t k, size_t n)
{
	double f[64] = {0};
	struct crashloss s;

	for (size_t i = 0; i < k; i++)
		f[i] = 1;
	assert_int_equal(crashloss_compute(f, n, &s), 0);
	return s;
}

/* The verdict and the crashes that would resolve it.  The expected
 * counts are the fewest m above both sides' n for which Boschloo's p of
 * xa of m against xb of m is at most 0.05, xa = round(ka m / na), xb =
 * round(kb m / nb) (halves up), found by trying each m in turn: by
 * scipy.stats.boschloo_exact up to 54, by tests/unit/data/exact-tests.R's
 * enumeration from 18 of 16 on. */
static void test_compare(void **state)
{
	static const struct {
		size_t ka, na, kb, nb;
		bool shown;
		unsigned resolve;
	} known[] = {
		{5, 5, 0, 5, true, 0},  {4, 4, 0, 4, true, 0},    {4, 5, 0, 5, true, 0},
		{2, 2, 0, 2, false, 3}, {1, 1, 0, 1, false, 3},   {3, 3, 0, 3, true, 0},
		{3, 4, 0, 4, false, 5}, {2, 5, 0, 5, false, 9},   {3, 7, 1, 9, false, 13},
		{1, 12, 0, 12, false, 54}, {5, 10, 4, 10, false, 181},
		/* p = 0.0502: not shown; Fisher's p is twice that. */
		{4, 16, 0, 16, false, 18},
		/* Past 60 a side: still Boschloo's, in the comparison and in
		 * the estimate (Fisher's would need about 110). */
		{1, 20, 0, 20, false, 90}, {4, 61, 0, 61, false, 69}, {10, 61, 2, 61, true, 0},
		/* Equal proportions: none would. */
		{0, 5, 0, 5, false, 0}, {5, 5, 5, 5, false, 0},   {2, 4, 3, 6, false, 0},
	};
	struct crashloss_verdict v;

	(void)state;
	for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
		struct crashloss a = loss_of(known[i].ka, known[i].na),
				 b = loss_of(known[i].kb, known[i].nb);
		assert_int_equal(crashloss_compare(&a, &b, &v), 0);
		if (v.shown != known[i].shown || v.resolve != known[i].resolve) {
			fprintf(stderr, "%zu of %zu vs %zu of %zu: shown %d resolve %u\n",
				known[i].ka, known[i].na, known[i].kb, known[i].nb, v.shown,
				v.resolve);
			fail();
		}
	}
	/* The test named is the test used, at any number of crashes. */
	struct crashloss a = loss_of(3, 3), b = loss_of(0, 3);
	assert_int_equal(crashloss_compare(&a, &b, &v), 0);
	assert_string_equal(v.test, "Boschloo's exact test");
	assert_close(v.p, 0.031250000000000014, 1e-7);
	a = loss_of(4, 61);
	b = loss_of(0, 61);
	assert_int_equal(crashloss_compare(&a, &b, &v), 0);
	assert_string_equal(v.test, "Boschloo's exact test");
	assert_close(v.p, 0.084981409127447477, 1e-7); /* Fisher's: 0.119 */
	/* 30 of 100 vs 18 of 100: p 0.0560 (Fisher's 0.0679); the estimate
	 * needs 102. */
	a.crashes = b.crashes = 100;
	a.lost_any = 30;
	b.lost_any = 18;
	assert_int_equal(crashloss_compare(&a, &b, &v), 0);
	assert_string_equal(v.test, "Boschloo's exact test");
	assert_close(v.p, 0.055965744742073394, 1e-7);
	assert_true(!v.shown && v.resolve == 102);
	/* Past CRASHLOSS_RESOLVE_STEP the estimate bisects: 6 of 336 against
	 * none is the first m past 61 whose p is at most 0.05 (4 of m up to
	 * 274, 5 of m to 335, each above 0.05 at every m: 5 of 335 is
	 * 0.0537). */
	a = loss_of(1, 61);
	b = loss_of(0, 61);
	assert_int_equal(crashloss_compare(&a, &b, &v), 0);
	assert_int_equal(v.resolve, 336);
	/* Nearly equal: more than the estimate tries. */
	a.lost_any = 50;
	b.lost_any = 49;
	assert_int_equal(crashloss_compare(&a, &b, &v), 0);
	assert_int_equal(v.resolve, CRASHLOSS_RESOLVE_MAX + 1);
	b.crashes = 0;
	assert_int_equal(crashloss_compare(&a, &b, &v), -EINVAL);
}

static void test_percent(void **state)
{
	static const struct {
		double f;
		const char *text;
	} known[] = {
		{0, "0"},          {1, "100"},          {0.0052, "0.52"},   {0.026041666, "2.6"},
		{0.4781762, "48"}, {0.05, "5"},         {0.997, "99.7"},    {0.9996, "99.96"},
		{0.99999, "99.999"}, {0.0000004, "0.00004"}, {0.0996, "10"}, {0.15811, "16"},
	};
	char buf[24];

	(void)state;
	for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
		crashloss_percent(known[i].f, buf, sizeof buf);
		assert_string_equal(buf, known[i].text);
	}
}

/* The texts: k of n with its interval, the fractions per crash. */
static void test_texts(void **state)
{
	char buf[512];
	struct crashloss s;

	(void)state;
	const double two[] = {50 / 192.0, 5 / 192.0};
	assert_int_equal(crashloss_compute(two, 2, &s), 0);
	crashloss_text(&s, two, 2, buf, sizeof buf);
	assert_string_equal(buf, "lost acknowledged writes in 2 of 2 crashes [16%, 100%]; per crash "
				 "26%, 2.6% (median 14%, 2.6% to 26%)");
	crashloss_counts_text(&s, false, buf, sizeof buf);
	assert_string_equal(buf, "lost acknowledged writes in 2 of 2 crashes [16%, 100%]");
	crashloss_range_text(&s, buf, sizeof buf);
	assert_string_equal(buf, ", 2.6% to 26% of them per crash");

	s = loss_of(0, 5);
	const double none[5] = {0};
	crashloss_text(&s, none, 5, buf, sizeof buf);
	assert_string_equal(buf, "lost acknowledged writes in 0 of 5 crashes [0%, 52%]: no loss shown");
	crashloss_counts_text(&s, true, buf, sizeof buf);
	assert_string_equal(buf, "0 of 5 [0%, 52%]");
	crashloss_range_text(&s, buf, sizeof buf);
	assert_string_equal(buf, "");

	const double one[] = {0.26};
	assert_int_equal(crashloss_compute(one, 1, &s), 0);
	crashloss_text(&s, one, 1, buf, sizeof buf);
	assert_string_equal(buf, "lost acknowledged writes in 1 of 1 crash [2.5%, 100%]: 26% of them");
	crashloss_range_text(&s, buf, sizeof buf);
	assert_string_equal(buf, ", 26% of them");

	s = loss_of(5, 5);
	crashloss_range_text(&s, buf, sizeof buf);
	assert_string_equal(buf, ", 100% of them per crash");

	const double ten[] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 0.5};
	assert_int_equal(crashloss_compute(ten, 10, &s), 0);
	crashloss_text(&s, ten, 10, buf, sizeof buf);
	assert_string_equal(buf, "lost acknowledged writes in 10 of 10 crashes [69%, 100%]; per crash "
				 "100%, 100%, 100%, 100%, 100%, 100%, 100%, 100%, 100%, 50% "
				 "(median 100%, 50% to 100%); mean 95% [52%, 100%] (Hoeffding)");
	/* Cut short, the list says so and keeps its tail. */
	char small[100];
	crashloss_text(&s, ten, 10, small, sizeof small);
	assert_non_null(strstr(small, "..."));
	assert_true(strlen(small) < sizeof small);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fisher),
		cmocka_unit_test(test_median_hoeffding),
		cmocka_unit_test(test_crashes_that_lost),
		cmocka_unit_test(test_boschloo),
		cmocka_unit_test(test_stratified),
		cmocka_unit_test(test_compare),
		cmocka_unit_test(test_percent),
		cmocka_unit_test(test_texts),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
