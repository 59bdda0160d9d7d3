/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of the image builder's pure parts: reproducible ids, the
 * kernel command line of a kit, reproducible initramfs archives (and
 * their long zstd window), and the
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

#include "cmdline.h"
#include "disks.h"
#include "initramfs.h"
#include "kit.h"
#include "lavajob.h"
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
	p.host.write_cache = AXIS_BIT(WRITE_CACHE_OFF);
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
	/* The kit's words end with the word the appliance looks for. */
	assert_string_equal(buf + strlen(buf) - strlen(" " CMDLINE_END), " " CMDLINE_END);
	strcpy(p.host.disk, "two words");
	assert_true(kit_cmdline(&p, buf, sizeof(buf)) < 0);
	strcpy(p.host.disk, "auto");
	assert_int_equal(kit_cmdline(&p, buf, 16), -ENAMETOOLONG);
}

/* --lava-server TAGS[=DISK]: LAVA's tags, a disk identity that rides on
 * the kernel command line, and a line that iPXE keeps whole. */
static void test_lava_server(void **state)
{
	struct lavajob_server sv;
	char why[256], args[LAVAJOB_X86_ARGS_MAX * 2], longid[200];

	(void)state;
	assert_int_equal(lavajob_parse_server("srv-a", &sv, why, sizeof why), 0);
	assert_int_equal(sv.n_tags, 1);
	assert_string_equal(sv.tags[0], "srv-a");
	assert_string_equal(sv.disk, "");
	assert_int_equal(lavajob_parse_server("srv-b,nvme_2=wwn-0x5000c500a1b2c3d4", &sv, why,
					      sizeof why), 0);
	assert_int_equal(sv.n_tags, 2);
	assert_string_equal(sv.tags[1], "nvme_2");
	assert_string_equal(sv.disk, "wwn-0x5000c500a1b2c3d4");
	lavajob_x86_args(sv.disk, args, sizeof args);
	assert_string_equal(args, "quiet initrd=initrd buildapp.disk=wwn-0x5000c500a1b2c3d4 "
				  CMDLINE_END);
	lavajob_x86_args("", args, sizeof args);
	assert_string_equal(args, "quiet initrd=initrd " CMDLINE_END);
	static const char *const bad[] = {"", ",a", "a,", "a,,b", "a b", "srv.a", "a=",
					  "a=two words", "a=quo\"te", "a,b,c,d,e", "=disk"};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		assert_int_equal(lavajob_parse_server(bad[i], &sv, why, sizeof why), -EINVAL);
	memset(longid, 'x', sizeof longid);
	strcpy(longid, "a=");
	memset(longid + 2, 'x', 130);
	longid[132] = '\0';
	assert_int_equal(lavajob_parse_server(longid, &sv, why, sizeof why), -EINVAL);
	assert_non_null(strstr(why, "255"));
	longid[2 + LAVAJOB_X86_ARGS_MAX - strlen("quiet initrd=initrd buildapp.disk= "
						  CMDLINE_END)] = '\0';
	assert_int_equal(lavajob_parse_server(longid, &sv, why, sizeof why), 0);
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

/* An archive of FILE twice (12 MiB of noise, so only a match between the
 * two copies compresses it) through libzstd with window 2^WLOG; its size. */
static long write_twice(const char *file, const char *out, int wlog)
{
	int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	struct initramfs *a = NULL;

	assert_true(fd >= 0);
	assert_int_equal(initramfs_open_long(fd, 3, wlog, 1700000000, &a), 0);
	assert_int_equal(initramfs_add_file(a, file, "a", 0644), 0);
	assert_int_equal(initramfs_add_file(a, file, "b", 0644), 0);
	assert_int_equal(initramfs_close(a), 0);
	long n = lseek(fd, 0, SEEK_END);
	close(fd);
	return n;
}

static void test_initramfs_long_window(void **state)
{
	char dir[] = "/tmp/test-initramfs-XXXXXX", f[300], o[300], cmd[1024];
	const size_t len = 12 << 20;
	uint64_t x = 88172645463325252ull;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(f, sizeof(f), "%s/noise", dir);
	unsigned char *buf = malloc(len);
	assert_non_null(buf);
	for (size_t i = 0; i < len; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		buf[i] = (unsigned char)(x >> 32);
	}
	FILE *fp = fopen(f, "w");
	assert_non_null(fp);
	assert_int_equal(fwrite(buf, 1, len, fp), len);
	assert_int_equal(fclose(fp), 0);
	free(buf);
	/* zstd's window for the level misses the second copy, the long one
	 * stores it as one match; the same bytes twice; the kernel's format. */
	snprintf(o, sizeof(o), "%s/plain.cpio.zst", dir);
	long plain = write_twice(f, o, 0);
	snprintf(o, sizeof(o), "%s/long.cpio.zst", dir);
	long lng = write_twice(f, o, 25);
	assert_true(plain > (long)(2 * len * 95 / 100));
	assert_true(lng < (long)(len * 105 / 100));
	snprintf(o, sizeof(o), "%s/again.cpio.zst", dir);
	assert_int_equal(write_twice(f, o, 25), lng);
	snprintf(cmd, sizeof(cmd),
		 "cd %s && cmp long.cpio.zst again.cpio.zst && mkdir x && "
		 "zstd -dc long.cpio.zst | (cd x && cpio -id 2>/dev/null) && "
		 "cmp x/a noise && cmp x/b noise",
		 dir);
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
		cmocka_unit_test(test_lava_server),
		cmocka_unit_test(test_initramfs_reproducible),
		cmocka_unit_test(test_initramfs_long_window),
		cmocka_unit_test(test_disk_match),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
