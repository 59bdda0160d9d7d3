/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Reproducible builds: the build time and every identifier that would
 * otherwise be random (filesystem UUIDs, volume serials, GPT GUIDs) are
 * derived from the profile name and SOURCE_DATE_EPOCH, so two builds of
 * one profile give byte-identical images. */
#ifndef BUILDAPP_REPRO_H
#define BUILDAPP_REPRO_H

#include <stdint.h>

#define REPRO_UUID_LEN 37 /* with the NUL */

/* The build time: SOURCE_DATE_EPOCH when set, else now.  Returns 0, or
 * -EINVAL (reported) for a malformed SOURCE_DATE_EPOCH. */
int repro_epoch(uint64_t *ret);

/* A version-4-shaped UUID, lowercase, from sha256(NAME, EPOCH, PURPOSE):
 * the same inputs always give the same UUID. */
void repro_uuid(const char *name, uint64_t epoch, const char *purpose,
		char out[REPRO_UUID_LEN]);

/* 32 bits from the same hash (FAT volume serial). */
uint32_t repro_u32(const char *name, uint64_t epoch, const char *purpose);

#endif
