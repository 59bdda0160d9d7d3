/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shared-library closure of ELF programs, as the dynamic loader itself
 * resolves it (`ld.so --list`: DT_RUNPATH/DT_RPATH, $ORIGIN, the system
 * directories), without running them.  The headers are read with libelf. */
#ifndef BUILDAPP_ELFDEPS_H
#define BUILDAPP_ELFDEPS_H

#include <stddef.h>

#define ELFDEPS_MAX 256

/* One file to copy: PATH is where the loader looks for it (e.g.
 * /lib/x86_64-linux-gnu/libz.so.1, possibly a symlink on the host); the
 * kit stores the file it resolves to under that name. */
struct elfdeps {
	size_t n;
	char *paths[ELFDEPS_MAX];
};

/* Adds to *deps the program interpreter and every library PROGRAM needs,
 * transitively, where the guest's loader will look for it (no
 * ld.so.cache, no glibc-hwcaps variant of this CPU), without duplicates;
 * a static program adds nothing.  Returns 0, or a negative errno after
 * reporting: -ENOENT naming the missing library, -ENOEXEC for a file that
 * is not a 64-bit ELF of this machine. */
int elfdeps_add(struct elfdeps *deps, const char *program);

/* Appends a copy of PATH unless *deps has it.  Returns 0, -E2BIG past
 * ELFDEPS_MAX or -ENOMEM (not reported). */
int elfdeps_push(struct elfdeps *deps, const char *path);

/* 1 when the ELF file PATH defines the dynamic symbol NAME (exports
 * it), 0 when not, a negative errno when it cannot be read (-ENOEXEC: not
 * a 64-bit ELF of this machine).  Reports nothing. */
int elfdeps_defines(const char *path, const char *name);

/* Frees the paths; DEPS may be reused afterwards. */
void elfdeps_release(struct elfdeps *deps);

#endif
