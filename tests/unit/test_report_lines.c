/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The report's answers as result lines (report_write_answer_lines): one
 * case per answer, in report.txt's order, with the change in percent the
 * sentence gives, on a bundle measured here (docs/reproductions). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "model.h"
#include "report.h"

static void test_answers(void **state)
{
	(void)state;
	const char *dirs[] = {"docs/reproductions/cache-modes-lvm"};
	struct report_options o = {.dirs = dirs, .n_dirs = 1};
	struct model *m = NULL;
	char *out = NULL;
	size_t len;

	assert_int_equal(report_build(&o, &m), 0);
	assert_true(m->n_headlines >= 3);
	FILE *f = open_memstream(&out, &len);
	assert_non_null(f);
	report_write_answer_lines(m, f);
	assert_int_equal(fclose(f), 0);
	fputs(out, stdout);

	/* The first answer: writethrough is the reference of the cache axis,
	 * bonnie's block write its primary metric; the sentence follows. */
	const char *first = "BUILDAPP-SWEEP case=answer/cache:none-vs-writethrough/"
			    "bonnie_block_write";
	assert_memory_equal(out, first, strlen(first));
	char *line = out;
	for (size_t i = 0; i < m->n_headlines; i++) {
		char *end = strchr(line, '\n');
		assert_non_null(end);
		*end = '\0';
		assert_memory_equal(line, "BUILDAPP-SWEEP case=answer/", 27);
		/* Measured: pass, the percent the sentence rounds, the
		 * sentence itself after the unit. */
		char *result = strstr(line, " result=pass measurement=");
		assert_non_null(result);
		double pct = strtod(result + strlen(" result=pass measurement="), NULL);
		char *unit = strstr(line, " units=% ");
		assert_non_null(unit);
		assert_string_equal(unit + strlen(" units=% "), m->headlines[i]);
		char said[16];
		snprintf(said, sizeof said, "(%+.0f%% [", pct);
		assert_non_null(strstr(m->headlines[i], said));
		line = end + 1;
	}
	assert_string_equal(line, "");
	free(out);
	model_free(m);
}

/* A speed answer with a loss answer joined to it (results.md: the first
 * workload's answer to a question says what a host crash lost too) is
 * still its comparison's case, measured; the loss answer alone has no
 * number of percent change: answer/N, skip. */
static void test_joined_loss(void **state)
{
	(void)state;
	const char *dirs[] = {"docs/reproductions/cache-modes-lvm"};
	struct report_options o = {.dirs = dirs, .n_dirs = 1};
	struct model *m = NULL;
	char *out = NULL, *joined = NULL;
	size_t len;

	assert_int_equal(report_build(&o, &m), 0);
	assert_true(asprintf(&joined, "%s; after a host crash: lost acknowledged writes in 3 "
				      "of 3 crashes [29%%, 100%%], 100%% of them per crash, vs 0 "
				      "of 3 [0%%, 71%%]", m->headlines[0]) > 0);
	free(m->headlines[0]);
	m->headlines[0] = joined;
	FILE *f = open_memstream(&out, &len);
	assert_non_null(f);
	report_write_answer_lines(m, f);
	assert_int_equal(fclose(f), 0);
	const char *first = "BUILDAPP-SWEEP case=answer/cache:none-vs-writethrough/"
			    "bonnie_block_write result=pass measurement=";
	assert_memory_equal(out, first, strlen(first));
	*strchr(out, '\n') = '\0';
	assert_non_null(strstr(out, "; after a host crash: lost acknowledged writes"));
	free(out);
	model_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_answers),
		cmocka_unit_test(test_joined_loss),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
