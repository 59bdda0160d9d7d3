/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What a run wrote, as guest-visible byte ranges, and the reset that
 * copies only those ranges back from the pristine image.
 *
 * The ranges come from a QEMU dirty bitmap read over NBD (the
 * qemu:dirty-bitmap:NAME meta context); the copy goes through qemu-nbd
 * on both sides, so a qcow2 volume is written by QEMU's own qcow2 driver
 * exactly as the full reset (qemu-img convert) writes it.  libnbd is the
 * client; this is the layer that wraps it, so it reports its errors. */
#ifndef BUILDAPP_WRITTEN_H
#define BUILDAPP_WRITTEN_H

#include <stddef.h>
#include <stdint.h>

#include "storage.h"

struct written_range {
	uint64_t offset, length;
};

/* Sorted, disjoint, non-adjacent ranges. */
struct written {
	struct written_range *v;
	size_t n, cap;
	uint64_t bytes; /* sum of the lengths */
};

/* Adds [OFFSET, OFFSET + LENGTH), at or after every range already added
 * (merged with the last one when they touch).  Returns 0, -EINVAL for a
 * range before the last one, or -ENOMEM. */
int written_add(struct written *e, uint64_t offset, uint64_t length);

/* Frees E's ranges and empties it.  Accepts an empty E. */
void written_release(struct written *e);

/* Reads the dirty ranges of bitmap BITMAP from the NBD export EXPORT at
 * the Unix socket SOCKET (an export made with block-export-add and
 * bitmaps=[BITMAP]) into *RET (released by the caller).  Returns 0 or a
 * negative errno (reported). */
int written_read_bitmap(const char *socket, const char *export,
			const char *bitmap, struct written *ret);

/* Copies the ranges E (clipped to the pristine image's size, as the full
 * reset copies no further) from the pristine image PRISTINE onto V, which
 * must hold what the full reset left plus what the run that wrote E
 * wrote: afterwards V is byte for byte what storage_reset() would have
 * made of it.  Sets *ret_seconds to the time it took.  Returns 0 or a
 * negative errno (reported). */
int written_reset(const struct storage_volume *v, const char *pristine,
		  const struct written *e, double *ret_seconds);

/* Reads the N ranges R (in any order) of the volume at PATH (FORMAT),
 * one after the other, into BUF (their lengths' sum), through QEMU's
 * block layer (qemu-nbd, read-only): the durability check reads back its
 * records so, whatever the backend.  Returns 0 or a negative errno
 * (reported). */
int written_read(const char *path, enum image_format format,
		 const struct written_range *r, size_t n, void *buf);

#endif
