/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "recipe.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "parse.h"

static uint64_t align_up(uint64_t v, uint64_t a)
{
	return (v + a - 1) / a * a;
}

/* Upper bound of a qcow2 file's metadata (header, L1, L2, refcounts) so
 * the filesystem holding fully preallocated images never runs short. */
static uint64_t qcow2_meta_bound(uint64_t size, uint64_t cluster)
{
	uint64_t clusters = (size + cluster - 1) / cluster;
	uint64_t l2 = align_up(clusters * 8, cluster);
	uint64_t refcounts = align_up((clusters + l2 / cluster) * 2, cluster);

	return 4 * cluster + 2 * l2 + 2 * refcounts;
}

/* ext4 overhead on top of the files: inode tables (1/64 with mke2fs's
 * defaults), bitmaps and the journal (at most 1 GiB). */
static uint64_t ext4_fs_size(uint64_t files)
{
	uint64_t journal = files / 64;

	if (journal < (UINT64_C(64) << 20))
		journal = UINT64_C(64) << 20;
	if (journal > (UINT64_C(1) << 30))
		journal = UINT64_C(1) << 30;
	return align_up(files + files / 32 + journal, STORAGE_ALIGN);
}

int recipe_partition_device(const char *disk, unsigned partnum, char *buf,
			    size_t len)
{
	size_t n = strlen(disk);
	const char *sep = n > 0 && disk[n - 1] >= '0' && disk[n - 1] <= '9' ? "p" : "";
	int r = snprintf(buf, len, "%s%s%u", disk, sep, partnum);

	return r < 0 || (size_t)r >= len ? -ENAMETOOLONG : 0;
}

static int join(char *buf, size_t len, const char *dir, const char *name)
{
	size_t n = strlen(dir);
	int r = snprintf(buf, len, "%s%s%s", dir,
			 n > 0 && dir[n - 1] == '/' ? "" : "/", name);

	return r < 0 || (size_t)r >= len ? -ENAMETOOLONG : 0;
}

static struct recipe_step *add_step(struct recipe *r, enum recipe_step_kind kind)
{
	struct recipe_step *s = &r->steps[r->n_steps++];

	memset(s, 0, sizeof(*s));
	s->kind = kind;
	s->prealloc = -1;
	return s;
}

static int add_file_volume(struct recipe *r, enum backend backend,
			   enum image_format format, int prealloc,
			   uint64_t size, uint64_t cluster)
{
	struct storage_volume *v = &r->volumes[r->n_volumes++];
	char name[RECIPE_NAME_MAX];

	memset(v, 0, sizeof(*v));
	v->backend = backend;
	v->format = format;
	v->prealloc = prealloc;
	v->size = size;
	v->cluster_size = format == IMAGE_FORMAT_QCOW2 ? cluster : 0;
	v->fill = r->spec.fill;
	if (backend == BACKEND_EXT4_FILE)
		snprintf(name, sizeof(name), "ext4-file.img");
	else if (backend == BACKEND_QCOW2)
		snprintf(name, sizeof(name), "qcow2-%s.qcow2",
			 qcow2_prealloc_name(prealloc));
	else
		snprintf(name, sizeof(name), "raw-%s.img",
			 raw_prealloc_name(prealloc));
	return join(v->path, sizeof(v->path), r->target.mountpoint, name);
}

/* The file volumes in a fixed order: ext4-file, qcow2 by mode, raw by
 * mode.  Returns the bytes they may take on the filesystem. */
static int add_file_volumes(struct recipe *r, uint64_t size, uint64_t *ret)
{
	const struct storage_spec *sp = &r->spec;
	uint64_t total = 0;
	int k;

	if (sp->backends & STORAGE_BIT(BACKEND_EXT4_FILE)) {
		k = add_file_volume(r, BACKEND_EXT4_FILE, IMAGE_FORMAT_RAW, -1,
				    size, 0);
		if (k < 0)
			return k;
		total += size;
	}
	if (sp->backends & STORAGE_BIT(BACKEND_QCOW2))
		for (int m = 0; m < _QCOW2_PREALLOC_MAX; m++) {
			if (!(sp->qcow2_prealloc & STORAGE_BIT(m)))
				continue;
			k = add_file_volume(r, BACKEND_QCOW2, IMAGE_FORMAT_QCOW2,
					    m, size, sp->cluster_size);
			if (k < 0)
				return k;
			total += size + qcow2_meta_bound(size, sp->cluster_size);
		}
	if (sp->backends & STORAGE_BIT(BACKEND_RAW))
		for (int m = 0; m < _RAW_PREALLOC_MAX; m++) {
			if (!(sp->raw_prealloc & STORAGE_BIT(m)))
				continue;
			k = add_file_volume(r, BACKEND_RAW, IMAGE_FORMAT_RAW, m,
					    size, 0);
			if (k < 0)
				return k;
			total += size;
		}
	*ret = total;
	return 0;
}

