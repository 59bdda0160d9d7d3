/* Block devices of the lab server as the appliance sees them in sysfs
 * (no udev in the appliance, so no /dev/disk/by-*). */
#ifndef BUILDAPP_DISKS_H
#define BUILDAPP_DISKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define DISK_NAME_MAX 64
#define DISK_ID_MAX 128

struct disk_info {
	char name[DISK_NAME_MAX]; /* "sda" */
	char serial[DISK_ID_MAX];
	char wwid[DISK_ID_MAX];
	char model[DISK_ID_MAX];
	uint64_t size; /* bytes */
};

/* Fills *ret for whole disk NAME from sysfs.  Returns 0 or -ENOENT. */
int disks_info(const char *name, struct disk_info *ret);

/* True when IDENTITY names DISK: its serial, WWN/WWID, a
 * /dev/disk/by-id/ name ending in _SERIAL, or the kernel name. */
int disks_match(const struct disk_info *disk, const char *identity);

/* True when /dev/PART holds a filesystem whose type starts with TYPE
 * ("ext" for ext2/3/4, "vfat") labelled LABEL, as libblkid's superblock
 * probe reads them. */
bool disks_fs_is(const char *part, const char *type, const char *label);

/* Finds the partition whose ext2/3/4 label is LABEL: its name ("vda2")
 * and its disk's ("vda").  Returns 0, or -ENOENT when none is there yet. */
int disks_find_label(const char *label, char part[DISK_NAME_MAX],
		     char disk[DISK_NAME_MAX]);

/* The disk under test: the disk IDENTITY names, or with "auto" the first
 * disk (by name) other than EXCLUDE.  Returns 0 or -ENOENT. */
int disks_find_target(const char *identity, const char *exclude,
		      struct disk_info *ret);

#endif
