/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The appliance's root filesystem, as a compressed initramfs: the build
 * host's installed Debian packages (supermin --prepare/--build -f chroot),
 * trimmed of documentation and locales, the disk/filesystem/KVM modules of
 * the kernel that boots it, then per build the appliance's own files.
 *
 * The package part is cached (HOSTROOT_CACHE_DIR or the caller's
 * directory) under a hash of the package list, their installed versions
 * and the kernel version, so a warm rebuild only writes the small second
 * archive. */
#ifndef BUILDAPP_HOSTROOT_H
#define BUILDAPP_HOSTROOT_H

#include <stdbool.h>
#include <stdint.h>

#include "fsimage.h"

/* Where the embedded libvirt driver keeps its state in the appliance
 * (qemu:///embed?root=HOSTROOT_STATEDIR). */
#define HOSTROOT_STATEDIR "/var/lib/buildapp/libvirt"
#define HOSTROOT_ZSTD_LEVEL 3

/* The packages of the root, NULL-terminated. */
extern const char *const hostroot_packages[];

struct hostroot_spec {
	const char *cache_dir;      /* created if missing */
	const char *const *packages; /* NULL: hostroot_packages */
	const char *kernel_version; /* modules from /lib/modules/VERSION */
	const char *init;           /* becomes /init (the appliance's PID 1) */
	/* More files: dest is an absolute path in the root; parents are
	 * created.  Mode 0755 when executable on the host, else 0644. */
	const struct fsimage_file *files;
	unsigned n_files;
	uint64_t epoch;
	const char *output;         /* the initramfs to write */
	/* May be NULL, else HOSTROOT_PATH_MAX bytes: the cached package
	 * root's path, and its size breakdown's (builder/rootsizes.h). */
	char *ret_base, *ret_sizes;
};
#define HOSTROOT_PATH_MAX 4096

/* Builds SPEC->output (the cached package root followed by an archive of
 * the appliance's files).  Reports its errors and progress; returns 0 or a
 * negative errno.  *ret_cached (may be NULL) says whether the package root
 * came from the cache. */
int hostroot_build(const struct hostroot_spec *spec, int *ret_cached);

/* True when REL (a path in the root, no leading '/') is one of the paths
 * the root leaves out of its packages, or under one. */
bool hostroot_trimmed(const char *rel);

/* The cache key of the package root, 64 hex digits, into KEY.  Returns 0
 * or a negative errno (reported: a package not installed). */
int hostroot_cache_key(const char *const *packages, const char *kernel_version,
		       char key[65]);

#endif
