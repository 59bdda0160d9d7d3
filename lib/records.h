/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The self-checking records of the durability workload: the guest agent
 * writes them (appliance/agent/workload.c), the guest image holds the
 * blank file they overwrite (builder/guestimage.c), the runner reads them
 * back after the crash and classifies each acknowledged one
 * (runner/durability.c).  libc only: the static agent links it too.
 *
 * A record of RECORDS_SIZE_MIN..RECORDS_SIZE_MAX bytes (a multiple of
 * RECORDS_SECTOR):
 *
 *   0   8  magic "BAREC001"
 *   8   8  sequence number, little endian (0-based; its place in the file)
 *   16  8  run identity, little endian (one per run: a stale record from
 *          an earlier run of the same volume has another)
 *   24  8  record size, little endian
 *   32  .. payload: a xorshift64* stream seeded from sequence and run
 *   -8  8  FNV-1a 64 of every byte before it, little endian
 *
 * The blank file (what the guest image holds before a run) repeats a
 * 512-byte pattern that is no record's: never zeros, which mke2fs -d
 * would leave as holes, so the records overwrite allocated blocks and a
 * flush needs no metadata of the filesystem's. */
#ifndef BUILDAPP_RECORDS_H
#define BUILDAPP_RECORDS_H

#include <stddef.h>
#include <stdint.h>

#define RECORDS_FILE "records.dat" /* in the guest image's work directory */
#define RECORDS_SECTOR 512
#define RECORDS_SIZE_MIN 512
#define RECORDS_SIZE_MAX (1u << 20)

enum record_state {
	RECORD_OK,      /* the record expected, intact */
	RECORD_MISSING, /* nothing of it arrived: blank (or zeros) */
	RECORD_STALE,   /* an intact record, but another run's or place's */
	RECORD_TORN,    /* some sectors the expected record's, the others empty */
	RECORD_CORRUPT, /* anything else: a sector neither expected nor empty */
	_RECORD_STATE_MAX
};

/* Fills BUF (SIZE bytes) with record SEQ of run RUN. */
void records_fill(void *buf, size_t size, uint64_t seq, uint64_t run);
/* Fills BUF (SIZE bytes, a multiple of RECORDS_SECTOR) with the blank. */
void records_blank(void *buf, size_t size);
/* What BUF (SIZE bytes, read back at record SEQ's place) holds, for
 * record SEQ of run RUN.  SCRATCH is SIZE bytes the caller provides. */
enum record_state records_classify(const void *buf, size_t size,
				   uint64_t seq, uint64_t run, void *scratch);
/* "ok", "missing", "stale", "torn", "corrupt". */
const char *records_state_name(enum record_state s);
/* A well-mixed 64-bit value of A and B (splitmix64), for run identities
 * and crash points derived from a plan's seed. */
uint64_t records_mix(uint64_t a, uint64_t b);

#endif
