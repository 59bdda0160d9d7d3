/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Storage backends: what a profile's [storage] section asks for (the
 * spec), the volumes a guest disk can live on, their allocation state and
 * the pristine reset before every run.  docs/storage.md describes the
 * backends and the on-disk layout.  Knows nothing of INI files or runs. */
#ifndef BUILDAPP_STORAGE_H
#define BUILDAPP_STORAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "backend.h"

#define STORAGE_PATH_MAX 256
/* Every volume size is a multiple of this: the LVM extent size, so an LV
 * and a file of the same spec have the same size. */
#define STORAGE_ALIGN (UINT64_C(4) << 20)
#define STORAGE_SIZE_MAX (UINT64_C(64) << 40)

/* A set of enum values as bits (1u << value), like the profile's axes. */
#define STORAGE_BIT(v) ((uint32_t)1u << (v))

/* The profile's [storage] section, as plain data. */
struct storage_spec {
	uint32_t backends;       /* of enum backend */
	uint64_t size;           /* per guest disk, bytes */
	uint32_t qcow2_prealloc; /* of enum qcow2_prealloc */
	uint32_t raw_prealloc;   /* of enum raw_prealloc */
	uint64_t cluster_size;   /* qcow2 cluster size, bytes */
	bool fill;               /* write every volume once after creating it */
};

/* One guest disk on one backend. */
struct storage_volume {
	enum backend backend;
	enum image_format format;
	int prealloc; /* enum qcow2_prealloc or raw_prealloc; -1: none */
	char path[STORAGE_PATH_MAX]; /* file or block device the guest uses */
	uint64_t size;               /* guest-visible bytes */
	uint64_t cluster_size;       /* qcow2 only, else 0 */
	bool block_device;           /* an LV rather than a file */
	bool fill;                   /* written once after creation */
};

/* Allocation state of a volume after provisioning.  -1: not known. */
struct storage_alloc {
	int64_t allocated; /* bytes the host has allocated for it */
	int64_t unwritten; /* of those, bytes in unwritten (fallocated) extents */
	int64_t extents;   /* host extents of the file */
	int64_t data;      /* qcow2: guest bytes mapped to host clusters */
};

/* NULL when SPEC is usable, else a static sentence saying what is wrong. */
const char *storage_spec_check(const struct storage_spec *spec);

/* Guest disk size rounded up to STORAGE_ALIGN. */
uint64_t storage_volume_size(const struct storage_spec *spec);

/* "lvm", "qcow2/metadata", "raw/sparse": how plans and results name V. */
const char *storage_volume_label(const struct storage_volume *v, char *buf,
				 size_t len);

/* qemu-img's -o preallocation= value for a volume of BACKEND with
 * PREALLOC (raw "sparse" and backends without the axis are "off"). */
const char *storage_qemu_prealloc(enum backend backend, int prealloc);

/* Copies the pristine image at PRISTINE (raw or qcow2, probed) onto V so
 * every run starts from the same state, keeping V's preallocation (see
 * docs/storage.md).  Uses qemu-img; sets *ret_seconds to the time it took.
 * Reports its own errors; returns 0 or a negative errno. */
int storage_reset(const struct storage_volume *v, const char *pristine,
		  double *ret_seconds);

/* "raw" or "qcow2" in *RET, from the first bytes of the image at PATH.
 * Returns 0 or a negative errno (reported). */
int storage_probe_format(const char *path, const char **ret);

/* Measures V's allocation on this host (fstat, FIEMAP, qemu-img map).
 * Fields that cannot be measured are -1.  Returns 0 or a negative errno
 * (reported). */
int storage_alloc_probe(const struct storage_volume *v,
			struct storage_alloc *ret);

/* Creates V's file with qemu-img create and V's preallocation (and
 * cluster size).  Returns 0 or a negative errno (reported). */
int storage_create_file(const struct storage_volume *v);

/* Writes every byte of the SIZE-byte volume at PATH (file or device) once
 * through qemu-img, so qcow2 clusters and file extents are allocated and
 * written: zeroes, or with PRISTINE (not NULL) the pristine image's bytes
 * and zeroes past its end.  The volume is then byte for byte what a fill
 * with zeroes and a full reset (storage_reset) over it leave, in one pass
 * instead of two.  Returns 0 or a negative errno (reported). */
int storage_fill(const char *path, enum image_format format, uint64_t size,
		 const char *pristine);

/* V and (when A is not NULL) its allocation as a JSON object the caller
 * owns (json_object_put); what `provision --json` prints per volume. */
struct json_object;
struct json_object *storage_volume_to_json(const struct storage_volume *v,
					   const struct storage_alloc *a);

#endif
