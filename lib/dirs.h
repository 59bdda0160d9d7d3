/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Directories the tools keep their state in. */
#ifndef BUILDAPP_DIRS_H
#define BUILDAPP_DIRS_H

#include <sys/types.h>

/* mkdir -p: creates PATH and every missing parent with MODE; an existing
 * directory is success.  Returns 0 or a negative errno (not reported). */
int dirs_make(const char *path, mode_t mode);

#endif
