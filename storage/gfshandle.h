/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A libguestfs handle set up the one way every launch here uses. */
#ifndef BUILDAPP_GFSHANDLE_H
#define BUILDAPP_GFSHANDLE_H

#include <guestfs.h>

#include "cleanup.h"

DEFINE_TRIVIAL_CLEANUP_FUNC(guestfs_h, guestfs_close)
#define _cleanup_guestfs_ _cleanup_(guestfs_closep)

/* A new handle: errors not printed by the library (the caller reports
 * them once, with what it was doing), the direct backend unless
 * LIBGUESTFS_BACKEND names another, and TCG (force_tcg) unless
 * LIBGUESTFS_BACKEND_SETTINGS is set or KVM boots a kernel here
 * (kvmboot_host_usable).  Returns NULL after reporting an error. */
guestfs_h *gfshandle_new(void);
/* guestfs_launch(G), and its QEMU registered with the signal policy
 * (signals.h) until it quits, so a signal or the exit kills it.  Returns
 * guestfs_launch's result (-1: the caller reports the library's error). */
int gfshandle_launch(guestfs_h *g);
/* Where new handles keep their temporary directory: SOURCE fills BUF
 * with a directory (0) or fails (the library's default, TMPDIR or /tmp).
 * A program that removes its temporaries on signals points this at one
 * of its own, so an interrupted launch leaves nothing there.  (As root,
 * libguestfs keeps its sockets in /tmp whatever is set: the builder's
 * cleanup on a signal finds that directory in its QEMU's command line.) */
void gfshandle_set_tmpdir_source(int (*source)(char *buf, size_t len));

/* Reports a call on G that failed, once: "MESSAGE: <libguestfs's last
 * error>", MESSAGE made from FMT, what the caller was doing.  Returns
 * -EIO whatever errno libguestfs kept, so a caller's own errno
 * (results_copy_out's -ENOENT: no RESULTS partition) keeps its meaning. */
int gfshandle_error(guestfs_h *g, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
