/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "questions.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* A name of an axis, level or metric: no blank, comma or colon. */
static bool is_word(const char *s, size_t n)
{
	if (n == 0 || n >= QUESTION_WORD_MAX)
		return false;
	for (size_t i = 0; i < n; i++)
		if (strchr(" \t,:", s[i]))
			return false;
	return true;
}

static const char *skip_blanks(const char *s, const char *end)
{
	while (s < end && (*s == ' ' || *s == '\t'))
		s++;
	return s;
}

/* The next blank-separated word of [*S, END) into OUT; false when there
 * is none or it is not a word. */
static bool next_word(const char **s, const char *end, char *out)
{
	const char *b = skip_blanks(*s, end), *e = b;
	while (e < end && *e != ' ' && *e != '\t')
		e++;
	if (!is_word(b, (size_t)(e - b)))
		return false;
	memcpy(out, b, (size_t)(e - b));
	out[e - b] = '\0';
	*s = e;
	return true;
}

/* One item, [B, E): "AXIS:LEVEL vs REFERENCE [in METRIC]". */
static int parse_item(const char *b, const char *e, struct question *q)
{
	char word[QUESTION_WORD_MAX];
	const char *colon = memchr(b, ':', (size_t)(e - b));

	memset(q, 0, sizeof *q);
	b = skip_blanks(b, e);
	if (!colon || !is_word(b, (size_t)(colon - b)))
		return -EINVAL;
	memcpy(q->axis, b, (size_t)(colon - b));
	const char *s = colon + 1;
	if (s < e && (*s == ' ' || *s == '\t'))
		return -EINVAL; /* "cache: unsafe" */
	if (!next_word(&s, e, q->level) || !next_word(&s, e, word) ||
	    strcmp(word, "vs") != 0 || !next_word(&s, e, q->reference))
		return -EINVAL;
	if (skip_blanks(s, e) == e)
		return 0;
	if (!next_word(&s, e, word) || strcmp(word, "in") != 0 ||
	    !next_word(&s, e, q->metric) || skip_blanks(s, e) != e)
		return -EINVAL;
	return 0;
}

int questions_parse(const char *text, struct questions *ret, char *why, size_t why_size)
{
	memset(ret, 0, sizeof *ret);
	for (const char *b = text; *skip_blanks(b, b + strlen(b));) {
		const char *e = strchr(b, ',');
		if (!e)
			e = b + strlen(b);
		const char *tb = skip_blanks(b, e), *te = e;
		while (te > tb && (te[-1] == ' ' || te[-1] == '\t'))
			te--;
		if (ret->n == QUESTIONS_MAX) {
			snprintf(why, why_size, "more than %d comparisons", QUESTIONS_MAX);
			return -EINVAL;
		}
		struct question *q = &ret->q[ret->n];
		if (parse_item(tb, te, q) < 0) {
			snprintf(why, why_size,
				 "'%.*s': expected AXIS:LEVEL vs REFERENCE [in METRIC] "
				 "(e.g. cache:unsafe vs writethrough)",
				 (int)(te - tb > 80 ? 80 : te - tb), tb);
			return -EINVAL;
		}
		if (strcmp(q->level, q->reference) == 0) {
			snprintf(why, why_size, "'%.*s': compares %s with itself",
				 (int)(te - tb > 80 ? 80 : te - tb), tb, q->level);
			return -EINVAL;
		}
		ret->n++;
		if (!*e)
			break;
		b = e + 1;
	}
	return 0;
}

bool question_asks_metric(const struct question *q, const char *metric, bool primary)
{
	return *q->metric ? strcmp(q->metric, metric) == 0 : primary;
}

void question_text(const struct question *q, char *buf, size_t size)
{
	snprintf(buf, size, "%s:%s vs %s%s%s", q->axis, q->level, q->reference,
		 *q->metric ? " in " : "", q->metric);
}
