/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The plan as `buildapp plan` prints it for a reader: the resolved
 * profile, the cache-mode table, the matrix and the run order. */
#ifndef BUILDAPP_PLANTEXT_H
#define BUILDAPP_PLANTEXT_H

#include <stdio.h>

#include "plan.h"

/* Writes PLAN as text to F.  Returns 0 or -EIO. */
int plantext_write(const struct plan *plan, FILE *f);

#endif
