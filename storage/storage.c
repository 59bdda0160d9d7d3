/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "storage.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <json-c/json.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cleanup.h"
#include "log.h"
#include "monotonic.h"
#include "tool.h"

static bool only_bits(uint32_t set, int max)
{
	return (set & ~((UINT32_C(1) << max) - 1)) == 0;
}

const char *storage_spec_check(const struct storage_spec *spec)
{
	uint64_t c = spec->cluster_size;

	if (spec->backends == 0 || !only_bits(spec->backends, _BACKEND_MAX))
		return "backends must name at least one of ext4-file, lvm, qcow2, raw";
	if (spec->size < STORAGE_ALIGN || spec->size > STORAGE_SIZE_MAX)
		return "size must be between 4M and 64T";
	if ((spec->backends & STORAGE_BIT(BACKEND_QCOW2)) &&
	    (spec->qcow2_prealloc == 0 ||
	     !only_bits(spec->qcow2_prealloc, _QCOW2_PREALLOC_MAX)))
		return "qcow2 needs at least one preallocation mode (off, metadata, falloc, full)";
	if ((spec->backends & STORAGE_BIT(BACKEND_QCOW2)) &&
	    (c < 512 || c > (UINT64_C(2) << 20) || (c & (c - 1)) != 0))
		return "the qcow2 cluster size must be a power of two from 512 to 2M";
	if ((spec->backends & STORAGE_BIT(BACKEND_RAW)) &&
	    (spec->raw_prealloc == 0 ||
	     !only_bits(spec->raw_prealloc, _RAW_PREALLOC_MAX)))
		return "raw needs at least one preallocation mode (sparse, falloc, full)";
	return NULL;
}

uint64_t storage_volume_size(const struct storage_spec *spec)
{
	return (spec->size + STORAGE_ALIGN - 1) / STORAGE_ALIGN * STORAGE_ALIGN;
}

const char *storage_volume_label(const struct storage_volume *v, char *buf,
				 size_t len)
{
	if (v->backend == BACKEND_QCOW2)
		snprintf(buf, len, "qcow2/%s", qcow2_prealloc_name(v->prealloc));
	else if (v->backend == BACKEND_RAW)
		snprintf(buf, len, "raw/%s", raw_prealloc_name(v->prealloc));
	else
		snprintf(buf, len, "%s", backend_name(v->backend));
	return buf;
}

const char *storage_qemu_prealloc(enum backend backend, int prealloc)
{
	if (backend == BACKEND_QCOW2)
		return qcow2_prealloc_name(prealloc);
	if (backend == BACKEND_RAW && prealloc != RAW_PREALLOC_SPARSE)
		return raw_prealloc_name(prealloc);
	return "off";
}

int storage_create_file(const struct storage_volume *v)
{
	char opts[128], size[32];
	char *argv[] = {"qemu-img", "create", "-q", "-f",
			(char *)image_format_name(v->format), "-o", opts,
			(char *)v->path, size, NULL};

	if (v->format == IMAGE_FORMAT_QCOW2)
		snprintf(opts, sizeof(opts), "preallocation=%s,cluster_size=%" PRIu64,
			 storage_qemu_prealloc(v->backend, v->prealloc), v->cluster_size);
	else
		snprintf(opts, sizeof(opts), "preallocation=%s", storage_qemu_prealloc(v->backend, v->prealloc));
	snprintf(size, sizeof(size), "%" PRIu64, v->size);
	return tool_run(argv, NULL, NULL);
}

/* The source of a fill from PRISTINE: a throwaway qcow2 overlay at OVL
 * (a mkstemp name), backed by PRISTINE and SIZE bytes long, which reads
 * as the pristine image and as zeroes past its end. */
static int pristine_overlay(const char *pristine, uint64_t size, const char *ovl)
{
	const char *fmt;
	char size_s[32];
	int k = storage_probe_format(pristine, &fmt);
	char *argv[] = {"qemu-img", "create", "-q", "-f", "qcow2", "-F", (char *)fmt,
			"-b", (char *)pristine, (char *)ovl, size_s, NULL};

	if (k < 0)
		return k;
	snprintf(size_s, sizeof(size_s), "%" PRIu64, size);
	return tool_run(argv, NULL, NULL);
}

