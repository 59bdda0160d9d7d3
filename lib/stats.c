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

/* ln of Fisher's one-sided p that the first side succeeded no more than
 * it did: P(X <= A) for X hypergeometric, the A + B successes of the
 * N1 + N2 trials given, N1 of them the first side's.  Summed from X's
 * lowest value by the ratio of successive terms, in a scale of its own
 * so that nothing underflows: the p of 1000 against 0 of 1000 crashes is
 * 10^-600. */
static double log_fisher_less(unsigned long long a, unsigned long long n1, unsigned long long b,
			      unsigned long long n2)
{
	unsigned long long k = a + b, lo = k > n2 ? k - n2 : 0;
	double scale = log_choose((double)k, (double)lo) +
		       log_choose((double)(n1 + n2 - k), (double)(n1 - lo)) -
		       log_choose((double)(n1 + n2), (double)n1);
	double term = 1, sum = 1;

	for (unsigned long long x = lo; x < a; x++) {
		/* P(x + 1) / P(x) = (k - x)(n1 - x) / ((x + 1)(n2 - k + x + 1)) */
		term *= (double)(k - x) * (double)(n1 - x) /
			((double)(x + 1) * ((double)n2 - (double)k + (double)x + 1));
		sum += term;
		if (sum > 1e280) {
			term *= 1e-280;
			sum *= 1e-280;
			scale += 280 * M_LN10;
		}
	}
	double lp = log(sum) + scale;
	return lp > 0 ? 0 : lp;
}

/* One side of Boschloo's test: the tables (a, b) whose Fisher one-sided
 * p (the first side succeeding less) is at most the observed one's.
 * That p rises with a and falls with b (a hypergeometric is
 * stochastically larger the more successes it is given), so the tables
 * are those with b >= T[a], and T[a] does not fall as a rises: found in
 * one pass, n1 + n2 evaluations of the p. */
struct boschloo_side {
	unsigned long long n1, n2;
	unsigned long long *t;	  /* T[0..n1]: n2 + 1 when no b is */
	double *lc1, *lc2;	  /* ln C(n1, a), ln C(n2, b) */
	double *lp1, *sf2;	  /* work: pmf of a, P(X2 >= b) */
};

static void side_release(struct boschloo_side *s)
{
	free(s->t);
	free(s->lc1);
	free(s->lc2);
	free(s->lp1);
	free(s->sf2);
}

static int side_init(unsigned long long x1, unsigned long long n1, unsigned long long x2,
		     unsigned long long n2, struct boschloo_side *s)
{
	*s = (struct boschloo_side){.n1 = n1, .n2 = n2,
				    .t = calloc(n1 + 1, sizeof *s->t),
				    .lc1 = calloc(n1 + 1, sizeof *s->lc1),
				    .lc2 = calloc(n2 + 1, sizeof *s->lc2),
				    .lp1 = calloc(n1 + 1, sizeof *s->lp1),
				    .sf2 = calloc(n2 + 2, sizeof *s->sf2)};
	if (!s->t || !s->lc1 || !s->lc2 || !s->lp1 || !s->sf2)
		return -ENOMEM;
	for (unsigned long long a = 0; a <= n1; a++)
		s->lc1[a] = log_choose((double)n1, (double)a);
	for (unsigned long long b = 0; b <= n2; b++)
		s->lc2[b] = log_choose((double)n2, (double)b);
	/* Within a relative 1e-9 of the observed p: rounding must not drop a
	 * table as extreme (SciPy allows 1e-13, but here the p of tables
	 * that tie exactly, 0 of 90 against 1 of 90 and 1 of 90 against 2 of
	 * 90, differ by more than that: their logs come from lgamma of
	 * numbers past 180, each within about 1e-13 of its value). */
	double limit = log_fisher_less(x1, n1, x2, n2) + log1p(1e-9);
	unsigned long long b = 0;
	for (unsigned long long a = 0; a <= n1; a++) {
		while (b <= n2 && log_fisher_less(a, n1, b, n2) > limit)
			b++;
		s->t[a] = b;
	}
	return 0;
}

/* The probability of S's tables when both sides succeed with
 * probability PI. */
