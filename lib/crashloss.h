/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Loss with the crash as its unit (docs/results.md, "Loss by crash").
 * The records of one crash are not independent trials: a crash loses
 * what the host's page cache held at that instant, often a run of the
 * last records written, often all or none.  So what a durability cell
 * lost is counted in crashes: how many of them lost any acknowledged
 * record (k of n, with the exact interval of that proportion), and each
 * crash's fraction of its acknowledged records lost (listed, median,
 * range; an interval of their mean only from CRASHLOSS_MEAN_MIN crashes
 * on).  Never an interval over records pooled across crashes. */
#ifndef BUILDAPP_CRASHLOSS_H
#define BUILDAPP_CRASHLOSS_H

#include <stdbool.h>
#include <stddef.h>

#define CRASHLOSS_CONFIDENCE 0.95
/* The fewest crashes for an interval of the mean fraction.  Hoeffding's
 * interval holds whatever the fractions' distribution (all or none is
 * the common one, where a t interval is too narrow), but below 10
 * crashes its half-width is more than 43 percentage points whatever was
 * measured: the listed fractions and their range say more. */
#define CRASHLOSS_MEAN_MIN 10
/* The most crashes a side that crashloss_compare's estimate tries, and
 * the most it tries one at a time (then by bisection). */
#define CRASHLOSS_RESOLVE_MAX 1000
#define CRASHLOSS_RESOLVE_STEP 200
/* The test of k of n crashes against k of n, whatever the counts, and
 * that of the estimate of the crashes that would resolve it. */
#define CRASHLOSS_TEST "Boschloo's exact test"
/* The test of several settings' k of n against k of n, each setting's
 * crashes compared within it (stats_stratified_exact). */
#define CRASHLOSS_STRATIFIED_TEST "exact Mantel-Haenszel test"

struct crashloss {
	size_t crashes;   /* n */
	size_t lost_any;  /* k: crashes that lost at least one acknowledged record */
	double low, high; /* exact (Clopper-Pearson) 95% interval of k / n */
	/* Of the crashes' fractions of their acknowledged records lost: */
	double median, min, max, mean;
	/* Hoeffding's 95% interval of the mean fraction, clipped to [0, 1];
	 * NAN below CRASHLOSS_MEAN_MIN crashes. */
	double mean_low, mean_high;
	/* The crashes were power cuts (crash = power): said "cuts". */
	bool cuts;
};

/* The unit counted, as a text says it: "crash", "crashes", or with CUTS
 * (power cuts) "cut", "cuts"; PLURAL for other than one. */
const char *crashloss_unit(bool cuts, bool plural);

/* What a durability run of crash kind CRASH ("guest", "host", "power")
 * ended with, after "after ": "a host crash", "a power cut". */
const char *crashloss_after(const char *crash);

/* The loss of N crashes into *RET, FRACTION[i] the fraction of crash i's
 * acknowledged records it lost (0: none).  Returns 0, or -EINVAL when N
 * is 0 or a fraction is not in [0, 1]. */
int crashloss_compute(const double *fraction, size_t n, struct crashloss *ret);

/* Two losses compared by their crashes that lost (the verdict rules of
 * docs/results.md). */
struct crashloss_verdict {
	/* The exact test of k of n against k of n, two-sided: Boschloo's
	 * (stats_boschloo_exact) at any number of crashes; TEST names it,
	 * CRASHLOSS_TEST. */
	const char *test;
	double p;
	bool shown; /* p <= 1 - CRASHLOSS_CONFIDENCE: the proportions differ */
	/* When not shown: the fewest crashes a side with which the same test
	 * would show a difference if each side lost in the proportion it did
	 * (its k / n, rounded; past CRASHLOSS_RESOLVE_STEP found by
	 * bisection); 0 when the proportions are equal (no number would),
	 * CRASHLOSS_RESOLVE_MAX + 1 when it takes more than that. */
	unsigned resolve;
};

/* A against B into *RET.  Returns 0, or -EINVAL when either has no crash. */
int crashloss_compare(const struct crashloss *a, const struct crashloss *b,
		      struct crashloss_verdict *ret);

/* FRACTION as a percentage, for people: two significant digits, never in
 * exponent form, and never "0" or "100" for what is neither ("0.52",
 * "2.6", "48", "99.7", "100"), into BUF of SIZE bytes (24 is enough). */
void crashloss_percent(double fraction, char *buf, size_t size);

/* The crashes that lost, with their interval: "lost acknowledged writes
 * in 5 of 5 crashes [48%, 100%]", or with SHORT "0 of 5 [0%, 52%]" (the
 * second side of a comparison).  Into BUF of SIZE bytes (96 is enough). */
void crashloss_counts_text(const struct crashloss *s, bool short_form, char *buf,
			   size_t size);

/* What the crashes lost of their acknowledged records, to follow the
 * counts: ", 3% to 100% of them per crash", ", 26% of them" (one crash),
 * or "" when none lost any.  Into BUF of SIZE bytes (64 is enough). */
void crashloss_range_text(const struct crashloss *s, char *buf, size_t size);

/* A cell's loss as the report and summary.txt state it: the counts, then
 * each crash's fraction (FRACTION, N of them, in run order) with their
 * median and range, and the mean's interval where there is one: "lost
 * acknowledged writes in 2 of 2 crashes [16%, 100%]; per crash 26%, 2.6%
 * (median 14%, 2.6% to 26%)", or "lost acknowledged writes in 0 of 5
 * crashes [0%, 52%]: no loss shown".  A list too long for BUF ends in
 * "...". */
void crashloss_text(const struct crashloss *s, const double *fraction, size_t n, char *buf,
		    size_t size);

#endif
