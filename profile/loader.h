/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Profile loading: INI file (and its includes) -> struct profile. */
#ifndef BUILDAPP_LOADER_H
#define BUILDAPP_LOADER_H

#include <stddef.h>

#include "profile.h"

/* Loads PATH, following `include =` (relative to the including file,
 * at most 8 deep, no cycles), validates every key and applies defaults.
 * On bad input prints one message
 *   buildapp: error: FILE:LINE: [section] key: reason
 * and returns a negative errno (-EINVAL for bad content, -ENOENT etc. for
 * an unreadable file); *ret is then left untouched. */
int loader_load(const char *path, struct profile *ret);

/* Like loader_load, from a buffer named NAME (used by the fuzz target).
 * Includes are resolved relative to the current directory. */
int loader_load_buffer(const char *name, const char *data, size_t len,
		       struct profile *ret);

#endif
