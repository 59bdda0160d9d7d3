/* Unit tests of the image builder's pure parts: reproducible ids, the
 * kernel command line of a kit, reproducible initramfs archives, and the
 * appliance's disk identity matching. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "disks.h"
#include "initramfs.h"
#include "kit.h"
#include "repro.h"

static void test_repro_ids(void **state)
{
	char a[REPRO_UUID_LEN], b[REPRO_UUID_LEN], c[REPRO_UUID_LEN];

	(void)state;
	repro_uuid("lvm-unsafe", 1700000000, "gpt-disk", a);
	repro_uuid("lvm-unsafe", 1700000000, "gpt-disk", b);
	repro_uuid("lvm-unsafe", 1700000001, "gpt-disk", c);
	assert_string_equal(a, b);
	assert_string_not_equal(a, c);
	assert_int_equal(strlen(a), 36);
	assert_int_equal(a[14], '4'); /* version 4 shape */
	assert_true(repro_u32("x", 1, "esp") == repro_u32("x", 1, "esp"));
	assert_true(repro_u32("x", 1, "esp") != repro_u32("y", 1, "esp"));
}

static void test_kit_cmdline(void **state)
{
	struct profile p;
	char buf[2048];

	(void)state;
	memset(&p, 0, sizeof(p));
	strcpy(p.appliance.name, "ci-smoke");
	strcpy(p.host.disk, "wwn-0x5000c500a1b2c3d4");
	p.host.write_cache = WRITE_CACHE_OFF;
	p.host.dirty_ratio = 10;
	p.host.dirty_background_ratio = -1;
	p.host.read_ahead_kb = -1;
	p.host.strict = false;
	p.guest.accel = VM_ACCEL_TCG;
	assert_int_equal(kit_cmdline(&p, buf, sizeof(buf)), 0);
	assert_non_null(strstr(buf, "console=ttyS0,115200"));
	assert_non_null(strstr(buf, "buildapp.disk=wwn-0x5000c500a1b2c3d4"));
	assert_non_null(strstr(buf, "buildapp.write_cache=off"));
	assert_non_null(strstr(buf, "buildapp.strict=no"));
	assert_non_null(strstr(buf, "buildapp.dirty_ratio=10"));
	assert_non_null(strstr(buf, "buildapp.dirty_background_ratio=keep"));
	assert_non_null(strstr(buf, "buildapp.accel=tcg"));
	strcpy(p.host.disk, "two words");
	assert_true(kit_cmdline(&p, buf, sizeof(buf)) < 0);
	strcpy(p.host.disk, "auto");
	assert_int_equal(kit_cmdline(&p, buf, 16), -ENAMETOOLONG);
}

static void write_archive(const char *tree, const char *out)
{
	int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	struct initramfs *a = NULL;

	assert_true(fd >= 0);
	assert_int_equal(initramfs_open(fd, 3, 1700000000, &a), 0);
	assert_int_equal(initramfs_add_tree(a, tree), 0);
	assert_int_equal(initramfs_add_dir(a, "etc", 0755), 0);
	assert_int_equal(initramfs_add_data(a, "etc/x", "hello\n", 6, 0644), 0);
	assert_int_equal(initramfs_close(a), 0);
	close(fd);
}

static void test_initramfs_reproducible(void **state)
{
	char dir[] = "/tmp/test-initramfs-XXXXXX", cmd[256], a[300], b[300];

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(cmd, sizeof(cmd),
		 "mkdir -p %s/t/usr/bin && echo data >%s/t/usr/bin/f && "
		 "ln -s f %s/t/usr/bin/l",
		 dir, dir, dir);
	assert_int_equal(system(cmd), 0);
	snprintf(a, sizeof(a), "%s/t", dir);
	snprintf(b, sizeof(b), "%s/a.cpio.zst", dir);
	write_archive(a, b);
	snprintf(cmd, sizeof(cmd), "touch %s/t/usr/bin/f", dir);
	assert_int_equal(system(cmd), 0);
	snprintf(b, sizeof(b), "%s/b.cpio.zst", dir);
	write_archive(a, b);
	/* Same bytes although an mtime changed; the kernel's format. */
	snprintf(cmd, sizeof(cmd),
		 "cmp %s/a.cpio.zst %s/b.cpio.zst && "
		 "zstd -dc %s/a.cpio.zst | cpio -t 2>/dev/null | "
		 "tr '\\n' ' ' | grep -q 'usr usr/bin usr/bin/f usr/bin/l etc etc/x'",
		 dir, dir, dir);
	assert_int_equal(system(cmd), 0);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

static void test_disk_match(void **state)
{
	struct disk_info d = {
		.name = "sda",
		.serial = "BUILDAPP-DUT-0001",
		.wwid = "naa.5000c500a1b2c3d4",
	};

	(void)state;
	assert_true(disks_match(&d, "BUILDAPP-DUT-0001"));
	assert_true(disks_match(&d, "/dev/disk/by-id/ata-QEMU_HARDDISK_BUILDAPP-DUT-0001"));
	assert_true(disks_match(&d, "wwn-0x5000c500a1b2c3d4"));
	assert_true(disks_match(&d, "0x5000c500a1b2c3d4"));
	assert_true(disks_match(&d, "naa.5000c500a1b2c3d4"));
	assert_true(disks_match(&d, "/dev/sda"));
	assert_false(disks_match(&d, "BUILDAPP-DUT-0002"));
	assert_false(disks_match(&d, "ata-QEMU_HARDDISKBUILDAPP-DUT-0001"));
	assert_false(disks_match(&d, ""));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_repro_ids),
		cmocka_unit_test(test_kit_cmdline),
		cmocka_unit_test(test_initramfs_reproducible),
		cmocka_unit_test(test_disk_match),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
