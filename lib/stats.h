/* Descriptive statistics of repeated runs: the numbers the summary prints
 * for each cell and metric, with a Student-t 95% confidence interval
 * computed from exact t quantiles (no normal approximation, no table), and
 * a value rounded to what its interval supports, as report.txt and
 * summary.txt print it. */
#ifndef BUILDAPP_STATS_H
#define BUILDAPP_STATS_H

#include <stdbool.h>
#include <stddef.h>

struct stats {
	size_t n;
	double mean;
	double sd;    /* sample standard deviation (n-1); NAN when n < 2 */
	double ci95;  /* half-width of the 95% CI of the mean; NAN when n < 2 */
	double min;
	double max;
	double first; /* the first sample, in the order given */
};

/* Statistics of the N samples V (in run order).  Returns 0, or -EINVAL
 * when N is 0; *ret is set only on success. */
int stats_compute(const double *v, size_t n, struct stats *ret);

/* Half-width of the two-sided CONFIDENCE (e.g. 0.95) interval of the mean
 * for N samples of standard deviation SD: t(1-(1-c)/2, n-1) * sd / sqrt(n).
 * NAN when N < 2. */
double stats_ci_halfwidth(double sd, size_t n, double confidence);

/* Regularized incomplete beta function I_x(a, b), a, b > 0, 0 <= x <= 1. */
double stats_incbeta(double a, double b, double x);
/* The exact (Clopper-Pearson) two-sided CONFIDENCE interval of the
 * proportion of X successes in N trials, into *LOW and *HIGH (0 and 1 at
 * the ends: 0 of N has LOW 0).  Returns 0, or -EINVAL when N is 0 or X
 * is above N. */
int stats_binomial_interval(unsigned long long x, unsigned long long n,
			    double confidence, double *low, double *high);
/* Fisher's exact test of X1 of N1 against X2 of N2 (a 2x2 table, its
 * margins fixed): the two-sided p into *RET_P, the probability of every
 * table with those margins that is no more probable than the one observed
 * (R's fisher.test and SciPy's fisher_exact, with their relative
 * tolerance of 1e-7 for tables as probable).  Returns 0, or -EINVAL when
 * N1 or N2 is 0 or an X is above its N. */
/* Sides of up to this many trials get Boschloo's test; larger ones
 * Fisher's (stats_boschloo_exact), whose cost does not grow with them. */
#define STATS_BOSCHLOO_MAX 60

/* Boschloo's exact unconditional test of X1 of N1 against X2 of N2, the
 * margins not fixed (Boschloo 1970): each one-sided p the largest over
 * the common proportion pi of the probability of every table whose
 * Fisher one-sided p is at most the one observed, and the two-sided p
 * twice the smaller of the two, at most 1 (SciPy's boschloo_exact, whose
 * values it is tested against).  More powerful than Fisher's at the
 * same level: 3 of 3 against 0 of 3 is 0.031 where Fisher's p is 0.1.
 * With N1 or N2 above STATS_BOSCHLOO_MAX, Fisher's two-sided p instead
 * (the maximum's cost grows as N1 N2).  Returns 0, -ENOMEM, or -EINVAL
 * as stats_fisher_exact. */
int stats_boschloo_exact(unsigned long long x1, unsigned long long n1, unsigned long long x2,
			 unsigned long long n2, double *ret_p);

int stats_fisher_exact(unsigned long long x1, unsigned long long n1, unsigned long long x2,
		       unsigned long long n2, double *ret_p);
/* The median of the N values V (V is not changed); NAN when N is 0 or out
 * of memory. */
double stats_median(const double *v, size_t n);
/* Half-width of Hoeffding's two-sided CONFIDENCE interval of the mean of
 * N independent values in [0, 1], whatever their distribution:
 * sqrt(ln(2 / (1 - c)) / (2 n)).  NAN when N is 0. */
double stats_hoeffding_halfwidth(size_t n, double confidence);
/* Student-t cumulative distribution function with DF degrees of freedom. */
double stats_t_cdf(double t, double df);
/* Its inverse: the t with stats_t_cdf(t, df) == P, 0 < P < 1 (NAN outside). */
double stats_t_quantile(double p, double df);

/* The place 10^p that stats_display rounds a value with the interval
 * half-width HALF to: that of HALF's second significant digit (99.7 -> 0:
 * "100").  Returns p; INT_MIN when HALF is not a positive finite number. */
int stats_display_place(double half);
/* V rounded to the place 10^PLACE, as text ("1230" for PLACE 1, "0.25"
 * for -2; never "-0"), into BUF of SIZE bytes. */
void stats_round_text(double v, int place, char *buf, size_t size);
/* MEAN with the half-width HALF of its interval, for people: the mean is
 * rounded to the place of the second significant digit of HALF ("1230 ±
 * 25"), the mean to two significant digits and "interval wider than the
 * mean (n=N)" when HALF is as large as the mean, and "1235 (n=1)" (four
 * significant digits) without an interval (HALF NAN).  Writes into BUF
 * (SIZE bytes, 48 is enough); returns true when the interval is too wide. */
bool stats_display(double mean, double half, size_t n, char *buf,
		   size_t size);

#endif
