/* SPDX-License-Identifier: GPL-2.0-or-later */
/* replay-helper: the runs-until-answered rule (report/precision.h)
 * replayed on the runs of a recorded journal, against a fixed number of
 * runs, for scripts/bench-replay.sh.
 *
 *   replay-helper [--target PTS] [--first N0] [--max N] [--reps R] [--seed S]
 *                 RUNS.jsonl METRIC LEVEL_CELL:REFERENCE_CELL...
 *
 * Each comparison is the ratio of LEVEL_CELL's METRIC to REFERENCE_CELL's
 * (report/compare.h, 95%).  Its truth is that ratio over every ok run the
 * journal has of both cells.  A replay draws runs of each cell at random,
 * with replacement, from the journal's: N0 a side, then one more a side
 * while precision_too_wide says so, up to N (the sweep's rounds).  The
 * fixed design gives every comparison the same number of runs a side,
 * the fewest with which each comparison's mean half-width over the
 * replays is within the target (what a profile with one `runs` for every
 * cell must ask for to answer all its questions that well), at most N.
 * Printed per comparison and in all: the runs used, and the share of
 * intervals that hold the truth (coverage). */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "journal.h"
#include "precision.h"

struct side {
	double *v;
	size_t n;
};

struct comparison {
	const char *label;
	struct side level, reference;
	double truth;
	/* adaptive: runs a side summed over the replays, intervals holding
	 * the truth; fixed: the same at n_fixed a side */
	double runs, covered, fixed_covered;
	unsigned n_fixed;
};

static uint64_t rng_state;

