/* SPDX-License-Identifier: GPL-2.0-or-later */
/* CHECK(cond, fmt, ...) for the C drivers of integration tests: reports a
 * failed condition with its place and a message, counts it in `failures`
 * and goes on, so one run shows every failure.  main() returns
 * failures != 0. */
#ifndef BUILDAPP_TESTS_CHECK_H
#define BUILDAPP_TESTS_CHECK_H

#include <stdio.h>

static int failures;

#define CHECK(cond, ...)                                                       \
	do {                                                                   \
		if (!(cond)) {                                                 \
			fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__,          \
				__LINE__, #cond);                              \
			fprintf(stderr, __VA_ARGS__);                          \
			fputc('\n', stderr);                                   \
			failures++;                                            \
		}                                                              \
	} while (0)

#endif
