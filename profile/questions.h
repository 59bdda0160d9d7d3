/* SPDX-License-Identifier: GPL-2.0-or-later */
/* [report] compare: the comparisons a profile exists for, which the
 * report answers first.  A list of "AXIS:LEVEL vs REFERENCE", each with
 * an optional "in METRIC" (default: each workload's primary metric),
 * separated by commas:
 *   compare = cache:unsafe vs writethrough, cache:unsafe vs writethrough in write_seconds
 * Parsed here for the loader, which checks that the sweep runs both
 * levels, and for the report, which reads the key back from the plan. */
#ifndef BUILDAPP_QUESTIONS_H
#define BUILDAPP_QUESTIONS_H

#include <stdbool.h>
#include <stddef.h>

#define QUESTIONS_MAX 16
#define QUESTION_WORD_MAX 64

struct question {
	char axis[QUESTION_WORD_MAX];
	char level[QUESTION_WORD_MAX];
	char reference[QUESTION_WORD_MAX];
	char metric[QUESTION_WORD_MAX]; /* "": each workload's primary metric */
};

struct questions {
	struct question q[QUESTIONS_MAX];
	size_t n;
};

/* Parses TEXT (the key's value; "" is no question) into RET.  Returns 0,
 * or -EINVAL with what is wrong, naming the item, in WHY. */
int questions_parse(const char *text, struct questions *ret, char *why, size_t why_size);

/* Whether Q is asked of METRIC, PRIMARY when it is its workload's first:
 * the metric Q names, else each workload's primary one. */
bool question_asks_metric(const struct question *q, const char *metric, bool primary);

/* "cache:unsafe vs writethrough" (and " in METRIC"), as written. */
void question_text(const struct question *q, char *buf, size_t size);

#endif
