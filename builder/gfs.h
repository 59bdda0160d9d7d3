/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The libguestfs handle as every builder command opens it: errors are not
 * printed by the library but reported once by gfshandle_error(), progress
 * events draw a progress line on stderr. */
#ifndef BUILDAPP_GFS_H
#define BUILDAPP_GFS_H

#include <guestfs.h>

#include "gfshandle.h"

/* A new handle (gfshandle_new: backend, TCG where KVM does not boot a
 * kernel), with progress shown under the name of the current step (see
 * progress.h).  Returns NULL after
 * reporting an error.  The caller closes it. */
guestfs_h *gfs_open(void);

/* Launches G, registering its qemu so a signal kills it.  Reports its
 * errors; returns 0 or -EIO. */
int gfs_launch(guestfs_h *g);

#endif
