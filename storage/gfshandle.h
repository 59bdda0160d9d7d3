/* A libguestfs handle set up the one way every launch here uses. */
#ifndef BUILDAPP_GFSHANDLE_H
#define BUILDAPP_GFSHANDLE_H

#include <guestfs.h>

/* A new handle: errors not printed by the library (the caller reports
 * them once, with what it was doing), the direct backend unless
 * LIBGUESTFS_BACKEND names another, and TCG (force_tcg) unless
 * LIBGUESTFS_BACKEND_SETTINGS is set or KVM boots a kernel here
 * (kvmboot_host_usable).  Returns NULL after reporting an error. */
guestfs_h *gfshandle_new(void);

#endif
