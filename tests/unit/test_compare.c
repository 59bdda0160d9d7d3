/* Comparisons: the ratio of geometric means and its Welch interval
 * against values computed independently, and the numbers as printed.
 *
 * The expected values were computed once with SciPy 1.10.1 (Debian's
 * python3-scipy) by
 *   la, lb = numpy.log(a), numpy.log(b)
 *   u = la.var(ddof=1)/len(la) + lb.var(ddof=1)/len(lb)
 *   df = u**2 / ((la.var(ddof=1)/len(la))**2/(len(la)-1) + (lb...)**2/(len(lb)-1))
 *   h = scipy.stats.t.ppf(0.975, df) * sqrt(u)
 *   exp(la.mean()-lb.mean()), exp(... - h), exp(... + h), df
 * with the t statistic checked against scipy.stats.ttest_ind(la, lb,
 * equal_var=False); for the pooled case the same sums over both strata,
 * h divided by the number of strata. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "compare.h"
#include "stats.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static void check(const double *a, size_t na, const double *b, size_t nb,
		  double ratio, double low, double high, double df)
{
	struct compare_ratio c;
	assert_int_equal(compare_ratio(a, na, b, nb, 0.95, &c), 0);
	assert_float_equal(c.ratio, ratio, 1e-12 * ratio);
	assert_float_equal(c.low, low, 1e-9 * low);
	assert_float_equal(c.high, high, 1e-9 * high);
	assert_float_equal(c.df, df, 1e-9 * df);
	assert_int_equal(c.n_level, na);
	assert_int_equal(c.n_reference, nb);
	assert_int_equal(c.shown, low > 1 || high < 1);
}

static void test_unequal(void **state)
{
	(void)state;
	/* unequal n (5 vs 3) and unequal variance */
	static const double a[] = {12.1, 14.3, 13.8, 15.2, 11.9}, b[] = {8.2, 9.9, 7.1};
	check(a, N(a), b, N(b), 1.610061295773958, 1.1447327376528162,
	      2.2645437584537129, 3.011705845201416);
	/* 7 runs tight against 2 spread: df near 1, a very wide interval */
	static const double c[] = {1000, 1010, 990, 1005, 995, 1002, 998},
			    d[] = {700, 900};
	check(c, N(c), d, N(d), 1.2598583581360876, 0.25589044262213145,
	      6.2028228420754665, 1.0007782601313164);
}

static void test_n2(void **state)
{
	(void)state;
	static const double a[] = {101, 99}, b[] = {100, 104};
	check(a, N(a), b, N(b), 0.98053164543134852, 0.85751287813234778,
	      1.1211986807548788, 1.4871567055567601);
}

static void test_zero_variance(void **state)
{
	(void)state;
	/* One side constant: df is the other side's n-1. */
	static const double a[] = {5, 5, 5}, b[] = {4.0, 4.4, 3.9, 4.1};
	check(a, N(a), b, N(b), 1.2207584003172514, 1.1239209690125942,
	      1.325939379220209, 3);

	/* Both constant: runs that did not vary say nothing of how much
	 * runs vary, so there is no interval (not one of no width) and
	 * nothing is shown, however far apart the sides are. */
	struct compare_ratio c;
	static const double e[] = {7, 7}, f[] = {7, 7, 7};
	assert_int_equal(compare_ratio(e, N(e), f, N(f), 0.95, &c), 0);
	assert_true(c.ratio == 1 && isnan(c.low) && isnan(c.high) && c.no_spread);
	assert_false(c.shown);
	static const double g[] = {14, 14};
	assert_int_equal(compare_ratio(g, N(g), f, N(f), 0.95, &c), 0);
	assert_float_equal(c.ratio, 2, 1e-15);
	assert_true(isnan(c.low) && c.no_spread && !c.shown);
	/* Pooled, each stratum constant: the same. */
	struct compare_sample level[] = {{g, N(g)}, {e, N(e)}}, ref[] = {{f, N(f)}, {f, N(f)}};
	assert_int_equal(compare_ratio_pooled(level, ref, 2, 0.95, &c), 0);
	assert_true(isnan(c.low) && c.no_spread && !c.shown);
	/* One stratum that varies gives the pooled one an interval. */
	level[1] = (struct compare_sample){b, N(b)};
	assert_int_equal(compare_ratio_pooled(level, ref, 2, 0.95, &c), 0);
	assert_true(!isnan(c.low) && !c.no_spread);
	/* One side constant is not no spread: the other's is measured. */
	assert_int_equal(compare_ratio(a, N(a), b, N(b), 0.95, &c), 0);
	assert_false(c.no_spread);
}

