/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The plan reader against hostile plans: every shipped profile's plan
 * reads back, and each damage of a valid plan (a null, a wrong type, an
 * out-of-range index, a duplicate, another version...) is refused with a
 * message naming the member. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loader.h"
#include "log.h"
#include "planner.h"

static char *plan_text(const char *profile)
{
	struct profile p;
	struct plan plan;
	char *text = NULL;
	size_t len = 0;

	assert_int_equal(loader_load(profile, &p), 0);
	assert_int_equal(planner_build(&p, &plan), 0);
	FILE *f = open_memstream(&text, &len);
	assert_int_equal(plan_write_json(&plan, f), 0);
	fclose(f);
	plan_release(&plan);
	return text;
}

/* plan_parse_json of TEXT; its message, if any, in *MSG (caller frees). */
static int parse(const char *text, size_t len, char **msg)
{
	struct plan plan;
	size_t n = 0;
	FILE *f = open_memstream(msg, &n);

	log_set_stream(f);
	int r = plan_parse_json("plan.json", text, len, &plan);
	log_set_stream(NULL);
	fclose(f);
	if (r == 0)
		plan_release(&plan);
	return r;
}

static void test_shipped_plans_read_back(void **state)
{
	static const char *const profiles[] = {
		"profiles/ci-smoke.ini", "profiles/kvm-perf-2011.ini",
		"profiles/full-sweep.ini", "profiles/lvm-unsafe.ini",
		"profiles/cache-modes-lvm.ini", "profiles/bonnie-qcow2-vs-raw.ini",
	};
	(void)state;
	for (size_t i = 0; i < sizeof(profiles) / sizeof(profiles[0]); i++) {
		char *text = plan_text(profiles[i]), *msg = NULL;
		int r = parse(text, strlen(text), &msg);
		if (r != 0)
			fail_msg("%s: %s", profiles[i], msg);
		free(msg);
		free(text);
	}
}

/* One damage: the member at PATH ("cells/0/cache", "/"-separated, array
 * indexes as numbers) set to the JSON VALUE, or removed when VALUE is
 * NULL; EXPECT is in the message. */
struct damage {
	const char *path;
	const char *value;
	const char *expect;
};

static const struct damage damages[] = {
	{"format", "null", "is not a buildapp plan"},
	{"format", "7", "is not a buildapp plan"},
	{"version", NULL, "version: not 1"},
	{"version", "2", "version: not 1"},
	{"version", "\"1\"", "version: not 1"},
	{"profile", "null", "profile: not an object"},
	{"profile", "[]", "profile: not an object"},
	{"profile/guest", "null", "profile.guest: not an object"},
	{"profile/guest/memory", "null", "profile.guest.memory: wrong type"},
	{"profile/guest/memory", NULL, "profile.guest.memory: missing"},
	{"profile/guest/memory", "-1", "profile.guest.memory"},
	{"profile/guest/memroy", "1", "profile.guest.memroy: unknown key"},
	{"profile/gust", "{}", "profile.gust: unknown section"},
	{"profile/guest/cache", "[1]", "profile.guest.cache: wrong type"},
	{"profile/sweep/runs", "1e300", "profile.sweep.runs"},
	{"profile/path", "{}", "profile.path: not a path"},
	{"cells", "null", "cells: not a list"},
	{"cells", "[]", "cells: 0 cells"},
	{"cells/0", "null", "cells[0]: not an object"},
	{"cells/0/cache", "null", "cells[0]: cache: null"},
	{"cells/0/cache", "5", "cells[0]: cache: wrong type"},
	{"cells/0/cache", "\"wirteback\"", "cells[0]: cache: unknown value 'wirteback'"},
	{"cells/0/backend", NULL, "cells[0]: backend: missing"},
	{"cells/1", "@cells/0", "cells[1] is cells[0] again"},
	{"runs", "{}", "runs: not a list"},
	{"runs/0/cell", "null", "runs[0]: not a cell index"},
	{"runs/0/cell", "-1", "runs[0]: not a cell index"},
	{"runs/0/cell", "99999", "runs[0]: not a cell index"},
	{"runs/0/run", "1000", "runs[0]: not a run index below [sweep] runs = 5"},
	{"runs/0", "[]", "runs[0]: not a cell index"},
	{"runs/1", "@runs/0", "is there twice"},
	{"total_runs", "1", "total_runs: not the"},
};

static json_object *get_path(json_object *root, const char *path, char *last, size_t len)
{
	char buf[128];
	char *save = NULL, *next;

	snprintf(buf, sizeof(buf), "%s", path);
	json_object *o = root;
	char *part = strtok_r(buf, "/", &save);
	while ((next = strtok_r(NULL, "/", &save))) {
		o = json_object_is_type(o, json_type_array)
			    ? json_object_array_get_idx(o, (size_t)atoi(part))
			    : json_object_object_get(o, part);
		assert_non_null(o);
		part = next;
	}
	snprintf(last, len, "%s", part);
	return o;
}

