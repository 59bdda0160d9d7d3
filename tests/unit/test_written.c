/* The written ranges of a run (storage/written.h) and the block node they
 * are tracked on (runner/dirtymap.h). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_add_merges),
		cmocka_unit_test(test_add_grows),
		cmocka_unit_test(test_parse_node),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
