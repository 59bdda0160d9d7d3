/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Small reads and writes of sysfs/procfs attributes. */
#ifndef BUILDAPP_SYSFS_H
#define BUILDAPP_SYSFS_H

#include <stddef.h>

/* Reads the first line of PATH (without the newline, trailing blanks
 * stripped) into BUF of LEN bytes.  Returns 0 or a negative errno;
 * reports nothing. */
int sysfs_read(const char *path, char *buf, size_t len);
/* Like sysfs_read for the attribute NAME of block device DISK
 * (/sys/block/DISK/NAME). */
int sysfs_read_block(const char *disk, const char *name, char *buf, size_t len);
/* Writes VALUE to PATH.  Returns 0 or a negative errno; reports nothing. */
int sysfs_write(const char *path, const char *value);

#endif
