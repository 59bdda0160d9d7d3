#include "stats.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cleanup.h"

/* One step of the modified Lentz method: updates C and D with the next
 * partial numerator NUM and returns the factor to multiply into h. */
static double lentz_step(double *c, double *d, double num)
{
	const double tiny = 1e-300;

	*d = 1.0 + num * *d;
	if (fabs(*d) < tiny)
		*d = tiny;
	*c = 1.0 + num / *c;
	if (fabs(*c) < tiny)
		*c = tiny;
	*d = 1.0 / *d;
	return *d * *c;
}

/* Continued fraction of I_x(a, b) by the modified Lentz method (Numerical
 * Recipes' betacf); converges fast for x < (a+1)/(a+b+2). */
static double incbeta_cf(double a, double b, double x)
{
	double c = 1.0, d = 1.0 - (a + b) * x / (a + 1.0);

	if (fabs(d) < 1e-300)
		d = 1e-300;
	d = 1.0 / d;
	double h = d;

	for (int m = 1; m <= 1000; m++) {
		int m2 = 2 * m;
		h *= lentz_step(&c, &d,
				m * (b - m) * x / ((a + m2 - 1.0) * (a + m2)));
		double delta = lentz_step(&c, &d,
					  -(a + m) * (a + b + m) * x /
						  ((a + m2) * (a + m2 + 1.0)));
		h *= delta;
		if (fabs(delta - 1.0) < 1e-16)
			break;
	}
	return h;
}

double stats_incbeta(double a, double b, double x)
{
	if (!(a > 0) || !(b > 0) || !(x >= 0) || !(x <= 1))
		return NAN;
	if (x == 0 || x == 1)
		return x;
	double lfront = lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) +
			b * log1p(-x);
	/* Use the symmetry I_x(a,b) = 1 - I_{1-x}(b,a) where the fraction
	 * would converge slowly. */
	if (x < (a + 1.0) / (a + b + 2.0))
		return exp(lfront) * incbeta_cf(a, b, x) / a;
	return 1.0 - exp(lfront) * incbeta_cf(b, a, 1.0 - x) / b;
}

