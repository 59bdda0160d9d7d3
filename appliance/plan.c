#include "plan.h"

#include <errno.h>
#include <inttypes.h>
#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>

#include "cleanup.h"
#include "keys.h"
#include "log.h"
#include "parse.h"

#define PLAN_FORMAT "buildapp-plan"
#define PLAN_VERSION 1

DEFINE_TRIVIAL_CLEANUP_FUNC(json_object, json_object_put)

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

const char *plan_cell_prealloc_name(const struct plan_cell *cell)
{
	if (cell->prealloc < 0)
		return "-";
	if (cell->backend == BACKEND_QCOW2)
		return qcow2_prealloc_name(cell->prealloc);
	return raw_prealloc_name(cell->prealloc);
}

void plan_cell_make_id(struct plan_cell *cell)
{
	char l2[40] = "", size[32];

	if (cell->l2_cache > 0)
		snprintf(l2, sizeof(l2), "/l2=%s",
			 format_size((uint64_t)cell->l2_cache, size, sizeof(size)));
	snprintf(cell->id, sizeof(cell->id), "%s/%s/%s%s/%s/%s/%s/%s",
		 backend_name(cell->backend), image_format_name(cell->format),
		 plan_cell_prealloc_name(cell), l2,
		 (int)cell->cache < 0 ? "-" : cache_mode_name(cell->cache),
		 (int)cell->aio < 0 ? "-" : aio_mode_name(cell->aio),
		 cell->host ? "host" : cell->bus < 0 ? "-" : disk_bus_name(cell->bus),
		 workload_kind_name(cell->workload));
}

/* What a cache mode means on the host, in the words of the cache-mode
 * table of the cache-modes-lvm study (Table 1). */
struct cache_row {
	const char *host_write_cache;
	const char *host_page_cache;
	bool flushes_honoured;
};

static struct cache_row cache_row(enum cache_mode mode)
{
	struct cache_flags f = cache_mode_flags(mode);
	const char *ignored = "used, flushes ignored";

	return (struct cache_row){
		.host_write_cache = !f.writeback ? "no" : f.no_flush ? ignored : "yes",
		.host_page_cache = f.direct ? "no" : f.no_flush ? ignored : "yes",
		.flushes_honoured = !f.no_flush,
	};
}

/* ---- JSON ---------------------------------------------------------------- */

static json_object *key_to_json(const struct profile *p, const struct key_def *k)
{
	const void *field = (const char *)p + k->offset;
	char buf[PROFILE_STR_MAX];
	json_object *arr;

	switch (k->type) {
	case KEY_BOOL:
		return json_object_new_boolean(*(const bool *)field);
	case KEY_UINT:
	case KEY_SIZE:
		return json_object_new_uint64(k->size == sizeof(uint64_t)
						      ? *(const uint64_t *)field
						      : *(const unsigned *)field);
	case KEY_KEEP_UINT: {
		int64_t v = k->size == sizeof(int64_t) ? *(const int64_t *)field
						       : *(const int *)field;
		return v < 0 ? json_object_new_string("keep")
			     : json_object_new_int64(v);
	}
	case KEY_PERCENT:
		return json_object_new_double(*(const double *)field);
	case KEY_LIST:
		arr = json_object_new_array();
		for (int i = 0; i < k->names->count; i++)
			if (*(const axis_mask *)field & AXIS_BIT(i))
				json_object_array_add(
					arr, json_object_new_string(k->names->names[i]));
		return arr;
	case KEY_SIZE_LIST: {
		const struct l2_cache_axis *a = field;
		arr = json_object_new_array();
		for (unsigned i = 0; i < a->n; i++)
			json_object_array_add(
				arr, json_object_new_string(
					     a->bytes[i] ? format_size(a->bytes[i], buf, sizeof(buf))
							 : "default"));
		return arr;
	}
	case KEY_STRING:
	case KEY_ENUM:
		break;
	}
	return json_object_new_string(keys_format(p, k, buf, sizeof(buf)));
}

static json_object *profile_to_json(const struct profile *p)
{
	json_object *root = json_object_new_object();

	json_object_object_add(root, "path", json_object_new_string(p->path));
	for (size_t s = 0; s < n_profile_sections; s++) {
		json_object *sec = json_object_new_object();
		for (size_t i = 0; i < n_profile_keys; i++) {
			const struct key_def *k = &profile_keys[i];
			if (strcmp(k->section, profile_sections[s]) != 0 ||
			    (k->type == KEY_STRING && k->size == 0))
				continue;
			json_object_object_add(sec, k->name, key_to_json(p, k));
		}
		json_object_object_add(root, profile_sections[s], sec);
	}
	return root;
}

