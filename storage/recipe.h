/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Recipes: from a storage spec and a target, the ordered steps that
 * provision every volume the spec asks for, and the volumes that result.
 * Pure: nothing here touches a disk.  Executed by native.h (the lab
 * server) and gfsexec.h (libguestfs, build time and tests). */
#ifndef BUILDAPP_RECIPE_H
#define BUILDAPP_RECIPE_H

#include <stddef.h>
#include <stdio.h>

#include "storage.h"

#define RECIPE_MAX_STEPS 40
#define RECIPE_MAX_VOLUMES 12
#define RECIPE_NAME_MAX 64

#define RECIPE_VG "buildapp"
#define RECIPE_LV "lvm"
#define RECIPE_FS_LABEL "buildapp-vols"
#define RECIPE_PART_FILES "buildapp-files"
#define RECIPE_PART_LVM "buildapp-lvm"
/* Partitions start 1 MiB in; the backup GPT needs the last 1 MiB. */
#define RECIPE_DISK_HEAD (UINT64_C(1) << 20)
#define RECIPE_DISK_TAIL (UINT64_C(1) << 20)

enum storage_target_kind {
	/* A whole disk (or image file seen as one): partitioned, with an
	 * ext4 filesystem for the file backends and a PV for LVM. */
	STORAGE_TARGET_DISK,
	/* An existing directory: file backends only, no partitioning. */
	STORAGE_TARGET_DIRECTORY,
};

struct storage_target {
	enum storage_target_kind kind;
	/* DISK: the whole disk as the executor sees it ("/dev/sda" inside
	 * libguestfs, "/dev/loop0", "/dev/nvme0n1"). */
	char device[STORAGE_PATH_MAX];
	/* Where the ext4 filesystem is mounted ("/" in libguestfs), or the
	 * directory of a DIRECTORY target. */
	char mountpoint[STORAGE_PATH_MAX];
};

enum recipe_step_kind {
	STEP_PARTITION_TABLE, /* device: new empty GPT */
	STEP_PARTITION,       /* device, partnum, start, size, name */
	STEP_MKFS_EXT4,       /* device, name = label */
	STEP_MOUNT,           /* device on path */
	STEP_PVCREATE,        /* device */
	STEP_VGCREATE,        /* name = VG on device (the PV) */
	STEP_LVCREATE,        /* name = LV in VG path, size; device = result */
	STEP_CREATE_FILE,     /* path, format, prealloc, size, cluster_size */
	STEP_FILL,            /* path, format, size: write every byte once */
	_STEP_MAX
};

struct recipe_step {
	enum recipe_step_kind kind;
	char device[STORAGE_PATH_MAX];
	char path[STORAGE_PATH_MAX];
	char name[RECIPE_NAME_MAX];
	unsigned partnum;
	uint64_t start, size;
	enum backend backend;
	enum image_format format;
	int prealloc; /* -1: none */
	uint64_t cluster_size;
};

/* What a sweep keeps beside the volumes it made (runner/volrecord.h);
 * provisioning a directory's anew removes it first. */
#define STORAGE_VOLUMES_RECORD "buildapp-volumes.json"
/* Enough for recipe_record_path's. */
#define RECIPE_RECORD_PATH_MAX (STORAGE_PATH_MAX + sizeof(STORAGE_VOLUMES_RECORD) + 1)

struct recipe {
	struct storage_target target;
	struct storage_spec spec;
	struct recipe_step steps[RECIPE_MAX_STEPS];
	size_t n_steps;
	struct storage_volume volumes[RECIPE_MAX_VOLUMES];
	size_t n_volumes;
	uint64_t disk_size; /* bytes a DISK target needs; 0 for a directory */
	uint64_t files_size; /* bytes of the ext4 filesystem (0: none) */
	uint64_t lvm_size;   /* bytes of the LVM partition (0: none) */
};

/* Fills *ret from SPEC and TARGET.  Returns 0, or -EINVAL when the spec is
 * unusable (storage_spec_check says why) or the target cannot hold it
 * (lvm on a directory, paths too long); *ret is then undefined. */
int recipe_build(const struct storage_spec *spec,
		 const struct storage_target *target, struct recipe *ret);

/* The volume for (BACKEND, PREALLOC) (-1: backends without a
 * preallocation axis), or NULL.  Points into R. */
const struct storage_volume *recipe_find_volume(const struct recipe *r,
						enum backend backend,
						int prealloc);

/* "/dev/sda" + 1 -> "/dev/sda1"; "/dev/loop0", "/dev/nvme0n1" -> "...p1".
 * Returns 0 or -ENAMETOOLONG. */
int recipe_partition_device(const char *disk, unsigned partnum, char *buf,
			    size_t len);

/* One line saying what STEP does, as the equivalent command ("mkfs.ext4
 * -L buildapp-vols /dev/sda1"), into BUF.  Returns BUF. */
const char *recipe_step_describe(const struct recipe_step *step, char *buf,
				 size_t len);
const char *recipe_step_kind_name(enum recipe_step_kind k);

/* The record of the volumes in DIR (DIR/buildapp-volumes.json) into BUF
 * (RECIPE_RECORD_PATH_MAX).  Returns BUF. */
const char *recipe_record_path(const char *dir, char *buf);

/* Every step, numbered, one per line (what --dry-run prints). */
void recipe_write_text(const struct recipe *r, FILE *f);

#endif
