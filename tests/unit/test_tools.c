/* Where the builder keeps its cache: one rule, and the directory is made
 * when missing (a fresh machine has no ~/.cache). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "dirs.h"
#include "log.h"
#include "tools.h"

static char top[] = "/tmp/test-tools-XXXXXX";

static void assert_dir(const char *path)
{
	struct stat st;

	if (stat(path, &st) < 0 || !S_ISDIR(st.st_mode))
		fail_msg("'%s' is not a directory", path);
}

static int setup(void **state)
{
	(void)state;
	if (!mkdtemp(top))
		return -1;
	unsetenv("XDG_CACHE_HOME");
	log_set_stream(fopen("/dev/null", "w"));
	return 0;
}

static int teardown(void **state)
{
	char cmd[64];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
	return system(cmd) == 0 ? 0 : -1;
}

/* An empty HOME: ~/.cache/buildapp with ~/.cache made too. */
static void test_empty_home(void **state)
{
	char home[64], want[128], got[4096];

	(void)state;
	snprintf(home, sizeof(home), "%s/home", top);
	assert_int_equal(mkdir(home, 0700), 0);
	setenv("HOME", home, 1);
	assert_int_equal(tools_cache_dir(NULL, got, sizeof(got)), 0);
	snprintf(want, sizeof(want), "%s/.cache/buildapp", home);
	assert_string_equal(got, want);
	assert_dir(want);
	/* Again: an existing cache is fine. */
	assert_int_equal(tools_cache_dir(NULL, got, sizeof(got)), 0);
}

/* XDG_CACHE_HOME wins over HOME, and is made with its parents. */
static void test_xdg_cache_home(void **state)
{
	char xdg[64], want[128], got[4096];

	(void)state;
	snprintf(xdg, sizeof(xdg), "%s/xdg/not/yet", top);
	setenv("XDG_CACHE_HOME", xdg, 1);
	assert_int_equal(tools_cache_dir(NULL, got, sizeof(got)), 0);
	snprintf(want, sizeof(want), "%s/buildapp", xdg);
	assert_string_equal(got, want);
	assert_dir(want);
	unsetenv("XDG_CACHE_HOME");
}

/* --cache wins over both, and is made with its parents. */
static void test_given(void **state)
{
	char given[64], got[4096];

	(void)state;
	snprintf(given, sizeof(given), "%s/given/cache/", top);
	setenv("XDG_CACHE_HOME", "/nonexistent", 1);
	assert_int_equal(tools_cache_dir(given, got, sizeof(got)), 0);
	assert_string_equal(got, given);
	assert_dir(given);
	unsetenv("XDG_CACHE_HOME");
}

/* A file where a directory must be: an error, not a half-made cache. */
static void test_file_in_the_way(void **state)
{
	char file[64], under[96], got[4096];
	FILE *f;

	(void)state;
	snprintf(file, sizeof(file), "%s/file", top);
	f = fopen(file, "w");
	assert_non_null(f);
	fclose(f);
	assert_int_equal(dirs_make(file, 0755), -ENOTDIR);
	snprintf(under, sizeof(under), "%s/below", file);
	assert_int_equal(dirs_make(under, 0755), -ENOTDIR);
	assert_int_equal(tools_cache_dir(under, got, sizeof(got)), -ENOTDIR);
	assert_int_equal(dirs_make("", 0755), -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty_home),
		cmocka_unit_test(test_xdg_cache_home),
		cmocka_unit_test(test_given),
		cmocka_unit_test(test_file_in_the_way),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