/* Truncating string copy (the callers' sources fit: they are checked
 * when the target's paths are joined). */
static void copy(char *dst, size_t len, const char *src)
{
	size_t n = strnlen(src, len - 1);

	memmove(dst, src, n);
	dst[n] = '\0';
}

static int add_disk_layout(struct recipe *r, size_t n_files)
{
	char disk[STORAGE_PATH_MAX];
	bool lvm = r->spec.backends & STORAGE_BIT(BACKEND_LVM);
	char files_part[STORAGE_PATH_MAX] = "", lvm_part[STORAGE_PATH_MAX];
	unsigned partnum = 0;
	uint64_t start = RECIPE_DISK_HEAD;
	struct recipe_step *s;
	int k;

	copy(disk, sizeof(disk), r->target.device);
	s = add_step(r, STEP_PARTITION_TABLE);
	copy(s->device, sizeof(s->device), disk);
	copy(s->name, sizeof(s->name), "gpt");
	if (n_files > 0) {
		s = add_step(r, STEP_PARTITION);
		copy(s->device, sizeof(s->device), disk);
		s->partnum = ++partnum;
		s->start = start;
		s->size = r->files_size;
		copy(s->name, sizeof(s->name), RECIPE_PART_FILES);
		start += s->size;
		k = recipe_partition_device(disk, partnum, files_part,
					    sizeof(files_part));
		if (k < 0)
			return k;
	}
	if (lvm) {
		s = add_step(r, STEP_PARTITION);
		copy(s->device, sizeof(s->device), disk);
		s->partnum = ++partnum;
		s->start = start;
		s->size = r->lvm_size;
		copy(s->name, sizeof(s->name), RECIPE_PART_LVM);
		k = recipe_partition_device(disk, partnum, lvm_part,
					    sizeof(lvm_part));
		if (k < 0)
			return k;
	}
	if (n_files > 0) {
		s = add_step(r, STEP_MKFS_EXT4);
		copy(s->device, sizeof(s->device), files_part);
		copy(s->name, sizeof(s->name), RECIPE_FS_LABEL);
		s->size = r->files_size;
		s = add_step(r, STEP_MOUNT);
		copy(s->device, sizeof(s->device), files_part);
		memcpy(s->path, r->target.mountpoint, sizeof(s->path));
	}
	if (lvm) {
		struct storage_volume *v = &r->volumes[r->n_volumes++];

		s = add_step(r, STEP_PVCREATE);
		copy(s->device, sizeof(s->device), lvm_part);
		s = add_step(r, STEP_VGCREATE);
		copy(s->device, sizeof(s->device), lvm_part);
		copy(s->name, sizeof(s->name), RECIPE_VG);
		s = add_step(r, STEP_LVCREATE);
		copy(s->path, sizeof(s->path), RECIPE_VG);
		copy(s->name, sizeof(s->name), RECIPE_LV);
		copy(s->device, sizeof(s->device), "/dev/" RECIPE_VG "/" RECIPE_LV);
		s->size = storage_volume_size(&r->spec);
		s->backend = BACKEND_LVM;

		memset(v, 0, sizeof(*v));
		v->backend = BACKEND_LVM;
		v->format = IMAGE_FORMAT_RAW;
		v->prealloc = -1;
		v->size = s->size;
		v->block_device = true;
		v->fill = r->spec.fill;
		copy(v->path, sizeof(v->path), s->device);
	}
	return 0;
}

/* A step that acts on volume V (create its file, or fill it). */
static void add_volume_step(struct recipe *r, enum recipe_step_kind kind,
			    const struct storage_volume *v)
{
	struct recipe_step *s = add_step(r, kind);

	copy(s->path, sizeof(s->path), v->path);
	s->backend = v->backend;
	s->format = v->format;
	s->prealloc = v->prealloc;
	s->size = v->size;
	s->cluster_size = v->cluster_size;
}

