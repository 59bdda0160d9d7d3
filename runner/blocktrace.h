/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What a host-native run writes to its block device (the LV, or the loop
 * device over an image file), recorded by the kernel's own
 * block_bio_queue tracepoint: every bio submitted to the device, read
 * from a tracefs instance of the runner's own by a thread while the run
 * goes on, and folded into a bitmap of 64 KiB blocks.
 *
 * The run's I/O path is the one the cell names: no device-mapper target,
 * no QEMU, no layer added; what tracking costs it is the tracepoint's
 * record of each bio and the thread reading them (docs/runner.md).
 *
 * An event the kernel dropped (its buffer full), a bio that is neither a
 * read, a write, a discard nor a flush, or a line that cannot be read
 * leaves what was written unknown: blocktrace_stop says so, and the next
 * reset is the full one. */
#ifndef BUILDAPP_BLOCKTRACE_H
#define BUILDAPP_BLOCKTRACE_H

#include <stdint.h>

#include "written.h"

/* The bitmap's block: QEMU's dirty bitmaps' default granularity. */
#define BLOCKTRACE_GRANULARITY 65536

struct blocktrace;

/* Starts recording the writes to block device DEVICE (a path), before
 * anything writes to it (before its filesystem is mounted).  Returns 0
 * with *RET (for blocktrace_stop), or a negative errno (reported as a
 * warning: the run goes on, its reset is the full one). */
int blocktrace_start(const char *device, struct blocktrace **ret);

/* Once nothing writes to the device any more (its filesystem unmounted):
 * stops recording, frees T and puts every range written since
 * blocktrace_start (whole 64 KiB blocks, clipped to the device's size)
 * into *RET, released by the caller (RET NULL: not wanted, nothing
 * read).  Returns 0, or a negative errno (reported as a warning) when
 * what was written is not known. */
int blocktrace_stop(struct blocktrace *t, struct written *ret);

/* One line of a trace_pipe with block_bio_queue events: 1 and the event
 * in *MAJOR, *MINOR, *SECTOR (512-byte), *SECTORS and *OP; 0 for a line
 * that is no event (blank); -EOVERFLOW for the kernel's "[LOST N EVENTS]";
 * -EINVAL for an event that cannot be read. */
enum blocktrace_op {
	BLOCKTRACE_READ,  /* reads nothing into the device */
	BLOCKTRACE_FLUSH, /* a flush alone: writes no sector */
	BLOCKTRACE_WRITE, /* a write, write-zeroes or discard */
	BLOCKTRACE_OTHER, /* an operation the trace does not name */
};
int blocktrace_parse_line(const char *line, unsigned *major, unsigned *minor,
			  uint64_t *sector, uint32_t *sectors,
			  enum blocktrace_op *op);

#endif
