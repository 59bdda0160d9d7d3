/* The native executor: runs a recipe on this host's disks with the
 * system's tools (sfdisk, mkfs.ext4, lvm2, qemu-img), for the lab server
 * and `buildapp run`.  Needs root for anything but a directory target.
 * Safety checks (safety.h) come before this: it writes what it is told. */
#ifndef BUILDAPP_NATIVE_H
#define BUILDAPP_NATIVE_H

#include "recipe.h"

/* Runs every step of R in order, stopping at the first failure (which it
 * reports, naming the step).  The ext4 filesystem stays mounted on
 * r->target.mountpoint.  Returns 0 or a negative errno. */
int native_execute(const struct recipe *r);

#endif
