/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The durability workload's records (lib/records.h), the host's reading
 * of the acknowledgements (runner/acklog.h) and its check after the crash
 * (runner/durability.h) and the crash file of a host crash
 * (runner/hostcrash.h): missing, stale, torn and corrupt records each
 * counted once, read back through qemu-nbd from a raw volume whose
 * records file is in two extents out of disk order. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "unitskip.h"

#include "acklog.h"
#include "durability.h"
#include "guestproto.h"
#include "hostcrash.h"
#include "records.h"

#define SIZE 4096
#define RUN 0x1234abcdULL
#define N 8

/* Records 0..N-1 of RUN, with 1 missing, 2 another run's, 3 torn (its
 * second half never written), 4 with one byte changed, 6 and 7 blank
 * (never written; not acknowledged). */
static void damaged_records(unsigned char *buf)
{
	for (uint64_t i = 0; i < N; i++)
		records_fill(buf + i * SIZE, SIZE, i, RUN);
	records_blank(buf + 1 * SIZE, SIZE);
	records_fill(buf + 2 * SIZE, SIZE, 2, RUN + 1);
	records_blank(buf + 3 * SIZE + SIZE / 2, SIZE / 2);
	buf[4 * SIZE + 100] ^= 0x40;
	records_blank(buf + 6 * SIZE, 2 * SIZE);
}

static void test_classify(void **state)
{
	unsigned char rec[SIZE], scratch[SIZE];

	(void)state;
	records_fill(rec, SIZE, 7, RUN);
	assert_int_equal(records_classify(rec, SIZE, 7, RUN, scratch), RECORD_OK);
	assert_int_equal(records_classify(rec, SIZE, 8, RUN, scratch), RECORD_STALE);
	assert_int_equal(records_classify(rec, SIZE, 7, RUN + 1, scratch), RECORD_STALE);
	memset(rec, 0, SIZE);
	assert_int_equal(records_classify(rec, SIZE, 7, RUN, scratch), RECORD_MISSING);
	records_blank(rec, SIZE);
	assert_int_equal(records_classify(rec, SIZE, 7, RUN, scratch), RECORD_MISSING);
	/* The first sector arrived, the rest did not. */
	records_fill(rec, SIZE, 7, RUN);
	memset(rec + RECORDS_SECTOR, 0, SIZE - RECORDS_SECTOR);
	assert_int_equal(records_classify(rec, SIZE, 7, RUN, scratch), RECORD_TORN);
	/* A sector neither written nor empty. */
	records_fill(rec, SIZE, 7, RUN);
	rec[SIZE - 1] ^= 1;
	assert_int_equal(records_classify(rec, SIZE, 7, RUN, scratch), RECORD_CORRUPT);
	assert_string_equal(records_state_name(RECORD_TORN), "torn");
}

static void test_count_each_once(void **state)
{
	unsigned char *buf = malloc(N * SIZE);
	struct durability_count c;

	(void)state;
	damaged_records(buf);
	durability_count_buffer(buf, SIZE, 6, RUN, &c);
	assert_int_equal(c.acknowledged, 6);
	assert_int_equal(c.state[RECORD_OK], 2);
	assert_int_equal(c.state[RECORD_MISSING], 1);
	assert_int_equal(c.state[RECORD_STALE], 1);
	assert_int_equal(c.state[RECORD_TORN], 1);
	assert_int_equal(c.state[RECORD_CORRUPT], 1);
	assert_int_equal(c.lost, 4);
	/* What was never acknowledged is never lost. */
	durability_count_buffer(buf, SIZE, 1, RUN, &c);
	assert_int_equal(c.lost, 0);
	free(buf);
}

