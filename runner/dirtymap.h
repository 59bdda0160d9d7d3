/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What a guest writes to its disk under test, tracked by QEMU itself: a
 * non-persistent dirty bitmap on the disk's top block node, added through
 * QMP while the domain is still paused, read back over QEMU's own NBD
 * server once the guest is done (QMP cannot list a bitmap's ranges).
 *
 * The guest's I/O path is the one the cell names: the bitmap adds no node
 * and no layer, only a bit set per written block (docs/runner.md). */
#ifndef BUILDAPP_DIRTYMAP_H
#define BUILDAPP_DIRTYMAP_H

#include <libvirt/libvirt.h>

#include "written.h"

/* The bitmap's and the NBD export's name. */
#define DIRTYMAP_NAME "buildapp-written"

/* Starts tracking the writes to the first disk of DOM (paused, nothing
 * written yet); the disk's node name goes to NODE (LEN bytes).  Returns 0
 * or a negative errno (reported as a warning: the run goes on, its reset
 * is the full one). */
int dirtymap_start(virDomainPtr dom, char *node, size_t len);

/* Reads what was written to NODE since dirtymap_start, once the guest has
 * stopped writing (DOM paused): guest-visible ranges in *RET, released by
 * the caller.  Returns 0 or a negative errno (reported as a warning). */
int dirtymap_collect(virDomainPtr dom, const char *node, struct written *ret);

/* The node-name of the first device with a medium in a QEMU query-block
 * reply (JSON text) into NODE (LEN bytes).  Returns 0 or -EINVAL. */
int dirtymap_parse_node(const char *reply, char *node, size_t len);

#endif
