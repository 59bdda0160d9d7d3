/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "crashloss.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

int crashloss_compute(const double *fraction, size_t n, struct crashloss *ret)
{
	struct crashloss s = {.crashes = n, .mean_low = NAN, .mean_high = NAN};
	double sum = 0;

	if (n == 0)
		return -EINVAL;
	s.min = s.max = fraction[0];
	for (size_t i = 0; i < n; i++) {
		if (!(fraction[i] >= 0 && fraction[i] <= 1))
			return -EINVAL;
		s.lost_any += fraction[i] > 0;
		sum += fraction[i];
		s.min = fmin(s.min, fraction[i]);
		s.max = fmax(s.max, fraction[i]);
	}
	s.mean = sum / (double)n;
	s.median = stats_median(fraction, n);
	if (isnan(s.median) ||
	    stats_binomial_interval(s.lost_any, n, CRASHLOSS_CONFIDENCE, &s.low, &s.high) < 0)
		return -ENOMEM; /* the only way left for either to fail */
	if (n >= CRASHLOSS_MEAN_MIN) {
		double half = stats_hoeffding_halfwidth(n, CRASHLOSS_CONFIDENCE);
		s.mean_low = fmax(0, s.mean - half);
		s.mean_high = fmin(1, s.mean + half);
	}
	*ret = s;
	return 0;
}

/* K of N scaled to M crashes, to the nearest whole crash. */
static unsigned long long scaled(size_t k, size_t n, unsigned m)
{
	return (unsigned long long)llround((double)k * m / (double)n);
}

/* Whether M crashes a side, A and B losing in the proportions they did,
 * would show a difference by the test CRASHLOSS_TEST names. */
static bool resolves(const struct crashloss *a, const struct crashloss *b, unsigned m,
		     double alpha)
{
	bool shown = false;
	return stats_boschloo_at_most(scaled(a->lost_any, a->crashes, m), m,
				      scaled(b->lost_any, b->crashes, m), m, alpha, &shown) == 0 &&
	       shown;
}

/* The fewest crashes a side past FROM that resolves A against B: one at
 * a time to CRASHLOSS_RESOLVE_STEP, then by bisection between the last
 * that does not and the first of 2x, 4x... that does (p falls as the
 * crashes grow, but for the rounding of the scaled counts, which matters
 * little past that); CRASHLOSS_RESOLVE_MAX + 1 when none to that does. */
static unsigned resolve(const struct crashloss *a, const struct crashloss *b, unsigned from,
			double alpha)
{
	unsigned m = from + 1;

	for (; m <= CRASHLOSS_RESOLVE_STEP && m <= CRASHLOSS_RESOLVE_MAX; m++)
		if (resolves(a, b, m, alpha))
			return m;
	unsigned lo = m - 1, hi = 0;
	for (unsigned next = 2 * lo; !hi; next *= 2) {
		next = next < CRASHLOSS_RESOLVE_MAX ? next : CRASHLOSS_RESOLVE_MAX;
		if (resolves(a, b, next, alpha))
			hi = next;
		else if (next == CRASHLOSS_RESOLVE_MAX)
			return CRASHLOSS_RESOLVE_MAX + 1;
		else
			lo = next;
	}
	while (hi - lo > 1) {
		unsigned mid = lo + (hi - lo) / 2;
		if (resolves(a, b, mid, alpha))
			hi = mid;
		else
			lo = mid;
	}
	return hi;
}

int crashloss_compare(const struct crashloss *a, const struct crashloss *b,
		      struct crashloss_verdict *ret)
{
	struct crashloss_verdict v = {.test = CRASHLOSS_TEST, .resolve = 0};
	double alpha = 1 - CRASHLOSS_CONFIDENCE;
	int r;

	if (!a->crashes || !b->crashes)
		return -EINVAL;
	r = stats_boschloo_exact(a->lost_any, a->crashes, b->lost_any, b->crashes, &v.p);
	if (r < 0)
		return r;
	v.shown = v.p <= alpha;
	/* Equal proportions (k a = k b cross-multiplied): no number of
	 * crashes that keeps them would show a difference. */
	if (!v.shown && a->lost_any * b->crashes != b->lost_any * a->crashes) {
		size_t from = a->crashes > b->crashes ? a->crashes : b->crashes;
		v.resolve = from >= CRASHLOSS_RESOLVE_MAX
				    ? CRASHLOSS_RESOLVE_MAX + 1
				    : resolve(a, b, (unsigned)from, alpha);
	}
	*ret = v;
	return 0;
}