static void test_layout_parse(void **state)
{
	static const char console[] =
		"[    0.5] virtio_blk virtio1: [vda] 131072 512-byte logical blocks\r\n"
		"BUILDAPP:BEGIN workload=durability kernel=6.1.0\r\n"
		"BUILDAPP:RECORDS size=4096 count=8 extents=0:1048576:16384,16384:65536:16384\r\n"
		"BUILDAPP:ACK seq=0\r\n";
	struct durability_layout l;

	(void)state;
	assert_int_equal(durability_layout_parse(console, strlen(console), &l), 0);
	assert_int_equal(l.size, 4096);
	assert_int_equal(l.count, 8);
	assert_int_equal(l.n, 2);
	assert_int_equal(l.extent[1].logical, 16384);
	assert_int_equal(l.extent[1].physical, 65536);
	assert_int_equal(l.extent[1].length, 16384);
	assert_int_equal(durability_layout_parse("BUILDAPP:END status=1\n", 22, &l), -ENODATA);
	static const char bad[] = "BUILDAPP:RECORDS size=100 count=8 extents=0:0:800\n";
	assert_int_equal(durability_layout_parse(bad, strlen(bad), &l), -EBADMSG);
}

/* The check reads the volume through qemu-nbd: records 0-3 at 1M, 4-7
 * at 64K, as FIEMAP would report a file in two extents. */
static void test_check_volume(void **state)
{
	char path[] = "/tmp/buildapp-durability.XXXXXX";
	unsigned char *buf = malloc(N * SIZE);
	struct durability_layout l = {.size = SIZE, .count = N, .n = 2,
				      .extent = {{0, 1 << 20, 4 * SIZE},
						 {4 * SIZE, 65536, 4 * SIZE}}};
	struct durability_count c;

	(void)state;
	if (system("command -v qemu-nbd >/dev/null") != 0) {
		free(buf);
		UNIT_SKIP("qemu-nbd is not installed");
		return;
	}
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, 2 << 20), 0);
	damaged_records(buf);
	assert_int_equal(pwrite(fd, buf, 4 * SIZE, 1 << 20), 4 * SIZE);
	assert_int_equal(pwrite(fd, buf + 4 * SIZE, 4 * SIZE, 65536), 4 * SIZE);
	close(fd);
	assert_int_equal(durability_check(path, IMAGE_FORMAT_RAW, &l, RUN, 6, &c), 0);
	assert_int_equal(c.lost, 4);
	assert_int_equal(c.state[RECORD_TORN], 1);
	assert_int_equal(c.state[RECORD_OK], 2);
	/* More acknowledged than the file holds: refused, nothing counted. */
	assert_int_equal(durability_check(path, IMAGE_FORMAT_RAW, &l, RUN, N + 1, &c), -EINVAL);
	unlink(path);
	free(buf);
}

