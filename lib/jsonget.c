/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "jsonget.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

const char *jsonget_string(json_object *o, const char *key)
{
	json_object *v;
	if (!json_object_object_get_ex(o, key, &v) ||
	    !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

bool jsonget_bool(json_object *o, const char *key, bool *ret)
{
	json_object *v;
	if (!json_object_object_get_ex(o, key, &v) ||
	    !json_object_is_type(v, json_type_boolean))
		return false;
	*ret = json_object_get_boolean(v);
	return true;
}

bool jsonget_number(json_object *o, const char *key, double *ret)
{
	json_object *v;
	if (!json_object_object_get_ex(o, key, &v) || !v) {
		*ret = NAN;
		return true;
	}
	if (!json_object_is_type(v, json_type_double) &&
	    !json_object_is_type(v, json_type_int))
		return false;
	*ret = json_object_get_double(v);
	return true;
}

bool jsonget_uint(json_object *o, const char *key, unsigned *ret)
{
	json_object *v;
	if (!json_object_object_get_ex(o, key, &v) ||
	    !json_object_is_type(v, json_type_int))
		return false;
	int64_t n = json_object_get_int64(v);
	if (n < 0 || n > (int64_t)UINT32_MAX)
		return false;
	*ret = (unsigned)n;
	return true;
}

const char *jsonget_number_text(double v, char *buf, size_t len)
{
	if (!isfinite(v))
		return NULL;
	/* The shortest text that reads back as the same double. */
	for (int digits = 15; digits <= 17; digits++) {
		snprintf(buf, len, "%.*g", digits, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	return buf;
}

json_object *jsonget_new_number(double v)
{
	char buf[JSONGET_NUMBER_MAX];

	if (!jsonget_number_text(v, buf, sizeof buf))
		return NULL;
	return json_object_new_double_s(v, buf);
}

int jsonget_write_pretty(const void *o, FILE *f)
{
	const char *text = json_object_to_json_string_ext(
		(json_object *)o, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE);

	return fprintf(f, "%s\n", text) < 0 ? -EIO : 0;
}
