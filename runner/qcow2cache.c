/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "qcow2cache.h"

#include <errno.h>
#include <stdbool.h>
#include <json-c/json.h>
#include <string.h>

uint64_t qcow2cache_size(int64_t l2, uint64_t cluster_size)
{
	if (l2 <= 0)
		return 0;
	return (uint64_t)l2 + QCOW2CACHE_REFCOUNT_CLUSTERS * cluster_size;
}

/* ARG, a -blockdev value, when it is the qcow2 format node: 0 with its
 * cache-size (0 for none) in *ret; -ENOENT otherwise. */
static int blockdev_cache_size(const char *arg, uint64_t *ret)
{
	json_object *o = json_tokener_parse(arg), *v;
	int r = -ENOENT;

	if (o && json_object_object_get_ex(o, "driver", &v) &&
	    strcmp(json_object_get_string(v), "qcow2") == 0) {
		*ret = json_object_object_get_ex(o, QCOW2CACHE_OPTION, &v)
			       ? json_object_get_uint64(v)
			       : 0;
		r = 0;
	}
	json_object_put(o);
	return r;
}

int qcow2cache_from_cmdline(const char *args, size_t len, uint64_t *ret)
{
	const char *end = args + len;
	bool next_is_blockdev = false;

	for (const char *a = args; a < end; a += strnlen(a, (size_t)(end - a)) + 1) {
		if (next_is_blockdev && blockdev_cache_size(a, ret) == 0)
			return 0;
		next_is_blockdev = strcmp(a, "-blockdev") == 0;
	}
	return -ENOENT;
}