int storage_fill(const char *path, enum image_format format, uint64_t size,
		 const char *pristine)
{
	char src[96], ovl[] = "/tmp/buildapp-fill-XXXXXX";
	/* -S 0 turns zero blocks into data writes: every byte is written
	 * and every qcow2 cluster allocated. */
	char *argv[] = {"qemu-img", "convert", "-n", "-S", "0", "--image-opts",
			src, "-O", (char *)image_format_name(format),
			(char *)path, NULL};
	int fd, k;

	if (pristine) {
		fd = mkstemp(ovl);
		if (fd < 0)
			return log_error_errno(-errno, "mkstemp");
		close(fd);
		snprintf(src, sizeof(src), "driver=qcow2,file.filename=%s", ovl);
		k = pristine_overlay(pristine, size, ovl);
		if (k >= 0)
			k = tool_run(argv, NULL, NULL);
		unlink(ovl);
		return k;
	}
	snprintf(src, sizeof(src), "driver=null-co,size=%" PRIu64 ",read-zeroes=on", size);
	return tool_run(argv, NULL, NULL);
}

int storage_probe_format(const char *path, const char **ret)
{
	_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC);
	unsigned char magic[4];

	if (fd < 0)
		return log_error_errno(-errno, "pristine image '%s'", path);
	if (read(fd, magic, 4) == 4 && memcmp(magic, "QFI\xfb", 4) == 0)
		*ret = "qcow2";
	else
		*ret = "raw";
	return 0;
}

int storage_reset(const struct storage_volume *v, const char *pristine,
		  double *ret_seconds)
{
	const char *src_fmt = "raw";
	double start = monotonic_seconds();
	int k;

	k = storage_probe_format(pristine, &src_fmt);
	if (k < 0)
		return k;
	if (!v->block_device && !v->fill) {
		/* A fresh file as provisioning made it, then only the
		 * pristine image's data: the allocation is exactly that of
		 * a new volume. */
		char *argv[] = {"qemu-img", "convert", "-n", "--target-is-zero",
				"-f", (char *)src_fmt, "-O",
				(char *)image_format_name(v->format),
				(char *)pristine, (char *)v->path, NULL};

		if (unlink(v->path) < 0 && errno != ENOENT)
			return log_error_errno(-errno, "removing '%s'",
					       v->path);
		k = storage_create_file(v);
		if (k >= 0)
			k = tool_run(argv, NULL, NULL);
	} else {
		/* Filled volumes and LVs: write every byte, so nothing is
		 * punched, discarded or left unwritten. */
		char *argv[] = {"qemu-img", "convert", "-n", "-S", "0",
				"-f", (char *)src_fmt, "-O",
				(char *)image_format_name(v->format),
				(char *)pristine, (char *)v->path, NULL};

		k = tool_run(argv, NULL, NULL);
	}
	if (k < 0)
		return k;
	*ret_seconds = monotonic_seconds() - start;
	return 0;
}

/* Extents and unwritten bytes of FD through FIEMAP (syncing first). */
static int fiemap_count(int fd, int64_t *ret_extents, int64_t *ret_unwritten)
{
	enum { BATCH = 256 };
	_cleanup_free_ struct fiemap *fm =
		calloc(1, sizeof(*fm) + BATCH * sizeof(struct fiemap_extent));
	int64_t extents = 0, unwritten = 0;
	uint64_t start = 0;

	if (!fm)
		return -ENOMEM;
	for (;;) {
		bool last = false;

		memset(fm, 0, sizeof(*fm));
		fm->fm_start = start;
		fm->fm_length = FIEMAP_MAX_OFFSET - start;
		fm->fm_flags = FIEMAP_FLAG_SYNC;
		fm->fm_extent_count = BATCH;
		if (ioctl(fd, FS_IOC_FIEMAP, fm) < 0)
			return -errno;
		if (fm->fm_mapped_extents == 0)
			break;
		for (unsigned i = 0; i < fm->fm_mapped_extents; i++) {
			const struct fiemap_extent *e = &fm->fm_extents[i];

			extents++;
			if (e->fe_flags & FIEMAP_EXTENT_UNWRITTEN)
				unwritten += (int64_t)e->fe_length;
			if (e->fe_flags & FIEMAP_EXTENT_LAST)
				last = true;
			start = e->fe_logical + e->fe_length;
		}
		if (last)
			break;
	}
	*ret_extents = extents;
	*ret_unwritten = unwritten;
	return 0;
}

