/* SPDX-License-Identifier: GPL-2.0-or-later */
/* appliance/disks: disks_fs_is, the filesystem type and label of a
 * partition as libblkid reads them, on images made by mke2fs and mtools
 * (a path under /dev/ reaches them through "..", as the appliance's
 * partition names reach /dev/sda2). */
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <cmocka.h>

#include "disks.h"

static char dir[] = "/tmp/test-disks.XXXXXX";
static char ext[PATH_MAX], fat[PATH_MAX];

static int make_images(void **state)
{
	char cmd[3 * PATH_MAX];
	(void)state;
	if (!mkdtemp(dir))
		return -1;
	snprintf(ext, sizeof(ext), "..%s/ext.img", dir);
	snprintf(fat, sizeof(fat), "..%s/fat.img", dir);
	snprintf(cmd, sizeof(cmd),
		 "mke2fs -q -F -t ext4 -L RESULTS '%s/ext.img' 8M >/dev/null 2>&1 && "
		 "truncate -s 34M '%s/fat.img' && mformat -i '%s/fat.img' -F -v BUILDAPP ::",
		 dir, dir, dir);
	return system(cmd) == 0 ? 0 : -1;
}

static int remove_images(void **state)
{
	char cmd[PATH_MAX + 16];
	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static void type_and_label(void **state)
{
	(void)state;
	assert_true(disks_fs_is(ext, "ext", "RESULTS"));
	assert_false(disks_fs_is(ext, "ext", "RESULT"));
	assert_false(disks_fs_is(ext, "vfat", "RESULTS"));
	assert_true(disks_fs_is(fat, "vfat", "BUILDAPP"));
	assert_false(disks_fs_is(fat, "ext", "BUILDAPP"));
	assert_false(disks_fs_is("../nonexistent", "ext", "RESULTS"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(type_and_label),
	};
	return cmocka_run_group_tests(tests, make_images, remove_images);
}
