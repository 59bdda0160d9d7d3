/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A cmocka test that cannot run here: UNIT_SKIP says why and skips it,
 * and main returns unit_result(...) so the program exits 77, a skip for
 * tests/run-tests.sh, rather than 0, when no test failed and one skipped
 * (cmocka's own skip() exits 0: a pass).  Include after <cmocka.h>. */
#ifndef BUILDAPP_UNITSKIP_H
#define BUILDAPP_UNITSKIP_H

#include <stdio.h>

static const char *unit_skipped;

#define UNIT_SKIP(why)               \
	do {                         \
		unit_skipped = (why); \
		skip();              \
	} while (0)

/* FAILED: cmocka_run_group_tests' result. */
static inline int unit_result(int failed)
{
	if (failed || !unit_skipped)
		return failed;
	printf("skipped: %s\n", unit_skipped);
	return 77;
}

#endif
