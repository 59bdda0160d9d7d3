/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The native executor on this host: every file backend and preallocation
 * in a directory (checked through FIEMAP and qemu-img map), the pristine
 * reset, then a whole recipe with fill on a loop device, or with "lvm"
 * the LVM backend (which needs a device mapper).
 * Usage: storage_native WORKDIR [LOOPDEV [lvm]]; WORKDIR on a filesystem
 * with FIEMAP. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../lib/check.h"
#include "log.h"
#include "native.h"
#include "recipe.h"
#include "tool.h"

#define MiB (UINT64_C(1) << 20)
#define SIZE (8 * MiB)

static void check_volume(const struct storage_volume *v)
{
	if (v->block_device) {
		struct storage_alloc a;

		CHECK(storage_alloc_probe(v, &a) == 0 && a.allocated == (int64_t)v->size,
		      "%s: LV of the wrong size", v->path);
		return;
	}
	struct storage_alloc a;
	char label[64];
	const int64_t size = (int64_t)v->size;

	storage_volume_label(v, label, sizeof(label));
	if (storage_alloc_probe(v, &a) < 0) {
		CHECK(0, "%s: no allocation", label);
		return;
	}
	printf("%-16s allocated %10" PRId64 " unwritten %10" PRId64
	       " extents %4" PRId64 " qcow2 data %10" PRId64 "\n",
	       label, a.allocated, a.unwritten, a.extents, a.data);
	if (v->fill) {
		CHECK(a.allocated >= size && a.unwritten == 0, "%s: not filled", label);
		if (v->format == IMAGE_FORMAT_QCOW2)
			CHECK(a.data == size, "%s: not all clusters mapped", label);
		return;
	}
	switch (v->backend) {
	/* qemu-img writes the first 4 KiB of a raw file (it probes the
	 * alignment there). */
	case BACKEND_EXT4_FILE:
		CHECK(a.allocated <= 65536, "%s: should be sparse", label);
		break;
	case BACKEND_RAW:
		if (v->prealloc == RAW_PREALLOC_SPARSE)
			CHECK(a.allocated <= 65536, "%s: should be sparse", label);
		else if (v->prealloc == RAW_PREALLOC_FALLOC)
			CHECK(a.allocated >= size && a.unwritten >= size - 65536,
			      "%s: should be fallocated, unwritten", label);
		else
			CHECK(a.allocated >= size && a.unwritten == 0,
			      "%s: should be written", label);
		break;
	case BACKEND_QCOW2:
		if (v->prealloc == QCOW2_PREALLOC_OFF) {
			CHECK(a.data == 0 && a.allocated < (int64_t)MiB,
			      "%s: should hold no clusters", label);
			break;
		}
		CHECK(a.data == size, "%s: metadata should map every cluster", label);
		if (v->prealloc == QCOW2_PREALLOC_METADATA)
			CHECK(a.allocated < size / 2, "%s: data should be sparse", label);
		else if (v->prealloc == QCOW2_PREALLOC_FALLOC)
			CHECK(a.allocated >= size && a.unwritten >= size / 2,
			      "%s: should be fallocated", label);
		else
			CHECK(a.allocated >= size && a.unwritten == 0,
			      "%s: should be written", label);
		break;
	default:
		break;
	}
}

static int make_pristine(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	char buf[4096];

	if (fd < 0)
		return -errno;
	memset(buf, 0xa5, sizeof(buf));
	if (ftruncate(fd, 4 * MiB) < 0 || pwrite(fd, buf, sizeof(buf), 0) < 0 ||
	    pwrite(fd, buf, sizeof(buf), 2 * MiB) < 0) {
		close(fd);
		return -errno;
	}
	return close(fd);
}

