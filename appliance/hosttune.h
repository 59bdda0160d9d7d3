/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Host settings of the lab server for a sweep ([host] of the profile):
 * the physical write cache of the disk under test, the page cache, the
 * vm.dirty_* ratios, the I/O scheduler and read-ahead.  Each is applied,
 * read back from the device or the kernel, recorded, and restored at the
 * end.  Tools run through posix_spawn (lib/command.h), no shell. */
#ifndef BUILDAPP_HOSTTUNE_H
#define BUILDAPP_HOSTTUNE_H

#include <stdbool.h>
#include <stdio.h>

#include "profile.h"

#define HOSTTUNE_NAME_MAX 64
#define HOSTTUNE_WARNINGS_MAX 8
#define HOSTTUNE_WARNING_LEN 200

/* How the disk's write cache is reached: ATA (hdparm), SCSI (sdparm),
 * NVMe (volatile write cache feature 0x06). */
enum disk_protocol { DISK_ATA, DISK_SCSI, DISK_NVME, _DISK_PROTOCOL_MAX };
const char *disk_protocol_name(enum disk_protocol v);

struct hosttune {
	char disk[HOSTTUNE_NAME_MAX]; /* kernel name, "sda" */
	enum disk_protocol protocol;
	/* Write cache as read from the device: 1 on, 0 off, -1 unknown. */
	int write_cache_original;
	int write_cache_effective;
	int dirty_ratio_original, dirty_background_ratio_original; /* -1: kept */
	int dirty_expire_centisecs_original;                      /* -1: kept */
	int dirty_writeback_centisecs_original;                   /* -1: kept */
	char scheduler_original[32];  /* "" when kept */
	char scheduler_effective[32];
	long read_ahead_kb_original;  /* -1: kept */
	long read_ahead_kb_effective;
	unsigned n_warnings; /* settings refused with strict = no */
	char warnings[HOSTTUNE_WARNINGS_MAX][HOSTTUNE_WARNING_LEN];
};

/* The protocol of block device DISK ("sda", "nvme0n1") from sysfs. */
enum disk_protocol hosttune_protocol(const char *disk);

/* Reads DISK's write cache from the device into *ret_on (1/0).  Returns 0
 * or a negative errno, not reported: hosttune_apply and hosttune_restore
 * report a failure once, with its cause, at the level [host] strict says. */
int hosttune_read_write_cache(const char *disk, enum disk_protocol protocol,
			      int *ret_on);

/* Applies HOST to DISK and fills *ret with the originals and the effective
 * state read back.  A [host] write_cache of more than one setting is the
 * sweep's axis (hosttune_set_write_cache): only read here.  A refused setting is an error (negative errno, after
 * the settings already changed are restored) unless host->strict is false,
 * then a warning recorded in ret->warnings. */
int hosttune_apply(const struct profile_host *host, const char *disk,
		   struct hosttune *ret);

/* Sets T's disk's write cache as SETTING asks (keep: as the disk was
 * before hosttune_apply) and reads it back into *RET_ON (1/0): the
 * per-run setting of a sweep whose cells vary it.  Returns 0, or a
 * negative errno with WHY (LEN bytes) saying it in a sentence. */
int hosttune_set_write_cache(struct hosttune *t, enum write_cache_setting setting,
			     int *ret_on, char *why, size_t len);

/* The [host] write_cache settings of MASK as a profile writes them
 * ("on", "on,off"), in BUF. */
const char *hosttune_write_cache_text(axis_mask mask, char *buf, size_t len);

/* Puts back what hosttune_apply changed.  Returns 0 or the first error;
 * tries every setting. */
int hosttune_restore(const struct hosttune *t);

/* "key: value" lines describing T, for the report. */
void hosttune_write_report(const struct hosttune *t, FILE *f);

#endif
