/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Report: the kvm-perf study's raw-image write runs journaled as a sweep
 * (cache x aio x bus), reported: the cache comparison finds unsafe
 * faster than directsync with an interval excluding 1, the same bundle
 * given twice as two hosts shows no difference, failures and first runs
 * are kept, the baseline check, bad bundles refused, and the files. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <json.h>

#include "journal.h"
#include "kvmperf.h"
#include "model.h"
#include "names.h"
#include "report.h"

static char dir[] = "/tmp/test-report.XXXXXX";
static char study[256], slower[256], bad[256];

static void journal_cell(const char *d, const struct study_cell *sc, double scale,
			 unsigned *position)
{
	char path[512];
	snprintf(path, sizeof path, "%s/runs.jsonl", d);
	for (size_t r = 0; r < sc->n[WRITES]; r++) {
		struct journal_run run;
		journal_run_init(&run);
		run.cell.backend = BACKEND_RAW;
		run.cell.format = IMAGE_FORMAT_RAW;
		run.cell.prealloc = -1;
		run.cell.cache = name_table_lookup(&cache_mode_names, sc->cache);
		run.cell.aio = name_table_lookup(&aio_mode_names, sc->aio);
		run.cell.bus = name_table_lookup(&disk_bus_names, sc->iface);
		run.cell.workload = WORKLOAD_TARBALL_WRITE;
		plan_cell_make_id(&run.cell);
		run.index = (unsigned)r;
		run.position = (*position)++;
		snprintf(run.status, sizeof run.status, "ok");
		run.boot_seconds = sc->runs[WRITES][r] * scale;
		assert_int_equal(journal_append(path, &run), 0);
		journal_run_release(&run);
	}
}

/* The raw, not preallocated cells of the study, once each. */
static void journal_study(const char *d, double unsafe_scale)
{
	unsigned position = 0;
	assert_int_equal(mkdir(d, 0755), 0);
	for (size_t i = 0; i < n_cells; i++) {
		bool dup = false;
		if (strcmp(cells[i].type, "raw") != 0 || strcmp(cells[i].prealloc, "no") != 0)
			continue;
		for (size_t k = 0; k < i && !dup; k++)
			dup = strcmp(cells[k].type, "raw") == 0 &&
			      strcmp(cells[k].prealloc, "no") == 0 &&
			      strcmp(cells[k].cache, cells[i].cache) == 0 &&
			      strcmp(cells[k].aio, cells[i].aio) == 0 &&
			      strcmp(cells[k].iface, cells[i].iface) == 0;
		if (!dup)
			journal_cell(d, &cells[i],
				     strcmp(cells[i].cache, "unsafe") ? 1.0 : unsafe_scale,
				     &position);
	}
}

static int setup(void **state)
{
	if (load_study(state) < 0 || !mkdtemp(dir))
		return -1;
	snprintf(study, sizeof study, "%s/study", dir);
	snprintf(slower, sizeof slower, "%s/slower", dir);
	snprintf(bad, sizeof bad, "%s/bad", dir);
	journal_study(study, 1.0);
	/* The same sweep with unsafe's writes taking twice as long. */
	journal_study(slower, 2.0);
	return mkdir(bad, 0755);
}

