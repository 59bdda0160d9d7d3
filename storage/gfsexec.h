/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The libguestfs executor: runs a whole recipe on an image file or block
 * device in ONE libguestfs launch (build time and tests; LVM works inside
 * libguestfs's appliance where the host has no device mapper).  Linked
 * into buildapp only (libstorage-guestfs.a). */
#ifndef BUILDAPP_GFSEXEC_H
#define BUILDAPP_GFSEXEC_H

#include "recipe.h"

/* The target a recipe for this executor uses: the drive is /dev/sda and
 * the ext4 filesystem is mounted on "/" (volume paths are inside it). */
void gfsexec_target(struct storage_target *ret);

/* Adds DRIVE (raw image file or block device) to a libguestfs handle,
 * launches it once, runs every step of R (built for gfsexec_target())
 * and shuts down cleanly.  When RET_ALLOCS is not NULL it receives
 * r->n_volumes entries measured inside the appliance (allocated bytes
 * only; the rest -1).  qcow2 files are laid out from templates made by
 * qemu-img on the host (docs/storage.md).  Reports its own errors
 * (guestfs_last_error); returns 0 or a negative errno. */
int gfsexec_execute(const struct recipe *r, const char *drive,
		    struct storage_alloc *ret_allocs);

#endif
