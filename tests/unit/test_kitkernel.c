/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The guest kernel stored once: a kit directory without the reference
 * needs nothing; with it, a kernel already there (netbooted) is kept only
 * when it hashes as the reference says, and one that must come from an
 * ESP cannot without a boot disk or a partition.  Each refusal says why
 * in the one line the appliance prints.  (An ESP mounted and copied
 * from is tests/e2e/netboot.sh's server C and kit-boot.sh's boots.) */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "kitkernel.h"
#include "testfile.h"

static char dir[] = "/tmp/test-kitkernel.XXXXXX";

static int exists(const char *name)
{
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return access(path, F_OK) == 0;
}

/* The sha256 of "kernel", as sha256sum prints it. */
static void kernel_sha(char hex[65])
{
	FILE *p = popen("printf kernel | sha256sum", "r");
	assert_non_null(p);
	assert_non_null(fgets(hex, 65, p));
	assert_int_equal(pclose(p), 0);
}

static void fetch(void **state)
{
	char why[512], ref[128], sha[65], want[512], mnt[PATH_MAX];
	(void)state;

	assert_non_null(mkdtemp(dir));
	snprintf(mnt, sizeof(mnt), "%s/esp", dir);
	kernel_sha(sha);
	/* No reference: the kernel, if any, is the root's own. */
	assert_int_equal(kitkernel_fetch(dir, "sda", mnt, why, sizeof(why)), 0);

	/* Netbooted, the kernel already there and right. */
	snprintf(ref, sizeof(ref), "%s  ESP:/vmlinuz\n", sha);
	write_file(dir, KITKERNEL_REF, ref);
	write_file(dir, "vmlinuz", "kernel");
	assert_int_equal(kitkernel_fetch(dir, "", mnt, why, sizeof(why)), 0);
	assert_true(exists("vmlinuz"));

	/* The wrong one is refused and removed. */
	write_file(dir, "vmlinuz", "kernel2");
	assert_int_equal(kitkernel_fetch(dir, "", mnt, why, sizeof(why)), -EBADMSG);
	snprintf(want, sizeof(want), "guest kernel: %s/vmlinuz has sha256 ", dir);
	assert_memory_equal(why, want, strlen(want));
	assert_non_null(strstr(why, sha));
	assert_false(exists("vmlinuz"));

	/* Nowhere to copy it from. */
	assert_int_equal(kitkernel_fetch(dir, "", mnt, why, sizeof(why)), -ENOENT);
	snprintf(want, sizeof(want),
		 "guest kernel: no ESP with /vmlinuz of sha256 %s on - (no boot disk)", sha);
	assert_string_equal(why, want);
	assert_int_equal(kitkernel_fetch(dir, "no-such-disk", mnt, why, sizeof(why)), -ENOENT);
	snprintf(want, sizeof(want),
		 "guest kernel: no ESP with /vmlinuz of sha256 %s on no-such-disk "
		 "(no partition 1 or FAT labelled BUILDAPP)", sha);
	assert_string_equal(why, want);
	assert_false(exists("vmlinuz"));
	assert_false(exists(".vmlinuz.tmp"));

	/* A reference that is not one: said so, nothing tried. */
	write_file(dir, KITKERNEL_REF, "abc  ESP:/vmlinuz\n");
	assert_int_equal(kitkernel_fetch(dir, "sda", mnt, why, sizeof(why)), -EBADMSG);
	assert_non_null(strstr(why, "not one line"));

	char cmd[PATH_MAX + 16];
	snprintf(cmd, sizeof(cmd), "rm -r %s", dir);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(fetch),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