json_object *plan_cell_to_json(const struct plan_cell *c)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "id", json_object_new_string(c->id));
	json_object_object_add(o, "backend", json_object_new_string(backend_name(c->backend)));
	json_object_object_add(o, "format", json_object_new_string(image_format_name(c->format)));
	json_object_object_add(o, "preallocation",
			       c->prealloc < 0 ? NULL
					       : json_object_new_string(plan_cell_prealloc_name(c)));
	json_object_object_add(o, "cache",
			       (int)c->cache < 0 ? NULL
						 : json_object_new_string(cache_mode_name(c->cache)));
	json_object_object_add(o, "aio",
			       (int)c->aio < 0 ? NULL
					       : json_object_new_string(aio_mode_name(c->aio)));
	json_object_object_add(o, "bus",
			       c->bus < 0 ? NULL : json_object_new_string(disk_bus_name(c->bus)));
	json_object_object_add(o, "workload",
			       json_object_new_string(workload_kind_name(c->workload)));
	json_object_object_add(o, "l2_cache",
			       c->l2_cache < 0 || c->host || c->format != IMAGE_FORMAT_QCOW2
				       ? NULL
				       : json_object_new_int64(c->l2_cache));
	json_object_object_add(o, "guest", json_object_new_boolean(!c->host));
	return o;
}

