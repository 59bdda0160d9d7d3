/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The qcow2 L2 cache of a cell, as QEMU is told it.  One QEMU option for
 * both paths: libvirt writes <metadata_cache><max_size> as the qcow2
 * node's cache-size (the L2 and refcount caches together), so qemu-img
 * bench gets cache-size too.  QEMU gives the refcount cache its minimum
 * of 4 clusters and the rest to the L2 cache (block/qcow2.c,
 * read_cache_sizes), so cache-size = L2 + 4 clusters makes the L2 cache
 * exactly the profile's size, the same as l2-cache-size would. */
#ifndef BUILDAPP_QCOW2CACHE_H
#define BUILDAPP_QCOW2CACHE_H

#include <stddef.h>
#include <stdint.h>

#define QCOW2CACHE_OPTION "cache-size"
/* QEMU's MIN_REFCOUNT_CACHE_SIZE, in clusters. */
#define QCOW2CACHE_REFCOUNT_CLUSTERS 4

/* The cache-size for an L2 cache of L2 bytes on an image with
 * CLUSTER_SIZE clusters; 0 (no option: QEMU's defaults) when L2 <= 0. */
uint64_t qcow2cache_size(int64_t l2, uint64_t cluster_size);

/* Finds the qcow2 format node's cache-size in a QEMU command line
 * (ARGS: LEN bytes of NUL-separated arguments, as /proc/PID/cmdline),
 * in its -blockdev JSON argument.  Returns 0 with *ret set (0 when the
 * qcow2 node has no cache-size), -ENOENT when there is no qcow2 node. */
int qcow2cache_from_cmdline(const char *args, size_t len, uint64_t *ret);

#endif
