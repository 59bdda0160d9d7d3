/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Recipe generation for every backend and preallocation option. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "recipe.h"

#define MiB (UINT64_C(1) << 20)

static const struct storage_target disk = {STORAGE_TARGET_DISK, "/dev/sda", "/"};
static const struct storage_target dir = {STORAGE_TARGET_DIRECTORY, "", "/srv/vols"};

static struct storage_spec spec_of(uint32_t backends)
{
	struct storage_spec s = {
		.backends = backends,
		.size = 64 * MiB,
		.qcow2_prealloc = STORAGE_BIT(QCOW2_PREALLOC_OFF),
		.raw_prealloc = STORAGE_BIT(RAW_PREALLOC_SPARSE),
		.cluster_size = 65536,
	};
	return s;
}

static size_t count_steps(const struct recipe *r, enum recipe_step_kind k)
{
	size_t n = 0;

	for (size_t i = 0; i < r->n_steps; i++)
		n += r->steps[i].kind == k;
	return n;
}

static const struct recipe_step *find_step(const struct recipe *r,
					   enum recipe_step_kind k)
{
	for (size_t i = 0; i < r->n_steps; i++)
		if (r->steps[i].kind == k)
			return &r->steps[i];
	return NULL;
}

static void test_ext4_file(void **state)
{
	struct storage_spec s = spec_of(STORAGE_BIT(BACKEND_EXT4_FILE));
	struct recipe r;
	const struct storage_volume *v;

	(void)state;
	assert_int_equal(recipe_build(&s, &disk, &r), 0);
	assert_int_equal(r.n_volumes, 1);
	v = recipe_find_volume(&r, BACKEND_EXT4_FILE, -1);
	assert_non_null(v);
	assert_string_equal(v->path, "/ext4-file.img");
	assert_int_equal(v->format, IMAGE_FORMAT_RAW);
	assert_int_equal(v->size, 64 * MiB);
	assert_false(v->block_device);
	/* table, one partition, mkfs, mount, the file; no LVM. */
	assert_int_equal(r.n_steps, 5);
	assert_int_equal(r.steps[0].kind, STEP_PARTITION_TABLE);
	assert_int_equal(r.steps[1].kind, STEP_PARTITION);
	assert_string_equal(r.steps[1].name, RECIPE_PART_FILES);
	assert_int_equal(r.steps[1].start, MiB);
	assert_int_equal(r.steps[2].kind, STEP_MKFS_EXT4);
	assert_string_equal(r.steps[2].device, "/dev/sda1");
	assert_int_equal(r.steps[3].kind, STEP_MOUNT);
	assert_string_equal(r.steps[3].path, "/");
	assert_int_equal(r.steps[4].kind, STEP_CREATE_FILE);
	assert_int_equal(r.steps[4].prealloc, -1);
	assert_int_equal(count_steps(&r, STEP_PVCREATE), 0);
	assert_int_equal(r.lvm_size, 0);
	assert_true(r.files_size >= 64 * MiB);
	assert_int_equal(r.disk_size, 2 * MiB + r.files_size);
}

static void test_lvm(void **state)
{
	struct storage_spec s = spec_of(STORAGE_BIT(BACKEND_LVM));
	struct recipe r;
	const struct storage_volume *v;
	const struct recipe_step *st;

	(void)state;
	s.size = 65 * MiB; /* rounds up to whole 4 MiB extents */
	assert_int_equal(recipe_build(&s, &disk, &r), 0);
	assert_int_equal(r.n_volumes, 1);
	v = recipe_find_volume(&r, BACKEND_LVM, -1);
	assert_non_null(v);
	assert_string_equal(v->path, "/dev/buildapp/lvm");
	assert_true(v->block_device);
	assert_int_equal(v->size, 68 * MiB);
	assert_int_equal(r.files_size, 0);
	assert_int_equal(count_steps(&r, STEP_MKFS_EXT4), 0);
	st = find_step(&r, STEP_PARTITION);
	assert_int_equal(st->partnum, 1);
	assert_string_equal(st->name, RECIPE_PART_LVM);
	assert_string_equal(find_step(&r, STEP_PVCREATE)->device, "/dev/sda1");
	assert_string_equal(find_step(&r, STEP_VGCREATE)->name, RECIPE_VG);
	st = find_step(&r, STEP_LVCREATE);
	assert_string_equal(st->name, RECIPE_LV);
	assert_string_equal(st->path, RECIPE_VG);
	assert_int_equal(st->size, 68 * MiB);
	assert_true(r.lvm_size > v->size);
	/* LVM needs a disk. */
	assert_int_equal(recipe_build(&s, &dir, &r), -EINVAL);
}

