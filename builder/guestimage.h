/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The guest image: the pristine content of the disk under test, an ext4
 * filesystem on the whole disk (no partition table) holding the workload
 * data: /data/workload.tar (the tarball), /tree (it, extracted: what
 * tarball-read reads) and an empty /work.  Built on this host with
 * mke2fs -d from a staging tree, its UUID, hash seed and times taken from
 * the inputs (two builds from two empty caches give the same bytes), and
 * cached by content. */
#ifndef BUILDAPP_GUESTIMAGE_H
#define BUILDAPP_GUESTIMAGE_H

#include <limits.h>
#include <stdint.h>

#include "profile.h"

struct guestimage {
	char path[PATH_MAX];    /* CACHE/image-HASH/disk.img, raw, sparse */
	char tarball[PATH_MAX]; /* the tarball it holds (host path); empty
				   when the profile has no tarball workload */
	uint64_t size;          /* bytes */
	int cached;             /* 1: found in the cache */
};

/* Builds the image for P into CACHE_DIR or finds it there.  The tarball:
 * workload.tarball "auto" takes /usr/src/linux-source-*.tar.* when
 * installed and generates one otherwise; "generated" always generates
 * one of workload.tarball_size bytes of small files; anything else is a
 * path.  Without tarball-write/read among the profile's kinds the image
 * has no tarball (and no /tree).  The size is storage.size, or what the workloads need when that
 * is 0.  Returns 0 and fills *ret, or a negative errno after reporting. */
int guestimage_build(const struct profile *p, const char *cache_dir,
		     struct guestimage *ret);

/* Writes a tar of many small files, TOTAL bytes of content, at PATH;
 * the same TOTAL always gives the same bytes.  Returns 0 or -errno after
 * reporting. */
int guestimage_generate_tarball(const char *path, uint64_t total);

#endif