static double side_tail(const struct boschloo_side *s, double pi)
{
	double lpi = log(pi), lq = log1p(-pi), sum = 0;

	s->sf2[s->n2 + 1] = 0;
	for (unsigned long long b = s->n2 + 1; b-- > 0;)
		s->sf2[b] = s->sf2[b + 1] +
			    exp(s->lc2[b] + (double)b * lpi + (double)(s->n2 - b) * lq);
	for (unsigned long long a = 0; a <= s->n1; a++)
		if (s->t[a] <= s->n2)
			sum += exp(s->lc1[a] + (double)a * lpi + (double)(s->n1 - a) * lq) *
			       s->sf2[s->t[a]];
	return sum;
}

/* The largest probability of S's tables over the common proportion: a
 * grid of STEPS points, then a golden-section search beside each of the
 * grid's REFINE highest local maxima (the probability is a polynomial in
 * pi of degree n1 + n2, with local maxima of its own). */
static double side_sup(const struct boschloo_side *s)
{
	enum { STEPS = 400, REFINE = 4 };
	double v[STEPS + 1], best = 0;
	size_t top[REFINE], n_top = 0;

	for (int i = 1; i < STEPS; i++)
		best = fmax(best, v[i] = side_tail(s, (double)i / STEPS));
	v[0] = v[STEPS] = -1;
	for (size_t i = 1; i < STEPS; i++) {
		if (v[i] < v[i - 1] || v[i] < v[i + 1])
			continue;
		if (n_top < REFINE) {
			top[n_top++] = i;
			continue;
		}
		size_t low = 0;
		for (size_t k = 1; k < REFINE; k++)
			if (v[top[k]] < v[top[low]])
				low = k;
		if (v[i] > v[top[low]])
			top[low] = i;
	}
	const double g = (sqrt(5) - 1) / 2;
	for (size_t k = 0; k < n_top; k++) {
		double lo = (double)(top[k] - 1) / STEPS, hi = (double)(top[k] + 1) / STEPS;
		for (int i = 0; i < 60; i++) {
			double c = hi - g * (hi - lo), d = lo + g * (hi - lo);
			if (side_tail(s, c) > side_tail(s, d))
				hi = d;
			else
				lo = c;
		}
		best = fmax(best, side_tail(s, (lo + hi) / 2));
	}
	return best;
}

/* The two one-sided halves of Boschloo's test of X1 of N1 against X2 of
 * N2: the first side succeeding less, and more (the second less, its
 * tables read the other way round). */
static int boschloo_init(unsigned long long x1, unsigned long long n1, unsigned long long x2,
			 unsigned long long n2, struct boschloo_side *less,
			 struct boschloo_side *more)
{
	int r;

	if (n1 == 0 || n2 == 0 || x1 > n1 || x2 > n2)
		return -EINVAL;
	if ((r = side_init(x1, n1, x2, n2, less)) < 0 || (r = side_init(x2, n2, x1, n1, more)) < 0)
		return r;
	return 0;
}

int stats_boschloo_exact(unsigned long long x1, unsigned long long n1, unsigned long long x2,
			 unsigned long long n2, double *ret_p)
{
	_cleanup_(side_release) struct boschloo_side less = {0}, more = {0};
	int r;

	if ((r = boschloo_init(x1, n1, x2, n2, &less, &more)) < 0)
		return r;
	double p = 2 * fmin(side_sup(&less), side_sup(&more));
	*ret_p = p > 1 ? 1 : p;
	return 0;
}

int stats_boschloo_at_most(unsigned long long x1, unsigned long long n1, unsigned long long x2,
			   unsigned long long n2, double alpha, bool *ret)
{
	_cleanup_(side_release) struct boschloo_side less = {0}, more = {0};
	int r;

	if ((r = boschloo_init(x1, n1, x2, n2, &less, &more)) < 0)
		return r;
	/* Each one-sided p is at least its tables' probability at any one
	 * proportion: at the one both sides had together, near which the
	 * largest usually is, a p above ALPHA is known without the search. */
	double n = (double)(n1 + n2), pi = fmin(fmax((double)(x1 + x2) / n, 0.5 / n), 1 - 0.5 / n);
	if (fmin(1, 2 * fmin(side_tail(&less, pi), side_tail(&more, pi))) > alpha) {
		*ret = false;
		return 0;
	}
	*ret = fmin(1, 2 * fmin(side_sup(&less), side_sup(&more))) <= alpha;
	return 0;
}

