/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "plan.h"

#include <errno.h>
#include <inttypes.h>
#include <json-c/json.h>
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "cleanup.h"
#include "jsonget.h"
#include "keys.h"
#include "log.h"
#include "parse.h"

#define WHY_MAX 256

void plan_release(struct plan *plan)
{
	free(plan->cells);
	free(plan->excluded);
	free(plan->runs);
	plan->cells = NULL;
	plan->excluded = NULL;
	plan->runs = NULL;
	plan->n_cells = plan->n_excluded = plan->n_runs = 0;
}

struct plan_cache_row plan_cache_row(enum cache_mode mode)
{
	struct cache_flags f = cache_mode_flags(mode);
	const char *ignored = "used, flushes ignored";

	return (struct plan_cache_row){
		.host_write_cache = !f.writeback ? "no" : f.no_flush ? ignored : "yes",
		.host_page_cache = f.direct ? "no" : f.no_flush ? ignored : "yes",
		.flushes_honoured = !f.no_flush,
	};
}

/* ---- a cell's fields ----------------------------------------------------- */

/* A cell's fields, one entry each, in the order of its JSON object (in the
 * plan, the journal and the summary): the writer, the reader, the id and
 * the report's axes all walk cell_fields[], so a new axis is one entry. */

/* How a field is kept in struct plan_cell and in JSON. */
enum field_type {
	FIELD_ID,       /* the id, a string: written, and remade on reading */
	FIELD_NAME,     /* one of `names`, in an int-sized field; null: -1 */
	FIELD_PREALLOC, /* one of the backend's preallocation modes, likewise */
	FIELD_L2_CACHE, /* bytes, an int64_t; 0: QEMU's default; null: as absent */
	FIELD_GUEST,    /* a boolean, true in a guest (the cell's `host` is the
			 * opposite); absent: true, null refused */
	FIELD_COUNT,    /* an integer, an int64_t; null or absent: -1 */
	FIELD_BYTES,    /* likewise, in bytes, shown as a size ("4K") */
};

enum field_presence {
	MEMBER_REQUIRED, /* present and not null */
	MEMBER_NULLABLE, /* present; null: none */
	MEMBER_ADDED,    /* added later: may be absent, and reads as what the
			  * cells before it were, so that older journals and
			  * plans still read */
};

/* A host-native cell has no QEMU, so none of its settings. */
enum field_qemu {
	NOT_QEMU,
	QEMU_SETTING, /* none in a host cell */
	QEMU_NEEDED,  /* none in a host cell, and one in every other */
};

struct cell_field {
	const char *name; /* of the JSON member, and of the report's axis */
	enum field_type type;
	const struct name_table *names; /* FIELD_NAME */
	size_t offset;                  /* into struct plan_cell; not FIELD_ID */
	enum field_presence presence;
	enum field_qemu qemu;
	/* One of the axes that tell a configuration from another (the id
	 * and the workload are not: a workload is measured on each). */
	bool axis;
	/* The field's place in the id (from 1; 0: not in it).  An axis added
	 * later takes an id_key, so that the cells without it keep the ids
	 * they had: they match cells across hosts and journals. */
	unsigned id_place;
	const char *id_key; /* in the id as "KEY=TEXT", and only above 0 */
	bool id_host;       /* "host" in its place in a host cell's id */
	/* Read after the others: what its absence means depends on them. */
	bool read_late;
	/* A knob of fio's: none in a cell of another workload. */
	bool fio;
	/* Written only in a cell that has it (a sweep that varies it), so
	 * the cells of every other sweep are written as they always were. */
	bool when_varied;
	/* The profile key ({section, key}) that lists the axis's levels, in
	 * the order whose first is the reference level; none where the
	 * planner's cells already meet the levels in the listed order
	 * (no cell it leaves out decides that order). */
	const char *listed_by[2];
};

