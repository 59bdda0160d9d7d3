/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The written ranges of a run (storage/written.h), the block node they
 * are tracked on (runner/dirtymap.h) and the kernel trace lines a
 * host-native run's are read from (runner/blocktrace.h). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "blocktrace.h"
#include "dirtymap.h"
#include "written.h"

static void test_add_merges(void **state)
{
	struct written w = {NULL, 0, 0, 0};

	(void)state;
	assert_int_equal(written_add(&w, 0, 65536), 0);
	assert_int_equal(written_add(&w, 65536, 65536), 0); /* touches: merged */
	assert_int_equal(written_add(&w, 1 << 20, 0), 0);    /* empty: nothing */
	assert_int_equal(written_add(&w, 1 << 20, 4096), 0);
	assert_int_equal(w.n, 2);
	assert_int_equal(w.v[0].offset, 0);
	assert_int_equal(w.v[0].length, 131072);
	assert_int_equal(w.v[1].offset, 1 << 20);
	assert_int_equal(w.bytes, 131072 + 4096);
	/* Out of order (overlapping the last range) is refused. */
	assert_int_equal(written_add(&w, (1 << 20) + 1024, 10), -EINVAL);
	assert_int_equal(w.n, 2);
	written_release(&w);
	assert_int_equal(w.n, 0);
	assert_null(w.v);
	written_release(&w);
}

static void test_add_grows(void **state)
{
	struct written w = {NULL, 0, 0, 0};

	(void)state;
	for (uint64_t i = 0; i < 1000; i++)
		assert_int_equal(written_add(&w, i * 8192, 4096), 0);
	assert_int_equal(w.n, 1000);
	assert_int_equal(w.v[999].offset, 999 * 8192);
	assert_int_equal(w.bytes, 1000 * 4096);
	written_release(&w);
}

static void test_parse_node(void **state)
{
	/* QEMU 7.2 through libvirt 9.0 (-blockdev): the CD-ROM-less list,
	 * a device without a medium first. */
	const char *reply =
		"{\"return\":[{\"device\":\"\",\"qdev\":\"/machine/peripheral-anon/x\","
		"\"removable\":false,\"locked\":false,\"type\":\"unknown\"},"
		"{\"io-status\":\"ok\",\"device\":\"\",\"qdev\":\"/machine/peripheral/virtio-disk0/virtio-backend\","
		"\"inserted\":{\"node-name\":\"libvirt-1-format\",\"drv\":\"raw\","
		"\"cache\":{\"no-flush\":true,\"direct\":false,\"writeback\":true}}}],\"id\":\"libvirt-9\"}";
	char node[64];

	(void)state;
	assert_int_equal(dirtymap_parse_node(reply, node, sizeof node), 0);
	assert_string_equal(node, "libvirt-1-format");
	assert_int_equal(dirtymap_parse_node("{\"return\":[]}", node, sizeof node), -EINVAL);
	assert_int_equal(dirtymap_parse_node("{\"error\":{}}", node, sizeof node), -EINVAL);
	assert_int_equal(dirtymap_parse_node("not json", node, sizeof node), -EINVAL);
	/* A name that does not fit is refused, not cut. */
	assert_int_equal(dirtymap_parse_node(reply, node, 8), -EINVAL);
}

/* Lines as a 6.1 and a 6.18 kernel's trace_pipe print them. */
static void test_trace_line(void **state)
{
	unsigned ma, mi;
	uint64_t sector;
	uint32_t n;
	enum blocktrace_op op;

	(void)state;
	assert_int_equal(blocktrace_parse_line(
		"              dd-1234    [001] ..... 1234.567890: block_bio_queue: 7,0 WS 2048 + 8 [dd]",
		&ma, &mi, &sector, &n, &op), 1);
	assert_int_equal(ma, 7);
	assert_int_equal(mi, 0);
	assert_int_equal(sector, 2048);
	assert_int_equal(n, 8);
	assert_int_equal(op, BLOCKTRACE_WRITE);
	assert_int_equal(blocktrace_parse_line(
		" mount-77 [000] d..1. 5.000001: block_bio_queue: 253,3 RM 18446744073709551 + 256 [mount]",
		&ma, &mi, &sector, &n, &op), 1);
	assert_int_equal(ma, 253);
	assert_int_equal(mi, 3);
	assert_int_equal(sector, 18446744073709551ULL);
	assert_int_equal(op, BLOCKTRACE_READ);
	/* A preflush with its write (a journal commit), a flush alone (a
	 * write of no sectors, as blkdev_issue_flush sends it), a discard, a
	 * secure erase: all writes; an operation the kernel calls N is not
	 * known. */
	const char *writes[] = {"FWFS 96 + 8", "FWS 0 + 0", "DS 4096 + 2048", "DE 0 + 8"};
	for (size_t i = 0; i < sizeof(writes) / sizeof(writes[0]); i++) {
		char line[128];
		snprintf(line, sizeof(line), "jbd2/loop0-8-9 [1] 2.0: block_bio_queue: 7,0 %s [jbd2]",
			 writes[i]);
		assert_int_equal(blocktrace_parse_line(line, &ma, &mi, &sector, &n, &op), 1);
		assert_int_equal(op, BLOCKTRACE_WRITE);
	}
	assert_int_equal(blocktrace_parse_line("x-1 [0] 1.0: block_bio_queue: 7,0 F 0 + 0 [x]",
					       &ma, &mi, &sector, &n, &op), 1);
	assert_int_equal(op, BLOCKTRACE_FLUSH);
	assert_int_equal(blocktrace_parse_line("x-1 [0] 1.0: block_bio_queue: 7,0 N 0 + 8 [x]",
					       &ma, &mi, &sector, &n, &op), 1);
	assert_int_equal(op, BLOCKTRACE_OTHER);
	/* What the kernel prints when its buffer overflowed, a blank line,
	 * and an event cut short. */
	assert_int_equal(blocktrace_parse_line("CPU:1 [LOST 123 EVENTS]",
					       &ma, &mi, &sector, &n, &op), -EOVERFLOW);
	assert_int_equal(blocktrace_parse_line("  ", &ma, &mi, &sector, &n, &op), 0);
	assert_int_equal(blocktrace_parse_line("x-1 [0] 1.0: block_bio_queue: 7,0 W 12",
					       &ma, &mi, &sector, &n, &op), -EINVAL);
	assert_int_equal(blocktrace_parse_line("something else", &ma, &mi, &sector, &n, &op),
			 -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_add_merges),
		cmocka_unit_test(test_add_grows),
		cmocka_unit_test(test_parse_node),
		cmocka_unit_test(test_trace_line),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
