/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A kit build's parts (kit.c) and its manifest, NAME.manifest.json: what
 * the kit is made of and from (docs/kit.md), with the size breakdown it
 * prints and the licenses of what it carries. */
#ifndef BUILDAPP_KITMANIFEST_H
#define BUILDAPP_KITMANIFEST_H

#include <limits.h>
#include <stdint.h>

#include "fsimage.h"
#include "guestimage.h"
#include "guestkit.h"
#include "hostroot.h"
#include "image.h"
#include "profile.h"

/* Paths of one kit build; everything is made in WORK and renamed into
 * OUT at the end. */
struct kit_paths {
	char work[PATH_MAX - 128];
	char initrd[PATH_MAX], image[PATH_MAX], iso[PATH_MAX], netboot[PATH_MAX],
		manifest[PATH_MAX], signature[PATH_MAX + 8];
	char kernel[PATH_MAX], kver[256], init[PATH_MAX], cache[PATH_MAX];
	char netboot_initrd[PATH_MAX + 16];
	char hostroot[HOSTROOT_PATH_MAX], hostroot_sizes[HOSTROOT_PATH_MAX];
};

/* What the appliance's sweep needs, baked into its root under
 * BENCH_KIT_DIR: the plan (the appliance never reads the INI), the
 * benchmark guest's kernel and initramfs, and the pristine guest image as
 * uncompressed qcow2 (its reset source on the lab server). */
#define KIT_MAX_LIBS 4
struct kit_payload {
	char plan[PATH_MAX], pristine[PATH_MAX], agent[PATH_MAX];
	/* When the guest kernel is the ESP's, the root carries this
	 * reference to it (KITKERNEL_REF) instead of a second copy; else
	 * "". */
	char kernel_ref[PATH_MAX];
	struct guestkit guest;
	struct guestimage image;
	/* fio's libraries the host root leaves out (add_fio_libs) */
	char lib_src[KIT_MAX_LIBS][PATH_MAX], lib_dest[KIT_MAX_LIBS][PATH_MAX];
	struct fsimage_file files[9 + KIT_MAX_LIBS];
	unsigned n_files;
};

/* NAME.manifest.json at K->manifest for the kit of profile P built from K
 * and PAYLOAD (FORMAT its image's, CMDLINE its kernel's, EPOCH its
 * SOURCE_DATE_EPOCH); prints the size breakdown.  Returns 0 or a
 * negative errno, reported. */
int kitmanifest_write(const struct profile *p, const struct kit_paths *k,
		      const struct kit_payload *payload, enum image_format format,
		      const char *cmdline, uint64_t epoch);

#endif
