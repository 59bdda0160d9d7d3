/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Directories that say whether the process that made them still lives:
 * DIR/.owner, locked (flock) by its maker for as long as it runs, however
 * it ends (SIGKILL, power cut).  A later run removes what a dead owner
 * left, and never what a live one (another build, another sweep) uses:
 * a lock, unlike a pid, cannot be inherited by an unrelated process. */
#ifndef BUILDAPP_OWNER_H
#define BUILDAPP_OWNER_H

#include <stdbool.h>

/* Creates DIR/.owner and locks it for the rest of this process' life
 * (the descriptor is kept, close-on-exec so tools do not hold it).
 * Returns 0 or a negative errno. */
int owner_claim(const char *dir);
/* True when DIR/.owner exists and no process holds its lock: DIR's maker
 * is dead.  A directory without .owner is never abandoned. */
bool owner_abandoned(const char *dir);

#endif