/* Guest bytes qemu-img map reports as data (mapped to the file). */
static int qcow2_data_bytes(const char *path, int64_t *ret)
{
	char *argv[] = {"qemu-img", "map", "--output=json", "-f", "qcow2",
			(char *)path, NULL};
	_cleanup_free_ char *out = NULL;
	struct json_object *map;
	int64_t data = 0;
	int k;

	k = tool_run(argv, NULL, &out);
	if (k < 0)
		return k;
	map = json_tokener_parse(out);
	if (!map || !json_object_is_type(map, json_type_array)) {
		json_object_put(map);
		log_error("qemu-img map of '%s': output is not a JSON array", path);
		return -EIO;
	}
	for (size_t i = 0; i < json_object_array_length(map); i++) {
		struct json_object *e = json_object_array_get_idx(map, i), *d, *l;

		if (json_object_object_get_ex(e, "data", &d) &&
		    json_object_get_boolean(d) &&
		    json_object_object_get_ex(e, "length", &l))
			data += json_object_get_int64(l);
	}
	json_object_put(map);
	*ret = data;
	return 0;
}

int storage_alloc_probe(const struct storage_volume *v, struct storage_alloc *ret)
{
	struct storage_alloc a = {-1, -1, -1, -1};
	_cleanup_close_ int fd = open(v->path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	int k;

	if (fd < 0 || fstat(fd, &st) < 0)
		return log_error_errno(-errno, "'%s'", v->path);
	if (S_ISBLK(st.st_mode)) {
		uint64_t bytes;

		/* A thick LV: all of it is allocated. */
		if (ioctl(fd, BLKGETSIZE64, &bytes) < 0)
			return log_error_errno(-errno, "'%s'", v->path);
		a.allocated = (int64_t)bytes;
	} else {
		k = fiemap_count(fd, &a.extents, &a.unwritten);
		if (k < 0)
			log_warning("'%s': no extent map (%s)", v->path, strerror(-k));
		a.allocated = (int64_t)st.st_blocks * 512;
	}
	if (v->format == IMAGE_FORMAT_QCOW2) {
		k = qcow2_data_bytes(v->path, &a.data);
		if (k < 0)
			return k;
	}
	*ret = a;
	return 0;
}

struct json_object *storage_volume_to_json(const struct storage_volume *v,
					   const struct storage_alloc *a)
{
	struct json_object *o = json_object_new_object();
	char label[64];

	json_object_object_add(o, "volume", json_object_new_string(
		storage_volume_label(v, label, sizeof(label))));
	json_object_object_add(o, "backend", json_object_new_string(backend_name(v->backend)));
	json_object_object_add(o, "format", json_object_new_string(image_format_name(v->format)));
	json_object_object_add(o, "preallocation",
		v->prealloc < 0 ? NULL : json_object_new_string(
			v->backend == BACKEND_QCOW2 ? qcow2_prealloc_name(v->prealloc)
						    : raw_prealloc_name(v->prealloc)));
	json_object_object_add(o, "path", json_object_new_string(v->path));
	json_object_object_add(o, "block_device", json_object_new_boolean(v->block_device));
	json_object_object_add(o, "size", json_object_new_int64((int64_t)v->size));
	if (v->cluster_size)
		json_object_object_add(o, "cluster_size",
				       json_object_new_int64((int64_t)v->cluster_size));
	json_object_object_add(o, "filled", json_object_new_boolean(v->fill));
	if (a) {
		struct json_object *al = json_object_new_object();
#define ADD(name, val) json_object_object_add(al, name, (val) < 0 ? NULL : json_object_new_int64(val))
		ADD("allocated_bytes", a->allocated);
		ADD("unwritten_bytes", a->unwritten);
		ADD("extents", a->extents);
		ADD("qcow2_data_bytes", a->data);
#undef ADD
		json_object_object_add(o, "allocation", al);
	}
	return o;
}
