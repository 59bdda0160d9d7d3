/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "crashfacts.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "jsonget.h"

void crashfacts_init(struct crashfacts *f)
{
	*f = (struct crashfacts){.dirty_kib = -1, .writeback_kib = -1,
				 .qemu_stopped_seconds = NAN, .writeback_stopped_seconds = NAN,
				 .results_synced_seconds = NAN, .facts_read_seconds = NAN,
				 .to_kernel_seconds = NAN, .to_sweep_seconds = NAN};
}

static json_object *text_or_null(const char *s)
{
	return *s ? json_object_new_string(s) : NULL;
}

static json_object *kib_or_null(int64_t v)
{
	return v >= 0 ? json_object_new_int64(v) : NULL;
}

json_object *crashfacts_to_json(const struct crashfacts *f)
{
	json_object *o;

	if (!f->present || !(o = json_object_new_object()))
		return NULL;
	/* Out of memory loses a member, not the run. */
	json_object_object_add(o, "mechanism", json_object_new_string(f->mechanism));
	json_object_object_add(o, "fallback", text_or_null(f->fallback));
	if (f->bmc[0])
		json_object_object_add(o, "bmc", json_object_new_string(f->bmc));
	json_object_object_add(o, "dirty_kib", kib_or_null(f->dirty_kib));
	json_object_object_add(o, "writeback_kib", kib_or_null(f->writeback_kib));
	json_object_object_add(o, "disk_write_cache", text_or_null(f->disk_write_cache));
	json_object_object_add(o, "qemu_stopped_seconds",
			       jsonget_new_number(f->qemu_stopped_seconds));
	json_object_object_add(o, "writeback_stopped_seconds",
			       jsonget_new_number(f->writeback_stopped_seconds));
	json_object_object_add(o, "results_synced_seconds",
			       jsonget_new_number(f->results_synced_seconds));
	json_object_object_add(o, "facts_read_seconds", jsonget_new_number(f->facts_read_seconds));
	json_object_object_add(o, "to_kernel_seconds", jsonget_new_number(f->to_kernel_seconds));
	json_object_object_add(o, "to_sweep_seconds", jsonget_new_number(f->to_sweep_seconds));
	return o;
}

/* Member KEY of O: a size in KiB, or null (absent). */
static bool kib_from(json_object *o, const char *key, int64_t *ret)
{
	json_object *v = NULL;

	*ret = -1;
	if (!json_object_object_get_ex(o, key, &v) || !v)
		return true;
	if (!json_object_is_type(v, json_type_int) || json_object_get_int64(v) < 0)
		return false;
	*ret = json_object_get_int64(v);
	return true;
}

/* Member KEY of O: a time in seconds, or null (absent). */
static bool seconds_from(json_object *o, const char *key, double *ret)
{
	return jsonget_number(o, key, ret) && !(*ret < 0) && !isinf(*ret);
}

/* Member KEY of O, one of ALLOWED (NULL-terminated) or, with NULLABLE,
 * null (absent): into BUF ("" for null). */
static bool word_from(json_object *o, const char *key, const char *const *allowed,
		      bool nullable, char *buf, size_t size)
{
	json_object *v = NULL;

	buf[0] = '\0';
	if (!json_object_object_get_ex(o, key, &v) || !v)
		return nullable;
	if (!json_object_is_type(v, json_type_string))
		return false;
	for (size_t i = 0; allowed[i]; i++)
		if (strcmp(json_object_get_string(v), allowed[i]) == 0) {
			snprintf(buf, size, "%s", allowed[i]);
			return true;
		}
	return false;
}

/* Member KEY of O: a text shorter than SIZE, or null (absent): into BUF. */
static bool text_from(json_object *o, const char *key, char *buf, size_t size)
{
	json_object *v = NULL;

	buf[0] = '\0';
	if (!json_object_object_get_ex(o, key, &v) || !v)
		return true;
	const char *s = json_object_get_string(v);
	if (!json_object_is_type(v, json_type_string) || strlen(s) >= size)
		return false;
	snprintf(buf, size, "%s", s);
	return true;
}

bool crashfacts_from_json(json_object *line, struct crashfacts *ret)
{
	static const char *const mechanisms[] = {"kexec", "firmware", "restart", "power",
							NULL},
				 *const on_off[] = {"on", "off", NULL};
	json_object *o = NULL;

	crashfacts_init(ret);
	if (!json_object_object_get_ex(line, "host_crash", &o) || !o)
		return true;
	if (!json_object_is_type(o, json_type_object) ||
	    !word_from(o, "mechanism", mechanisms, false, ret->mechanism,
		       sizeof ret->mechanism) ||
	    !word_from(o, "disk_write_cache", on_off, true, ret->disk_write_cache,
		       sizeof ret->disk_write_cache) ||
	    !kib_from(o, "dirty_kib", &ret->dirty_kib) ||
	    !kib_from(o, "writeback_kib", &ret->writeback_kib) ||
	    !seconds_from(o, "qemu_stopped_seconds", &ret->qemu_stopped_seconds) ||
	    !seconds_from(o, "writeback_stopped_seconds", &ret->writeback_stopped_seconds) ||
	    !seconds_from(o, "results_synced_seconds", &ret->results_synced_seconds) ||
	    !seconds_from(o, "facts_read_seconds", &ret->facts_read_seconds) ||
	    !seconds_from(o, "to_kernel_seconds", &ret->to_kernel_seconds) ||
	    !seconds_from(o, "to_sweep_seconds", &ret->to_sweep_seconds))
		return false;
	if (!text_from(o, "fallback", ret->fallback, sizeof ret->fallback) ||
	    !text_from(o, "bmc", ret->bmc, sizeof ret->bmc))
		return false;
	ret->present = true;
	return true;
}
