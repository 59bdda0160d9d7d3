/* Comparisons of two levels of an axis: the ratio of the level's mean to
 * the reference level's with its confidence interval, by Welch's t on the
 * log scale (the ratio of geometric means; Welch-Satterthwaite degrees of
 * freedom), for one cell or pooled over several (docs/results.md gives
 * the formulas).  A mean rounded to what its interval supports is
 * stats_display (lib/stats.h). */
#ifndef BUILDAPP_COMPARE_H
#define BUILDAPP_COMPARE_H

#include <stdbool.h>
#include <stddef.h>

/* The ok runs of one cell, in run order. */
struct compare_sample {
	const double *v;
	size_t n;
};

struct compare_ratio {
	double ratio; /* geometric mean of the level / of the reference */
	double low;   /* the interval; NAN when a side has fewer than 2 runs */
	double high;
	double df;    /* Welch-Satterthwaite; INFINITY when no side varies */
	size_t n_level, n_reference; /* runs, summed over the strata */
	bool shown;   /* the interval excludes a ratio of 1 */
	/* No run of any cell differed from the others of its cell: the
	 * variance is 0, so there is no interval (an interval of no width
	 * would call any ratio shown), and nothing is shown. */
	bool no_spread;
};

/* The ratio of LEVEL to REFERENCE over K strata (pairs of cells that
 * differ only in the compared axis; K == 1: a plain Welch comparison).
 * Pooled, the log ratio is the unweighted mean of the strata's log
 * ratios, and its variance and degrees of freedom are Satterthwaite's for
 * that linear combination of independent means.  CONFIDENCE is e.g. 0.95.
 * When no side of any stratum varies, NO_SPREAD and no interval.
 * Returns 0; -EINVAL when K is 0 or a sample is empty; -EDOM when a value
 * is not a positive finite number (no log). */
int compare_ratio_pooled(const struct compare_sample *level,
			 const struct compare_sample *reference, size_t k,
			 double confidence, struct compare_ratio *ret);
int compare_ratio(const double *level, size_t n_level,
		  const double *reference, size_t n_reference,
		  double confidence, struct compare_ratio *ret);

/* "n=5 each", or "n=5 vs 4" when the sides differ, into BUF. */
void compare_n_text(size_t n_level, size_t n_reference, char *buf, size_t size);

/* A ratio as a signed percentage change, "+54%", "-3.5%", with DECIMALS
 * decimals, into BUF. */
void compare_percent(double ratio, int decimals, char *buf, size_t size);
/* The decimals a percentage interval [LOW, HIGH] (ratios) needs: 0 when
 * it is 2 points wide or more, else 1 (2 under 0.2 points). */
int compare_percent_decimals(double low, double high);

#endif
