/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The plan's JSON read back (plan.h's plan_parse_json, plan_read_json):
 * split from plan.c, which writes it and holds the cells' fields. */
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

#define WHY_MAX 256

DEFINE_TRIVIAL_CLEANUP_FUNC(json_tokener, json_tokener_free)

/* ---- reading ------------------------------------------------------------- */

/* The plan travels in the kit to someone else's server: it is read as
 * untrusted input.  Every member is checked for its type and range, and
 * a bad one is named (`cells[3].cache`); nothing in it can crash the
 * reader or be read as a default. */

#define PLAN_FILE_MAX (64 << 20)

/* Profile text of a JSON value written by keys_to_json for key K (an
 * array holds integers only for a list of numbers).  Returns 0, -EINVAL
 * (a type keys_to_json never writes) or -E2BIG. */
static int json_to_text(const struct key_def *k, json_object *v, char *buf, size_t len)
{
	size_t used = 0;
	int n;

	switch (json_object_get_type(v)) {
	case json_type_string:
		n = snprintf(buf, len, "%s", json_object_get_string(v));
		break;
	case json_type_boolean:
		n = snprintf(buf, len, "%s", json_object_get_boolean(v) ? "yes" : "no");
		break;
	case json_type_int:
		/* Signed when negative, so the key's range refuses it. */
		if (json_object_get_int64(v) < 0)
			n = snprintf(buf, len, "%" PRId64, json_object_get_int64(v));
		else
			n = snprintf(buf, len, "%" PRIu64, json_object_get_uint64(v));
		break;
	case json_type_double:
		n = snprintf(buf, len, "%.17g", json_object_get_double(v));
		break;
	case json_type_array:
		buf[0] = '\0';
		for (size_t i = 0; i < json_object_array_length(v); i++) {
			json_object *item = json_object_array_get_idx(v, i);
			bool numbers = k->type == KEY_UINT_LIST || k->type == KEY_SIZES;
			if (!json_object_is_type(item, numbers ? json_type_int
							       : json_type_string))
				return -EINVAL;
			n = snprintf(buf + used, len - used, "%s%s", i ? "," : "",
				     json_object_get_string(item));
			if (n < 0 || (size_t)n >= len - used)
				return -E2BIG;
			used += (size_t)n;
		}
		return 0;
	default:
		return -EINVAL;
	}
	return n < 0 || (size_t)n >= len ? -E2BIG : 0;
}

static bool section_known(const char *name)
{
	for (size_t s = 0; s < n_profile_sections; s++)
		if (strcmp(profile_sections[s], name) == 0)
			return true;
	return false;
}

/* Nothing unknown: a misspelt or foreign member would otherwise be
 * ignored and its key left at the default without a word. */
static int profile_check_members(const char *path, json_object *jp)
{
	json_object_object_foreach(jp, sec, members) {
		if (strcmp(sec, "path") == 0)
			continue;
		if (!section_known(sec))
			return log_error_code(-EINVAL, "plan '%s': profile.%s: unknown section",
					      path, sec);
		if (!json_object_is_type(members, json_type_object))
			return log_error_code(-EINVAL, "plan '%s': profile.%s: not an object",
					      path, sec);
		json_object_object_foreach(members, name, value) {
			(void)value;
			if (!keys_stored(keys_find(sec, name)))
				return log_error_code(-EINVAL, "plan '%s': profile.%s.%s: unknown key",
						      path, sec, name);
		}
	}
	return 0;
}

static int profile_from_json(const char *path, json_object *jp, struct profile *p)
{
	json_object *v, *sec;
	char text[1024], reason[512];
	int r;

	if (!json_object_is_type(jp, json_type_object))
		return log_error_code(-EINVAL, "plan '%s': profile: not an object", path);
	r = profile_check_members(path, jp);
	if (r < 0)
		return r;
	r = keys_set_defaults(p);
	if (r < 0)
		return r;
	if (json_object_object_get_ex(jp, "path", &v)) {
		if (!json_object_is_type(v, json_type_string) ||
		    strlen(json_object_get_string(v)) >= sizeof(p->path))
			return log_error_code(-EINVAL, "plan '%s': profile.path: not a path",
					      path);
		snprintf(p->path, sizeof(p->path), "%s", json_object_get_string(v));
	}
	for (size_t i = 0; i < n_profile_keys; i++) {
		const struct key_def *k = &profile_keys[i];
		if (!keys_stored(k))
			continue;
		if (!json_object_object_get_ex(jp, k->section, &sec) ||
		    !json_object_object_get_ex(sec, k->name, &v))
			return log_error_code(-EINVAL, "plan '%s': profile.%s.%s: missing",
					      path, k->section, k->name);
		r = json_to_text(k, v, text, sizeof(text));
		if (r < 0)
			return log_error_code(-EINVAL, "plan '%s': profile.%s.%s: %s", path,
					      k->section, k->name,
					      r == -E2BIG ? "too long" : "wrong type");
		r = keys_set(p, k, text, reason, sizeof(reason));
		if (r < 0)
			return log_error_code(r, "plan '%s': profile.%s.%s: %s", path,
					      k->section, k->name, reason);
	}
	return 0;
}

