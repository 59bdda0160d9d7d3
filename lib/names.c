/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "names.h"

#include <string.h>

int name_table_lookup(const struct name_table *t, const char *name)
{
	for (int i = 0; i < t->count; i++)
		if (strcmp(t->names[i], name) == 0)
			return i;
	return -1;
}