static void append(const char *path, const char *text)
{
	FILE *f = fopen(path, "a");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void test_acklog(void **state)
{
	char dir[] = "/tmp/buildapp-acklog.XXXXXX", console[64], acks[64];
	struct acklog a;
	uint64_t n = 99;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(console, sizeof(console), "%s/console", dir);
	snprintf(acks, sizeof(acks), "%s/acks", dir);
	assert_int_equal(acklog_open(&a, console, acks), 0);
	assert_int_equal(acklog_poll(&a), 0); /* no console yet */
	assert_int_equal(a.acks, 0);
	append(console, "[  1.0] kernel line\r\nBUILDAPP:RECORDS size=4096 count=3 extents=0:0:12288\r\n"
			"BUILDAPP:ACK seq=0\r\nBUILDAPP:ACK se");
	assert_int_equal(acklog_poll(&a), 0);
	assert_int_equal(a.acks, 1); /* the cut line waits for its end */
	append(console, "q=1\r\njunk BUILDAPP:ACK seq=2\r\n");
	assert_int_equal(acklog_poll(&a), 0);
	assert_int_equal(a.acks, 3);
	assert_false(a.out_of_order);
	append(console, "BUILDAPP:ACK seq=7\r\n");
	assert_int_equal(acklog_poll(&a), 0);
	assert_int_equal(a.acks, 3);
	assert_true(a.out_of_order);
	acklog_close(&a);
	assert_int_equal(acklog_read(acks, &n), 0);
	assert_int_equal(n, 3);
	append(acks, "5\n");
	assert_int_equal(acklog_read(acks, &n), -EBADMSG);
	unlink(console);
	unlink(acks);
	rmdir(dir);
}

/* The crash file a crash = host run leaves for the next boot: written,
 * listed in position order (a temporary beside it is not one), read back
 * as written; a file missing a field is refused. */
static void test_crash_file(void **state)
{
	char dir[] = "/tmp/buildapp-crash.XXXXXX", console[64], path[PATH_MAX];
	struct hostcrash c = {.cell = "lvm/raw/-/unsafe/threads/virtio/durability",
			      .index = 2, .position = 17, .acks = 123,
			      .ack_seconds = 4.25, .reset = "full",
			      .run_seconds = 61.5, .crashed_at = 1796000000},
			 back;
	char **paths;
	size_t n;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(console, sizeof(console), "%s/console", dir);
	assert_int_equal(mkdir(console, 0755), 0);
	c.records = strdup(GUESTPROTO_TAG GUESTPROTO_RECORDS " size=4096 count=200 extents=0:8192:819200");
	assert_int_equal(hostcrash_write(dir, &c), 0);
	c.position = 3;
	assert_int_equal(hostcrash_write(dir, &c), 0);
	/* Not crash files: a temporary, a console log. */
	snprintf(path, sizeof(path), "%s/.run-0005.crash.tmp", console);
	append(path, "x");
	char log[PATH_MAX];
	snprintf(log, sizeof(log), "%s/run-0005.log", console);
	append(log, "x");
	assert_int_equal(hostcrash_list(dir, &paths, &n), 0);
	assert_int_equal(n, 2);
	assert_non_null(strstr(paths[0], "/console/run-0003.crash"));
	assert_non_null(strstr(paths[1], "/console/run-0017.crash"));
	assert_int_equal(hostcrash_read(paths[1], &back), 0);
	assert_string_equal(back.cell, c.cell);
	assert_int_equal(back.index, 2);
	assert_int_equal(back.position, 17);
	assert_int_equal(back.acks, 123);
	assert_true(back.ack_seconds == 4.25);
	assert_string_equal(back.reset, "full");
	assert_true(back.run_seconds == 61.5);
	assert_int_equal(back.crashed_at, 1796000000);
	assert_string_equal(back.records, c.records);
	hostcrash_release(&back);
	/* Cut short (the acks line and after gone): not a crash file. */
	char cut[PATH_MAX];
	snprintf(cut, sizeof(cut), "%s/run-0009.crash", console);
	FILE *f = fopen(cut, "w");
	assert_non_null(f);
	fprintf(f, "%s\ncell=x\nindex=0\nposition=9\n", c.records);
	fclose(f);
	assert_int_equal(hostcrash_read(cut, &back), -EBADMSG);
	assert_null(back.records);
	for (size_t i = 0; i < n; i++) {
		unlink(paths[i]);
		free(paths[i]);
	}
	free(paths);
	free(c.records);
	unlink(cut);
	unlink(path);
	unlink(log);
	rmdir(console);
	rmdir(dir);
}

static void test_crash_point(void **state)
{
	(void)state;
	for (unsigned pos = 0; pos < 200; pos++) {
		uint64_t k = durability_crash_point(1, pos, 1000);
		assert_true(k >= 500 && k <= 1000);
		assert_int_equal(durability_crash_point(1, pos, 1), 1);
	}
	assert_int_not_equal(durability_run_id(1, 0), durability_run_id(1, 1));
	assert_int_not_equal(durability_run_id(1, 0), durability_run_id(2, 0));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_classify),
		cmocka_unit_test(test_count_each_once),
		cmocka_unit_test(test_layout_parse),
		cmocka_unit_test(test_check_volume),
		cmocka_unit_test(test_acklog),
		cmocka_unit_test(test_crash_point),
		cmocka_unit_test(test_crash_file),
	};
	return unit_result(cmocka_run_group_tests(tests, NULL, NULL));
}
