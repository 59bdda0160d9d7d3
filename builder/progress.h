/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Progress of the builder's long steps on stderr: a step line, then its
 * percentage (libguestfs progress events, archive writing).  On a
 * terminal one line is redrawn; in a log one line per 25%.  Silent below
 * log level info. */
#ifndef BUILDAPP_PROGRESS_H
#define BUILDAPP_PROGRESS_H

#include <stdint.h>

/* Names the step that following progress belongs to (a static string),
 * and prints it. */
void progress_step(const char *what);

/* DONE of TOTAL units of the current step are done. */
void progress_update(uint64_t done, uint64_t total);

#endif