static void apply(json_object *root, const struct damage *d)
{
	char last[64];
	json_object *parent = get_path(root, d->path, last, sizeof(last));
	json_object *value = NULL;

	if (d->value && d->value[0] == '@') {
		char from[64];
		json_object *p = get_path(root, d->value + 1, from, sizeof(from));
		json_object *src = json_object_is_type(p, json_type_array)
					   ? json_object_array_get_idx(p, (size_t)atoi(from))
					   : json_object_object_get(p, from);
		assert_int_equal(json_object_deep_copy(src, &value, NULL), 0);
	} else if (d->value) {
		value = json_tokener_parse(d->value);
		assert_true(value || strcmp(d->value, "null") == 0);
	}
	if (json_object_is_type(parent, json_type_array))
		assert_int_equal(json_object_array_put_idx(parent, (size_t)atoi(last), value), 0);
	else if (d->value)
		json_object_object_add(parent, last, value);
	else
		json_object_object_del(parent, last);
}

static void test_damaged_plans_refused(void **state)
{
	char *good = plan_text("profiles/kvm-perf-2011.ini");

	(void)state;
	for (size_t i = 0; i < sizeof(damages) / sizeof(damages[0]); i++) {
		json_object *root = json_tokener_parse(good);
		char *msg = NULL;
		apply(root, &damages[i]);
		const char *text = json_object_to_json_string(root);
		int r = parse(text, strlen(text), &msg);
		if (r != -EINVAL || !strstr(msg, damages[i].expect))
			fail_msg("%s = %s: %d, '%s', expected '%s'", damages[i].path,
				 damages[i].value ? damages[i].value : "(removed)", r, msg,
				 damages[i].expect);
		free(msg);
		json_object_put(root);
	}
	free(good);
}

/* Run RUN of the first cell of workload WORKLOAD in the plan TEXT set to
 * INDEX; the plan read back: its result, its message in *MSG. */
static int parse_with_run(const char *text, const char *workload, int64_t index, char **msg)
{
	json_object *root = json_tokener_parse(text), *cells, *runs;
	int64_t cell = -1;

	assert_true(json_object_object_get_ex(root, "cells", &cells));
	assert_true(json_object_object_get_ex(root, "runs", &runs));
	for (size_t i = 0; i < json_object_array_length(cells) && cell < 0; i++)
		if (strcmp(json_object_get_string(json_object_object_get(
				   json_object_array_get_idx(cells, i), "workload")),
			   workload) == 0)
			cell = (int64_t)i;
	for (size_t i = 0; i < json_object_array_length(runs); i++) {
		json_object *r = json_object_array_get_idx(runs, i);
		if (json_object_get_int64(json_object_object_get(r, "cell")) == cell) {
			json_object_object_add(r, "run", json_object_new_int64(index));
			break;
		}
	}
	const char *damaged = json_object_to_json_string(root);
	int rc = parse(damaged, strlen(damaged), msg);
	json_object_put(root);
	return rc;
}

/* A durability cell's runs are [sweep] durability_runs: one of its runs
 * past [sweep] runs reads, one past its own count is refused naming the
 * key, and a speed cell's stays below runs. */
static void test_durability_runs(void **state)
{
	static const char ini[] = "[storage]\nbackends = raw\n[guest]\ncache = unsafe\n"
				  "[workload]\nkinds = fio, durability\n"
				  "[sweep]\nruns = 2\ndurability_runs = 4\n";
	struct profile p;
	struct plan plan;
	char *text = NULL, *msg = NULL;
	size_t len = 0;

	(void)state;
	assert_int_equal(loader_load_buffer("d.ini", ini, strlen(ini), &p), 0);
	assert_int_equal(planner_build(&p, &plan), 0);
	FILE *f = open_memstream(&text, &len);
	assert_int_equal(plan_write_json(&plan, f), 0);
	fclose(f);
	plan_release(&plan);
	assert_non_null(strstr(text, "\"durability_runs_per_cell\": 4"));
	assert_int_equal(parse(text, len, &msg), 0);
	free(msg);
	/* Moving a run to an index past the other cells' runs: read (its
	 * own index 3 is there twice then, which is the refusal). */
	assert_int_equal(parse_with_run(text, "durability", 3, &msg), -EINVAL);
	assert_non_null(strstr(msg, "is there twice"));
	free(msg);
	assert_int_equal(parse_with_run(text, "durability", 4, &msg), -EINVAL);
	assert_non_null(strstr(msg, "not a run index below [sweep] durability_runs = 4"));
	free(msg);
	assert_int_equal(parse_with_run(text, "fio", 2, &msg), -EINVAL);
	assert_non_null(strstr(msg, "not a run index below [sweep] runs = 2"));
	free(msg);
	free(text);
}

static void test_not_json_refused(void **state)
{
	char *good = plan_text("profiles/ci-smoke.ini"), *msg = NULL;
	size_t len = strlen(good);

	(void)state;
	assert_int_equal(parse(good, len / 2, &msg), -EINVAL);
	assert_non_null(strstr(msg, "not JSON"));
	free(msg);
	char *more = malloc(len + 3);
	memcpy(more, good, len);
	memcpy(more + len, "{}", 3);
	assert_int_equal(parse(more, len + 2, &msg), -EINVAL);
	assert_non_null(strstr(msg, "text after the JSON document"));
	free(msg);
	assert_int_equal(parse("{\"format\": null}", 16, &msg), -EINVAL);
	free(msg);
	free(more);
	free(good);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shipped_plans_read_back),
		cmocka_unit_test(test_damaged_plans_refused),
		cmocka_unit_test(test_durability_runs),
		cmocka_unit_test(test_not_json_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
