/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What only the builder needs of the profile language (profile/keys.h):
 * each key's documentation, typo hints for unknown names, and the
 * Markdown reference `buildapp keys` prints (docs/profile-keys.md). */
#ifndef BUILDAPP_KEYREF_H
#define BUILDAPP_KEYREF_H

#include <stddef.h>
#include <stdio.h>

#include "keys.h"

/* The doc string of key K (of profile_keys); static. */
const char *keyref_doc(const struct key_def *k);
/* Of CANDIDATES (n entries), the one closest to WORD when it looks like a
 * typo of it (small edit distance), else NULL.  A keys_hint_fn. */
const char *keyref_nearest(const char *word, const char *const *candidates,
			   size_t n);
/* Nearest key name within SECTION, or NULL. */
const char *keyref_nearest_key(const char *section, const char *word);
/* Nearest section name, or NULL. */
const char *keyref_nearest_section(const char *word);
/* Writes the key reference as a Markdown table to F. */
void keyref_write_markdown(FILE *f);

#endif