static int teardown(void **state)
{
	(void)state;
	if (getenv("KEEP_TMP"))
		return 0;
	char cmd[256];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static json_object *get(json_object *o, const char *key)
{
	json_object *v = NULL;
	assert_true(json_object_object_get_ex(o, key, &v));
	return v;
}

/* The model of O in report.json's form. */
static json_object *json_of(const struct report_options *o)
{
	struct model *m = NULL;
	json_object *model = NULL;
	assert_int_equal(report_build(o, &m), 0);
	assert_non_null(m);
	assert_int_equal(model_to_json(m, &model), 0);
	model_free(m);
	return model;
}

static struct model *build_model(const char *const *dirs, size_t n, const char *baseline)
{
	struct report_options o = {.dirs = dirs, .n_dirs = n, .baseline_dir = baseline,
				   .baseline_level = "cache:directsync"};
	struct model *m = NULL;
	assert_int_equal(report_build(&o, &m), 0);
	assert_non_null(m);
	return m;
}

static json_object *build(const char *const *dirs, size_t n, const char *baseline)
{
	struct model *m = build_model(dirs, n, baseline);
	json_object *model = NULL;
	assert_int_equal(model_to_json(m, &model), 0);
	model_free(m);
	return model;
}

/* The comparison of AXIS's LEVEL, pooled (or not), in the primary metric
 * of the only workload. */
static json_object *comparison(json_object *model, const char *axis, const char *level,
			       bool pooled)
{
	json_object *w = json_object_array_get_idx(get(model, "workloads"), 0);
	json_object *m = json_object_array_get_idx(get(w, "metrics"), 0);
	assert_string_equal(json_object_get_string(get(m, "name")), "boot_to_shutdown");
	json_object *cmps = get(m, "comparisons");
	for (size_t i = 0; i < json_object_array_length(cmps); i++) {
		json_object *c = json_object_array_get_idx(cmps, i);
		if (strcmp(json_object_get_string(get(c, "axis")), axis) == 0 &&
		    strcmp(json_object_get_string(get(c, "level")), level) == 0 &&
		    json_object_get_boolean(get(c, "pooled")) == pooled)
			return c;
	}
	fail_msg("no comparison of %s %s", axis, level);
	return NULL;
}

static void test_cache_answer(void **state)
{
	(void)state;
	const char *dirs[] = {study};
	json_object *model = build(dirs, 1, NULL);

	/* unsafe vs directsync, pooled over aio x bus: faster (lower time),
	 * the interval excludes 1 */
	json_object *c = comparison(model, "cache", "unsafe", true);
	assert_string_equal(json_object_get_string(get(c, "reference")), "directsync");
	double ratio = json_object_get_double(get(c, "ratio")),
	       high = json_object_get_double(get(c, "ratio_high"));
	assert_true(ratio < 1 && high < 1);
	assert_true(json_object_get_boolean(get(c, "shown")));
	assert_true(json_object_get_boolean(get(c, "better")));
	assert_int_equal(json_object_get_int(get(c, "strata")), 4);
	const char *s = json_object_get_string(get(c, "sentence"));
	assert_non_null(strstr(s, "unsafe vs directsync, boot_to_shutdown (tarball-write, pooled over 4 settings of aio, bus): -"));
	assert_non_null(strstr(s, "n=20 each, better"));
	/* It is a headline. */
	json_object *h = get(model, "headlines");
	bool found = false;
	for (size_t i = 0; i < json_object_array_length(h); i++)
		found |= strcmp(json_object_get_string(json_object_array_get_idx(h, i)), s) == 0;
	assert_true(found);

	/* The axes: cache with directsync as the reference, not host. */
	json_object *axes = get(model, "axes");
	assert_int_equal(json_object_array_length(axes), 3); /* cache, aio, bus */
	/* Each cell: group by the outer axes, label the innermost, five
	 * runs with the first marked, a display rounded to its interval. */
	json_object *w = json_object_array_get_idx(get(model, "workloads"), 0);
	json_object *m = json_object_array_get_idx(get(w, "metrics"), 0);
	json_object *cell = json_object_array_get_idx(get(m, "cells"), 0);
	json_object *runs = get(cell, "runs");
	assert_int_equal(json_object_array_length(runs), 5);
	assert_true(json_object_get_boolean(get(json_object_array_get_idx(runs, 0), "first")));
	assert_false(json_object_get_boolean(get(json_object_array_get_idx(runs, 1), "first")));
	assert_non_null(strstr(json_object_get_string(get(cell, "group")), " / "));
	assert_non_null(strstr(json_object_get_string(get(cell, "display")), " ± "));
	json_object_put(model);
}

static void test_two_hosts_same(void **state)
{
	(void)state;
	const char *dirs[] = {study, study};
	json_object *model = build(dirs, 2, NULL);
	json_object *hosts = get(model, "hosts");
	assert_int_equal(json_object_array_length(hosts), 2);
	const char *a = json_object_get_string(get(json_object_array_get_idx(hosts, 0), "label")),
		   *b = json_object_get_string(get(json_object_array_get_idx(hosts, 1), "label"));
	assert_string_not_equal(a, b);
	json_object *c = comparison(model, "host", b, true);
	assert_false(json_object_get_boolean(get(c, "shown")));
	assert_float_equal(json_object_get_double(get(c, "ratio")), 1.0, 1e-12);
	assert_non_null(strstr(json_object_get_string(get(c, "sentence")), "no difference shown at n="));
	/* The cache answer holds per host too. */
	c = comparison(model, "cache", "unsafe", true);
	assert_int_equal(json_object_get_int(get(c, "strata")), 8);
	assert_true(json_object_get_boolean(get(c, "shown")));
	json_object_put(model);
}

static void test_baseline(void **state)
{
	(void)state;
	const char *dirs[] = {slower};
	struct model *m = build_model(dirs, 1, study);
	assert_true(report_baseline_worse(m));
	json_object *model = NULL;
	assert_int_equal(model_to_json(m, &model), 0);
	model_free(m);
	json_object *worse = get(get(model, "baseline"), "worse");
	/* unsafe's 4 cells (x aio x bus) took twice as long */
	assert_int_equal(json_object_array_length(worse), 4);
	for (size_t i = 0; i < 4; i++) {
		json_object *w = json_object_array_get_idx(worse, i);
		assert_non_null(strstr(json_object_get_string(get(w, "cell")), "/unsafe/"));
		assert_float_equal(json_object_get_double(get(w, "ratio")), 2.0, 1e-9);
	}
	json_object_put(model);
	/* Against itself: nothing worse. */
	const char *same[] = {study};
	m = build_model(same, 1, study);
	assert_false(report_baseline_worse(m));
	model_free(m);
}

static void write_file(const char *name, const char *text)
{
	char path[512];
	snprintf(path, sizeof path, "%s/%s", bad, name);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void test_bad_bundles(void **state)
{
	(void)state;
	const char *dirs[] = {bad};
	struct report_options o = {.dirs = dirs, .n_dirs = 1};
	struct model *model = NULL;
	char path[512], line[65536];

	/* no journal */
	assert_int_equal(report_build(&o, &model), -EINVAL);
	/* an empty one */
	write_file("runs.jsonl", "");
	assert_int_equal(report_build(&o, &model), -EINVAL);
	/* a journal cut short */
	snprintf(path, sizeof path, "%s/runs.jsonl", study);
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	assert_non_null(fgets(line, sizeof line, f));
	fclose(f);
	char cut[65536 + 64];
	snprintf(cut, sizeof cut, "%s%.40s", line, line);
	write_file("runs.jsonl", cut);
	assert_int_equal(report_build(&o, &model), -EINVAL);
	/* another version */
	char *v = strstr(line, "\"version\": 1");
	if (!v)
		v = strstr(line, "\"version\":1");
	assert_non_null(v);
	v[strlen(v[10] == ' ' ? "\"version\": " : "\"version\":")] = '9';
	write_file("runs.jsonl", line);
	assert_int_equal(report_build(&o, &model), -EINVAL);
	/* not a directory */
	const char *nodir[] = {path};
	o.dirs = nodir;
	assert_int_equal(report_build(&o, &model), -EINVAL);
	assert_null(model);
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return NULL;
	char *buf = calloc(1, 1 << 20);
	size_t n = fread(buf, 1, (1 << 20) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static void test_files(void **state)
{
	(void)state;
	const char *dirs[] = {study};
	struct model *m = build_model(dirs, 1, NULL);
	char out[512], path[600];
	snprintf(out, sizeof out, "%s/out", dir);
	assert_int_equal(report_write(m, REPORT_ALL_FORMATS, out), 0);
	json_object *model = NULL;
	assert_int_equal(model_to_json(m, &model), 0);
	model_free(m);

	snprintf(path, sizeof path, "%s/report.txt", out);
	char *txt = slurp(path);
	assert_non_null(txt);
	/* the answers come first */
	char *answers = strstr(txt, "== Answers ==\n"), *first = strstr(txt, "unsafe vs directsync");
	assert_non_null(answers);
	assert_non_null(first);
	assert_true(first < strstr(txt, "== Hosts =="));
	free(txt);

	snprintf(path, sizeof path, "%s/report.json", out);
	json_object *back = json_object_from_file(path);
	assert_non_null(back);
	assert_string_equal(json_object_get_string(get(back, "format")), "buildapp-report");
	json_object_put(back);

	snprintf(path, sizeof path, "%s/report.csv", out);
	char *csv = slurp(path);
	assert_non_null(csv);
	assert_int_equal(strncmp(csv, "kind,host,cell,workload,backend,", 32), 0);
	assert_non_null(strstr(csv, "\r\n"));
	free(csv);
	/* every row as wide as the header (python3's csv reads it): the 6
	 * answers first, then 100 runs and 20 cells */
	char cmd[1024];
	snprintf(cmd, sizeof cmd,
		 "python3 -c 'import csv,sys; r=list(csv.reader(open(sys.argv[1], newline=\"\")));"
		 " sys.exit(not (len(r) == 127 and {len(x) for x in r} == {len(r[0])}"
		 " and r[1][0] == \"answer\" and r[1][-1].startswith(\"unsafe vs directsync\")))' '%s'",
		 path);
	assert_int_equal(system(cmd), 0);
	/* no temporary file left */
	snprintf(path, sizeof path, "%s/.report.json.tmp", out);
	assert_int_equal(access(path, F_OK), -1);
	json_object_put(model);
}

/* One dd run of a cell: a guest cell (CACHE a mode, L2 bytes or -1) or,
 * with CACHE NULL, the host-native one. */
static void journal_dd(const char *path, enum backend backend, const char *cache,
		       int64_t l2, unsigned index, unsigned *position, double mbps)
{
	struct journal_run run;
	journal_run_init(&run);
	run.cell.backend = backend;
	run.cell.format = backend == BACKEND_QCOW2 ? IMAGE_FORMAT_QCOW2 : IMAGE_FORMAT_RAW;
	run.cell.prealloc = backend == BACKEND_QCOW2 ? QCOW2_PREALLOC_OFF : RAW_PREALLOC_SPARSE;
	run.cell.host = !cache;
	run.cell.cache = cache ? name_table_lookup(&cache_mode_names, cache) : -1;
	run.cell.aio = cache ? AIO_THREADS : -1;
	run.cell.bus = cache ? BUS_VIRTIO : -1;
	run.cell.l2_cache = l2;
	run.cell.workload = WORKLOAD_DD;
	plan_cell_make_id(&run.cell);
	run.index = index;
	run.position = (*position)++;
	snprintf(run.status, sizeof run.status, "ok");
	assert_int_equal(journal_run_add_metric(&run, "dd_mbps", mbps, "MB/s"), 0);
	assert_int_equal(journal_append(path, &run), 0);
	journal_run_release(&run);
}

/* Comparisons of AXIS in the only metric, and whether any is pooled. */
static size_t count_comparisons(json_object *model, const char *axis, bool *pooled)
{
	json_object *w = json_object_array_get_idx(get(model, "workloads"), 0);
	json_object *m = json_object_array_get_idx(get(w, "metrics"), 0);
	json_object *cmps = get(m, "comparisons");
	size_t n = 0;
	*pooled = false;
	for (size_t i = 0; i < json_object_array_length(cmps); i++) {
		json_object *c = json_object_array_get_idx(cmps, i);
		assert_string_not_equal(json_object_get_string(get(c, "level")), "-");
		assert_string_not_equal(json_object_get_string(get(c, "reference")), "-");
		if (strcmp(json_object_get_string(get(c, "axis")), axis) != 0)
			continue;
		n++;
		*pooled |= json_object_get_boolean(get(c, "pooled"));
	}
	return n;
}

/* A sweep of host-native and guest cells, raw and qcow2 at two L2 cache
 * sizes: guest vs host (the host cell the reference, each cache mode's
 * guest cell against it, not pooled since they share it), L2 sizes
 * compared within qcow2, raw against each qcow2 size. */
static void test_guest_host_l2(void **state)
{
	(void)state;
	char d[300], path[320];
	unsigned pos = 0;
	snprintf(d, sizeof d, "%s/hosts", dir);
	snprintf(path, sizeof path, "%s/runs.jsonl", d);
	assert_int_equal(mkdir(d, 0755), 0);
	for (unsigned i = 0; i < 3; i++) {
		journal_dd(path, BACKEND_RAW, NULL, -1, i, &pos, 300 + i);
		journal_dd(path, BACKEND_RAW, "none", -1, i, &pos, 60 + i);
		journal_dd(path, BACKEND_RAW, "unsafe", -1, i, &pos, 90 + i);
		journal_dd(path, BACKEND_QCOW2, "none", 16384, i, &pos, 30 + i);
		journal_dd(path, BACKEND_QCOW2, "none", 1 << 20, i, &pos, 55 + i);
	}
	const char *dirs[] = {d};
	struct report_options o = {.dirs = dirs, .n_dirs = 1};
	json_object *model = json_of(&o);
	bool pooled;

	assert_int_equal(count_comparisons(model, "guest", &pooled), 2);
	assert_false(pooled);
	assert_int_equal(count_comparisons(model, "l2_cache", &pooled), 1);
	assert_int_equal(count_comparisons(model, "backend", &pooled), 2);
	assert_false(pooled);
	assert_int_equal(count_comparisons(model, "preallocation", &pooled), 0);
	assert_int_equal(count_comparisons(model, "format", &pooled), 0);
	const char *h = json_object_to_json_string(get(model, "headlines"));
	assert_non_null(strstr(h, "guest vs host, dd_mbps (dd, backend=raw, cache=none): -79.7% [-80.5%, -78.9%], n=3 each, worse"));
	assert_non_null(strstr(h, "guest vs host, dd_mbps (dd, backend=raw, cache=unsafe): -69.8%"));
	assert_non_null(strstr(h, "1M vs 16K, dd_mbps (dd, backend=qcow2, cache=none): +81% [+69%, +93%]"));
	assert_non_null(strstr(h, "qcow2 vs raw, dd_mbps (dd, cache=none, l2_cache=16K): -49%"));
	assert_non_null(strstr(h, "qcow2 vs raw, dd_mbps (dd, cache=none, l2_cache=1M): -8%"));
	json_object_put(model);
}

/* The profile's questions ([report] compare, here --compare) lead the
 * answers in the asked direction, per pair and pooled, in the order
 * asked; one nothing answers says so; the others follow. */
static void test_questions_first(void **state)
{
	(void)state;
	const char *dirs[] = {study};
	struct report_options o = {.dirs = dirs, .n_dirs = 1,
				   .baseline_level = "cache:directsync",
				   .compare = "cache:unsafe vs writethrough, cache:writeback vs none in foo"};
	struct model *m = NULL;
	assert_int_equal(report_build(&o, &m), 0);
	/* 4 settings of aio x bus, then pooled; then the one not answered */
	assert_int_equal(m->n_asked, 6);
	assert_true(m->n_headlines > m->n_asked);
	for (size_t i = 0; i < 4; i++)
		assert_int_equal(strncmp(m->headlines[i], "unsafe vs writethrough, boot_to_shutdown (tarball-write, aio=", 61), 0);
	assert_non_null(strstr(m->headlines[4], "unsafe vs writethrough, boot_to_shutdown (tarball-write, pooled over 4 settings of aio, bus): "));
	assert_non_null(strstr(m->headlines[4], "n=20 each"));
	assert_string_equal(m->headlines[5], "cache:writeback vs none in foo: not compared: no workload of these results measured foo at both levels");
	/* the other answers are the reference's as before */
	assert_non_null(strstr(m->headlines[6], " vs directsync, "));

	char out[512], path[600];
	snprintf(out, sizeof out, "%s/questions", dir);
	assert_int_equal(report_write(m, REPORT_TXT | REPORT_JSON, out), 0);
	snprintf(path, sizeof path, "%s/report.txt", out);
	char *txt = slurp(path);
	assert_non_null(txt);
	char *asked = strstr(txt, "== Answers ==\nWhat this profile asks ([report] compare), on ");
	char *also = strstr(txt, "\nAlso compared:\n");
	assert_non_null(asked);
	assert_non_null(also);
	assert_true(asked < strstr(txt, "unsafe vs writethrough, boot_to_shutdown"));
	assert_true(also < strstr(txt, " vs directsync, "));
	free(txt);
	/* report.json says how many lead, and reads back the same */
	snprintf(path, sizeof path, "%s/report.json", out);
	json_object *back = json_object_from_file(path);
	assert_non_null(back);
	assert_int_equal(json_object_get_int(get(back, "asked")), 6);
	json_object_put(back);
	model_free(m);

	o.compare = "cache:unsafe vs";
	m = NULL;
	assert_int_equal(report_build(&o, &m), -EINVAL);
	assert_null(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cache_answer),
		cmocka_unit_test(test_two_hosts_same),
		cmocka_unit_test(test_baseline),
		cmocka_unit_test(test_bad_bundles),
		cmocka_unit_test(test_files),
		cmocka_unit_test(test_guest_host_l2),
		cmocka_unit_test(test_questions_first),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