/* An integer member of O in [0, MAX]. */
static bool get_count(json_object *o, const char *key, int64_t max, int64_t *ret)
{
	json_object *v;

	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_int))
		return false;
	*ret = json_object_get_int64(v);
	return *ret >= 0 && *ret <= max;
}

static int cells_from_json(const char *path, json_object *cells, struct plan *plan)
{
	char why[WHY_MAX];

	if (!json_object_is_type(cells, json_type_array))
		return log_error_code(-EINVAL, "plan '%s': cells: not a list", path);
	size_t n = json_object_array_length(cells);
	if (n == 0 || n > PLAN_MAX_CELLS)
		return log_error_code(-EINVAL, "plan '%s': cells: %zu cells, not 1 to %d",
				      path, n, PLAN_MAX_CELLS);
	plan->cells = calloc(n + 1, sizeof(*plan->cells));
	if (!plan->cells)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		if (plan_cell_parse(json_object_array_get_idx(cells, i), &plan->cells[i],
				   why, sizeof(why)) < 0)
			return log_error_code(-EINVAL, "plan '%s': cells[%zu]: %s", path, i, why);
		for (size_t j = 0; j < i; j++)
			if (strcmp(plan->cells[j].id, plan->cells[i].id) == 0)
				return log_error_code(-EINVAL, "plan '%s': cells[%zu] is cells[%zu] again (%s)",
						      path, i, j, plan->cells[i].id);
		plan->n_cells = i + 1;
	}
	return 0;
}

static int compare_runs(const void *a, const void *b)
{
	const struct plan_run *x = a, *y = b;

	if (x->cell != y->cell)
		return x->cell < y->cell ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

/* No (cell, run) twice: each would be made and journaled again. */
static int runs_check_duplicates(const char *path, const struct plan *plan)
{
	_cleanup_free_ struct plan_run *sorted = calloc(plan->n_runs + 1, sizeof(*sorted));

	if (!sorted)
		return -ENOMEM;
	memcpy(sorted, plan->runs, plan->n_runs * sizeof(*sorted));
	qsort(sorted, plan->n_runs, sizeof(*sorted), compare_runs);
	for (size_t i = 1; i < plan->n_runs; i++)
		if (compare_runs(&sorted[i - 1], &sorted[i]) == 0)
			return log_error_code(-EINVAL, "plan '%s': runs: run %u of cells[%u] "
					      "is there twice (runs[%u] and runs[%u])",
					      path, sorted[i].index, sorted[i].cell,
					      sorted[i - 1].position, sorted[i].position);
	return 0;
}

static int runs_from_json(const char *path, json_object *root, struct plan *plan)
{
	const struct profile_sweep *s = &plan->profile.sweep;
	int64_t total;
	json_object *arr;

	if (!json_object_object_get_ex(root, "runs", &arr) ||
	    !json_object_is_type(arr, json_type_array))
		return log_error_code(-EINVAL, "plan '%s': runs: not a list", path);
	size_t n = json_object_array_length(arr);
	if (n == 0 || n > PLAN_MAX_RUNS)
		return log_error_code(-EINVAL, "plan '%s': runs: %zu runs, not 1 to %d",
				      path, n, PLAN_MAX_RUNS);
	if (!get_count(root, "total_runs", PLAN_MAX_RUNS, &total) || (size_t)total != n)
		return log_error_code(-EINVAL, "plan '%s': total_runs: not the %zu runs listed",
				      path, n);
	plan->runs = calloc(n + 1, sizeof(*plan->runs));
	if (!plan->runs)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		json_object *o = json_object_array_get_idx(arr, i);
		int64_t cell, run;
		if (!json_object_is_type(o, json_type_object) ||
		    !get_count(o, "cell", (int64_t)plan->n_cells - 1, &cell))
			return log_error_code(-EINVAL, "plan '%s': runs[%zu]: not a cell "
					      "index below %zu", path, i, plan->n_cells);
		/* A durability cell's runs are [sweep] durability_runs. */
		bool durable = plan->cells[cell].workload == WORKLOAD_DURABILITY;
		unsigned per_cell = profile_cell_runs(s, plan->cells[cell].workload);
		if (!get_count(o, "run", (int64_t)per_cell - 1, &run))
			return log_error_code(-EINVAL, "plan '%s': runs[%zu]: not a run index "
					      "below [sweep] %s = %u", path, i,
					      durable && s->durability_runs ? "durability_runs"
									    : "runs",
					      per_cell);
		plan->runs[i] = (struct plan_run){(unsigned)i, (unsigned)cell, (unsigned)run};
	}
	plan->n_runs = n;
	return runs_check_duplicates(path, plan);
}

