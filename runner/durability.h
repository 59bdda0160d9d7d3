/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The host side of the durability workload (docs/results.md): which run
 * identity and crash point a run gets from the plan's seed, where its
 * records are on the disk (the guest's RECORDS line), and the check
 * after the crash: each acknowledged record read back from the volume and
 * classified (lib/records.h). */
#ifndef BUILDAPP_DURABILITY_H
#define BUILDAPP_DURABILITY_H

#include <stddef.h>
#include <stdint.h>

#include "records.h"
#include "storage.h"

#define DURABILITY_EXTENTS_MAX 32

/* The records file on the disk: its extents, file offset to disk offset. */
struct durability_layout {
	uint64_t size, count; /* bytes per record, records */
	size_t n;
	struct {
		uint64_t logical, physical, length;
	} extent[DURABILITY_EXTENTS_MAX];
};

/* What came back of the acknowledged records. */
struct durability_count {
	uint64_t acknowledged;
	uint64_t state[_RECORD_STATE_MAX]; /* each acknowledged record once */
	uint64_t lost; /* acknowledged and not RECORD_OK */
};

/* The identity of the run at POSITION of a sweep seeded SEED (what tells
 * its records from an earlier run's on the same volume). */
uint64_t durability_run_id(uint64_t seed, unsigned position);
/* After how many durable acknowledgements that run's crash comes: from
 * half of RECORDS to all of them, drawn from the seed. */
uint64_t durability_crash_point(uint64_t seed, unsigned position,
				uint64_t records);

/* The guest's RECORDS line in the console log TEXT (LEN bytes), from its
 * tag to before its line end ("\r\n" or "\n"), its length in *RET_LEN;
 * NULL when there is none. */
const char *durability_records_line(const char *text, size_t len, size_t *ret_len);

/* The RECORDS line in the console log TEXT (LEN bytes).  Returns 0,
 * -ENODATA when there is none, -EBADMSG for one that does not decode. */
int durability_layout_parse(const char *text, size_t len,
			    struct durability_layout *ret);

/* Classifies records 0..ACKED-1 of run RUN, SIZE bytes each, laid one
 * after the other in BUF, into *RET. */
void durability_count_buffer(const void *buf, uint64_t size, uint64_t acked,
			     uint64_t run, struct durability_count *ret);

/* Reads the first ACKED records of L back from the volume at PATH
 * (FORMAT) and classifies them into *RET.  Returns 0, -EINVAL when L
 * does not hold ACKED records, or a negative errno (reported). */
int durability_check(const char *path, enum image_format format,
		     const struct durability_layout *l, uint64_t run,
		     uint64_t acked, struct durability_count *ret);

#endif
