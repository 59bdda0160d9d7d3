/* The guest disks of a sweep on this host: the profile's [storage]
 * section as a storage spec, provisioned with the native tools on a
 * directory or on the disk under test (after the safety checks), and
 * released at the end.  Used by `buildapp run` and by the appliance. */
#ifndef BUILDAPP_VOLUMES_H
#define BUILDAPP_VOLUMES_H

#include "profile.h"
#include "recipe.h"
#include "storage.h"

/* Fills *ret from PROFILE's storage section (axis bits map one to one). */
void volumes_spec_from_profile(const struct profile *profile,
			       struct storage_spec *ret);

/* The bytes a disk under test needs for PROFILE's backends: the layout
 * recipe_build makes on a whole disk (its disk_size), which `buildapp
 * provision` creates an image file of, `buildapp run` checks a target
 * file against and `buildapp plan` prints.  Returns 0, or -EINVAL when
 * the backends fit no disk (storage_spec_check), or -ENOMEM. */
int volumes_disk_size(const struct profile *profile, uint64_t *ret);

/* The safety rules (storage/safety.h) for PATH, an image file or block
 * device, with PROFILE's wipe and disk identity; OWN_PTUUID (or NULL) is
 * the layout this kit made there before (volumes_layout_read).  Returns
 * 0, -EPERM with the reason reported, or another negative errno. */
int volumes_check_target(const struct profile *profile, const char *path,
			 const char *own_ptuuid);

/* The layout buildapp made on a disk target, recorded in RESULTS_DIR/
 * layout: written after provisioning DEVICE (its partition table UUID
 * and identities), read back into BUF (LEN bytes) as the partition table
 * UUID a later sweep with the same RESULTS recognises as its own.  Read
 * returns 0, or -ENOENT when nothing is recorded; write 0 or a negative
 * errno (reported). */
int volumes_layout_read(const char *results_dir, char *buf, size_t len);
int volumes_layout_write(const char *results_dir, const char *device);

/* Provisions PROFILE's backends on TARGET: a directory (file backends
 * only) or a block device, which must pass the safety rules (profile's
 * wipe and disk identity, OWN_PTUUID as for volumes_check_target); its
 * ext4 filesystem is mounted on MOUNTPOINT.  With [storage] fill, each
 * volume is filled with the pristine image at PRISTINE, so it is already
 * what a full reset makes it (native_execute); in a directory an earlier
 * sweep filled, its volumes are kept when its record says they are these
 * (volrecord.h), and the record stays open for the sweep.
 * RET_PRISTINE[i] says whether volume i holds the pristine image.  Fills
 * *ret with the recipe and its volumes.  Reports why it cannot; returns
 * 0, -EINVAL (bad target or spec for it), -EPERM (refused by the safety
 * rules) or another negative errno (a tool failed). */
int volumes_provision(const struct profile *profile, const char *target,
		      const char *mountpoint, const char *own_ptuuid,
		      const char *pristine, struct recipe *ret, bool ret_pristine[]);

/* The volumes volumes_provision made on TARGET, opened as they are (the
 * volume group activated, the filesystem mounted; nothing is written), in
 * *RET, for the runs a crashed host left to finish
 * (sweep_finish_crashes).  The same checks and returns as
 * volumes_provision; release with volumes_release. */
int volumes_adopt(const struct profile *profile, const char *target,
		  const char *mountpoint, const char *own_ptuuid, struct recipe *ret);

/* Unmounts the filesystem and deactivates the volume group a disk
 * target's provisioning left active.  Nothing for a directory. */
void volumes_release(const struct recipe *r);

#endif
