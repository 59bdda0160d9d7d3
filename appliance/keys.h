/* The profile language: every section and key, with its type, default,
 * range and documentation.  The loader validates against this table and
 * `buildapp keys` prints it (README.md's key reference comes from it), and
 * the plan's JSON form of the profile is read and written by it. */
#ifndef BUILDAPP_KEYS_H
#define BUILDAPP_KEYS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "names.h"
#include "profile.h"

enum key_type {
	KEY_STRING, /* free text, at most PROFILE_STR_MAX - 1 bytes */
	KEY_BOOL,
	KEY_UINT,    /* decimal integer in [min, max] */
	KEY_SIZE,    /* size with K/M/G/T suffix in [min, max] */
	KEY_KEEP_UINT, /* "keep" (stored as -1) or an integer in [min, max] */
	KEY_PERCENT, /* decimal number in [min, max] */
	KEY_ENUM,    /* one name of `names` */
	KEY_LIST,    /* comma-separated names of `names`: a matrix axis */
	KEY_SIZE_LIST, /* comma-separated sizes in [min, max] or "default"
			* (stored as 0): struct l2_cache_axis, an axis */
};

struct key_def {
	const char *section;
	const char *name;
	enum key_type type;
	const char *default_value; /* as written in a profile */
	uint64_t min, max;         /* numeric types */
	const struct name_table *names; /* KEY_ENUM, KEY_LIST */
	size_t offset;             /* into struct profile */
	size_t size;               /* of that field */
	const char *doc;
};

extern const struct key_def profile_keys[];
extern const size_t n_profile_keys;
extern const char *const profile_sections[];
extern const size_t n_profile_sections;

/* The key SECTION.NAME, or NULL. */
const struct key_def *keys_find(const char *section, const char *name);
/* Of CANDIDATES (n entries), the one closest to WORD when it looks like a
 * typo of it (small edit distance), else NULL. */
const char *keys_nearest(const char *word, const char *const *candidates,
			 size_t n);
/* Nearest key name within SECTION, or NULL. */
const char *keys_nearest_key(const char *section, const char *word);
/* Nearest section name, or NULL. */
const char *keys_nearest_section(const char *word);
/* Parses VALUE (profile text) as key K into PROFILE.  Returns 0, or
 * -EINVAL with a one-line REASON (no file/key prefix), or -ENOMEM. */
int keys_set(struct profile *profile, const struct key_def *k,
	     const char *value, char *reason, size_t reason_len);
/* Sets every key to its default. Returns 0 or a negative errno. */
int keys_set_defaults(struct profile *profile);
/* Writes key K of PROFILE as profile text ("4G", "none,unsafe", "keep")
 * into BUF; returns BUF. */
const char *keys_format(const struct profile *profile, const struct key_def *k,
			char *buf, size_t len);
/* Writes the key reference as a Markdown table to F. */
void keys_write_markdown(FILE *f);

#endif
