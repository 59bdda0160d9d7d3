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

#define DISKS_MAX 32

/* The whole disks that may be the disk under test, in name order: not
 * EXCLUDE (the disk RESULTS is on), nor a loop, RAM, optical or stacked
 * device, nor an empty one.  The first MAX into RET; returns how many
 * there are, which may be more. */
size_t disks_candidates(const char *exclude, struct disk_info *ret, size_t max);

/* The disk under test among the candidates: the one IDENTITY names, or
 * with "auto" the only one.  Returns 0, -ENOENT when there is none, or
 * -ENOTUNIQ when "auto" has more than one to choose from: it never
 * guesses. */
int disks_find_target(const char *identity, const char *exclude,
		      struct disk_info *ret);

/* The N DISKS in one line into BUF, each with its size, its model and
 * the identities [host] disk may name it by (safety_probe's, as a
 * refusal lists them): "sda: 8 GiB, model QEMU HARDDISK, identities:
 * DISK-A; sdb: ...". */
void disks_describe(const struct disk_info *disks, size_t n, char *buf, size_t len);

#endif
