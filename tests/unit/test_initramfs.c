/* SPDX-License-Identifier: GPL-2.0-or-later */
/* builder/initramfs: archives written one after another (as the kit's
 * initramfs is: the host root, the appliance's files, the guest kernel)
 * are read back file by file, a long window included; a damaged archive
 * is skipped with -EIO and the one after it is still read. */
#include <errno.h>
#include <fcntl.h>
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

#include "initramfs.h"

static char path[] = "/tmp/test-initramfs.XXXXXX";

struct seen {
	char names[8][64];
	size_t sizes[8];
	unsigned n;
};

static int collect(const char *name, const void *data, size_t len, void *opaque)
{
	struct seen *s = opaque;

	if (s->n == 8)
		return -E2BIG;
	snprintf(s->names[s->n], sizeof(s->names[0]), "%s", name);
	s->sizes[s->n++] = len;
	/* The bytes are the file's: each is filled with its size's low byte. */
	for (size_t i = 0; i < len; i++)
		if (((const unsigned char *)data)[i] != (unsigned char)len)
			return -EBADMSG;
	return 0;
}

static void add(int fd, int window_log, const char *name, size_t len)
{
	struct initramfs *a = NULL;
	char *data = malloc(len);

	assert_non_null(data);
	memset(data, (unsigned char)len, len);
	assert_int_equal(initramfs_open_long(fd, 3, window_log, 1700000000, &a), 0);
	assert_int_equal(initramfs_add_dir(a, "usr", 0755), 0);
	assert_int_equal(initramfs_add_data(a, name, data, len, 0644), 0);
	assert_int_equal(initramfs_close(a), 0);
	free(data);
}

static void three_archives(void **state)
{
	(void)state;
	int fd = open(path, O_WRONLY | O_TRUNC);
	assert_true(fd >= 0);
	add(fd, -1, "usr/one", 100);
	add(fd, 0, "usr/two", 5 << 20);
	add(fd, 24, "usr/three", 3);
	close(fd);

	struct seen s = {.n = 0};
	assert_int_equal(initramfs_read_files(path, "t", collect, &s), 0);
	assert_int_equal(s.n, 3);
	assert_string_equal(s.names[0], "usr/one");
	assert_string_equal(s.names[1], "usr/two");
	assert_string_equal(s.names[2], "usr/three");
	assert_int_equal(s.sizes[1], 5 << 20);
}

static void damaged_archive_skipped(void **state)
{
	(void)state;
	int fd = open(path, O_WRONLY | O_TRUNC);
	assert_true(fd >= 0);
	add(fd, -1, "usr/one", 100);
	off_t end_of_first = lseek(fd, 0, SEEK_CUR);
	add(fd, -1, "usr/two", 200);
	close(fd);

	/* One byte of the first archive's compressed data flipped. */
	fd = open(path, O_RDWR);
	unsigned char b;
	assert_int_equal(pread(fd, &b, 1, end_of_first - 8), 1);
	b ^= 0x40;
	assert_int_equal(pwrite(fd, &b, 1, end_of_first - 8), 1);
	close(fd);

	struct seen s = {.n = 0};
	assert_int_equal(initramfs_read_files(path, "t", collect, &s), -EIO);
	assert_int_equal(s.n, 1);
	assert_string_equal(s.names[0], "usr/two");
}

static void not_zstd(void **state)
{
	(void)state;
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs("this is no initramfs", f);
	fclose(f);
	struct seen s = {.n = 0};
	assert_int_equal(initramfs_read_files(path, "t", collect, &s), -EIO);
	assert_int_equal(s.n, 0);
}

int main(void)
{
	int fd = mkstemp(path);
	if (fd < 0)
		return 1;
	close(fd);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(three_archives),
		cmocka_unit_test(damaged_archive_skipped),
		cmocka_unit_test(not_zstd),
	};
	int failed = cmocka_run_group_tests(tests, NULL, NULL);
	unlink(path);
	return failed;
}
