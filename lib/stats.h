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
int stats_fisher_exact(unsigned long long x1, unsigned long long n1, unsigned long long x2,
		       unsigned long long n2, double *ret_p);

/* Boschloo's exact unconditional test of X1 of N1 against X2 of N2, the
 * margins not fixed (Boschloo 1970): each one-sided p the largest over
 * the common proportion pi of the probability of every table whose
 * Fisher one-sided p is at most the observed one's, and the two-sided p
 * twice the smaller of the two, at most 1 (SciPy's boschloo_exact).
 * Each one-sided p is at most Fisher's one-sided p, so the one-sided
 * test is uniformly more powerful than Fisher's; the two-sided one is
 * not, against Fisher's two-sided p (tables no more probable): 3 of 7
 * against 10 of 11 is 0.0511 here and 0.0474 by Fisher's.  Where it
 * counts here, at the ends: 3 of 3 against 0 of 3 is 0.031 (Fisher's
 * 0.1).  Its cost grows as N1 (N1 + N2) (the tables at most as extreme)
 * plus N1 + N2 per point of the search over pi.  Returns 0, -ENOMEM, or
 * -EINVAL as stats_fisher_exact. */
int stats_boschloo_exact(unsigned long long x1, unsigned long long n1, unsigned long long x2,
			 unsigned long long n2, double *ret_p);

/* Whether Boschloo's two-sided p of X1 of N1 against X2 of N2 is at most
 * ALPHA, into *RET: stats_boschloo_exact's p, found without its search
 * over pi where the probability at the proportion both sides had
 * together already puts it above ALPHA (for searches over many tables).
 * Returns as stats_boschloo_exact. */
int stats_boschloo_at_most(unsigned long long x1, unsigned long long n1, unsigned long long x2,
			   unsigned long long n2, double alpha, bool *ret);

/* One 2x2 table: X1 successes of N1 trials against X2 of N2. */
struct stats_table {
	unsigned long long x1, n1, x2, n2;
};
/* The exact conditional test of no difference between the two sides in
 * any of the K strata T[0..K) (each stratum's margins fixed; Birch 1964,
 * the exact form of the Mantel-Haenszel test: R's mantelhaen.test with
 * exact = TRUE).  Its statistic is S, the first side's successes summed
 * over the strata, whose distribution under no difference is the
 * convolution of the strata's hypergeometric ones; the two-sided p into
 * *RET_P is the probability of every S no more probable than the one
 * observed (within a relative 1e-7, as R's); with one stratum it is
 * Fisher's exact test.  *RET_EXCESS is S less its expectation, the sum
 * of each stratum's (x1 n2 - x2 n1) / (n1 + n2), whose sign is that
 * stratum's own direction: above 0, the first side succeeded more.
 * Returns 0, -ENOMEM, or -EINVAL when K is 0 or a table is as
 * stats_fisher_exact refuses. */
int stats_stratified_exact(const struct stats_table *t, size_t k, double *ret_p,
			   double *ret_excess);

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
 * significant digits) without an interval (HALF NAN), "7 in each of 3
 * runs" when no run differed (HALF 0).  Writes into BUF (SIZE bytes, 48
 * is enough); returns true when the interval is too wide. */
bool stats_display(double mean, double half, size_t n, char *buf,
		   size_t size);

/* "p=0.031" for the p-value P of a test at level ALPHA, for people: two
 * significant digits, more (up to six) where two would round it onto
 * ALPHA or across it ("p=0.0502", "p=0.0498" at 0.05), "p<0.0001"
 * below that; into BUF of SIZE bytes (16 is enough). */
void stats_p_text(double p, double alpha, char *buf, size_t size);

/* The place 10^p the N values V were recorded to, from their decimals:
 * the fewest decimals, 0 to 9, that give every value back as it is
 * (1.234 and 1.25: -3; 38: 0); INT_MIN when a value needs more (it was
 * not rounded to a decimal place). */
int stats_resolution_place(const double *v, size_t n);

#endif