static json_object *cache_modes_to_json(const struct plan *plan)
{
	json_object *arr = json_object_new_array();

	for (int m = 0; m < _CACHE_MAX; m++) {
		if (!(plan->profile.guest.cache & AXIS_BIT(m)))
			continue;
		struct cache_flags f = cache_mode_flags(m);
		struct cache_row row = cache_row(m);
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

/* ---- reading ------------------------------------------------------------- */

/* Profile text of a JSON value written by key_to_json. */
static int json_to_text(json_object *v, char *buf, size_t len)
{
	size_t used = 0;

	switch (json_object_get_type(v)) {
	case json_type_string:
		snprintf(buf, len, "%s", json_object_get_string(v));
		return 0;
	case json_type_boolean:
		snprintf(buf, len, "%s", json_object_get_boolean(v) ? "yes" : "no");
		return 0;
	case json_type_int:
		snprintf(buf, len, "%" PRIu64, json_object_get_uint64(v));
		return 0;
	case json_type_double:
		snprintf(buf, len, "%.17g", json_object_get_double(v));
		return 0;
	case json_type_array:
		buf[0] = '\0';
		for (size_t i = 0; i < json_object_array_length(v) && used < len; i++) {
			json_object *item = json_object_array_get_idx(v, i);
			if (!json_object_is_type(item, json_type_string))
				return -EINVAL;
			used += (size_t)snprintf(buf + used, len - used, "%s%s",
						 i ? "," : "", json_object_get_string(item));
		}
		return 0;
	default:
		return -EINVAL;
	}
}

static int profile_from_json(const char *path, json_object *jp, struct profile *p)
{
	json_object *v, *sec;
	char text[1024], reason[512];
	int r;

	r = keys_set_defaults(p);
	if (r < 0)
		return r;
	if (json_object_object_get_ex(jp, "path", &v))
		snprintf(p->path, sizeof(p->path), "%s", json_object_get_string(v));
	for (size_t i = 0; i < n_profile_keys; i++) {
		const struct key_def *k = &profile_keys[i];
		if (!json_object_object_get_ex(jp, k->section, &sec) ||
		    !json_object_object_get_ex(sec, k->name, &v))
			continue;
		if (json_to_text(v, text, sizeof(text)) < 0)
			return log_error_errno(EINVAL, "plan '%s': profile.%s.%s: wrong type",
					       path, k->section, k->name);
		r = keys_set(p, k, text, reason, sizeof(reason));
		if (r < 0)
			return log_error_errno(r, "plan '%s': profile.%s.%s: %s", path,
					       k->section, k->name, reason);
	}
	return 0;
}

static int lookup_enum(json_object *o, const char *field,
		       const struct name_table *t, bool optional, int *ret)
{
	json_object *v;

	if (!json_object_object_get_ex(o, field, &v) || json_object_is_type(v, json_type_null)) {
		if (!optional)
			return -EINVAL;
		*ret = -1;
		return 0;
	}
	*ret = name_table_lookup(t, json_object_get_string(v));
	return *ret < 0 ? -EINVAL : 0;
}

/* "guest" and "l2_cache" came with version 1's host cells and L2 cache
 * axis: a cell without them ran in a guest, with QEMU's default L2
 * cache on qcow2. */
static int cell_extras_from_json(json_object *o, struct plan_cell *c)
{
	json_object *v;

	if (json_object_object_get_ex(o, "guest", &v)) {
		if (!json_object_is_type(v, json_type_boolean))
			return -EINVAL;
		c->host = !json_object_get_boolean(v);
	}
	c->l2_cache = !c->host && c->format == IMAGE_FORMAT_QCOW2 ? 0 : -1;
	if (json_object_object_get_ex(o, "l2_cache", &v) &&
	    !json_object_is_type(v, json_type_null)) {
		if (!json_object_is_type(v, json_type_int) ||
		    json_object_get_int64(v) < 0)
			return -EINVAL;
		c->l2_cache = json_object_get_int64(v);
	}
	/* A host cell has no QEMU: no cache mode, aio mode or bus. */
	if (c->host && ((int)c->cache >= 0 || (int)c->aio >= 0 || c->bus >= 0 ||
			  c->l2_cache >= 0))
		return -EINVAL;
	if (!c->host && ((int)c->cache < 0 || (int)c->aio < 0))
		return -EINVAL;
	return 0;
}

int plan_cell_from_json(json_object *o, struct plan_cell *c)
{
	int backend, format, prealloc, cache, aio, bus, work;

	if (lookup_enum(o, "backend", &backend_names, false, &backend) < 0 ||
	    lookup_enum(o, "format", &image_format_names, false, &format) < 0 ||
	    lookup_enum(o, "preallocation",
			backend == BACKEND_QCOW2 ? &qcow2_prealloc_names : &raw_prealloc_names,
			true, &prealloc) < 0 ||
	    lookup_enum(o, "cache", &cache_mode_names, true, &cache) < 0 ||
	    lookup_enum(o, "aio", &aio_mode_names, true, &aio) < 0 ||
	    lookup_enum(o, "bus", &disk_bus_names, true, &bus) < 0 ||
	    lookup_enum(o, "workload", &workload_kind_names, false, &work) < 0)
		return -EINVAL;
	*c = (struct plan_cell){.backend = backend, .format = format, .prealloc = prealloc,
				.cache = cache, .aio = aio, .bus = bus, .workload = work};
	if (cell_extras_from_json(o, c) < 0)
		return -EINVAL;
	plan_cell_make_id(c);
	return 0;
}

static int runs_from_json(json_object *arr, struct plan *plan)
{
	size_t n = json_object_array_length(arr);

	if (n > PLAN_MAX_RUNS)
		return -E2BIG;
	plan->runs = calloc(n + 1, sizeof(*plan->runs));
	if (!plan->runs)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		json_object *o = json_object_array_get_idx(arr, i), *c, *r;
		if (!json_object_object_get_ex(o, "cell", &c) ||
		    !json_object_object_get_ex(o, "run", &r))
			return -EINVAL;
		int64_t cell = json_object_get_int64(c), run = json_object_get_int64(r);
		if (cell < 0 || (size_t)cell >= plan->n_cells || run < 0 || run > PLAN_MAX_RUNS)
			return -EINVAL;
		plan->runs[i] = (struct plan_run){(unsigned)i, (unsigned)cell, (unsigned)run};
	}
	plan->n_runs = n;
	return 0;
}

static int plan_from_json(const char *path, json_object *root, struct plan *plan)
{
	json_object *v, *cells;
	int r;

	if (!json_object_object_get_ex(root, "format", &v) ||
	    strcmp(json_object_get_string(v), PLAN_FORMAT) != 0)
		return log_error_errno(EINVAL, "'%s' is not a buildapp plan", path);
	if (!json_object_object_get_ex(root, "profile", &v))
		return log_error_errno(EINVAL, "plan '%s': no profile", path);
	r = profile_from_json(path, v, &plan->profile);
	if (r < 0)
		return r;
	if (!json_object_object_get_ex(root, "cells", &cells) ||
	    !json_object_is_type(cells, json_type_array) ||
	    json_object_array_length(cells) > PLAN_MAX_CELLS)
		return log_error_errno(EINVAL, "plan '%s': bad cells", path);
	plan->n_cells = json_object_array_length(cells);
	plan->cells = calloc(plan->n_cells + 1, sizeof(*plan->cells));
	plan->excluded = calloc(1, sizeof(*plan->excluded));
	if (!plan->cells || !plan->excluded)
		return -ENOMEM;
	for (size_t i = 0; i < plan->n_cells; i++)
		if (plan_cell_from_json(json_object_array_get_idx(cells, i), &plan->cells[i]) < 0)
			return log_error_errno(EINVAL, "plan '%s': bad cell %zu", path, i);
	if (!json_object_object_get_ex(root, "runs", &v) ||
	    !json_object_is_type(v, json_type_array))
		return log_error_errno(EINVAL, "plan '%s': no runs", path);
	r = runs_from_json(v, plan);
	if (r < 0)
		return log_error_errno(r, "plan '%s': bad runs", path);
	return 0;
}

int plan_read_json(const char *path, struct plan *ret)
{
	_cleanup_(json_object_putp) json_object *root = json_object_from_file(path);
	struct plan plan = {.n_cells = 0};
	int r;

	if (!root)
		return log_error_errno(EINVAL, "cannot read plan '%s': %s", path,
				       json_util_get_last_err());
	r = plan_from_json(path, root, &plan);
	if (r < 0) {
		plan_release(&plan);
		return r;
	}
	*ret = plan;
	return 0;
}

/* ---- text ---------------------------------------------------------------- */

static void write_profile_text(const struct profile *p, FILE *f)
{
	char buf[PROFILE_STR_MAX];
	const char *section = "";

	fprintf(f, "Resolved profile (%s, after includes and defaults):\n", p->path);
	for (size_t i = 0; i < n_profile_keys; i++) {
		const struct key_def *k = &profile_keys[i];
		if (k->type == KEY_STRING && k->size == 0)
			continue;
		if (strcmp(section, k->section) != 0) {
			section = k->section;
			fprintf(f, "  [%s]\n", section);
		}
		fprintf(f, "    %s = %s\n", k->name, keys_format(p, k, buf, sizeof(buf)));
	}
}

static void write_cache_table(const struct plan *plan, FILE *f)
{
	fprintf(f, "\nCache modes in this plan (QEMU flags and what they mean on the host):\n");
	fprintf(f, "  %-13s %-10s %-7s %-9s %-22s %-22s %s\n", "mode", "writeback",
		"direct", "no-flush", "host write cache", "host page cache",
		"flushes honoured");
	for (int m = 0; m < _CACHE_MAX; m++) {
		if (!(plan->profile.guest.cache & AXIS_BIT(m)))
			continue;
		struct cache_flags fl = cache_mode_flags(m);
		struct cache_row row = cache_row(m);
		fprintf(f, "  %-13s %-10s %-7s %-9s %-22s %-22s %s\n", cache_mode_name(m),
			fl.writeback ? "on" : "off", fl.direct ? "on" : "off",
			fl.no_flush ? "on" : "off", row.host_write_cache,
			row.host_page_cache, row.flushes_honoured ? "yes" : "no");
	}
}

static void write_cell_row(FILE *f, const char *num, const struct plan_cell *c)
{
	char l2[32];

	if (c->l2_cache < 0)
		snprintf(l2, sizeof(l2), "-");
	else if (c->l2_cache == 0)
		snprintf(l2, sizeof(l2), "default");
	else
		format_size((uint64_t)c->l2_cache, l2, sizeof(l2));
	fprintf(f, "  %5s  %-9s %-6s %-8s %-8s %-12s %-8s %-6s %s\n", num,
		backend_name(c->backend), image_format_name(c->format),
		plan_cell_prealloc_name(c), l2,
		(int)c->cache < 0 ? "-" : cache_mode_name(c->cache),
		(int)c->aio < 0 ? "-" : aio_mode_name(c->aio),
		c->host ? "host" : c->bus < 0 ? "-" : disk_bus_name(c->bus),
		workload_kind_name(c->workload));
}

int plan_write_text(const struct plan *plan, FILE *f)
{
	const struct profile_sweep *s = &plan->profile.sweep;
	char num[24];
	int col = 0;

	write_profile_text(&plan->profile, f);
	write_cache_table(plan, f);
	fprintf(f, "\nMatrix: %zu cells x %u runs = %zu runs", plan->n_cells, s->runs,
		plan->n_runs);
	if (s->max_runs > s->runs)
		fprintf(f, " (up to %u per cell until the 95%% CI is within %g%%)",
			s->max_runs, s->target_ci);
	fprintf(f, "\n  %5s  %-9s %-6s %-8s %-8s %-12s %-8s %-6s %s\n", "cell", "backend",
		"format", "prealloc", "l2", "cache", "aio", "bus", "workload");
	for (size_t i = 0; i < plan->n_cells; i++) {
		snprintf(num, sizeof(num), "%zu", i + 1);
		write_cell_row(f, num, &plan->cells[i]);
	}
	if (plan->n_excluded) {
		fprintf(f, "\nLeft out (%zu cells that cannot run):\n", plan->n_excluded);
		for (size_t i = 0; i < plan->n_excluded; i++)
			fprintf(f, "  %s: %s\n", plan->excluded[i].cell.id,
				plan->excluded[i].reason);
	}
	fprintf(f, "\nRun order (%s", sweep_order_name(s->order));
	if (s->order == ORDER_INTERLEAVED)
		fprintf(f, ", seed %" PRIu64, s->seed);
	fprintf(f, "), as cell.run:\n ");
	for (size_t i = 0; i < plan->n_runs; i++) {
		int n = fprintf(f, " %u.%u", plan->runs[i].cell + 1, plan->runs[i].index + 1);
		col += n;
		if (col > 70 && i + 1 < plan->n_runs) {
			fprintf(f, "\n ");
			col = 0;
		}
	}
	fputc('\n', f);
	return ferror(f) ? -EIO : 0;
}
