/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Enum name tables.  NAME_TABLE defines PREFIX_names (a struct name_table) and PREFIX_name() for
 * enum PREFIX from the list of names in enum order. */
#ifndef BUILDAPP_NAMES_H
#define BUILDAPP_NAMES_H

/* A table of names indexed by enum value, for generic parsers. */
struct name_table {
	const char *const *names;
	int count;
};
/* Index of NAME in T, or -1. */
int name_table_lookup(const struct name_table *t, const char *name);


#define NAME_TABLE(prefix, ...)                                                \
	static const char *const prefix##_name_list[] = {__VA_ARGS__};         \
	const struct name_table prefix##_names = {                             \
		prefix##_name_list,                                            \
		(int)(sizeof(prefix##_name_list) / sizeof(char *)),            \
	};                                                                     \
	const char *prefix##_name(enum prefix v)                               \
	{                                                                      \
		if ((int)v < 0 || (int)v >= prefix##_names.count)              \
			return "?";                                            \
		return prefix##_name_list[v];                                  \
	}

#endif