static void test_qcow2_every_mode(void **state)
{
	static const char *const paths[] = {
		"/srv/vols/qcow2-off.qcow2", "/srv/vols/qcow2-metadata.qcow2",
		"/srv/vols/qcow2-falloc.qcow2", "/srv/vols/qcow2-full.qcow2"};
	char line[512];
	(void)state;

	for (int m = 0; m < _QCOW2_PREALLOC_MAX; m++) {
		struct storage_spec s = spec_of(STORAGE_BIT(BACKEND_QCOW2));
		struct recipe r;
		const struct storage_volume *v;

		s.qcow2_prealloc = STORAGE_BIT(m);
		s.cluster_size = 2 * MiB;
		assert_int_equal(recipe_build(&s, &dir, &r), 0);
		assert_int_equal(r.n_volumes, 1);
		assert_int_equal(r.n_steps, 1); /* a directory: just the file */
		assert_int_equal(r.disk_size, 0);
		v = recipe_find_volume(&r, BACKEND_QCOW2, m);
		assert_non_null(v);
		assert_string_equal(v->path, paths[m]);
		assert_int_equal(v->format, IMAGE_FORMAT_QCOW2);
		assert_int_equal(v->cluster_size, 2 * MiB);
		assert_null(recipe_find_volume(&r, BACKEND_QCOW2, (m + 1) % 4));
		recipe_step_describe(&r.steps[0], line, sizeof(line));
		assert_non_null(strstr(line, qcow2_prealloc_name(m)));
		assert_non_null(strstr(line, "cluster_size=2097152"));
	}
}

static void test_raw_every_mode(void **state)
{
	static const char *const paths[] = {"/raw-sparse.img", "/raw-falloc.img",
					    "/raw-full.img"};
	static const char *const qemu[] = {"preallocation=off",
					   "preallocation=falloc",
					   "preallocation=full"};
	char line[512];
	(void)state;

	for (int m = 0; m < _RAW_PREALLOC_MAX; m++) {
		struct storage_spec s = spec_of(STORAGE_BIT(BACKEND_RAW));
		struct recipe r;
		const struct storage_volume *v;

		s.raw_prealloc = STORAGE_BIT(m);
		assert_int_equal(recipe_build(&s, &disk, &r), 0);
		v = recipe_find_volume(&r, BACKEND_RAW, m);
		assert_non_null(v);
		assert_string_equal(v->path, paths[m]);
		assert_int_equal(v->format, IMAGE_FORMAT_RAW);
		assert_int_equal(v->cluster_size, 0);
		recipe_step_describe(find_step(&r, STEP_CREATE_FILE), line,
				     sizeof(line));
		assert_non_null(strstr(line, qemu[m]));
	}
}