int stats_stratified_exact(const struct stats_table *t, size_t k, double *ret_p,
			   double *ret_excess)
{
	size_t size = 1;

	if (k == 0)
		return -EINVAL;
	for (size_t s = 0; s < k; s++) {
		if (t[s].n1 == 0 || t[s].n2 == 0 || t[s].x1 > t[s].n1 || t[s].x2 > t[s].n2)
			return -EINVAL;
		size += t[s].n1;
	}
	/* The distribution of S, the first side's successes summed, as the
	 * strata are added: P(S = lo + i) in dist[i]. */
	_cleanup_free_ double *dist = calloc(size, sizeof *dist), *next = calloc(size, sizeof *next);
	_cleanup_free_ double *pmf = calloc(size, sizeof *pmf);
	if (!dist || !next || !pmf)
		return -ENOMEM;
	unsigned long long lo = 0, width = 1, observed = 0;
	double excess = 0;
	dist[0] = 1;
	for (size_t s = 0; s < k; s++) {
		/* Given its margins, a stratum's X1 is hypergeometric: K = x1 +
		 * x2 successes among N = n1 + n2 trials, n1 of them the first
		 * side's. */
		unsigned long long kk = t[s].x1 + t[s].x2, nn = t[s].n1 + t[s].n2;
		unsigned long long a = kk > t[s].n2 ? kk - t[s].n2 : 0, b = kk < t[s].n1 ? kk : t[s].n1;
		double base = log_choose((double)nn, (double)t[s].n1);
		for (unsigned long long x = a; x <= b; x++)
			pmf[x - a] = exp(log_choose((double)kk, (double)x) +
					 log_choose((double)(nn - kk), (double)(t[s].n1 - x)) - base);
		memset(next, 0, size * sizeof *next);
		for (unsigned long long i = 0; i < width; i++)
			for (unsigned long long x = 0; x <= b - a; x++)
				next[i + x] += dist[i] * pmf[x];
		memcpy(dist, next, size * sizeof *dist);
		lo += a;
		width += b - a;
		observed += t[s].x1;
		/* x1 - E[x1] = (x1 n2 - x2 n1) / N: the sign is the stratum's
		 * own direction. */
		excess += ((double)t[s].x1 * (double)t[s].n2 - (double)t[s].x2 * (double)t[s].n1) /
			  (double)nn;
	}
	/* As R's mantelhaen.test and fisher.test: S no more probable than
	 * the observed, within a relative 1e-7. */
	double limit = dist[observed - lo] * (1 + 1e-7), p = 0;
	for (unsigned long long i = 0; i < width; i++)
		if (dist[i] <= limit)
			p += dist[i];
	*ret_p = p > 1 ? 1 : p;
	*ret_excess = excess;
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
		/* No run differed: an interval of no width would be a
		 * precision nobody measured. */
		snprintf(buf, size, "%.6g in each of %zu runs", mean, n);
		return false;
	}
	int p = stats_display_place(half);
	char m[320], h[320]; /* %.0f of DBL_MAX: 309 digits */
	stats_round_text(mean, p, m, sizeof m);
	stats_round_text(half, p, h, sizeof h);
	snprintf(buf, size, "%s ± %s", m, h);
	return false;
}

void stats_p_text(double p, double alpha, char *buf, size_t size)
{
	if (p < 0.0001) {
		snprintf(buf, size, "p<0.0001");
		return;
	}
	/* Rounding noise of the sums off first (0.12500000000000003 is
	 * 0.125, which prints as 0.12 whatever the last bits say). */
	char exact[32];
	snprintf(exact, sizeof exact, "%.10g", p);
	p = strtod(exact, NULL);
	/* Two significant digits, more where they would put p on the other
	 * side of ALPHA or on it (0.0502 is not "0.05"). */
	for (int digits = 2; digits <= 6; digits++) {
		snprintf(buf, size, "p=%.*g", digits, p);
		double shown = strtod(buf + 2, NULL);
		if ((shown > alpha) == (p > alpha) && (shown != alpha || p == alpha))
			return;
	}
}

int stats_resolution_place(const double *v, size_t n)
{
	int place = 0;
	char text[400]; /* %.9f of DBL_MAX */

	for (size_t i = 0; i < n; i++) {
		int d = 0;
		for (; d <= 9; d++) {
			snprintf(text, sizeof text, "%.*f", d, v[i]);
			if (strtod(text, NULL) == v[i])
				break;
		}
		if (d > 9)
			return INT_MIN;
		place = -d < place ? -d : place;
	}
	return place;
}
