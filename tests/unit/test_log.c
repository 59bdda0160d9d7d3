/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of the error idiom (docs/hacking.md): log_error_errno prints
 * the cause once, after the message; log_error_code prints the message
 * alone; both return a negative errno and leave the text as the last
 * error. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "log.h"

static char *text;
static size_t size;
static FILE *f;

static int capture(void **state)
{
	(void)state;
	f = open_memstream(&text, &size);
	log_set_stream(f);
	return f ? 0 : -1;
}

static int release(void **state)
{
	(void)state;
	log_set_stream(NULL);
	fclose(f);
	free(text);
	text = NULL;
	return 0;
}

static void test_errno_prints_cause(void **state)
{
	(void)state;
	assert_int_equal(log_error_errno(-ENOSPC, "cannot write '%s'", "x"), -ENOSPC);
	fflush(f);
	assert_string_equal(text, "buildapp: error: cannot write 'x': No space left on device\n");
	assert_string_equal(log_last_error(), "cannot write 'x': No space left on device");
}

static void test_errno_sign_and_zero(void **state)
{
	(void)state;
	/* A positive errno is taken as the negative one; 0 is an I/O error. */
	assert_int_equal(log_error_errno(EACCES, "a"), -EACCES);
	assert_int_equal(log_error_errno(0, "b"), -EIO);
	fflush(f);
	assert_string_equal(text, "buildapp: error: a: Permission denied\n"
				  "buildapp: error: b: Input/output error\n");
}

static void test_code_prints_message_only(void **state)
{
	(void)state;
	assert_int_equal(log_error_code(-EINVAL, "plan '%s': cells: not a list", "p"),
			 -EINVAL);
	fflush(f);
	assert_string_equal(text, "buildapp: error: plan 'p': cells: not a list\n");
	assert_string_equal(log_last_error(), "plan 'p': cells: not a list");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_errno_prints_cause, capture, release),
		cmocka_unit_test_setup_teardown(test_errno_sign_and_zero, capture, release),
		cmocka_unit_test_setup_teardown(test_code_prints_message_only, capture,
						release),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
