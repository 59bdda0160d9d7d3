/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The storage backends a guest disk can live on, and their options.
 * Shared by the profile (profile/profile.h), the plan and storage/. */
#ifndef BUILDAPP_BACKEND_H
#define BUILDAPP_BACKEND_H

#include "names.h"

/* Guest disk image formats; also the output format of the kit image. */
enum image_format { IMAGE_FORMAT_RAW, IMAGE_FORMAT_QCOW2, _IMAGE_FORMAT_MAX };

enum backend {
	BACKEND_EXT4_FILE,
	BACKEND_LVM,
	BACKEND_QCOW2,
	BACKEND_RAW,
	_BACKEND_MAX
};
enum qcow2_prealloc {
	QCOW2_PREALLOC_OFF,
	QCOW2_PREALLOC_METADATA,
	QCOW2_PREALLOC_FALLOC,
	QCOW2_PREALLOC_FULL,
	_QCOW2_PREALLOC_MAX
};
enum raw_prealloc {
	RAW_PREALLOC_SPARSE,
	RAW_PREALLOC_FALLOC,
	RAW_PREALLOC_FULL,
	_RAW_PREALLOC_MAX
};

/* Names as written in profiles, plans and results ("?" when out of range). */
const char *image_format_name(enum image_format v);
const char *backend_name(enum backend v);
const char *qcow2_prealloc_name(enum qcow2_prealloc v);
const char *raw_prealloc_name(enum raw_prealloc v);

extern const struct name_table image_format_names, backend_names,
	qcow2_prealloc_names, raw_prealloc_names;

#endif
