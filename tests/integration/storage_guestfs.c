/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Every backend x preallocation provisioned onto one image file in one
 * libguestfs launch, a second image with fill = yes in another, a third
 * with raw and qcow2 full volumes larger than 2 GiB (past guestfs_fill's
 * int length), then all checked independently: one read-only launch
 * (partitions, ext4, the LV and its size, every file's size and
 * allocation, the small qcow2 files copied out for qemu-img
 * info/check/map, the big ones' headers read in place), and debugfs on
 * the images for unwritten (fallocated) extents.
 * Usage: storage_guestfs WORKDIR */
#include <errno.h>
#include <fcntl.h>
#include <guestfs.h>
#include <inttypes.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cleanup.h"
#include "gfsexec.h"
#include "gfshandle.h"
#include "../lib/check.h"
#include "log.h"
#include "recipe.h"
#include "tool.h"

#define MiB (UINT64_C(1) << 20)
#define SIZE (32 * MiB)
/* Just past 2 GiB - 1, the most one guestfs_fill call can write. */
#define BIG_SIZE (2049 * MiB)

static void free_strv(char **v)
{
	for (size_t i = 0; v && v[i]; i++)
		free(v[i]);
	free(v);
}

static bool strv_has(char **v, const char *s)
{
	for (size_t i = 0; v && v[i]; i++)
		if (strcmp(v[i], s) == 0)
			return true;
	return false;
}

/* qemu-img info of a qcow2 copy: format, virtual size, cluster size. */
static void check_qcow2_info(const char *copy, const struct storage_volume *v)
{
	char *info[] = {"qemu-img", "info", "--output=json", "-f", "qcow2",
			(char *)copy, NULL};
	char *check[] = {"qemu-img", "check", "-q", "-f", "qcow2", (char *)copy, NULL};
	_cleanup_free_ char *out = NULL;
	struct json_object *o, *f, *vs, *cs;

	CHECK(tool_run(check, NULL, NULL) == 0, "qemu-img check %s", v->path);
	if (tool_run(info, NULL, &out) < 0 || !(o = json_tokener_parse(out))) {
		CHECK(0, "qemu-img info %s", v->path);
		return;
	}
	CHECK(json_object_object_get_ex(o, "format", &f) &&
	      strcmp(json_object_get_string(f), "qcow2") == 0, "%s: format", v->path);
	CHECK(json_object_object_get_ex(o, "virtual-size", &vs) &&
	      json_object_get_int64(vs) == (int64_t)v->size, "%s: virtual size", v->path);
	CHECK(json_object_object_get_ex(o, "cluster-size", &cs) &&
	      json_object_get_int64(cs) == (int64_t)v->cluster_size, "%s: cluster size",
	      v->path);
	json_object_put(o);
}

/* Too big to copy out under TCG: the header, read in place, names the
 * format and the virtual size. */
static void check_qcow2_header(guestfs_h *g, const struct storage_volume *v)
{
	size_t n = 0;
	_cleanup_free_ char *h = guestfs_pread(g, v->path, 32, 0, &n);
	uint64_t size = 0;

	if (!h || n != 32) {
		CHECK(0, "%s: header: %s", v->path, guestfs_last_error(g));
		return;
	}
	for (int i = 24; i < 32; i++) /* big-endian */
		size = size << 8 | (unsigned char)h[i];
	CHECK(memcmp(h, "QFI\xfb", 4) == 0, "%s: not qcow2", v->path);
	CHECK(size == v->size, "%s: virtual size %" PRIu64, v->path, size);
}

static void check_file(guestfs_h *g, const char *work, const struct storage_volume *v)
{
	struct guestfs_statns *st = guestfs_statns(g, v->path);
	char label[64];
	int64_t alloc, size = (int64_t)v->size;

	storage_volume_label(v, label, sizeof(label));
	if (!st) {
		CHECK(0, "%s: missing: %s", v->path, guestfs_last_error(g));
		return;
	}
	alloc = st->st_blocks * 512;
	printf("%-16s size %10" PRId64 " allocated %10" PRId64 "\n", label,
	       st->st_size, alloc);
	if (v->format == IMAGE_FORMAT_RAW) {
		CHECK(st->st_size == size, "%s: size", label);
		if (v->fill || v->prealloc == RAW_PREALLOC_FALLOC ||
		    v->prealloc == RAW_PREALLOC_FULL)
			CHECK(alloc >= size, "%s: not preallocated", label);
		else
			CHECK(alloc == 0, "%s: not sparse", label);
	} else {
		char copy[STORAGE_PATH_MAX];
		struct storage_volume c = *v;
		struct storage_alloc a;

		if (v->fill)
			CHECK(alloc >= size, "%s: not filled", label);
		else if (v->prealloc == QCOW2_PREALLOC_OFF)
			CHECK(alloc < (int64_t)MiB, "%s: holds clusters", label);
		else if (v->prealloc == QCOW2_PREALLOC_METADATA)
			CHECK(alloc < size / 2, "%s: data allocated", label);
		else
			CHECK(alloc >= size, "%s: not preallocated", label);
		if (v->size > INT32_MAX) {
			check_qcow2_header(g, v);
			guestfs_free_statns(st);
			return;
		}
		snprintf(copy, sizeof(copy), "%s/copy-%s%s.qcow2", work,
			 qcow2_prealloc_name(v->prealloc), v->fill ? "-filled" : "");
		CHECK(guestfs_download(g, v->path, copy) == 0, "download %s", v->path);
		check_qcow2_info(copy, v);
		memcpy(c.path, copy, sizeof(c.path));
		CHECK(storage_alloc_probe(&c, &a) == 0, "map %s", copy);
		CHECK(a.data == (v->prealloc == QCOW2_PREALLOC_OFF && !v->fill ? 0 : size),
		      "%s: qemu-img map shows %" PRId64 " data bytes", label, a.data);
		unlink(copy);
	}
	guestfs_free_statns(st);
}

static void verify(const char *img, const char *filled_img, const char *big_img,
		   const char *work, const struct recipe *r, const struct recipe *filled,
		   const struct recipe *big)
{
	guestfs_h *g = gfshandle_new();
	char **parts, **lvs;
	char *name, *type, *label;
	const struct storage_volume *lv = recipe_find_volume(r, BACKEND_LVM, -1);

	if (!g)
		exit(1);
	if (guestfs_add_drive_opts(g, img, GUESTFS_ADD_DRIVE_OPTS_FORMAT, "raw",
				   GUESTFS_ADD_DRIVE_OPTS_READONLY, 1, -1) < 0 ||
	    guestfs_add_drive_opts(g, filled_img, GUESTFS_ADD_DRIVE_OPTS_FORMAT, "raw",
				   GUESTFS_ADD_DRIVE_OPTS_READONLY, 1, -1) < 0 ||
	    guestfs_add_drive_opts(g, big_img, GUESTFS_ADD_DRIVE_OPTS_FORMAT, "raw",
				   GUESTFS_ADD_DRIVE_OPTS_READONLY, 1, -1) < 0 ||
	    guestfs_launch(g) < 0) {
		CHECK(0, "verify launch: %s", guestfs_last_error(g));
		guestfs_close(g);
		return;
	}
	parts = guestfs_list_partitions(g);
	CHECK(parts && strv_has(parts, "/dev/sda1") && strv_has(parts, "/dev/sda2"),
	      "two partitions");
	free_strv(parts);
	name = guestfs_part_get_name(g, "/dev/sda", 2);
	CHECK(name && strcmp(name, RECIPE_PART_LVM) == 0, "partition 2 name");
	free(name);
	type = guestfs_vfs_type(g, "/dev/sda1");
	CHECK(type && strcmp(type, "ext4") == 0, "ext4 on /dev/sda1: %s", type);
	free(type);
	label = guestfs_vfs_label(g, "/dev/sda1");
	CHECK(label && strcmp(label, RECIPE_FS_LABEL) == 0, "ext4 label");
	free(label);
	lvs = guestfs_lvs(g);
	CHECK(lvs && strv_has(lvs, "/dev/buildapp/lvm"), "LV /dev/buildapp/lvm");
	free_strv(lvs);
	CHECK(lv && guestfs_blockdev_getsize64(g, lv->path) == (int64_t)lv->size,
	      "LV size");
	CHECK(guestfs_mount_ro(g, "/dev/sda1", "/") == 0, "mount");
	for (size_t i = 0; i < r->n_volumes; i++)
		if (!r->volumes[i].block_device)
			check_file(g, work, &r->volumes[i]);
	/* The filled image (sdb): files only, so no second VG "buildapp". */
	CHECK(guestfs_umount_all(g) == 0 && guestfs_mount_ro(g, "/dev/sdb1", "/") == 0,
	      "mount the filled image");
	for (size_t i = 0; i < filled->n_volumes; i++)
		check_file(g, work, &filled->volumes[i]);
	/* The big image (sdc): files only too. */
	CHECK(guestfs_umount_all(g) == 0 && guestfs_mount_ro(g, "/dev/sdc1", "/") == 0,
	      "mount the big image");
	for (size_t i = 0; i < big->n_volumes; i++)
		check_file(g, work, &big->volumes[i]);
	guestfs_shutdown(g);
	guestfs_close(g);
}

/* debugfs on the image's ext4 partition: fallocated files have unwritten
 * ("Uninit") extents, fully written ones none. */
static void check_unwritten(const char *img, const struct recipe *r)
{
	char dev[STORAGE_PATH_MAX + 64], cmd[STORAGE_PATH_MAX + 16];
	char *argv[] = {"debugfs", "-R", cmd, dev, NULL};

	snprintf(dev, sizeof(dev), "%s?offset=%" PRIu64, img, (uint64_t)RECIPE_DISK_HEAD);
	for (size_t i = 0; i < r->n_volumes; i++) {
		const struct storage_volume *v = &r->volumes[i];
		_cleanup_free_ char *out = NULL;
		bool falloc = v->prealloc == (v->backend == BACKEND_RAW ? RAW_PREALLOC_FALLOC
								 : QCOW2_PREALLOC_FALLOC);
		bool full = v->prealloc == (v->backend == BACKEND_RAW ? RAW_PREALLOC_FULL
							       : QCOW2_PREALLOC_FULL);

		if (v->block_device || (!v->fill && (v->backend == BACKEND_EXT4_FILE ||
						       (!falloc && !full))))
			continue;
		if (v->fill)
			falloc = false;
		snprintf(cmd, sizeof(cmd), "ex %s", v->path);
		if (tool_run(argv, NULL, &out) < 0) {
			CHECK(0, "debugfs %s", v->path);
			continue;
		}
		CHECK((strstr(out, "Uninit") != NULL) == falloc,
		      "%s: unwritten extents %s expected", v->path, falloc ? "" : "not");
	}
}

/* IMG sized for R, created empty, provisioned in one launch. */
static int provision(const char *work, const char *name, const struct recipe *r,
		     char *img, size_t len)
{
	struct storage_alloc allocs[RECIPE_MAX_VOLUMES];
	char label[64];
	int fd;

	snprintf(img, len, "%s/%s", work, name);
	fd = open(img, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || ftruncate(fd, (off_t)r->disk_size) < 0)
		return -errno;
	close(fd);
	if (gfsexec_execute(r, img, allocs) < 0)
		return -EIO;
	for (size_t i = 0; i < r->n_volumes; i++)
		printf("provisioned %-16s %-28s %s allocated %" PRId64 "\n",
		       storage_volume_label(&r->volumes[i], label, sizeof(label)),
		       r->volumes[i].path, r->volumes[i].fill ? "filled" : "",
		       allocs[i].allocated);
	return 0;
}

int main(int argc, char **argv)
{
	struct storage_spec spec = {
		.backends = 0xf,
		.size = SIZE,
		.qcow2_prealloc = 0xf,
		.raw_prealloc = 0x7,
		.cluster_size = 65536,
	};
	struct storage_spec filled_spec = {
		.backends = STORAGE_BIT(BACKEND_EXT4_FILE) | STORAGE_BIT(BACKEND_QCOW2) |
			    STORAGE_BIT(BACKEND_RAW),
		.size = 16 * MiB,
		.qcow2_prealloc = STORAGE_BIT(QCOW2_PREALLOC_OFF) |
				  STORAGE_BIT(QCOW2_PREALLOC_FALLOC),
		.raw_prealloc = STORAGE_BIT(RAW_PREALLOC_SPARSE) |
				STORAGE_BIT(RAW_PREALLOC_FALLOC),
		.cluster_size = 65536,
		.fill = true,
	};
	struct storage_spec big_spec = {
		.backends = STORAGE_BIT(BACKEND_QCOW2) | STORAGE_BIT(BACKEND_RAW),
		.size = BIG_SIZE,
		.qcow2_prealloc = STORAGE_BIT(QCOW2_PREALLOC_FULL),
		.raw_prealloc = STORAGE_BIT(RAW_PREALLOC_FULL),
		.cluster_size = 65536,
	};
	struct storage_target t;
	struct recipe r, filled, big;
	char img[STORAGE_PATH_MAX + 16], filled_img[STORAGE_PATH_MAX + 16];
	char big_img[STORAGE_PATH_MAX + 16];

	log_set_program("storage_guestfs");
	if (argc != 2) {
		fprintf(stderr, "usage: storage_guestfs WORKDIR\n");
		return 2;
	}
	gfsexec_target(&t);
	if (recipe_build(&spec, &t, &r) < 0 || recipe_build(&filled_spec, &t, &filled) < 0 ||
	    recipe_build(&big_spec, &t, &big) < 0)
		return 1;
	if (provision(argv[1], "disk.img", &r, img, sizeof(img)) < 0 ||
	    provision(argv[1], "filled.img", &filled, filled_img, sizeof(filled_img)) < 0 ||
	    provision(argv[1], "big.img", &big, big_img, sizeof(big_img)) < 0)
		return 1;
	verify(img, filled_img, big_img, argv[1], &r, &filled, &big);
	check_unwritten(img, &r);
	check_unwritten(filled_img, &filled);
	check_unwritten(big_img, &big);
	printf("%d failures\n", failures);
	return failures ? 1 : 0;
}