#define CELL_FIELD_(f, type)                                                   \
	(offsetof(struct plan_cell, f) +                                       \
	 KEY_CHECK_(sizeof(((struct plan_cell *)0)->f) == sizeof(type),        \
		    "plan_cell." #f " is not of the size of " #type))
/* A name is read into an enum, or an int for the preallocation and the
 * bus: a field of another size fails the build. */
#define CELL_INT(f) CELL_FIELD_(f, int)

static const struct cell_field cell_fields[] = {
	{.name = "id", .type = FIELD_ID},
	{.name = "backend", .type = FIELD_NAME, .names = &backend_names,
	 .offset = CELL_INT(backend), .axis = true, .id_place = 1,
	 .listed_by = {"storage", "backends"}},
	{.name = "format", .type = FIELD_NAME, .names = &image_format_names,
	 .offset = CELL_INT(format), .axis = true, .id_place = 2},
	{.name = "preallocation", .type = FIELD_PREALLOC, .offset = CELL_INT(prealloc),
	 .presence = MEMBER_NULLABLE, .axis = true, .id_place = 3},
	{.name = "cache", .type = FIELD_NAME, .names = &cache_mode_names,
	 .offset = CELL_INT(cache), .presence = MEMBER_NULLABLE, .qemu = QEMU_NEEDED,
	 .axis = true, .id_place = 5, .listed_by = {"guest", "cache"}},
	{.name = "aio", .type = FIELD_NAME, .names = &aio_mode_names,
	 .offset = CELL_INT(aio), .presence = MEMBER_NULLABLE, .qemu = QEMU_NEEDED,
	 .axis = true, .id_place = 6, .listed_by = {"guest", "aio"}},
	/* null for qemu-img-bench too: no guest, so no bus */
	{.name = "bus", .type = FIELD_NAME, .names = &disk_bus_names,
	 .offset = CELL_INT(bus), .presence = MEMBER_NULLABLE, .qemu = QEMU_SETTING,
	 .axis = true, .id_place = 7, .id_host = true, .listed_by = {"guest", "bus"}},
	{.name = "workload", .type = FIELD_NAME, .names = &workload_kind_names,
	 .offset = CELL_INT(workload), .id_place = 8},
	/* Came with version 1's L2 cache axis: a cell without it had QEMU's
	 * default on qcow2.  Read after "guest", since a host cell has none. */
	{.name = "l2_cache", .type = FIELD_L2_CACHE, .offset = CELL_FIELD_(l2_cache, int64_t),
	 .presence = MEMBER_ADDED, .qemu = QEMU_SETTING, .axis = true, .id_place = 4,
	 .id_key = "l2", .read_late = true},
	/* Came with version 1's host cells: a cell without it ran in a guest. */
	{.name = "guest", .type = FIELD_GUEST, .offset = CELL_FIELD_(host, bool),
	 .presence = MEMBER_ADDED, .axis = true},
	/* fio's knobs as axes: null where the sweep does not vary them, so
	 * cells before them, and those of sweeps that vary none, keep their
	 * ids; a host cell has them as its guests do. */
	{.name = "fio_rw", .type = FIELD_NAME, .names = &fio_rw_names,
	 .offset = CELL_INT(fio_rw), .presence = MEMBER_ADDED, .axis = true,
	 .id_place = 9, .id_key = "rw", .fio = true, .listed_by = {"workload", "fio_rw"}},
	{.name = "fio_bs", .type = FIELD_BYTES, .offset = CELL_FIELD_(fio_bs, int64_t),
	 .presence = MEMBER_ADDED, .axis = true, .id_place = 10, .id_key = "bs", .fio = true},
	{.name = "fio_iodepth", .type = FIELD_COUNT,
	 .offset = CELL_FIELD_(fio_iodepth, int64_t), .presence = MEMBER_ADDED,
	 .axis = true, .id_place = 11, .id_key = "qd", .fio = true},
	{.name = "fio_numjobs", .type = FIELD_COUNT,
	 .offset = CELL_FIELD_(fio_numjobs, int64_t), .presence = MEMBER_ADDED,
	 .axis = true, .id_place = 12, .id_key = "jobs", .fio = true},
	{.name = "fio_ioengine", .type = FIELD_NAME, .names = &fio_ioengine_names,
	 .offset = CELL_INT(fio_ioengine), .presence = MEMBER_ADDED, .axis = true,
	 .id_place = 13, .id_key = "engine", .fio = true,
	 .listed_by = {"workload", "fio_ioengine"}},
	{.name = "fio_rwmixread", .type = FIELD_COUNT,
	 .offset = CELL_FIELD_(fio_rwmixread, int64_t), .presence = MEMBER_ADDED,
	 .axis = true, .id_place = 14, .id_key = "mix", .fio = true},
	/* The disk under test's write cache as an axis ([host] write_cache
	 * a list): null or absent where the sweep does not vary it. */
	{.name = "write_cache", .type = FIELD_NAME, .names = &write_cache_setting_names,
	 .offset = CELL_INT(write_cache), .presence = MEMBER_ADDED, .axis = true,
	 .id_place = 15, .id_key = "wc", .when_varied = true,
	 .listed_by = {"host", "write_cache"}},
};
#define N_CELL_FIELDS (sizeof(cell_fields) / sizeof(cell_fields[0]))

const char *plan_cell_prealloc_name(const struct plan_cell *cell)
{
	if (cell->prealloc < 0)
		return "-";
	if (cell->backend == BACKEND_QCOW2)
		return qcow2_prealloc_name(cell->prealloc);
	return raw_prealloc_name(cell->prealloc);
}

/* The value of field F of C as a number: a name's index, a size in bytes,
 * 1 in a guest; below 0: none. */
static int64_t field_value(const struct plan_cell *c, const struct cell_field *f)
{
	const void *p = (const char *)c + f->offset;

	switch (f->type) {
	case FIELD_NAME:
	case FIELD_PREALLOC:
		return *(const int *)p;
	case FIELD_L2_CACHE:
	case FIELD_COUNT:
	case FIELD_BYTES:
		return *(const int64_t *)p;
	case FIELD_GUEST:
		return !*(const bool *)p;
	case FIELD_ID:
		break;
	}
	return 0;
}

/* Whether C has no value of F, as its JSON says with null: a host cell
 * has no QEMU settings, a raw image no L2 cache. */
static bool field_is_none(const struct plan_cell *c, const struct cell_field *f)
{
	if (f->type == FIELD_ID || f->type == FIELD_GUEST)
		return false;
	if (f->qemu != NOT_QEMU && c->host)
		return true;
	if (f->type == FIELD_L2_CACHE && c->format != IMAGE_FORMAT_QCOW2)
		return true;
	if (f->fio && c->workload != WORKLOAD_FIO)
		return true;
	return field_value(c, f) < 0;
}

/* Text of the value V of F in C, as the id and the report show it: the
 * name, a size as the profile writes it ("1M", 0: "default"), "guest" or
 * "host"; "-" below 0.  BUF (32 bytes) may hold it. */
static const char *value_text(const struct plan_cell *c, const struct cell_field *f,
			      int64_t v, char *buf, size_t len)
{
	switch (f->type) {
	case FIELD_ID:
		return c->id;
	case FIELD_GUEST:
		return v ? "guest" : "host";
	case FIELD_NAME:
		return v < 0 ? "-" : v < f->names->count ? f->names->names[v] : "?";
	case FIELD_PREALLOC:
		return plan_cell_prealloc_name(c);
	case FIELD_L2_CACHE:
		return v < 0 ? "-" : v ? format_size((uint64_t)v, buf, len) : "default";
	case FIELD_BYTES:
		return v < 0 ? "-" : format_size((uint64_t)v, buf, len);
	case FIELD_COUNT:
		if (v < 0)
			return "-";
		snprintf(buf, len, "%lld", (long long)v);
		return buf;
	}
	return "?";
}

/* Whether F of C, with value V, is a part of C's id: the fields of its
 * place always, one with a key only when the cell has a value of its own
 * (an L2 cache size: not QEMU's default, 0). */
static bool in_id(const struct plan_cell *c, const struct cell_field *f, int64_t v)
{
	if (!f->id_key)
		return true;
	if (f->type == FIELD_L2_CACHE)
		return v > 0;
	return !field_is_none(c, f);
}

static const char *field_text(const struct plan_cell *c, const struct cell_field *f,
			      char *buf, size_t len)
{
	return field_is_none(c, f) ? "-" : value_text(c, f, field_value(c, f), buf, len);
}

/* The first level of axis A (the profile's one value), or DEF when A is
 * empty (a profile not made by the loader). */
static uint64_t first_level(const struct num_axis *a, uint64_t def)
{
	return a->n ? a->v[0] : def;
}


void plan_cell_fio(const struct profile *profile, const struct plan_cell *cell,
		   struct fio_knobs *ret)
{
	const struct profile_workload *w = &profile->workload;
	int engine = cell->fio_ioengine >= 0
			     ? cell->fio_ioengine
			     : AXIS_FIRST(w->fio_ioengine, FIO_IOENGINE_AUTO);

	*ret = (struct fio_knobs){
		.rw = cell->fio_rw >= 0 ? cell->fio_rw
					: AXIS_FIRST(w->fio_rw, FIO_RW_RANDWRITE),
		.bs = cell->fio_bs >= 0 ? (uint64_t)cell->fio_bs
					: first_level(&w->fio_bs, 4096),
		.iodepth = cell->fio_iodepth >= 0 ? (uint64_t)cell->fio_iodepth
						  : first_level(&w->fio_iodepth, 1),
		.numjobs = cell->fio_numjobs >= 0 ? (uint64_t)cell->fio_numjobs
						  : first_level(&w->fio_numjobs, 1),
		.rwmixread = cell->fio_rwmixread >= 0
				     ? (uint64_t)cell->fio_rwmixread
				     : first_level(&w->fio_rwmixread, 50),
	};
	ret->ioengine = fio_ioengine_resolve((enum fio_ioengine)engine, ret->iodepth);
}

void plan_cell_make_id(struct plan_cell *cell)
{
	size_t used = 0, size = sizeof(cell->id);
	char buf[32];

	cell->id[0] = '\0';
	for (unsigned place = 1; place <= N_CELL_FIELDS; place++)
		for (size_t i = 0; i < N_CELL_FIELDS && used < size; i++) {
			const struct cell_field *f = &cell_fields[i];
			int64_t v = field_value(cell, f);
			if (f->id_place != place || !in_id(cell, f, v))
				continue;
			/* The value the cell holds, not the JSON's (field_text), as
			 * ids always were: they match cells across hosts. */
			const char *text = f->id_host && cell->host
						   ? "host"
						   : value_text(cell, f, v, buf, sizeof(buf));
			int n = snprintf(cell->id + used, size - used, "%s%s%s%s", used ? "/" : "",
					 f->id_key ? f->id_key : "", f->id_key ? "=" : "", text);
			used += n > 0 ? (size_t)n : 0;
		}
}

const char *plan_axis(size_t i)
{
	for (size_t k = 0; k < N_CELL_FIELDS; k++)
		if (cell_fields[k].axis && i-- == 0)
			return cell_fields[k].name;
	return NULL;
}

const struct key_def *plan_axis_key(size_t i)
{
	for (size_t k = 0; k < N_CELL_FIELDS; k++) {
		const struct cell_field *f = &cell_fields[k];
		if (f->axis && i-- == 0)
			return f->listed_by[0] ? keys_find(f->listed_by[0], f->listed_by[1]) : NULL;
	}
	return NULL;
}

json_object *plan_axis_listed(json_object *profile, size_t i)
{
	const struct key_def *k = plan_axis_key(i);
	json_object *section, *list;

	if (!k || !json_object_object_get_ex(profile, k->section, &section) ||
	    !json_object_object_get_ex(section, k->name, &list) ||
	    !json_object_is_type(list, json_type_array))
		return NULL;
	return list;
}

size_t plan_n_axes(void)
{
	size_t n = 0;

	while (plan_axis(n))
		n++;
	return n;
}

const char *plan_cell_axis_text(const struct plan_cell *cell, const char *axis,
				char *buf, size_t len)
{
	for (size_t i = 0; i < N_CELL_FIELDS; i++)
		if (cell_fields[i].axis && strcmp(cell_fields[i].name, axis) == 0)
			return field_text(cell, &cell_fields[i], buf, len);
	return NULL;
}

static json_object *field_to_json(const struct plan_cell *c, const struct cell_field *f)
{
	char buf[32];

	if (field_is_none(c, f))
		return NULL;
	switch (f->type) {
	case FIELD_ID:
	case FIELD_NAME:
	case FIELD_PREALLOC:
		return json_object_new_string(field_text(c, f, buf, sizeof(buf)));
	case FIELD_L2_CACHE:
	case FIELD_COUNT:
	case FIELD_BYTES:
		return json_object_new_int64(field_value(c, f));
	case FIELD_GUEST:
		return json_object_new_boolean(field_value(c, f));
	}
	return NULL;
}

static json_object *cell_to_json(const struct plan_cell *c, bool axes_only)
{
	json_object *o = json_object_new_object();

	for (size_t i = 0; o && i < N_CELL_FIELDS; i++) {
		const struct cell_field *f = &cell_fields[i];
		/* A fio knob only where the sweep varies it: the cells of
		 * every other sweep are written as they always were. */
		if ((f->axis || !axes_only) &&
		    !((f->fio || f->when_varied) && field_is_none(c, f)))
			json_object_object_add(o, f->name, field_to_json(c, f));
	}
	return o;
}

json_object *plan_cell_to_json(const struct plan_cell *cell)
{
	return cell_to_json(cell, false);
}

bool plan_cell_at(const struct plan_cell *cell, const char *axis, const char *level)
{
	if (strcmp(axis, "id") == 0 || strcmp(axis, "workload") == 0)
		return false;
	json_object *o = plan_cell_to_json(cell), *v;
	bool at = o && json_object_object_get_ex(o, axis, &v) && v &&
		  strcmp(json_object_get_string(v), level) == 0;
	json_object_put(o);
	/* Or as the report names the level: an L2 cache size as the
	 * profile writes it ("1M"), which the JSON holds in bytes. */
	char buf[32];
	const char *text = plan_cell_axis_text(cell, axis, buf, sizeof(buf));
	return at || (text && strcmp(text, "-") != 0 && strcmp(text, level) == 0);
}

json_object *plan_cell_axes_to_json(const struct plan_cell *cell)
{
	return cell_to_json(cell, true);
}

/* Member F of the cell object O into C; "backend" comes before it, so the
 * preallocation is read against it.  Returns 0 or -EINVAL with WHY. */
static int field_from_json(json_object *o, const struct cell_field *f,
			   struct plan_cell *c, char *why, size_t len)
{
	void *p = (char *)c + f->offset;
	const struct name_table *names = f->names;
	json_object *v = NULL;

	if (f->type == FIELD_ID)
		return 0; /* remade from the others */
	bool present = json_object_object_get_ex(o, f->name, &v);
	if (!present && f->presence != MEMBER_ADDED) {
		snprintf(why, len, "%s: missing", f->name);
		return -EINVAL;
	}
	if (!v && f->presence == MEMBER_REQUIRED) {
		snprintf(why, len, "%s: null", f->name);
		return -EINVAL;
	}
	switch (f->type) {
	case FIELD_PREALLOC:
		names = c->backend == BACKEND_QCOW2 ? &qcow2_prealloc_names
						    : &raw_prealloc_names;
		/* fall through */
	case FIELD_NAME:
		if (!v) {
			*(int *)p = -1;
			return 0;
		}
		if (!json_object_is_type(v, json_type_string))
			break;
		*(int *)p = name_table_lookup(names, json_object_get_string(v));
		if (*(int *)p >= 0)
			return 0;
		snprintf(why, len, "%s: unknown value '%.64s'", f->name,
			 json_object_get_string(v));
		return -EINVAL;
	case FIELD_L2_CACHE:
		if (!v) {
			*(int64_t *)p = !c->host && c->format == IMAGE_FORMAT_QCOW2 ? 0 : -1;
			return 0;
		}
		if (!json_object_is_type(v, json_type_int) || json_object_get_int64(v) < 0) {
			snprintf(why, len, "%s: not a size in bytes", f->name);
			return -EINVAL;
		}
		*(int64_t *)p = json_object_get_int64(v);
		return 0;
	case FIELD_COUNT:
	case FIELD_BYTES:
		if (!v) {
			*(int64_t *)p = -1;
			return 0;
		}
		if (!json_object_is_type(v, json_type_int) || json_object_get_int64(v) < 0 ||
		    json_object_get_int64(v) > INT32_MAX) {
			snprintf(why, len, "%s: not a whole number", f->name);
			return -EINVAL;
		}
		*(int64_t *)p = json_object_get_int64(v);
		return 0;
	case FIELD_GUEST:
		if (!present) {
			*(bool *)p = false;
			return 0;
		}
		if (!json_object_is_type(v, json_type_boolean))
			break;
		*(bool *)p = !json_object_get_boolean(v);
		return 0;
	case FIELD_ID:
		break;
	}
	snprintf(why, len, "%s: wrong type", f->name);
	return -EINVAL;
}

/* A host cell has no QEMU settings; any other has those it needs.
 * Returns 0 or -EINVAL with WHY. */
static int cell_check_qemu(const struct plan_cell *c, char *why, size_t len)
{
	for (size_t i = 0; c->host && i < N_CELL_FIELDS; i++)
		if (cell_fields[i].qemu != NOT_QEMU && field_value(c, &cell_fields[i]) >= 0) {
			snprintf(why, len, "a host cell (guest: false) with QEMU settings");
			return -EINVAL;
		}
	for (size_t i = 0; !c->host && i < N_CELL_FIELDS; i++)
		if (cell_fields[i].qemu == QEMU_NEEDED && field_value(c, &cell_fields[i]) < 0) {
			snprintf(why, len, "%s: null", cell_fields[i].name);
			return -EINVAL;
		}
	return 0;
}

int plan_cell_parse(json_object *o, struct plan_cell *ret, char *why, size_t len)
{
	struct plan_cell c = {.prealloc = -1, PLAN_CELL_NO_FIO};

	if (!json_object_is_type(o, json_type_object)) {
		snprintf(why, len, "not an object");
		return -EINVAL;
	}
	for (int late = 0; late < 2; late++)
		for (size_t i = 0; i < N_CELL_FIELDS; i++)
			if ((int)cell_fields[i].read_late == late &&
			    field_from_json(o, &cell_fields[i], &c, why, len) < 0)
				return -EINVAL;
	if (cell_check_qemu(&c, why, len) < 0)
		return -EINVAL;
	plan_cell_make_id(&c);
	*ret = c;
	return 0;
}

int plan_cell_from_json(json_object *o, struct plan_cell *c)
{
	char why[WHY_MAX];

	return plan_cell_parse(o, c, why, sizeof(why));
}

/* ---- JSON ---------------------------------------------------------------- */

static json_object *profile_to_json(const struct profile *p)
{
	json_object *root = json_object_new_object();

	json_object_object_add(root, "path", json_object_new_string(p->path));
	for (size_t s = 0; s < n_profile_sections; s++) {
		json_object *sec = json_object_new_object();
		for (size_t i = 0; i < n_profile_keys; i++) {
			const struct key_def *k = &profile_keys[i];
			if (strcmp(k->section, profile_sections[s]) != 0 || !keys_stored(k))
				continue;
			json_object_object_add(sec, k->name, keys_to_json(p, k));
		}
		json_object_object_add(root, profile_sections[s], sec);
	}
	return root;
}

static json_object *cache_modes_to_json(const struct plan *plan)
{
	json_object *arr = json_object_new_array();
	int modes[AXIS_MASK_BITS];
	size_t n = AXIS_LISTED(plan->profile.guest.cache, modes);

	for (size_t i = 0; i < n; i++) {
		enum cache_mode m = (enum cache_mode)modes[i];
		struct cache_flags f = cache_mode_flags(m);
		struct plan_cache_row row = plan_cache_row(m);
		json_object *o = json_object_new_object();
		json_object_object_add(o, "mode", json_object_new_string(cache_mode_name(m)));
		json_object_object_add(o, "cache.writeback", json_object_new_boolean(f.writeback));
		json_object_object_add(o, "cache.direct", json_object_new_boolean(f.direct));
		json_object_object_add(o, "cache.no-flush", json_object_new_boolean(f.no_flush));
		json_object_object_add(o, "host_write_cache",
				       json_object_new_string(row.host_write_cache));
		json_object_object_add(o, "host_page_cache",
				       json_object_new_string(row.host_page_cache));
		json_object_object_add(o, "flushes_honoured",
				       json_object_new_boolean(row.flushes_honoured));
		json_object_array_add(arr, o);
	}
	return arr;
}

int plan_write_json(const struct plan *plan, FILE *f)
{
	_cleanup_(json_object_putp) json_object *root = json_object_new_object();
	json_object *cells = json_object_new_array();
	json_object *excluded = json_object_new_array();
	json_object *runs = json_object_new_array();
	const struct profile_sweep *s = &plan->profile.sweep;

	json_object_object_add(root, "format", json_object_new_string(PLAN_FORMAT));
	json_object_object_add(root, "version", json_object_new_int(PLAN_VERSION));
	json_object_object_add(root, "profile", profile_to_json(&plan->profile));
	json_object_object_add(root, "cache_modes", cache_modes_to_json(plan));
	for (size_t i = 0; i < plan->n_cells; i++)
		json_object_array_add(cells, plan_cell_to_json(&plan->cells[i]));
	json_object_object_add(root, "cells", cells);
	for (size_t i = 0; i < plan->n_excluded; i++) {
		json_object *o = plan_cell_to_json(&plan->excluded[i].cell);
		json_object_object_add(o, "reason",
				       json_object_new_string(plan->excluded[i].reason));
		json_object_array_add(excluded, o);
	}
	json_object_object_add(root, "excluded", excluded);
	json_object_object_add(root, "runs_per_cell", json_object_new_int((int)s->runs));
	json_object_object_add(root, "durability_runs_per_cell",
			       json_object_new_int((int)profile_cell_runs(s, WORKLOAD_DURABILITY)));
	json_object_object_add(root, "max_runs_per_cell",
			       json_object_new_int((int)(s->max_runs ? s->max_runs : s->runs)));
	json_object_object_add(root, "total_runs", json_object_new_uint64(plan->n_runs));
	json_object_object_add(root, "order", json_object_new_string(sweep_order_name(s->order)));
	json_object_object_add(root, "seed", json_object_new_uint64(s->seed));
	for (size_t i = 0; i < plan->n_runs; i++) {
		json_object *o = json_object_new_object();
		json_object_object_add(o, "cell", json_object_new_int((int)plan->runs[i].cell));
		json_object_object_add(o, "run", json_object_new_int((int)plan->runs[i].index));
		json_object_array_add(runs, o);
	}
	json_object_object_add(root, "runs", runs);

	if (fputs(json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY |
							       JSON_C_TO_STRING_SPACED),
		  f) < 0 ||
	    fputc('\n', f) < 0)
		return -EIO;
	return 0;
}

ssize_t plan_cell_find(const struct plan *plan, const char *id)
{
	for (size_t i = 0; i < plan->n_cells; i++)
		if (strcmp(plan->cells[i].id, id) == 0)
			return (ssize_t)i;
	return -1;
}
