/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Content-addressed build cache: a build's outputs live in
 * CACHE/KIND-HASH/, HASH the sha256 of everything that went in, so an
 * unchanged build is found instead of redone. */
#ifndef BUILDAPP_CAS_H
#define BUILDAPP_CAS_H

#include <stddef.h>

#include "cleanup.h"

struct cas;

/* A new hash of inputs; NULL when out of memory.  Free with cas_free. */
struct cas *cas_new(const char *kind);
void cas_free(struct cas *c);
DEFINE_TRIVIAL_CLEANUP_FUNC(struct cas, cas_free)
void cas_add(struct cas *c, const void *data, size_t len);
void cas_add_str(struct cas *c, const char *s);
/* Adds a file's identity (path, size, mtime, inode), not its bytes:
 * enough to notice a changed input without reading gigabytes.
 * Returns 0 or -errno from stat. */
int cas_add_file(struct cas *c, const char *path);
/* Writes "CACHE/KIND-HASH" into RET and creates CACHE and its parents
 * (not the entry).
 * Returns 0 or a negative errno. */
int cas_path(struct cas *c, const char *cache, char *ret, size_t len);

#endif
