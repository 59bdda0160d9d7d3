/* SPDX-License-Identifier: GPL-2.0-or-later */
/* SHA-256 as both sides print it: 64 lowercase hex digits. */
#ifndef BUILDAPP_SHA256_H
#define BUILDAPP_SHA256_H

#include <stddef.h>

#include "cleanup.h"

#define SHA256_LEN 32     /* bytes of a digest */
#define SHA256_HEX_LEN 65 /* with the NUL */

/* An incremental SHA-256 (libcrypto's EVP digest underneath). */
struct sha256;

/* A new context, or NULL when out of memory. */
struct sha256 *sha256_new(void);
/* Frees S; accepts NULL. */
void sha256_free(struct sha256 *s);
DEFINE_TRIVIAL_CLEANUP_FUNC(struct sha256, sha256_free)
/* Adds SIZE bytes of DATA to S. */
void sha256_update(struct sha256 *s, const void *data, size_t size);
/* The digest of what was added to S into MD (S cannot take more after).
 * Returns 0 or -EIO (not reported). */
int sha256_final(struct sha256 *s, unsigned char md[SHA256_LEN]);

/* The digest of DATA (SIZE bytes) into MD.  Returns 0 or a negative
 * errno (not reported). */
int sha256_digest(const void *data, size_t size, unsigned char md[SHA256_LEN]);

/* The digest MD as hex into HEX. */
void sha256_hex(const unsigned char md[SHA256_LEN], char hex[SHA256_HEX_LEN]);

/* The SHA-256 of DATA (SIZE bytes; may be NULL) followed by what FD holds
 * from its offset to the end (-1: nothing), as hex into HEX.  Returns 0
 * or a negative errno (not reported). */
int sha256_fd_hex(int fd, const void *data, size_t size,
		  char hex[SHA256_HEX_LEN]);

/* The SHA-256 of the file PATH as hex into HEX.  Returns 0 or a negative
 * errno (not reported). */
int sha256_path_hex(const char *path, char hex[SHA256_HEX_LEN]);

#endif
