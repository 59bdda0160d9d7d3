/* SHA-256 as both sides print it: 64 lowercase hex digits. */
#ifndef BUILDAPP_SHA256_H
#define BUILDAPP_SHA256_H

#include <stddef.h>

#define SHA256_HEX_LEN 65 /* with the NUL */

/* The 32-byte digest MD as hex into HEX. */
void sha256_hex(const unsigned char md[32], char hex[SHA256_HEX_LEN]);

/* The SHA-256 of DATA (SIZE bytes; may be NULL) followed by what FD holds
 * from its offset to the end (-1: nothing), as hex into HEX.  Returns 0
 * or a negative errno (not reported). */
int sha256_fd_hex(int fd, const void *data, size_t size,
		  char hex[SHA256_HEX_LEN]);

/* The SHA-256 of the file PATH as hex into HEX.  Returns 0 or a negative
 * errno (not reported). */
int sha256_path_hex(const char *path, char hex[SHA256_HEX_LEN]);

#endif
