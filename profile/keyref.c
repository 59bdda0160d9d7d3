/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "keyref.h"

#include <stdint.h>
#include <string.h>

#include "parse.h"

/* The doc strings of profile/keys_list.h, in the order of profile_keys
 * (the same list expanded there), so the appliance carries none. */
#define KEYS_ENTRY(type, sec, key, def, lo, hi, member, doc) doc,
#define KEYS_NAMED(type, sec, key, def, table, member, doc) doc,
#define KEYS_UNSTORED(sec, key, doc) doc,
static const char *const key_docs[] = {
#include "keys_list.h"
};

const char *keyref_doc(const struct key_def *k)
{
	size_t i = (size_t)(k - profile_keys);

	return i < n_profile_keys && i < sizeof(key_docs) / sizeof(key_docs[0])
		       ? key_docs[i]
		       : "";
}

/* Levenshtein distance, capped: words longer than 64 are never typos. */
static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	size_t row[65];

	if (la > 64 || lb > 64)
		return SIZE_MAX;
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t diag = row[0];
		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t up = row[j];
			size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
			size_t best = diag + cost;
			if (row[j] + 1 < best)
				best = row[j] + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	return row[lb];
}

const char *keyref_nearest(const char *word, const char *const *candidates,
			   size_t n)
{
	const char *best = NULL;
	size_t best_d = SIZE_MAX;
	size_t limit = strlen(word) / 3 + 1;

	if (limit > 3)
		limit = 3;
	for (size_t i = 0; i < n; i++) {
		size_t d = edit_distance(word, candidates[i]);
		if (d < best_d) {
			best_d = d;
			best = candidates[i];
		}
	}
	return best_d <= limit ? best : NULL;
}

const char *keyref_nearest_key(const char *section, const char *word)
{
	const char *names[64];
	size_t n = 0;

	for (size_t i = 0; i < n_profile_keys && n < 64; i++)
		if (strcmp(profile_keys[i].section, section) == 0)
			names[n++] = profile_keys[i].name;
	return keyref_nearest(word, names, n);
}

const char *keyref_nearest_section(const char *word)
{
	return keyref_nearest(word, profile_sections, n_profile_sections);
}

/* The "type and range" column: a switch without default, so a key type
 * added to KEY_TYPES and not described here does not compile (-Wswitch). */
static const char *type_text(const struct key_def *k, char *buf, size_t len)
{
	char lo[32], hi[32];
	size_t used = 0;

	switch (k->type) {
	case KEY_STRING:
	case KEY_INCLUDE:
		return "text";
	case KEY_BOOL:
		return "yes/no";
	case KEY_UINT:
	case KEY_UINT64:
		snprintf(buf, len, "integer %llu..%llu",
			 (unsigned long long)k->min, (unsigned long long)k->max);
		return buf;
	case KEY_KEEP_UINT:
		snprintf(buf, len, "keep or %llu..%llu",
			 (unsigned long long)k->min, (unsigned long long)k->max);
		return buf;
	case KEY_PERCENT:
		snprintf(buf, len, "number %llu..%llu",
			 (unsigned long long)k->min, (unsigned long long)k->max);
		return buf;
	case KEY_SIZE:
		snprintf(buf, len, "size %s..%s", format_size(k->min, lo, sizeof(lo)),
			 format_size(k->max, hi, sizeof(hi)));
		return buf;
	case KEY_ENUM:
	case KEY_LIST:
		buf[0] = '\0';
		for (int i = 0; i < k->names->count && used < len; i++)
			used += (size_t)snprintf(buf + used, len - used, "%s%s",
						 i ? "\\|" : "", k->names->names[i]);
		if (k->type == KEY_LIST && used < len)
			snprintf(buf + used, len - used, " (list)");
		return buf;
	case KEY_SIZE_LIST:
		snprintf(buf, len, "default or size %s..%s (list)",
			 format_size(k->min, lo, sizeof(lo)),
			 format_size(k->max, hi, sizeof(hi)));
		return buf;
	case KEY_UINT_LIST:
		snprintf(buf, len, "integer %llu..%llu (list of up to %d)",
			 (unsigned long long)k->min, (unsigned long long)k->max,
			 NUM_AXIS_MAX);
		return buf;
	case KEY_SIZES:
		snprintf(buf, len, "size %s..%s (list of up to %d)",
			 format_size(k->min, lo, sizeof(lo)),
			 format_size(k->max, hi, sizeof(hi)), NUM_AXIS_MAX);
		return buf;
	case _KEY_TYPE_MAX:
		break;
	}
	return "?";
}

void keyref_write_markdown(FILE *f)
{
	char buf[256];

	fprintf(f, "| section | key | type and range | default | meaning |\n"
		   "|---|---|---|---|---|\n");
	for (size_t i = 0; i < n_profile_keys; i++) {
		const struct key_def *k = &profile_keys[i];
		fprintf(f, "| [%s] | %s | %s | %s | %s |\n", k->section, k->name,
			type_text(k, buf, sizeof(buf)),
			k->default_value[0] ? k->default_value : "(none)",
			keyref_doc(k));
	}
}