int recipe_build(const struct storage_spec *spec,
		 const struct storage_target *target, struct recipe *ret)
{
	uint64_t size, files;
	size_t n_files;
	int k;

	if (storage_spec_check(spec))
		return -EINVAL;
	if (target->kind == STORAGE_TARGET_DIRECTORY &&
	    (spec->backends & STORAGE_BIT(BACKEND_LVM)))
		return -EINVAL;
	if (target->kind == STORAGE_TARGET_DISK && target->device[0] != '/')
		return -EINVAL;
	if (target->mountpoint[0] != '/')
		return -EINVAL;

	memset(ret, 0, sizeof(*ret));
	ret->target = *target;
	ret->spec = *spec;
	size = storage_volume_size(spec);

	/* Volumes first (the LV is added with its steps), then the
	 * layout sized from them, then the file steps. */
	k = add_file_volumes(ret, size, &files);
	if (k < 0)
		return k;
	n_files = ret->n_volumes;
	if (target->kind == STORAGE_TARGET_DISK) {
		if (n_files > 0)
			ret->files_size = ext4_fs_size(files);
		if (spec->backends & STORAGE_BIT(BACKEND_LVM))
			/* PV label and metadata area, then whole extents. */
			ret->lvm_size = size + 2 * STORAGE_ALIGN;
		ret->disk_size = RECIPE_DISK_HEAD + ret->files_size +
				 ret->lvm_size + RECIPE_DISK_TAIL;
		k = add_disk_layout(ret, n_files);
		if (k < 0)
			return k;
	}
	for (size_t i = 0; i < n_files; i++)
		add_volume_step(ret, STEP_CREATE_FILE, &ret->volumes[i]);
	if (spec->fill)
		for (size_t i = 0; i < ret->n_volumes; i++)
			add_volume_step(ret, STEP_FILL, &ret->volumes[i]);
	return 0;
}

const struct storage_volume *recipe_find_volume(const struct recipe *r,
						enum backend backend,
						int prealloc)
{
	for (size_t i = 0; i < r->n_volumes; i++)
		if (r->volumes[i].backend == backend &&
		    r->volumes[i].prealloc == prealloc)
			return &r->volumes[i];
	return NULL;
}

static const char *const step_kind_names[_STEP_MAX] = {
	[STEP_PARTITION_TABLE] = "partition-table",
	[STEP_PARTITION] = "partition",
	[STEP_MKFS_EXT4] = "mkfs-ext4",
	[STEP_MOUNT] = "mount",
	[STEP_PVCREATE] = "pvcreate",
	[STEP_VGCREATE] = "vgcreate",
	[STEP_LVCREATE] = "lvcreate",
	[STEP_CREATE_FILE] = "create-file",
	[STEP_FILL] = "fill",
};

const char *recipe_record_path(const char *dir, char *buf)
{
	snprintf(buf, RECIPE_RECORD_PATH_MAX, "%s/%s", dir, STORAGE_VOLUMES_RECORD);
	return buf;
}

const char *recipe_step_kind_name(enum recipe_step_kind k)
{
	return (int)k >= 0 && k < _STEP_MAX ? step_kind_names[k] : "?";
}

const char *recipe_step_describe(const struct recipe_step *s, char *buf,
				 size_t len)
{
	switch (s->kind) {
	case STEP_PARTITION_TABLE:
		snprintf(buf, len, "new %s partition table on %s", s->name,
			 s->device);
		break;
	case STEP_PARTITION:
		snprintf(buf, len,
			 "partition %u '%s' on %s: start %" PRIu64
			 ", size %" PRIu64,
			 s->partnum, s->name, s->device, s->start, s->size);
		break;
	case STEP_MKFS_EXT4:
		snprintf(buf, len,
			 "mkfs.ext4 -F -q -m 0 -L %s -E "
			 "lazy_itable_init=0,lazy_journal_init=0 %s",
			 s->name, s->device);
		break;
	case STEP_MOUNT:
		snprintf(buf, len, "mount -t ext4 %s %s", s->device, s->path);
		break;
	case STEP_PVCREATE:
		snprintf(buf, len, "pvcreate -ff -y %s", s->device);
		break;
	case STEP_VGCREATE:
		snprintf(buf, len, "vgcreate %s %s", s->name, s->device);
		break;
	case STEP_LVCREATE:
		snprintf(buf, len, "lvcreate -y -Wy -Zy -n %s -L %" PRIu64 "b %s",
			 s->name, s->size, s->path);
		break;
	case STEP_CREATE_FILE:
		if (s->format == IMAGE_FORMAT_QCOW2)
			snprintf(buf, len,
				 "qemu-img create -f qcow2 -o preallocation=%s,"
				 "cluster_size=%" PRIu64 " %s %" PRIu64,
				 storage_qemu_prealloc(s->backend, s->prealloc), s->cluster_size, s->path,
				 s->size);
		else
			snprintf(buf, len,
				 "qemu-img create -f raw -o preallocation=%s "
				 "%s %" PRIu64,
				 storage_qemu_prealloc(s->backend, s->prealloc), s->path, s->size);
		break;
	case STEP_FILL:
		snprintf(buf, len,
			 "fill %s (%s, %" PRIu64 " bytes): qemu-img convert -n "
			 "-S 0 from zeroes",
			 s->path, image_format_name(s->format), s->size);
		break;
	default:
		snprintf(buf, len, "?");
	}
	return buf;
}

void recipe_write_text(const struct recipe *r, FILE *f)
{
	char line[2 * STORAGE_PATH_MAX + 128];

	for (size_t i = 0; i < r->n_steps; i++)
		fprintf(f, "%2zu. %s\n", i + 1,
			recipe_step_describe(&r->steps[i], line, sizeof(line)));
}
