/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The studies' published tables (report/reference/NAME.json), built
 * into the program by appliance/module.mk so the appliance, which writes
 * its report on the lab server, has them without an installed data path.
 * The JSON files are the source; the generated C file only carries them. */
#ifndef BUILDAPP_REFERENCE_DATA_H
#define BUILDAPP_REFERENCE_DATA_H

#include <stddef.h>

struct reference_data {
	const char *name; /* the file's name without .json */
	const char *json; /* its bytes, NUL-terminated */
};

extern const struct reference_data reference_data[];
extern const size_t n_reference_data;

#endif
