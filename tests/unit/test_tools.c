/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Where the builder keeps its cache: one rule, and the directory is made
 * when missing (a fresh machine has no ~/.cache).  The kernel a setting
 * names: lib/kernel says why it refuses one without logging, the
 * builder reports it naming [appliance] kernel. */
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
#include "kernel.h"
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

static void test_kernel_setting(void **state)
{
	char file[64], path[4096], version[128], small[4], why[256];
	FILE *f;

	(void)state;
	log_clear_last_error();
	assert_int_equal(kernel_find("/boot/vmlinux-6.1", path, sizeof(path), version,
				     sizeof(version), why, sizeof(why)),
			 -EINVAL);
	assert_string_equal(why, "name it vmlinuz-VERSION, with /lib/modules/VERSION installed");
	assert_int_equal(kernel_find("/nonexistent/vmlinuz-6.1", path, sizeof(path),
				     version, sizeof(version), why, sizeof(why)),
			 -ENOENT);
	assert_string_equal(why, "No such file or directory");
	assert_string_equal(log_last_error(), "");

	assert_int_equal(tools_find_kernel("/boot/vmlinux-6.1", path, sizeof(path),
					   version, sizeof(version)),
			 -EINVAL);
	assert_string_equal(log_last_error(),
			    "[appliance] kernel '/boot/vmlinux-6.1': name it "
			    "vmlinuz-VERSION, with /lib/modules/VERSION installed");
	assert_int_equal(tools_find_kernel("/nonexistent/vmlinuz-6.1", path, sizeof(path),
					   version, sizeof(version)),
			 -ENOENT);
	assert_string_equal(log_last_error(),
			    "[appliance] kernel '/nonexistent/vmlinuz-6.1': No such file or directory");

	snprintf(file, sizeof(file), "%s/vmlinuz-6.1.0-9", top);
	f = fopen(file, "w");
	assert_non_null(f);
	fclose(f);
	assert_int_equal(tools_find_kernel(file, path, sizeof(path), version,
					   sizeof(version)),
			 0);
	assert_string_equal(path, file);
	assert_string_equal(version, "6.1.0-9");
	assert_int_equal(tools_find_kernel(file, path, sizeof(path), small, sizeof(small)),
			 -ENAMETOOLONG);
	char want[160];
	snprintf(want, sizeof(want), "[appliance] kernel '%s': name too long", file);
	assert_string_equal(log_last_error(), want);

	/* auto: the newest /boot kernel, or the one message without the key. */
	int r = tools_find_kernel("auto", path, sizeof(path), version, sizeof(version));
	if (r < 0) {
		assert_int_equal(r, -ENOENT);
		assert_string_equal(log_last_error(), "no kernel: " KERNEL_NONE_WHY);
	} else
		assert_int_equal(strncmp(path, "/boot/vmlinuz-", 14), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty_home),
		cmocka_unit_test(test_xdg_cache_home),
		cmocka_unit_test(test_given),
		cmocka_unit_test(test_file_in_the_way),
		cmocka_unit_test(test_kernel_setting),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