static void test_pooled(void **state)
{
	(void)state;
	static const double a1[] = {12.1, 14.3, 13.8, 15.2, 11.9}, b1[] = {8.2, 9.9, 7.1},
			    a2[] = {30, 33, 31}, b2[] = {20, 26, 22, 21};
	struct compare_sample level[] = {{a1, N(a1)}, {a2, N(a2)}},
			      ref[] = {{b1, N(b1)}, {b2, N(b2)}};
	struct compare_ratio c;
	assert_int_equal(compare_ratio_pooled(level, ref, 2, 0.95, &c), 0);
	assert_float_equal(c.ratio, 1.5089448074354093, 1e-12);
	assert_float_equal(c.low, 1.2859284125415638, 1e-9);
	assert_float_equal(c.high, 1.7706385594094569, 1e-9);
	assert_float_equal(c.df, 5.0469616091936258, 1e-9);
	assert_int_equal(c.n_level, 8);
	assert_int_equal(c.n_reference, 7);
	assert_true(c.shown);
	/* One stratum pooled is the plain comparison. */
	struct compare_ratio one;
	assert_int_equal(compare_ratio_pooled(level, ref, 1, 0.95, &c), 0);
	assert_int_equal(compare_ratio(a1, N(a1), b1, N(b1), 0.95, &one), 0);
	assert_true(c.ratio == one.ratio && c.low == one.low &&
		    c.high == one.high && c.df == one.df);
}

static void test_bad(void **state)
{
	(void)state;
	struct compare_ratio c = {.ratio = 42};
	static const double a[] = {1, 2}, z[] = {0, 1}, inf[] = {INFINITY, 1};
	assert_int_equal(compare_ratio(a, 2, z, 2, 0.95, &c), -EDOM);
	assert_int_equal(compare_ratio(inf, 2, a, 2, 0.95, &c), -EDOM);
	assert_int_equal(compare_ratio(a, 0, a, 2, 0.95, &c), -EINVAL);
	assert_int_equal(compare_ratio_pooled(NULL, NULL, 0, 0.95, &c), -EINVAL);
	assert_true(c.ratio == 42); /* untouched on error */
	/* One run on a side: a ratio, no interval, nothing shown. */
	assert_int_equal(compare_ratio(a, 1, a, 2, 0.95, &c), 0);
	assert_true(isnan(c.low) && isnan(c.high) && !c.shown);
}

static void test_display(void **state)
{
	(void)state;
	char buf[64];
	/* summary.txt printed "344.570518 +/- 1376.417798" for this n=2 cell */
	assert_true(stats_display(344.570518, 1376.417798, 2, buf, sizeof buf));
	assert_string_equal(buf, "340, interval wider than the mean (n=2)");
	assert_true(stats_display(0.0123, 0.05, 3, buf, sizeof buf));
	assert_string_equal(buf, "0.012, interval wider than the mean (n=3)");
	assert_false(stats_display(70.062400, 1.439401, 5, buf, sizeof buf));
	assert_string_equal(buf, "70.1 ± 1.4");
	assert_false(stats_display(1234.5, 25.3, 5, buf, sizeof buf));
	assert_string_equal(buf, "1235 ± 25");
	assert_false(stats_display(123456, 2345, 5, buf, sizeof buf));
	assert_string_equal(buf, "123500 ± 2300");
	assert_false(stats_display(0.012345, 0.00367, 5, buf, sizeof buf));
	assert_string_equal(buf, "0.0123 ± 0.0037");
	/* 99.7 rounds to 100: two significant digits, not three */
	assert_false(stats_display(512.3, 99.7, 5, buf, sizeof buf));
	assert_string_equal(buf, "510 ± 100");
	/* No run differed: no "± 0", an interval of no width. */
	assert_false(stats_display(7, 0, 3, buf, sizeof buf));
	assert_string_equal(buf, "7 in each of 3 runs");
	assert_false(stats_display(12.3456, NAN, 1, buf, sizeof buf));
	assert_string_equal(buf, "12.35 (n=1)");

	compare_percent(1.54, 0, buf, sizeof buf);
	assert_string_equal(buf, "+54%");
	compare_percent(0.9651, 0, buf, sizeof buf);
	assert_string_equal(buf, "-3%");
	compare_percent(0.9999, 0, buf, sizeof buf);
	assert_string_equal(buf, "+0%");
	compare_percent(1.0042, 1, buf, sizeof buf);
	assert_string_equal(buf, "+0.4%");
	assert_int_equal(compare_percent_decimals(1.41, 1.68), 0);
	assert_int_equal(compare_percent_decimals(1.001, 1.008), 1);
	assert_int_equal(compare_percent_decimals(1.0001, 1.0008), 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_unequal),
		cmocka_unit_test(test_n2),
		cmocka_unit_test(test_zero_variance),
		cmocka_unit_test(test_pooled),
		cmocka_unit_test(test_bad),
		cmocka_unit_test(test_display),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
