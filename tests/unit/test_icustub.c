/* SPDX-License-Identifier: GPL-2.0-or-later */
/* builder/icustub: the host root's ICU data swapped for the stub
 * (appliance/icudata_stub.c, built beside the tests), and
 * elfdeps_defines, which decides whether the stub fits the root's ICU. */
#include <errno.h>
#include <libgen.h>
#include <limits.h>
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
#include <unicode/uvernum.h>

#include "elfdeps.h"
#include "files.h"
#include "icustub.h"

#define STR2(x) #x
#define STR(x) STR2(x)
#define MAJOR STR(U_ICU_VERSION_MAJOR_NUM)
#define LIBDIR "usr/lib/x86_64-linux-gnu"

static char stub[PATH_MAX];

/* The stub of this build: B/icudata-stub.so, two folders above us. */
static int find_stub(void **state)
{
	char self[PATH_MAX] = "";
	(void)state;
	if (readlink("/proc/self/exe", self, sizeof(self) - 1) < 0)
		return -1;
	snprintf(stub, sizeof(stub), "%s/icudata-stub.so", dirname(dirname(dirname(self))));
	return setenv("BUILDAPP_ICUDATA_STUB", stub, 1);
}

static void put(const char *path, size_t size)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	for (size_t i = 0; i < size; i++)
		fputc('d', f);
	assert_int_equal(fclose(f), 0);
}

static long bytes(const char *path)
{
	struct stat st;
	return lstat(path, &st) == 0 ? (long)st.st_size : -1;
}

static void make_root(char root[], const char *version)
{
	char path[PATH_MAX];
	assert_non_null(mkdtemp(root));
	snprintf(path, sizeof(path), "%s/usr", root);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/usr/lib", root);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/" LIBDIR, root);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/" LIBDIR "/libicudata.so.%s", root, version);
	put(path, 1 << 20);
	char link[PATH_MAX], target[64];
	snprintf(link, sizeof(link), "%s/" LIBDIR "/libicudata.so.%.*s", root,
		 (int)strcspn(version, "."), version);
	snprintf(target, sizeof(target), "libicudata.so.%s", version);
	assert_int_equal(symlink(target, link), 0);
}

static void remove_root(const char *root)
{
	assert_int_equal(files_remove_tree(root), 0);
}

static void stub_defines_this_icus_entry_point(void **state)
{
	(void)state;
	assert_int_equal(elfdeps_defines(stub, "icudt" MAJOR "_dat"), 1);
	assert_int_equal(elfdeps_defines(stub, "icudt1_dat"), 0);
	/* the real data library defines it too; a text file is no ELF */
	assert_int_equal(elfdeps_defines("/usr/lib/x86_64-linux-gnu/libicudata.so." MAJOR,
					 "icudt" MAJOR "_dat"),
			 1);
	assert_int_equal(elfdeps_defines("/etc/passwd", "icudt" MAJOR "_dat"), -ENOEXEC);
	assert_int_equal(elfdeps_defines("/nonexistent", "x"), -ENOENT);
}

static void data_replaced(void **state)
{
	char root[] = "/tmp/test-icustub.XXXXXX", path[PATH_MAX], link[PATH_MAX];
	(void)state;
	make_root(root, MAJOR ".1");
	assert_int_equal(icustub_apply(root), 0);
	snprintf(path, sizeof(path), "%s/" LIBDIR "/libicudata.so." MAJOR ".1", root);
	assert_int_equal(bytes(path), bytes(stub));
	assert_true(bytes(path) < 64 << 10);
	/* the loader's name still leads to it */
	snprintf(link, sizeof(link), "%s/" LIBDIR "/libicudata.so." MAJOR, root);
	struct stat st;
	assert_int_equal(lstat(link, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	remove_root(root);
}

static void other_icu_kept(void **state)
{
	char root[] = "/tmp/test-icustub.XXXXXX", path[PATH_MAX];
	(void)state;
	make_root(root, "1.0");
	assert_int_equal(icustub_apply(root), 0);
	snprintf(path, sizeof(path), "%s/" LIBDIR "/libicudata.so.1.0", root);
	assert_int_equal(bytes(path), 1 << 20);
	remove_root(root);
}

static void no_icu_no_change(void **state)
{
	char root[] = "/tmp/test-icustub.XXXXXX";
	(void)state;
	assert_non_null(mkdtemp(root));
	assert_int_equal(icustub_apply(root), 0);
	remove_root(root);
}

static void missing_stub_is_an_error(void **state)
{
	char root[] = "/tmp/test-icustub.XXXXXX";
	(void)state;
	make_root(root, MAJOR ".1");
	setenv("BUILDAPP_ICUDATA_STUB", "/nonexistent/icudata-stub.so", 1);
	assert_int_equal(icustub_apply(root), -ENOENT);
	setenv("BUILDAPP_ICUDATA_STUB", stub, 1);
	remove_root(root);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(stub_defines_this_icus_entry_point),
		cmocka_unit_test(data_replaced),
		cmocka_unit_test(other_icu_kept),
		cmocka_unit_test(no_icu_no_change),
		cmocka_unit_test(missing_stub_is_an_error),
	};
	return cmocka_run_group_tests(tests, find_stub, NULL);
}