void crashloss_percent(double fraction, char *buf, size_t size)
{
	double v = fraction * 100;

	if (!isfinite(v)) {
		snprintf(buf, size, "?");
		return;
	}
	if (v <= 0 || v >= 100) {
		snprintf(buf, size, "%.0f", v <= 0 ? 0.0 : 100.0);
		return;
	}
	/* Two significant digits (none after the point from 10 on), more
	 * where that would read as 0 or 100: "99.7", not "100". */
	int decimals = v >= 10 ? 0 : 1 - (int)floor(log10(v));
	for (; decimals < 12; decimals++) {
		snprintf(buf, size, "%.*f", decimals, v);
		double back = strtod(buf, NULL);
		if (back > 0 && back < 100)
			break;
	}
	/* "5.0" -> "5": trailing zeros say nothing. */
	if (strchr(buf, '.')) {
		size_t len = strlen(buf);
		while (len > 0 && buf[len - 1] == '0')
			buf[--len] = '\0';
		if (len > 0 && buf[len - 1] == '.')
			buf[--len] = '\0';
	}
}

const char *crashloss_unit(bool cuts, bool plural)
{
	return cuts ? plural ? "cuts" : "cut" : plural ? "crashes" : "crash";
}

const char *crashloss_after(const char *crash)
{
	return !crash			      ? "a crash"
	       : strcmp(crash, "power") == 0 ? "a power cut"
	       : strcmp(crash, "host") == 0  ? "a host crash"
	       : strcmp(crash, "guest") == 0 ? "a guest crash"
					      : "a crash";
}

void crashloss_counts_text(const struct crashloss *s, bool short_form, char *buf,
			   size_t size)
{
	char lo[24], hi[24];

	crashloss_percent(s->low, lo, sizeof lo);
	crashloss_percent(s->high, hi, sizeof hi);
	if (short_form)
		snprintf(buf, size, "%zu of %zu [%s%%, %s%%]", s->lost_any, s->crashes, lo, hi);
	else
		snprintf(buf, size, "lost acknowledged writes in %zu of %zu %s [%s%%, %s%%]",
			 s->lost_any, s->crashes, crashloss_unit(s->cuts, s->crashes != 1), lo, hi);
}

void crashloss_range_text(const struct crashloss *s, char *buf, size_t size)
{
	char lo[24], hi[24];

	crashloss_percent(s->min, lo, sizeof lo);
	crashloss_percent(s->max, hi, sizeof hi);
	if (s->lost_any == 0)
		snprintf(buf, size, "%s", "");
	else if (s->crashes == 1)
		snprintf(buf, size, ", %s%% of them", hi);
	else if (s->min == s->max)
		snprintf(buf, size, ", %s%% of them per %s", hi, crashloss_unit(s->cuts, false));
	else
		snprintf(buf, size, ", %s%% to %s%% of them per %s", lo, hi,
			 crashloss_unit(s->cuts, false));
}

/* The tail of crashloss_text: median, range and the mean's interval. */
static void summary_tail(const struct crashloss *s, char *buf, size_t size)
{
	char med[24], lo[24], hi[24], ml[24], mh[24], mean[24];
	int used;

	crashloss_percent(s->median, med, sizeof med);
	crashloss_percent(s->min, lo, sizeof lo);
	crashloss_percent(s->max, hi, sizeof hi);
	used = snprintf(buf, size, " (median %s%%, %s%% to %s%%)", med, lo, hi);
	if (used < 0 || (size_t)used >= size || isnan(s->mean_low))
		return;
	crashloss_percent(s->mean, mean, sizeof mean);
	crashloss_percent(s->mean_low, ml, sizeof ml);
	crashloss_percent(s->mean_high, mh, sizeof mh);
	snprintf(buf + used, size - (size_t)used, "; mean %s%% [%s%%, %s%%] (Hoeffding)", mean,
		 ml, mh);
}

void crashloss_text(const struct crashloss *s, const double *fraction, size_t n, char *buf,
		    size_t size)
{
	char counts[96], tail[160], one[24];
	size_t used;

	crashloss_counts_text(s, false, counts, sizeof counts);
	if (s->lost_any == 0) {
		snprintf(buf, size, "%s: no loss shown", counts);
		return;
	}
	if (n == 1) {
		crashloss_percent(fraction[0], one, sizeof one);
		snprintf(buf, size, "%s: %s%% of them", counts, one);
		return;
	}
	summary_tail(s, tail, sizeof tail);
	int len = snprintf(buf, size, "%s; per %s ", counts, crashloss_unit(s->cuts, false));
	if (len < 0 || (size_t)len >= size)
		return;
	used = (size_t)len;
	for (size_t i = 0; i < n; i++) {
		crashloss_percent(fraction[i], one, sizeof one);
		/* Room for this one, a ", ..." and the tail. */
		if (used + strlen(one) + 8 + strlen(tail) >= size) {
			used += (size_t)snprintf(buf + used, size - used, "...");
			break;
		}
		used += (size_t)snprintf(buf + used, size - used, "%s%s%%", i ? ", " : "", one);
	}
	if (used < size)
		snprintf(buf + used, size - used, "%s", tail);
}