static int plan_from_json(const char *path, json_object *root, struct plan *plan)
{
	json_object *v;
	int64_t version;
	int r;

	if (!json_object_is_type(root, json_type_object) ||
	    !json_object_object_get_ex(root, "format", &v) ||
	    !json_object_is_type(v, json_type_string) ||
	    strcmp(json_object_get_string(v), PLAN_FORMAT) != 0)
		return log_error_code(-EINVAL, "'%s' is not a buildapp plan", path);
	if (!get_count(root, "version", INT32_MAX, &version) || version != PLAN_VERSION)
		return log_error_code(-EINVAL, "plan '%s': version: not %d (a kit of "
				      "another buildapp?)", path, PLAN_VERSION);
	if (!json_object_object_get_ex(root, "profile", &v))
		return log_error_code(-EINVAL, "plan '%s': no profile", path);
	r = profile_from_json(path, v, &plan->profile);
	if (r < 0)
		return r;
	if (!json_object_object_get_ex(root, "cells", &v))
		return log_error_code(-EINVAL, "plan '%s': no cells", path);
	r = cells_from_json(path, v, plan);
	if (r < 0)
		return r;
	plan->excluded = calloc(1, sizeof(*plan->excluded));
	if (!plan->excluded)
		return -ENOMEM;
	return runs_from_json(path, root, plan);
}

int plan_parse_json(const char *name, const char *text, size_t len, struct plan *ret)
{
	_cleanup_(json_tokener_freep) json_tokener *tok = json_tokener_new();
	_cleanup_(json_object_putp) json_object *root = NULL;
	struct plan plan = {.n_cells = 0};
	int r;

	if (!tok)
		return -ENOMEM;
	if (len > INT_MAX)
		return log_error_code(-EFBIG, "plan '%s': too large", name);
	root = json_tokener_parse_ex(tok, text, (int)len);
	enum json_tokener_error e = json_tokener_get_error(tok);
	if (e == json_tokener_continue)
		return log_error_code(-EINVAL, "plan '%s': not JSON: it ends too early", name);
	if (e != json_tokener_success)
		return log_error_code(-EINVAL, "plan '%s': not JSON: %s", name,
				      json_tokener_error_desc(e));
	/* One document, maybe followed by white space: nothing else. */
	for (size_t i = json_tokener_get_parse_end(tok); i < len; i++)
		if (!strchr(" \t\r\n", text[i]))
			return log_error_code(-EINVAL, "plan '%s': text after the JSON "
					      "document", name);
	r = plan_from_json(name, root, &plan);
	if (r < 0) {
		plan_release(&plan);
		return r;
	}
	*ret = plan;
	return 0;
}

int plan_read_json(const char *path, struct plan *ret)
{
	_cleanup_fclose_ FILE *f = fopen(path, "re");
	_cleanup_free_ char *buf = NULL;
	size_t n;

	if (!f)
		return log_error_errno(-errno, "cannot read plan '%s'", path);
	buf = malloc(PLAN_FILE_MAX + 1);
	if (!buf)
		return -ENOMEM;
	n = fread(buf, 1, PLAN_FILE_MAX + 1, f);
	if (ferror(f))
		return log_error_errno(-EIO, "cannot read plan '%s'", path);
	if (n > PLAN_FILE_MAX)
		return log_error_code(-EFBIG, "plan '%s': larger than %d MiB", path,
				      PLAN_FILE_MAX >> 20);
	return plan_parse_json(path, buf, n, ret);
}

