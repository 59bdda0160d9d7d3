/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The native executor: runs a recipe on this host's disks with the
 * system's tools (sfdisk, mkfs.ext4, lvm2, qemu-img), for the lab server
 * and `buildapp run`.  Needs root for anything but a directory target.
 * Safety checks (safety.h) come before this: it writes what it is told. */
#ifndef BUILDAPP_NATIVE_H
#define BUILDAPP_NATIVE_H

#include "recipe.h"

/* Runs every step of R in order, stopping at the first failure (which it
 * reports, naming the step).  The fill steps write the pristine image at
 * PRISTINE when it is not NULL (storage_fill), zeroes when it is.  The
 * ext4 filesystem stays mounted on r->target.mountpoint.  Returns 0 or a
 * negative errno. */
int native_execute(const struct recipe *r, const char *pristine);

/* Opens the volumes R's steps made, as they are, without writing them:
 * the volume group activated, the ext4 filesystem mounted on
 * r->target.mountpoint (and nothing for a directory target), for a look
 * at what a crashed host left before they are provisioned again.
 * Returns 0 or a negative errno (reported). */
int native_adopt(const struct recipe *r);

#endif
