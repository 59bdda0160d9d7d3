/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Filesystem images built on the build host, before the disk is
 * assembled: the ESP (FAT32, mtools + syslinux) and the RESULTS
 * partition (ext4, mke2fs).  Made here rather than inside the libguestfs
 * appliance because the appliance's clock stamps every FAT directory entry
 * with a creation time no call can change; the host tools take
 * SOURCE_DATE_EPOCH / E2FSPROGS_FAKE_TIME, so the images are
 * reproducible. */
#ifndef BUILDAPP_FSIMAGE_H
#define BUILDAPP_FSIMAGE_H

#include <stdint.h>

struct fsimage_file {
	const char *source; /* file on the host */
	const char *dest;   /* path in the image, e.g. "/EFI/BOOT/BOOTX64.EFI" */
};

struct fsimage_esp {
	const char *path;        /* image file to create */
	uint64_t size;           /* bytes, a multiple of 1 MiB, >= 64 MiB
				  * (FAT32), or of 1 MiB at least when SMALL */
	uint64_t start_sector;   /* of the partition: FAT "hidden sectors" */
	uint32_t serial;         /* volume serial */
	const char *label;       /* volume label, at most 11 characters */
	const char *const *dirs; /* created in order, NULL-terminated */
	const struct fsimage_file *files;
	unsigned n_files;
	int syslinux;            /* install SYSLINUX's boot sector + ldlinux */
	int small;               /* FAT12/16, mtools' choice (an El Torito EFI
				  * image of a few MiB), not FAT32 */
	uint64_t epoch;          /* every timestamp */
};

/* Creates the FAT32 image ESP->path and fills it.  Reports its errors;
 * returns 0 or a negative errno.  The caller owns (removes) the file. */
int fsimage_make_esp(const struct fsimage_esp *esp);

struct fsimage_ext4 {
	const char *path;
	uint64_t size;
	const char *label;
	const char *uuid;      /* filesystem UUID */
	const char *hash_seed; /* directory hash seed, a UUID */
	const char *root;      /* NULL, or a directory whose tree it holds */
	uint64_t epoch;
};

/* Creates the ext4 image EXT4->path, empty or holding EXT4->root's tree
 * (mke2fs -d: atime and mtime from the files, ctime from the clock: see
 * fsimage_debugfs).  Reports its errors; returns 0 or a negative errno. */
int fsimage_make_ext4(const struct fsimage_ext4 *ext4);

/* Runs the debugfs commands of the file SCRIPT on the ext4 image PATH,
 * writable, its clock at EPOCH; their output is dropped.  Reports its
 * errors; returns 0 or a negative errno. */
int fsimage_debugfs(const char *path, const char *script, uint64_t epoch);

/* Creates (or truncates) PATH as a sparse file of SIZE bytes.  Reports
 * its errors; returns 0 or a negative errno. */
int fsimage_make_sparse(const char *path, uint64_t size);

#endif
