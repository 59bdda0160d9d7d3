/* The first level a profile lists is the reference: a name axis keeps
 * the order it was written in through the key's text and JSON, the
 * planner's cells, the plan's JSON and back, and the report's levels
 * and comparisons; a plan written before the order was kept (its lists
 * in the table's order) gives the report it always gave. */
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
#include <sys/stat.h>
#include <unistd.h>

#include "journal.h"
#include "keys.h"
#include "loader.h"
#include "model.h"
#include "planner.h"
#include "report.h"

static char dir[] = "/tmp/test-listed-order.XXXXXX";

static int setup(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[256];

	(void)state;
	if (getenv("KEEP_TMP"))
		return 0;
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static void load(const char *text, struct profile *p)
{
	assert_int_equal(loader_load_buffer("test.ini", text, strlen(text), p), 0);
}

static const char *format_key(const struct profile *p, const char *sec, const char *key,
			      char *buf, size_t len)
{
	const struct key_def *k = keys_find(sec, key);

	assert_non_null(k);
	return keys_format(p, k, buf, len);
}

/* Every name axis keeps the order it was written in: the key's text, the
 * planner's first cells, the plan's JSON, and the profile read back. */
static void test_profile_and_plan(void **state)
{
	struct profile p;
	struct plan plan, back;
	char buf[256], path[300];

	(void)state;
	load("[storage]\nbackends = qcow2, lvm\n"
	     "[guest]\ncache = unsafe, writethrough, none\nbus = sata, virtio\n"
	     "aio = io_uring, threads\n"
	     "[workload]\nkinds = fio, tarball-write\nfio_rw = randread, read\n"
	     "fio_ioengine = libaio, psync\n[sweep]\nruns = 2\n",
	     &p);
	assert_string_equal(format_key(&p, "guest", "cache", buf, sizeof buf),
			    "unsafe,writethrough,none");
	assert_string_equal(format_key(&p, "storage", "backends", buf, sizeof buf), "qcow2,lvm");
	assert_string_equal(format_key(&p, "workload", "kinds", buf, sizeof buf),
			    "fio,tarball-write");
	assert_int_equal(AXIS_FIRST(p.guest.cache, -1), CACHE_UNSAFE);

	assert_int_equal(planner_build(&p, &plan), 0);
	/* at iodepth 1 psync leaves out no cell */
	assert_int_equal(plan.n_excluded, 0);
	assert_string_equal(plan.cells[0].id,
			    "qcow2/qcow2/off/unsafe/io_uring/sata/fio/rw=randread/engine=libaio");
	assert_string_equal(plan.cells[1].id,
			    "qcow2/qcow2/off/unsafe/io_uring/sata/fio/rw=randread/engine=psync");
	assert_string_equal(plan.cells[2].id,
			    "qcow2/qcow2/off/unsafe/io_uring/sata/fio/rw=read/engine=libaio");

	snprintf(path, sizeof path, "%s/plan.json", dir);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(plan_write_json(&plan, f), 0);
	assert_int_equal(fclose(f), 0);
	json_object *j = json_object_from_file(path), *prof, *guest, *cache, *modes;
	assert_non_null(j);
	assert_true(json_object_object_get_ex(j, "profile", &prof));
	assert_true(json_object_object_get_ex(prof, "guest", &guest));
	assert_true(json_object_object_get_ex(guest, "cache", &cache));
	assert_string_equal(json_object_get_string(json_object_array_get_idx(cache, 0)), "unsafe");
	assert_string_equal(json_object_get_string(json_object_array_get_idx(cache, 2)), "none");
	/* the cache-mode table of the plan in the same order */
	assert_true(json_object_object_get_ex(j, "cache_modes", &modes));
	json_object *first = json_object_array_get_idx(modes, 0), *mode;
	assert_true(json_object_object_get_ex(first, "mode", &mode));
	assert_string_equal(json_object_get_string(mode), "unsafe");
	json_object_put(j);

	assert_int_equal(plan_read_json(path, &back), 0);
	assert_string_equal(format_key(&back.profile, "guest", "cache", buf, sizeof buf),
			    "unsafe,writethrough,none");
	assert_int_equal(back.n_cells, plan.n_cells);
	for (size_t i = 0; i < plan.n_cells; i++)
		assert_string_equal(back.cells[i].id, plan.cells[i].id);
	plan_release(&back);
	plan_release(&plan);
	unlink(path);
}

/* A bundle of PROFILE's plan (its JSON's profile lists rewritten by
 * EDIT when given) with each tarball-write cell's runs taking what
 * SECONDS gives for its cache mode and aio. */
static void bundle(const char *name, const char *profile, void (*edit)(json_object *),
		   double (*seconds)(const struct plan_cell *), char *ret, size_t len)
{
	struct profile p;
	struct plan plan;
	char path[400];

	snprintf(ret, len, "%s/%s", dir, name);
	assert_int_equal(mkdir(ret, 0755), 0);
	load(profile, &p);
	assert_int_equal(planner_build(&p, &plan), 0);
	snprintf(path, sizeof path, "%s/plan.json", ret);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(plan_write_json(&plan, f), 0);
	assert_int_equal(fclose(f), 0);
	if (edit) {
		json_object *j = json_object_from_file(path);
		assert_non_null(j);
		edit(j);
		assert_int_equal(json_object_to_file_ext(path, j, JSON_C_TO_STRING_PRETTY), 0);
		json_object_put(j);
	}
	snprintf(path, sizeof path, "%s/runs.jsonl", ret);
	for (size_t i = 0; i < plan.n_runs; i++) {
		const struct plan_run *pr = &plan.runs[i];
		struct journal_run run;
		journal_run_init(&run);
		run.cell = plan.cells[pr->cell];
		run.index = pr->index;
		run.position = pr->position;
		snprintf(run.status, sizeof run.status, "ok");
		run.boot_seconds = seconds(&run.cell) * (1.0 + 0.01 * pr->index);
		assert_int_equal(journal_append(path, &run), 0);
		journal_run_release(&run);
	}
	plan_release(&plan);
}

static double unsafe_faster(const struct plan_cell *c)
{
	return c->cache == CACHE_UNSAFE ? 10 : 20;
}

static bool has_headline(const struct model *m, const char *start)
{
	for (size_t i = 0; i < m->n_headlines; i++)
		if (strncmp(m->headlines[i], start, strlen(start)) == 0)
			return true;
	return false;
}

static struct model *report_of(const char *d)
{
	const char *dirs[] = {d};
	struct report_options o = {.dirs = dirs, .n_dirs = 1};
	struct model *m = NULL;

	assert_int_equal(report_build(&o, &m), 0);
	assert_non_null(m);
	return m;
}

/* cache = unsafe, writethrough: writethrough is compared against unsafe
 * (the table's order would make it unsafe against writethrough). */
static void test_report_reference(void **state)
{
	char d[400];

	(void)state;
	bundle("unsafe-first",
	       "[storage]\nbackends = lvm\n[guest]\ncache = unsafe, writethrough\n"
	       "[workload]\nkinds = tarball-write\n[sweep]\nruns = 3\n",
	       NULL, unsafe_faster, d, sizeof d);
	struct model *m = report_of(d);
	assert_true(has_headline(m, "writethrough vs unsafe, boot_to_shutdown (tarball-write): +"));
	assert_false(has_headline(m, "unsafe vs writethrough"));
	model_free(m);

	bundle("writethrough-first",
	       "[storage]\nbackends = lvm\n[guest]\ncache = writethrough, unsafe\n"
	       "[workload]\nkinds = tarball-write\n[sweep]\nruns = 3\n",
	       NULL, unsafe_faster, d, sizeof d);
	m = report_of(d);
	assert_true(has_headline(m, "unsafe vs writethrough, boot_to_shutdown (tarball-write): -"));
	model_free(m);
}

static double native_faster(const struct plan_cell *c)
{
	return c->aio == AIO_NATIVE ? 10 : 20;
}

/* aio = native, threads under cache = writeback, none: the planner
 * leaves out writeback with native, so the first cell the report meets
 * has threads; the reference is still native, the first listed. */
static void test_reference_of_a_left_out_first_cell(void **state)
{
	char d[400];

	(void)state;
	bundle("native-first",
	       "[storage]\nbackends = lvm\n[guest]\ncache = writeback, none\n"
	       "aio = native, threads\n[workload]\nkinds = tarball-write\n[sweep]\nruns = 3\n",
	       NULL, native_faster, d, sizeof d);
	struct model *m = report_of(d);
	assert_true(has_headline(m, "threads vs native, boot_to_shutdown (tarball-write"));
	assert_false(has_headline(m, "native vs threads"));
	model_free(m);
}

/* A plan written before the listed order was kept has its lists in the
 * table's order: its report is the one it always was. */
static void table_order(json_object *plan)
{
	json_object *prof, *guest, *list = json_object_new_array();

	assert_true(json_object_object_get_ex(plan, "profile", &prof));
	assert_true(json_object_object_get_ex(prof, "guest", &guest));
	json_object_array_add(list, json_object_new_string("writethrough"));
	json_object_array_add(list, json_object_new_string("unsafe"));
	json_object_object_add(guest, "cache", list);
}

static void test_old_plan(void **state)
{
	char d[400];

	(void)state;
	bundle("old-plan",
	       "[storage]\nbackends = lvm\n[guest]\ncache = unsafe, writethrough\n"
	       "[workload]\nkinds = tarball-write\n[sweep]\nruns = 3\n",
	       table_order, unsafe_faster, d, sizeof d);
	struct model *m = report_of(d);
	assert_true(has_headline(m, "unsafe vs writethrough, boot_to_shutdown (tarball-write): -"));
	model_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_profile_and_plan),
		cmocka_unit_test(test_report_reference),
		cmocka_unit_test(test_reference_of_a_left_out_first_cell),
		cmocka_unit_test(test_old_plan),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
