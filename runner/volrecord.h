/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The record a sweep keeps beside the volumes it made, in a directory
 * target or in the ext4 filesystem of a disk target it partitioned
 * (buildapp-volumes.json, STORAGE_VOLUMES_RECORD): what they are
 * (backend, format, preallocation, size, cluster size, fill), which
 * pristine image they were made for (a fingerprint of its data), and
 * which of them hold that image now.  A later sweep on the same target
 * (for a disk, one whose partition table is the one the sweep's RESULTS
 * record: a resumed sweep) whose volumes are the same keeps them instead
 * of making and filling them again, and a volume the record says is
 * pristine needs no reset before its first run (docs/storage.md,
 * "Volumes kept").
 *
 * A volume is recorded pristine only while nothing can be writing it:
 * from provisioning's fill with the pristine image or the end of a run
 * that opened it read-only, to its next reset (which clears the mark, on
 * disk, before it writes).  One record is open at a time, the sweep's. */
#ifndef BUILDAPP_VOLRECORD_H
#define BUILDAPP_VOLRECORD_H

#include <stdbool.h>

#include "recipe.h"

/* Whether volumes on REC's target can be kept with a record: filled
 * volumes ([storage] fill; others cost little to make again) in a
 * directory, or on a disk with a filesystem to keep the record in, for
 * a pristine image (PRISTINE not NULL). */
bool volrecord_wanted(const struct recipe *rec, const char *pristine);

/* Opens the record in REC's target when it is one of REC's volumes made
 * for the image at PRISTINE: returns 1 and RET_PRISTINE[i] says whether
 * volume i holds that image.  Returns 0 when there is no record, or one
 * for other volumes or another image (then removed, with why), or a
 * negative errno (reported). */
int volrecord_open(const struct recipe *rec, const char *pristine, bool ret_pristine[]);

/* A new record of REC's volumes, just provisioned for the image at
 * PRISTINE, each pristine as PRISTINE_NOW[i] says; it stays open.
 * Returns 0 or a negative errno (reported). */
int volrecord_create(const struct recipe *rec, const char *pristine,
		     const bool pristine_now[]);

/* V holds the pristine image (PRISTINE) or may not: the open record is
 * rewritten (atomically, fsync'd) when that changes.  Nothing without an
 * open record or for a volume it does not hold.  Returns 0 or a negative
 * errno (reported). */
int volrecord_mark(const struct storage_volume *v, bool pristine);

/* Forgets the open record (the file stays). */
void volrecord_close(void);

#endif
