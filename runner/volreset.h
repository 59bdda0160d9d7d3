/* The reset before each run, in proportion to what the previous run on
 * the same volume wrote.  A volume whose last run's writes are known (a
 * guest run tracked by dirtymap.h that ended well, a host-native run
 * tracked by blocktrace.h) gets the fast reset:
 * only those ranges copied back from the pristine image.  One whose last
 * run opened it read-only (qemu-img bench without -w) gets none, and so
 * does a filled one's first (provisioning wrote the pristine image).  Any
 * other (the first run on any other volume in this process, a failed
 * guest run, a run whose tracking failed) gets storage_reset(),
 * the full one. */
#ifndef BUILDAPP_VOLRESET_H
#define BUILDAPP_VOLRESET_H

#include <stdbool.h>

#include "journal.h"
#include "storage.h"
#include "vm.h"

/* Whether a run on V is worth tracking: the full reset of V is
 * proportional to its size (an LV, a filled volume).  A file that is
 * neither is recreated, which costs what the pristine image holds.
 * BUILDAPP_TRACK_WRITES=no in the environment: never, and every reset
 * is full (no none either). */
bool volreset_wants_tracking(const struct storage_volume *v);

/* Resets V to PRISTINE, fast when it can; *ret_kind is "none", "fast"
 * or "full", *ret_seconds the time it took (reading the writes back at
 * the end of the previous run included; 0 for none).  A fast reset that
 * fails falls back to the full one.  With CHECK, a fast reset or none is
 * checked: the sha256 of the whole volume after it, then the full reset
 * over it and the sha256 again, into *CHECK (a difference is warned
 * about; the volume is then as the full reset left it, and the check's
 * time is not in *ret_seconds).  Returns 0 or a negative errno
 * (reported). */
int volreset_run(const struct storage_volume *v, const char *pristine,
		 double *ret_seconds, const char **ret_kind,
		 struct journal_reset_check *check);

/* V's reset on the disk: fsync of V (a file: its data and metadata
 * through its filesystem's journal, whose commit flushes the disk's
 * cache; an LV or other block device: its page cache, then a cache
 * flush through the device mapper to the disk, which sync(2) would not
 * send), and of a file's directory (a full reset makes the file anew).
 * Returns 0 or a negative errno (reported). */
int volreset_sync(const struct storage_volume *v);

/* The checked reset of V after its last run, when that run's writes are
 * known (else nothing is done and CHECK->done stays false).
 * Returns 0 or a negative errno (reported). */
int volreset_check_last(const struct storage_volume *v, const char *pristine,
			struct journal_reset_check *check);

/* After a run on V: what it wrote, when VR knows it (VR's ranges are
 * taken over), else nothing is known and the next reset is full (VR
 * NULL for runs that are not tracked). */
void volreset_note(const struct storage_volume *v, struct vm_result *vr);

/* After a host-native run on V: what it wrote (W's ranges are taken
 * over; W NULL: not known, the next reset is full) and how long reading
 * that took (READ_SECONDS, counted in the next reset's time). */
void volreset_note_written(const struct storage_volume *v, struct written *w,
			   double read_seconds);

/* V is the pristine image as a full reset leaves it (a run opened it
 * read-only after its reset, or provisioning filled it with the pristine
 * image): the next reset is none (full, as every reset, with
 * BUILDAPP_TRACK_WRITES=no). */
void volreset_note_pristine(const struct storage_volume *v);

#endif
