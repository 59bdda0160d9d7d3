/* The mark a kit's layout carries on a disk under test, so that the next
 * kit booted on the same server (a second LAVA job: a netbooted kit keeps
 * no RESULTS to tell it) knows the disk holds a layout a kit made, and
 * lays it out again without [host] wipe (docs/storage.md, "The layout's
 * mark").
 *
 * The mark is the GPT itself: every partition named "buildapp-..." and
 * the table's disk GUID made of two halves, 8 random bytes (RFC 9562's
 * version 8 nibble in them) and the first 8 bytes of the SHA-256 of a
 * fixed text, those random bytes and every partition's number, start,
 * size and name (the variant bits in them).  A user's GPT has a random
 * disk GUID, which carries the mark with a chance of 2^-62; a byte
 * changed in the GUID or a partition entry (another name, start, size, a
 * partition added) and the GUID is no mark. */
#ifndef BUILDAPP_LAYOUTMARK_H
#define BUILDAPP_LAYOUTMARK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "recipe.h"

#define LAYOUTMARK_GUID_LEN 37 /* "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx" */
#define LAYOUTMARK_MAX_PARTS 16
#define LAYOUTMARK_NAME_PREFIX "buildapp-"

struct layoutmark_part {
	unsigned number;      /* from 1 */
	uint64_t start, size; /* bytes */
	char name[RECIPE_NAME_MAX];
};

/* The disk GUID marking N partitions PARTS as a kit's layout, its random
 * half SALT, into GUID (lowercase, as libblkid prints PTUUID). */
void layoutmark_guid(const uint8_t salt[8], const struct layoutmark_part *parts, size_t n,
		     char guid[LAYOUTMARK_GUID_LEN]);

/* A new mark for the partitions the steps after R's partition table step
 * TABLE make, its salt from getrandom.  Returns 0 or a negative errno
 * (not reported). */
int layoutmark_for_recipe(const struct recipe *r, size_t table, char guid[LAYOUTMARK_GUID_LEN]);

/* True when GUID (any case) is the mark of PARTS: every partition named
 * "buildapp-...", at least one, and GUID's second half the one its first
 * half and PARTS give. */
bool layoutmark_check(const char *guid, const struct layoutmark_part *parts, size_t n);

/* True when PARTS are named as a kit's (at least one, all "buildapp-..."),
 * mark or no mark. */
bool layoutmark_names(const struct layoutmark_part *parts, size_t n);

/* The GPT of PATH as libblkid reads it: its disk GUID into GUID and its
 * partitions into PARTS (at most LAYOUTMARK_MAX_PARTS), their number in
 * *RET_N.  Returns 0, -ENODATA when PATH holds no GPT, or a negative
 * errno (not reported). */
int layoutmark_read(const char *path, char guid[LAYOUTMARK_GUID_LEN],
		    struct layoutmark_part parts[LAYOUTMARK_MAX_PARTS], size_t *ret_n);

#endif
