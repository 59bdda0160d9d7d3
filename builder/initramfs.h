/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Writing initramfs archives (cpio "newc", zstd-compressed: the Debian
 * kernel has CONFIG_RD_ZSTD) with libarchive.  Entries are written in a
 * fixed order with fixed inode numbers and mtimes, so the same tree gives
 * the same bytes.  The kernel unpacks archives laid end to end, later
 * entries replacing earlier ones: that is how the cached host root and the
 * per-build files are combined.  The one cpio writer: the appliance's root
 * and the benchmark guest's initramfs both go through it. */
#ifndef BUILDAPP_INITRAMFS_H
#define BUILDAPP_INITRAMFS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct initramfs;

/* Starts an archive written to FD (left open), zstd level LEVEL (0: not
 * compressed), every mtime EPOCH.  Reports its errors; returns 0 or a
 * negative errno.  Finish with initramfs_close. */
int initramfs_open(int fd, int level, uint64_t epoch, struct initramfs **ret);
/* The same through libzstd with two workers and, for WINDOW_LOG > 0,
 * long-distance matching over a window of 2^WINDOW_LOG bytes, which finds
 * a file repeated far apart in the archive (0: zstd's window for LEVEL;
 * -1: libarchive's own filter, as initramfs_open).  The kernel that
 * unpacks it needs a buffer of the window's size while it does. */
int initramfs_open_long(int fd, int level, int window_log, uint64_t epoch,
			struct initramfs **ret);

/* Adds the tree DIR (not DIR itself) in sorted order: directories,
 * regular files, symlinks, device nodes; hard links become copies. */
int initramfs_add_tree(struct initramfs *a, const char *dir);

/* A directory DEST ("etc/buildapp", no leading slash) with MODE. */
int initramfs_add_dir(struct initramfs *a, const char *dest, mode_t mode);
/* The directories above DEST ("/a/b/c" adds a and a/b), with mode 0755
 * (an archive may list one directory more than once). */
int initramfs_add_parents(struct initramfs *a, const char *dest);
/* The host file SOURCE as DEST with MODE. */
int initramfs_add_file(struct initramfs *a, const char *source,
		       const char *dest, mode_t mode);
/* LEN bytes of DATA as the regular file DEST with MODE. */
int initramfs_add_data(struct initramfs *a, const char *dest, const void *data,
		       size_t len, mode_t mode);

/* A symbolic link DEST to TARGET. */
int initramfs_add_symlink(struct initramfs *a, const char *dest,
			  const char *target);
/* A device node DEST: MODE with its type (S_IFCHR, S_IFBLK), RDEV. */
int initramfs_add_node(struct initramfs *a, const char *dest, mode_t mode,
		       dev_t rdev);

/* Writes the trailer, frees A (NULL is fine).  Returns 0 or a negative
 * errno (reported). */
int initramfs_close(struct initramfs *a);

/* Reading back: calls FN for each regular file of each archive of the
 * initramfs PATH (called NAME in messages; zstd-compressed archives laid end to end, one zstd
 * frame each, as the kernel unpacks them), with its name as the archive
 * holds it ("usr/lib/x", no leading slash) and its bytes.  An archive
 * that cannot be read is reported and skipped (the frames after it are
 * read).  FN returns 0 or a negative errno that stops the walk.  Returns
 * 0, -EIO when an archive could not be read, or FN's error. */
typedef int initramfs_file_fn(const char *name, const void *data, size_t len,
			      void *opaque);
int initramfs_read_files(const char *path, const char *name, initramfs_file_fn *fn,
			 void *opaque);

#endif