/* splitmix64: a seeded, portable stream (the replays repeat). */
static uint64_t rng_next(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static double draw(const struct side *s)
{
	return s->v[rng_next() % s->n];
}

static int load_side(const struct journal *j, const char *cell, const char *metric,
		     struct side *s)
{
	s->v = calloc(j->n_runs ? j->n_runs : 1, sizeof(*s->v));
	if (!s->v)
		return -ENOMEM;
	for (size_t i = 0; i < j->n_runs; i++) {
		const struct journal_run *r = &j->runs[i];
		const struct result_metric *m = journal_run_metric(r, metric);
		if (strcmp(r->cell.id, cell) == 0 && strcmp(r->status, "ok") == 0 && m &&
		    isfinite(m->value) && m->value > 0)
			s->v[s->n++] = m->value;
	}
	if (s->n < 2) {
		fprintf(stderr, "replay-helper: cell '%s' has %zu ok runs of %s: at least 2 needed\n",
			cell, s->n, metric);
		return -EINVAL;
	}
	return 0;
}

/* One replay of C with N a side drawn afresh: whether its interval holds
 * the truth; its half-width into *HALF. */
static bool replay_fixed(const struct comparison *c, unsigned n, double *a, double *b,
			 double *half)
{
	struct compare_ratio r;
	for (unsigned i = 0; i < n; i++) {
		a[i] = draw(&c->level);
		b[i] = draw(&c->reference);
	}
	if (compare_ratio(a, n, b, n, 0.95, &r) < 0)
		return false;
	precision_too_wide(r.low, r.high, 0, half);
	return r.low <= c->truth && c->truth <= r.high;
}

/* One replay of the rule: returns the runs a side it used. */
static unsigned replay_adaptive(const struct comparison *c, unsigned first, unsigned max,
				double target, double *a, double *b, bool *covered)
{
	struct compare_ratio r = {0};
	double half;
	unsigned n = 0;

	while (n < first) {
		a[n] = draw(&c->level);
		b[n] = draw(&c->reference);
		n++;
	}
	for (;;) {
		if (compare_ratio(a, n, b, n, 0.95, &r) < 0)
			r.low = r.high = NAN;
		if (!precision_too_wide(r.low, r.high, target, &half) || n >= max)
			break;
		a[n] = draw(&c->level);
		b[n] = draw(&c->reference);
		n++;
	}
	*covered = r.low <= c->truth && c->truth <= r.high;
	return n;
}

int main(int argc, char **argv)
{
	double target = 10;
	unsigned first = 3, max = 30, reps = 2000;
	static const struct option opts[] = {
		{"target", required_argument, NULL, 't'}, {"first", required_argument, NULL, 'f'},
		{"max", required_argument, NULL, 'm'},    {"reps", required_argument, NULL, 'r'},
		{"seed", required_argument, NULL, 's'},   {NULL, 0, NULL, 0},
	};
	int o;

	rng_state = 1;
	while ((o = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (o) {
		case 't': target = strtod(optarg, NULL); break;
		case 'f': first = (unsigned)strtoul(optarg, NULL, 10); break;
		case 'm': max = (unsigned)strtoul(optarg, NULL, 10); break;
		case 'r': reps = (unsigned)strtoul(optarg, NULL, 10); break;
		case 's': rng_state = strtoull(optarg, NULL, 10); break;
		default: return 2;
		}
	}
	if (argc - optind < 3 || first < 2 || max < first || reps == 0 || !(target > 0)) {
		fprintf(stderr, "usage: replay-helper [--target PTS] [--first N0>=2] [--max N>=N0] "
				"[--reps R] [--seed S] RUNS.jsonl METRIC LEVEL:REFERENCE...\n");
		return 2;
	}
	struct journal j = {0};
	if (journal_read(argv[optind], &j) < 0) {
		fprintf(stderr, "replay-helper: cannot read %s\n", argv[optind]);
		return 1;
	}
	const char *metric = argv[optind + 1];
	size_t nc = (size_t)(argc - optind - 2);
	struct comparison *cs = calloc(nc, sizeof(*cs));
	double *a = calloc(max, sizeof(*a)), *b = calloc(max, sizeof(*b));
	if (!cs || !a || !b)
		return 1;
	for (size_t i = 0; i < nc; i++) {
		struct comparison *c = &cs[i];
		char *pair = argv[optind + 2 + i], *colon = strchr(pair, ':');
		struct compare_ratio r;
		if (!colon) {
			fprintf(stderr, "replay-helper: '%s': want LEVEL_CELL:REFERENCE_CELL\n", pair);
			return 2;
		}
		c->label = strdup(pair);
		*colon = '\0';
		if (load_side(&j, pair, metric, &c->level) < 0 ||
		    load_side(&j, colon + 1, metric, &c->reference) < 0 ||
		    compare_ratio(c->level.v, c->level.n, c->reference.v, c->reference.n, 0.95,
				  &r) < 0)
			return 1;
		c->truth = r.ratio;
	}
	/* The fixed design: the fewest runs a side that answer every
	 * comparison to the target on average. */
	unsigned n_fixed = first;
	for (; n_fixed < max; n_fixed++) {
		bool all = true;
		for (size_t i = 0; i < nc && all; i++) {
			double sum = 0, half;
			for (unsigned k = 0; k < reps; k++) {
				replay_fixed(&cs[i], n_fixed, a, b, &half);
				sum += half;
			}
			all = sum / reps <= target;
		}
		if (all)
			break;
	}
	double runs = 0, covered = 0, fixed_covered = 0;
	for (size_t i = 0; i < nc; i++) {
		struct comparison *c = &cs[i];
		double half;
		c->n_fixed = n_fixed;
		for (unsigned k = 0; k < reps; k++) {
			bool hit;
			c->runs += replay_adaptive(c, first, max, target, a, b, &hit);
			c->covered += hit;
			c->fixed_covered += replay_fixed(c, n_fixed, a, b, &half);
		}
		printf("comparison %s: %zu vs %zu runs recorded, truth %+.1f%%; until answered: "
		       "%.1f runs a side (mean), coverage %.1f%%; fixed: %u a side, coverage %.1f%%\n",
		       c->label, c->level.n, c->reference.n, 100 * (c->truth - 1), c->runs / reps,
		       100 * c->covered / reps, n_fixed, 100 * c->fixed_covered / reps);
		runs += c->runs / reps;
		covered += c->covered;
		fixed_covered += c->fixed_covered;
	}
	printf("replay: target +/- %g points, first %u, max %u, %u replays each: runs %.1f "
	       "until answered against %u fixed, %.2f of fixed; coverage %.1f%% until answered, "
	       "%.1f%% fixed\n",
	       target, first, max, reps, 2 * runs, (unsigned)(2 * n_fixed * nc),
	       runs / (double)(n_fixed * nc), 100 * covered / (reps * (double)nc),
	       100 * fixed_covered / (reps * (double)nc));
	journal_release(&j);
	return 0;
}
