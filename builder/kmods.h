/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Kernel modules for the guest kit: the load order of a set of modules,
 * their dependencies and their softdeps, as libkmod (modprobe's library)
 * resolves them from /lib/modules/VERSION's indexes. */
#ifndef BUILDAPP_KMODS_H
#define BUILDAPP_KMODS_H

#include <stdbool.h>

#include "elfdeps.h"

/* Appends to *ret the paths (relative to MODDIR, as in modules.dep) of
 * NAMES (NULL-terminated: module names or aliases, '-' and '_' the same),
 * their dependencies and their softdeps (the kernel's modules.softdep,
 * not this host's modprobe.d), in the order modprobe loads them, without
 * duplicates.  Modules built into the kernel are skipped, and with
 * OPTIONAL so are modules the kernel does not have.  Returns 0, or a
 * negative errno after reporting (-ENOENT: a required module the kernel
 * does not have at all). */
int kmods_resolve(const char *moddir, const char *const *names,
		  bool optional, struct elfdeps *ret);

#endif
