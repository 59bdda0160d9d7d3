/* Kernel modules for the guest kit: the load order of a set of modules
 * and their dependencies, from /lib/modules/VERSION/modules.dep. */
#ifndef BUILDAPP_KMODS_H
#define BUILDAPP_KMODS_H

#include <stdbool.h>

#include "elfdeps.h"

/* Appends to *ret the paths (relative to MODDIR, as in modules.dep) of
 * NAMES (NULL-terminated; '-' and '_' are the same) and their
 * dependencies, dependencies first, without duplicates.  Modules built
 * into the kernel (modules.builtin) are skipped, and with OPTIONAL so are
 * modules the kernel does not have.  Returns 0, or -ENOENT after naming a
 * required module the kernel does not have at all. */
int kmods_resolve(const char *moddir, const char *const *names,
		  bool optional, struct elfdeps *ret);

#endif
