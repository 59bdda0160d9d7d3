/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The qcow2 cache-size of an L2 cache, and reading it back from QEMU's
 * command line. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <string.h>

#include "qcow2cache.h"

static void test_size(void **state)
{
	(void)state;
	assert_int_equal(qcow2cache_size(0, 65536), 0);
	assert_int_equal(qcow2cache_size(-1, 65536), 0);
	/* 1M of L2 + 4 x 64K of refcount cache. */
	assert_int_equal(qcow2cache_size(1 << 20, 65536), (1 << 20) + (256 << 10));
}

static void test_from_cmdline(void **state)
{
	/* As libvirt 9 writes it: the file node, then the qcow2 node. */
	static const char args[] =
		"/usr/bin/qemu-system-x86_64\0-name\0guest=buildapp-r0,debug-threads=on\0"
		"-blockdev\0{\"driver\":\"file\",\"filename\":\"/t/q.qcow2\",\"node-name\":\"libvirt-1-storage\"}\0"
		"-blockdev\0{\"node-name\":\"libvirt-1-format\",\"driver\":\"qcow2\",\"cache-size\":1310720,\"file\":\"libvirt-1-storage\"}\0"
		"-device\0virtio-blk-pci\0";
	static const char none[] =
		"qemu\0-blockdev\0{\"driver\":\"qcow2\",\"file\":\"x\"}\0";
	static const char raw[] =
		"qemu\0-blockdev\0{\"driver\":\"raw\",\"file\":\"x\"}\0";
	uint64_t v = 1;

	(void)state;
	assert_int_equal(qcow2cache_from_cmdline(args, sizeof(args), &v), 0);
	assert_int_equal(v, 1310720);
	assert_int_equal(qcow2cache_from_cmdline(none, sizeof(none), &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(qcow2cache_from_cmdline(raw, sizeof(raw), &v), -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_size),
		cmocka_unit_test(test_from_cmdline),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
