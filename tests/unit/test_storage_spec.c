/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The profile's [storage] section as the storage module's spec. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "recipe.h"
#include "volumes.h"

static void test_mapping(void **state)
{
	struct profile p;
	struct storage_spec s;
	struct storage_target t = {STORAGE_TARGET_DISK, "/dev/sdb", "/mnt"};
	struct recipe r;

	(void)state;
	memset(&p, 0, sizeof(p));
	p.storage.backends = AXIS_BIT(BACKEND_LVM) | AXIS_BIT(BACKEND_QCOW2);
	p.storage.size = UINT64_C(4) << 30;
	p.storage.qcow2_prealloc = AXIS_BIT(QCOW2_PREALLOC_METADATA) |
				   AXIS_BIT(QCOW2_PREALLOC_FULL);
	p.storage.raw_prealloc = AXIS_BIT(RAW_PREALLOC_FALLOC);
	p.storage.cluster_size = 2u << 20;
	p.storage.fill = true;
	volumes_spec_from_profile(&p, &s);
	assert_int_equal(s.backends, STORAGE_BIT(BACKEND_LVM) | STORAGE_BIT(BACKEND_QCOW2));
	assert_int_equal(s.size, UINT64_C(4) << 30);
	assert_int_equal(s.qcow2_prealloc, STORAGE_BIT(QCOW2_PREALLOC_METADATA) |
						   STORAGE_BIT(QCOW2_PREALLOC_FULL));
	assert_int_equal(s.raw_prealloc, STORAGE_BIT(RAW_PREALLOC_FALLOC));
	assert_int_equal(s.cluster_size, 2u << 20);
	assert_true(s.fill);
	assert_null(storage_spec_check(&s));
	/* The cells of the plan find their volumes. */
	assert_int_equal(recipe_build(&s, &t, &r), 0);
	assert_non_null(recipe_find_volume(&r, BACKEND_LVM, -1));
	assert_non_null(recipe_find_volume(&r, BACKEND_QCOW2, QCOW2_PREALLOC_FULL));
	assert_null(recipe_find_volume(&r, BACKEND_QCOW2, QCOW2_PREALLOC_OFF));
	assert_null(recipe_find_volume(&r, BACKEND_RAW, RAW_PREALLOC_FALLOC));
	assert_string_equal(recipe_find_volume(&r, BACKEND_QCOW2, QCOW2_PREALLOC_METADATA)->path,
			    "/mnt/qcow2-metadata.qcow2");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mapping),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