static void check_reset(const struct recipe *r, const char *pristine)
{
	const struct storage_volume *vols[] = {
		recipe_find_volume(r, BACKEND_QCOW2, QCOW2_PREALLOC_FALLOC),
		recipe_find_volume(r, BACKEND_RAW, RAW_PREALLOC_SPARSE),
		recipe_find_volume(r, BACKEND_QCOW2, QCOW2_PREALLOC_OFF),
	};

	for (size_t i = 0; i < sizeof(vols) / sizeof(vols[0]); i++) {
		const struct storage_volume *v = vols[i];
		char *cmp[] = {"qemu-img", "compare", "-q", "-f", "raw", "-F",
			       (char *)image_format_name(v->format),
			       (char *)pristine, (char *)v->path, NULL};
		struct storage_alloc a;
		double secs = -1;

		CHECK(storage_reset(v, pristine, &secs) == 0, "reset %s", v->path);
		CHECK(secs >= 0, "reset time");
		CHECK(tool_run(cmp, NULL, NULL) == 0, "%s differs from the pristine image",
		      v->path);
		CHECK(storage_alloc_probe(v, &a) == 0, "probe");
		printf("reset %-30s %.3f s, allocated %" PRId64 "\n", v->path, secs,
		       a.allocated);
		if (v->prealloc == QCOW2_PREALLOC_FALLOC && v->backend == BACKEND_QCOW2)
			CHECK(a.allocated >= (int64_t)v->size, "reset lost the preallocation");
		else
			CHECK(a.allocated < (int64_t)MiB, "reset allocated more than the data");
	}
}

static void directory_target(const char *work)
{
	struct storage_spec spec = {
		.backends = STORAGE_BIT(BACKEND_EXT4_FILE) | STORAGE_BIT(BACKEND_QCOW2) |
			    STORAGE_BIT(BACKEND_RAW),
		.size = SIZE,
		.qcow2_prealloc = 0xf,
		.raw_prealloc = 0x7,
		.cluster_size = 65536,
	};
	struct storage_target t = {STORAGE_TARGET_DIRECTORY, "", ""};
	struct recipe r;
	char pristine[STORAGE_PATH_MAX + 16];

	snprintf(t.mountpoint, sizeof(t.mountpoint), "%s/dir", work);
	mkdir(t.mountpoint, 0755);
	CHECK(recipe_build(&spec, &t, &r) == 0, "recipe");
	CHECK(r.n_volumes == 8, "8 volumes, got %zu", r.n_volumes);
	CHECK(native_execute(&r, NULL) == 0, "native on a directory");
	for (size_t i = 0; i < r.n_volumes; i++)
		check_volume(&r.volumes[i]);
	snprintf(pristine, sizeof(pristine), "%s/pristine.raw", work);
	CHECK(make_pristine(pristine) == 0, "pristine image");
	check_reset(&r, pristine);
}

static void loop_target(const char *work, const char *loopdev, bool lvm)
{
	struct storage_spec spec = {
		.backends = STORAGE_BIT(BACKEND_EXT4_FILE) | STORAGE_BIT(BACKEND_QCOW2) |
			    STORAGE_BIT(BACKEND_RAW),
		.size = SIZE,
		.qcow2_prealloc = STORAGE_BIT(QCOW2_PREALLOC_METADATA),
		.raw_prealloc = STORAGE_BIT(RAW_PREALLOC_FALLOC),
		.cluster_size = 65536,
		.fill = true,
	};
	struct storage_target t = {STORAGE_TARGET_DISK, "", ""};
	struct recipe r;

	if (lvm)
		spec.backends = STORAGE_BIT(BACKEND_LVM);
	snprintf(t.device, sizeof(t.device), "%s", loopdev);
	snprintf(t.mountpoint, sizeof(t.mountpoint), "%s/mnt", work);
	CHECK(recipe_build(&spec, &t, &r) == 0, "recipe");
	CHECK(native_execute(&r, NULL) == 0, "native on %s", loopdev);
	for (size_t i = 0; i < r.n_volumes; i++)
		check_volume(&r.volumes[i]);
	umount2(t.mountpoint, MNT_DETACH);
}

int main(int argc, char **argv)
{
	log_set_program("storage_native");
	if (argc < 2) {
		fprintf(stderr, "usage: storage_native WORKDIR [LOOPDEV [lvm]]\n");
		return 2;
	}
	directory_target(argv[1]);
	if (argc > 2)
		loop_target(argv[1], argv[2], argc > 3 && strcmp(argv[3], "lvm") == 0);
	printf("%d failures\n", failures);
	return failures ? 1 : 0;
}
