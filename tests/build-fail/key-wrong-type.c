/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A profile key declared with a type its field does not have must not
 * build: KEY_DEF checks the field's C type (profile/keys.h).
 * WRONG=1: a size field ([guest] memory, uint64_t) declared UINT (unsigned);
 * WRONG=2: an enum vm_accel field ([guest] accel) as an ENUM of cache modes;
 * WRONG=3: a text field ([host] disk) declared BOOL;
 * WRONG=4: an axis ([guest] cache, axis_mask) declared KEEP_UINT.
 * Without WRONG, the same keys with their right types build. */
#include "keys.h"

#if WRONG == 1
static const struct key_def key = KEY_DEF(UINT, "guest", "memory", "1", 0, 1, guest.memory);
#elif WRONG == 2
static const struct key_def key = KEY_DEF_NAMED(ENUM, "guest", "accel", "none", cache_mode, guest.accel);
#elif WRONG == 3
static const struct key_def key = KEY_DEF(BOOL, "host", "disk", "no", 0, 0, host.disk);
#elif WRONG == 4
static const struct key_def key = KEY_DEF(KEEP_UINT, "guest", "cache", "keep", 0, 1, guest.cache);
#else
static const struct key_def keys[] = {
	KEY_DEF(SIZE, "guest", "memory", "1M", 0, 1, guest.memory),
	KEY_DEF_NAMED(ENUM, "guest", "accel", "auto", vm_accel, guest.accel),
	KEY_DEF(STRING, "host", "disk", "auto", 0, 0, host.disk),
	KEY_DEF_NAMED(LIST, "guest", "cache", "none", cache_mode, guest.cache),
};
#define key keys[0]
#endif

const struct key_def *build_fail_probe(void);
const struct key_def *build_fail_probe(void)
{
	return &key;
}