static void test_everything_with_fill(void **state)
{
	struct storage_spec s = spec_of(0xf);
	struct recipe r;
	const struct recipe_step *lv;
	size_t i;

	(void)state;
	s.qcow2_prealloc = 0xf;
	s.raw_prealloc = 0x7;
	s.fill = true;
	assert_int_equal(recipe_build(&s, &disk, &r), 0);
	assert_int_equal(r.n_volumes, 1 + 4 + 3 + 1);
	assert_int_equal(count_steps(&r, STEP_CREATE_FILE), 8);
	assert_int_equal(count_steps(&r, STEP_FILL), 9);
	assert_int_equal(count_steps(&r, STEP_PARTITION), 2);
	/* The order: layout, then LVM, then files, then every fill. */
	assert_int_equal(r.steps[0].kind, STEP_PARTITION_TABLE);
	lv = find_step(&r, STEP_LVCREATE);
	assert_true(lv < find_step(&r, STEP_CREATE_FILE));
	for (i = 0; r.steps[i].kind != STEP_FILL; i++)
		;
	for (; i < r.n_steps; i++) {
		assert_int_equal(r.steps[i].kind, STEP_FILL);
		/* A qcow2 fill needs the cluster size (libguestfs template). */
		assert_int_equal(r.steps[i].cluster_size,
				 r.steps[i].format == IMAGE_FORMAT_QCOW2 ? 65536 : 0);
	}
	for (i = 0; i < r.n_volumes; i++)
		assert_true(r.volumes[i].fill);
	/* Partitions do not overlap and fit the disk. */
	assert_string_equal(r.steps[2].device, "/dev/sda");
	assert_int_equal(r.steps[2].start, r.steps[1].start + r.steps[1].size);
	assert_int_equal(r.steps[2].start + r.steps[2].size + RECIPE_DISK_TAIL,
			 r.disk_size);
	assert_int_equal(r.disk_size % MiB, 0);
	/* The filesystem holds every file fully allocated. */
	assert_true(r.files_size > 8 * 64 * MiB);
	for (i = 0; i < r.n_volumes; i++)
		assert_true(recipe_find_volume(&r, r.volumes[i].backend,
					       r.volumes[i].prealloc) ==
			    &r.volumes[i]);
}

static void test_deterministic(void **state)
{
	struct storage_spec s = spec_of(0xf);
	struct recipe a, b;

	(void)state;
	s.qcow2_prealloc = 0x5;
	s.raw_prealloc = 0x6;
	assert_int_equal(recipe_build(&s, &disk, &a), 0);
	assert_int_equal(recipe_build(&s, &disk, &b), 0);
	assert_memory_equal(&a, &b, sizeof(a));
}

static void test_partition_names(void **state)
{
	char buf[64];

	(void)state;
	assert_int_equal(recipe_partition_device("/dev/sda", 2, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/dev/sda2");
	assert_int_equal(recipe_partition_device("/dev/loop3", 1, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/dev/loop3p1");
	assert_int_equal(recipe_partition_device("/dev/nvme0n1", 1, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/dev/nvme0n1p1");
	assert_int_equal(recipe_partition_device("/dev/sda", 1, buf, 5), -ENAMETOOLONG);
}

static void test_bad_specs(void **state)
{
	struct storage_spec s;
	struct recipe r;

	(void)state;
	s = spec_of(0);
	assert_non_null(storage_spec_check(&s));
	s = spec_of(STORAGE_BIT(_BACKEND_MAX));
	assert_non_null(storage_spec_check(&s));
	s = spec_of(STORAGE_BIT(BACKEND_QCOW2));
	s.qcow2_prealloc = 0;
	assert_int_equal(recipe_build(&s, &disk, &r), -EINVAL);
	s = spec_of(STORAGE_BIT(BACKEND_QCOW2));
	s.cluster_size = 3000;
	assert_non_null(storage_spec_check(&s));
	s.cluster_size = 4 * MiB;
	assert_non_null(storage_spec_check(&s));
	s = spec_of(STORAGE_BIT(BACKEND_RAW));
	s.raw_prealloc = STORAGE_BIT(_RAW_PREALLOC_MAX);
	assert_non_null(storage_spec_check(&s));
	s = spec_of(STORAGE_BIT(BACKEND_RAW));
	s.size = MiB;
	assert_non_null(storage_spec_check(&s));
	/* Options of backends not asked for do not matter. */
	s = spec_of(STORAGE_BIT(BACKEND_LVM));
	s.qcow2_prealloc = 0;
	s.cluster_size = 0;
	assert_null(storage_spec_check(&s));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ext4_file),
		cmocka_unit_test(test_lvm),
		cmocka_unit_test(test_qcow2_every_mode),
		cmocka_unit_test(test_raw_every_mode),
		cmocka_unit_test(test_everything_with_fill),
		cmocka_unit_test(test_deterministic),
		cmocka_unit_test(test_partition_names),
		cmocka_unit_test(test_bad_specs),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
