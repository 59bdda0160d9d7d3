#include "compare.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>

#include "stats.h"

/* Mean and sample variance of log(v) (two passes, as stats.c does).
 * -EDOM when a value has no log. */
static int log_moments(const struct compare_sample *s, double *mean,
		       double *var)
{
	double sum = 0;

	for (size_t i = 0; i < s->n; i++) {
		if (!isfinite(s->v[i]) || !(s->v[i] > 0))
			return -EDOM;
		sum += log(s->v[i]);
	}
	*mean = sum / (double)s->n;
	if (s->n < 2) {
		*var = NAN;
		return 0;
	}
	double ss = 0;
	for (size_t i = 0; i < s->n; i++) {
		double d = log(s->v[i]) - *mean;
		ss += d * d;
	}
	*var = ss / (double)(s->n - 1);
	return 0;
}

int compare_ratio_pooled(const struct compare_sample *level,
			 const struct compare_sample *reference, size_t k,
			 double confidence, struct compare_ratio *ret)
{
	struct compare_ratio c = {0};
	/* sum of the strata's log ratios, of their variances u = s^2/n,
	 * and of u^2/(n-1): Satterthwaite's df is (sum u)^2 / sum u^2/(n-1) */
	double d = 0, u = 0, u2 = 0;
	bool spread = true;
	int r;

	if (k == 0)
		return -EINVAL;
	for (size_t i = 0; i < k; i++) {
		const struct compare_sample *side[2] = {&level[i], &reference[i]};
		double m[2], v[2];
		for (int s = 0; s < 2; s++) {
			if (side[s]->n == 0)
				return -EINVAL;
			if ((r = log_moments(side[s], &m[s], &v[s])) < 0)
				return r;
			if (side[s]->n < 2) {
				spread = false;
				continue;
			}
			double us = v[s] / (double)side[s]->n;
			u += us;
			u2 += us * us / (double)(side[s]->n - 1);
		}
		d += m[0] - m[1];
		c.n_level += level[i].n;
		c.n_reference += reference[i].n;
	}
	d /= (double)k;
	c.ratio = exp(d);
	c.low = c.high = c.df = NAN;
	if (spread) {
		if (u == 0) {
			/* Every run of every cell gave the same value, at
			 * the resolution it was recorded to: that says
			 * nothing of how much runs vary, so no interval. */
			c.no_spread = true;
		} else {
			c.df = u * u / u2;
			double t = stats_t_quantile(1.0 - (1.0 - confidence) / 2.0,
						    c.df);
			double half = t * sqrt(u) / (double)k;
			c.low = exp(d - half);
			c.high = exp(d + half);
		}
		c.shown = c.low > 1.0 || c.high < 1.0;
	}
	*ret = c;
	return 0;
}

int compare_ratio(const double *level, size_t n_level,
		  const double *reference, size_t n_reference,
		  double confidence, struct compare_ratio *ret)
{
	struct compare_sample a = {level, n_level}, b = {reference, n_reference};
	return compare_ratio_pooled(&a, &b, 1, confidence, ret);
}

void compare_n_text(size_t n_level, size_t n_reference, char *buf, size_t size)
{
	if (n_level == n_reference)
		snprintf(buf, size, "n=%zu each", n_level);
	else
		snprintf(buf, size, "n=%zu vs %zu", n_level, n_reference);
}

void compare_percent(double ratio, int decimals, char *buf, size_t size)
{
	double pct = (ratio - 1.0) * 100.0;
	double shown = round(pct * pow(10, decimals)) / pow(10, decimals);
	if (shown == 0)
		shown = 0; /* no "-0%" */
	snprintf(buf, size, "%s%.*f%%", shown >= 0 ? "+" : "", decimals, shown);
}

int compare_percent_decimals(double low, double high)
{
	double width = (high - low) * 100.0;
	if (!isfinite(width) || width >= 2.0)
		return 0;
	return width >= 0.2 ? 1 : 2;
}