/* The p in (0, 1) with I_p(A, B) == Y: I_p rises with p. */
static double incbeta_inverse(double a, double b, double y)
{
	double lo = 0, hi = 1;
	for (int i = 0; i < 200 && hi - lo > 1e-15; i++) {
		double mid = (lo + hi) / 2;
		if (stats_incbeta(a, b, mid) < y)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

int stats_binomial_interval(unsigned long long x, unsigned long long n,
			    double confidence, double *low, double *high)
{
	double alpha = 1 - confidence;

	if (n == 0 || x > n)
		return -EINVAL;
	/* P(X >= x | p) = I_p(x, n - x + 1); P(X <= x | p) = 1 - I_p(x + 1, n - x). */
	*low = x == 0 ? 0 : incbeta_inverse((double)x, (double)(n - x + 1), alpha / 2);
	*high = x == n ? 1 : incbeta_inverse((double)(x + 1), (double)(n - x), 1 - alpha / 2);
	return 0;
}

/* ln C(N, K). */
static double log_choose(double n, double k)
{
	return lgamma(n + 1) - lgamma(k + 1) - lgamma(n - k + 1);
}

int stats_fisher_exact(unsigned long long x1, unsigned long long n1, unsigned long long x2,
		       unsigned long long n2, double *ret_p)
{
	if (n1 == 0 || n2 == 0 || x1 > n1 || x2 > n2)
		return -EINVAL;
	/* Given the margins, X1 is hypergeometric: K = x1 + x2 successes
	 * among N = n1 + n2, n1 of them drawn. */
	double k = (double)(x1 + x2), n = (double)(n1 + n2), a = (double)n1;
	double base = log_choose(n, a);
	unsigned long long lo = x1 + x2 > n2 ? x1 + x2 - n2 : 0,
			   hi = x1 + x2 < n1 ? x1 + x2 : n1;
	double observed = log_choose(k, (double)x1) + log_choose(n - k, a - (double)x1) - base;
	/* Tables within a relative 1e-7 of the observed one's probability
	 * count as as probable: rounding must not drop a mirror image. */
	double limit = observed + log1p(1e-7), p = 0;
	for (unsigned long long x = lo; x <= hi; x++) {
		double lp = log_choose(k, (double)x) + log_choose(n - k, a - (double)x) - base;
		if (lp <= limit)
			p += exp(lp);
	}
	*ret_p = p > 1 ? 1 : p;
	return 0;
}

/* log of the binomial probabilities of 0..N successes in N trials of
 * probability PI, into LP[0..N]. */
static void log_binomial(unsigned long long n, double pi, double *lp)
{
	double lpi = log(pi), lq = log1p(-pi);

	for (unsigned long long x = 0; x <= n; x++)
		lp[x] = log_choose((double)n, (double)x) + (double)x * lpi + (double)(n - x) * lq;
}

/* The probability, under a common proportion PI, of the tables marked in
 * AT (row x1 of N2 + 1 columns). */
static double tail_at(const bool *at, unsigned long long n1, unsigned long long n2, double pi,
		      double *lp1, double *lp2)
{
	double sum = 0;

	log_binomial(n1, pi, lp1);
	log_binomial(n2, pi, lp2);
	for (unsigned long long x1 = 0; x1 <= n1; x1++)
		for (unsigned long long x2 = 0; x2 <= n2; x2++)
			if (at[x1 * (n2 + 1) + x2])
				sum += exp(lp1[x1] + lp2[x2]);
	return sum;
}

/* P(X1 <= X1_) given the margins: X1 hypergeometric, K = x1 + x2 of the
 * N1 + N2 trials succeeded, N1 of them in the first side.  Fisher's
 * one-sided p of a first side that succeeded less. */
static double hyper_cdf(unsigned long long x1, unsigned long long n1, unsigned long long x2,
			unsigned long long n2)
{
	double k = (double)(x1 + x2), n = (double)(n1 + n2), a = (double)n1;
	double base = log_choose(n, a), p = 0;
	unsigned long long lo = x1 + x2 > n2 ? x1 + x2 - n2 : 0;

	for (unsigned long long x = lo; x <= x1; x++)
		p += exp(log_choose(k, (double)x) + log_choose(n - k, a - (double)x) - base);
	return p > 1 ? 1 : p;
}

/* Boschloo's one-sided p that the first side succeeds less (LESS), or
 * more: the largest over pi of the probability of the tables whose
 * Fisher one-sided p is at most the observed one's. */
static int boschloo_one_sided(unsigned long long x1, unsigned long long n1,
			      unsigned long long x2, unsigned long long n2, bool less,
			      double *ret_p)
{
	_cleanup_free_ bool *at = calloc((n1 + 1) * (n2 + 1), sizeof(*at));
	_cleanup_free_ double *lp1 = calloc(n1 + 1, sizeof(*lp1));
	_cleanup_free_ double *lp2 = calloc(n2 + 1, sizeof(*lp2));
	if (!at || !lp1 || !lp2)
		return -ENOMEM;
	/* More: the second side succeeding less, P(X2 <= x2). */
	double observed = less ? hyper_cdf(x1, n1, x2, n2) : hyper_cdf(x2, n2, x1, n1);
	for (unsigned long long a = 0; a <= n1; a++)
		for (unsigned long long b = 0; b <= n2; b++) {
			double p = less ? hyper_cdf(a, n1, b, n2) : hyper_cdf(b, n2, a, n1);
			/* Within a relative 1e-13, as SciPy: rounding must not
			 * drop a table as extreme. */
			at[a * (n2 + 1) + b] = p <= observed * (1 + 1e-13);
		}
	/* The largest over pi: a grid, then a golden-section search in the
	 * cells beside the grid's best point (the sum is a polynomial in pi,
	 * smooth at this spacing for sides of up to STATS_BOSCHLOO_MAX). */
	const int steps = 400;
	double best = 0, best_pi = 0.5;
	for (int i = 1; i < steps; i++) {
		double pi = (double)i / steps, v = tail_at(at, n1, n2, pi, lp1, lp2);
		if (v > best) {
			best = v;
			best_pi = pi;
		}
	}
	double lo = best_pi - 1.0 / steps, hi = best_pi + 1.0 / steps;
	const double g = (sqrt(5) - 1) / 2;
	for (int i = 0; i < 60; i++) {
		double c = hi - g * (hi - lo), d = lo + g * (hi - lo);
		if (tail_at(at, n1, n2, c, lp1, lp2) > tail_at(at, n1, n2, d, lp1, lp2))
			hi = d;
		else
			lo = c;
	}
	double v = tail_at(at, n1, n2, (lo + hi) / 2, lp1, lp2);
	*ret_p = v > best ? v : best;
	return 0;
}

int stats_boschloo_exact(unsigned long long x1, unsigned long long n1, unsigned long long x2,
			 unsigned long long n2, double *ret_p)
{
	double less, more;
	int r;

	if (n1 == 0 || n2 == 0 || x1 > n1 || x2 > n2)
		return -EINVAL;
	if (n1 > STATS_BOSCHLOO_MAX || n2 > STATS_BOSCHLOO_MAX)
		return stats_fisher_exact(x1, n1, x2, n2, ret_p);
	if ((r = boschloo_one_sided(x1, n1, x2, n2, true, &less)) < 0 ||
	    (r = boschloo_one_sided(x1, n1, x2, n2, false, &more)) < 0)
		return r;
	double p = 2 * (less < more ? less : more);
	*ret_p = p > 1 ? 1 : p;
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

double stats_median(const double *v, size_t n)
{
	_cleanup_free_ double *s = n ? malloc(n * sizeof *s) : NULL;

	if (!s)
		return NAN;
	memcpy(s, v, n * sizeof *s);
	qsort(s, n, sizeof *s, cmp_double);
	return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

double stats_hoeffding_halfwidth(size_t n, double confidence)
{
	if (n == 0 || !(confidence > 0) || !(confidence < 1))
		return NAN;
	/* P(|mean - mu| >= t) <= 2 exp(-2 n t^2) (Hoeffding 1963, Theorem 2),
	 * solved for the t at which it is 1 - confidence. */
	return sqrt(log(2 / (1 - confidence)) / (2 * (double)n));
}

double stats_t_cdf(double t, double df)
{
	if (isnan(t) || !(df > 0))
		return NAN;
	if (isinf(t))
		return t > 0 ? 1.0 : 0.0;
	/* P(|T| > |t|) = I_{df/(df+t^2)}(df/2, 1/2) */
	double tail = 0.5 * stats_incbeta(df / 2.0, 0.5, df / (df + t * t));
	return t > 0 ? 1.0 - tail : tail;
}

static double t_pdf(double t, double df)
{
	return exp(lgamma((df + 1) / 2) - lgamma(df / 2) -
		   0.5 * log(df * M_PI) - (df + 1) / 2 * log1p(t * t / df));
}

double stats_t_quantile(double p, double df)
{
	if (!(p > 0) || !(p < 1) || !(df > 0))
		return NAN;
	if (p == 0.5)
		return 0.0;
	if (p < 0.5)
		return -stats_t_quantile(1.0 - p, df);

	/* Bracket the root, then Newton steps kept inside the bracket,
	 * falling back to bisection: the CDF is monotone, so this always
	 * converges, and Newton makes it converge to full precision. */
	double lo = 0.0, hi = 1.0;
	while (stats_t_cdf(hi, df) < p) {
		lo = hi;
		hi *= 2.0;
		if (hi > 1e300)
			return INFINITY;
	}
	double t = (lo + hi) / 2.0;
	for (int i = 0; i < 300; i++) {
		double f = stats_t_cdf(t, df) - p;
		if (f == 0)
			return t;
		if (f < 0)
			lo = t;
		else
			hi = t;
		double next = t - f / t_pdf(t, df);
		if (!(next > lo && next < hi))
			next = (lo + hi) / 2.0;
		if (fabs(next - t) <= 1e-15 * fabs(t) || hi - lo <= 1e-15 * hi)
			return next;
		t = next;
	}
	return t;
}

double stats_ci_halfwidth(double sd, size_t n, double confidence)
{
	if (n < 2 || !(confidence > 0) || !(confidence < 1))
		return NAN;
	double t = stats_t_quantile(1.0 - (1.0 - confidence) / 2.0,
				    (double)(n - 1));
	return t * sd / sqrt((double)n);
}

int stats_compute(const double *v, size_t n, struct stats *ret)
{
	if (n == 0)
		return -EINVAL;

	struct stats s = {.n = n, .min = v[0], .max = v[0], .first = v[0]};
	double sum = 0;
	for (size_t i = 0; i < n; i++) {
		sum += v[i];
		if (v[i] < s.min)
			s.min = v[i];
		if (v[i] > s.max)
			s.max = v[i];
	}
	s.mean = sum / (double)n;
	if (n < 2) {
		s.sd = s.ci95 = NAN;
	} else {
		/* Two passes: the deviations are summed after the mean is
		 * known, which keeps the variance accurate for samples far
		 * from zero (boot times of hundreds of seconds). */
		double ss = 0;
		for (size_t i = 0; i < n; i++)
			ss += (v[i] - s.mean) * (v[i] - s.mean);
		s.sd = sqrt(ss / (double)(n - 1));
		s.ci95 = stats_ci_halfwidth(s.sd, n, 0.95);
	}
	*ret = s;
	return 0;
}

int stats_display_place(double half)
{
	if (!isfinite(half) || half <= 0)
		return INT_MIN;
	/* The place of the half-width's second significant digit: 10^p. */
	int p = (int)floor(log10(half)) - 1;
	double scale = pow(10.0, p);
	/* Rounding up can carry into a third digit (99 -> 100): keep two. */
	if (round(half / scale) * scale >= 100 * scale)
		p++;
	return p;
}

void stats_round_text(double v, int place, char *buf, size_t size)
{
	double scale = pow(10.0, place), r = round(v / scale) * scale;

	snprintf(buf, size, "%.*f", place < 0 ? -place : 0, r == 0 ? 0.0 : r);
}

bool stats_display(double mean, double half, size_t n, char *buf,
		   size_t size)
{
	if (!isfinite(mean)) {
		snprintf(buf, size, "-");
		return false;
	}
	if (!isfinite(half)) {
		snprintf(buf, size, "%.4g (n=%zu)", mean, n);
		return false;
	}
	if (half >= fabs(mean) && half > 0) {
		/* An interval wider than the mean says little; the mean, to two
		 * significant digits, still says what was measured. */
		int p = mean == 0 ? 0 : (int)floor(log10(fabs(mean))) - 1;
		double scale = pow(10.0, p), m = round(mean / scale) * scale;
		snprintf(buf, size, "%.*f, interval wider than the mean (n=%zu)",
			 p < 0 ? -p : 0, m, n);
		return true;
	}
	if (half == 0) {
		snprintf(buf, size, "%.6g ± 0", mean);
		return false;
	}
	int p = stats_display_place(half);
	char m[320], h[320]; /* %.0f of DBL_MAX: 309 digits */
	stats_round_text(mean, p, m, sizeof m);
	stats_round_text(half, p, h, sizeof h);
	snprintf(buf, size, "%s ± %s", m, h);
	return false;
}
