/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A rack's report: a directory of four servers' bundles (and an upload
 * cut short under its temporary name) read as four hosts labelled by
 * their server and disk; the one server whose dd runs are half as fast
 * stands out, as a headline and in "outliers", and no other does, and
 * report.html marks its bars (dashed outline, label, legend line); with
 * two servers, or three alike, none does and nothing is marked. */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>
#include <json.h>

#include "journal.h"
#include "jsonget.h"
#include "model.h"
#include "names.h"
#include "report.h"
#include "report_html.h"

static char dir[] = "/tmp/test-report-rack.XXXXXX";

static void journal_dd(const char *path, const char *cache, unsigned index,
		       unsigned *position, double mbps)
{
	struct journal_run run;
	journal_run_init(&run);
	run.cell.backend = BACKEND_RAW;
	run.cell.format = IMAGE_FORMAT_RAW;
	run.cell.prealloc = RAW_PREALLOC_SPARSE;
	run.cell.cache = name_table_lookup(&cache_mode_names, cache);
	run.cell.aio = AIO_THREADS;
	run.cell.bus = BUS_VIRTIO;
	run.cell.workload = WORKLOAD_DD;
	plan_cell_make_id(&run.cell);
	run.index = index;
	run.position = (*position)++;
	snprintf(run.status, sizeof run.status, "ok");
	assert_int_equal(journal_run_add_metric(&run, "dd_mbps", mbps, "MB/s"), 0);
	assert_int_equal(journal_append(path, &run), 0);
	journal_run_release(&run);
}

/* Bundle NAME in DIR of server LABEL, its dd runs at SPEED MB/s. */
static void bundle(const char *name, const char *label, double speed)
{
	char d[PATH_MAX], path[PATH_MAX + 16];
	unsigned pos = 0;

	snprintf(d, sizeof d, "%s/%s", dir, name);
	assert_int_equal(mkdir(d, 0755), 0);
	snprintf(path, sizeof path, "%s/host.json", d);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "{\"version\": 1, \"hostname\": \"(none)\", \"label\": \"%s\"}\n", label);
	assert_int_equal(fclose(f), 0);
	snprintf(path, sizeof path, "%s/runs.jsonl", d);
	for (unsigned i = 0; i < 4; i++) {
		journal_dd(path, "none", i, &pos, speed + (i % 2 ? 1.5 : -1.5));
		journal_dd(path, "unsafe", i, &pos, 2 * speed + (i % 2 ? 2 : -2));
	}
}

static int setup(void **state)
{
	(void)state;
	if (!mkdtemp(dir))
		return -1;
	bundle("ci-smoke_SRV-1_D1_20261201T100000Z", "SRV-1_D1", 100);
	bundle("ci-smoke_SRV-2_D2_20261201T100100Z", "SRV-2_D2", 102);
	bundle("ci-smoke_SRV-3_D3_20261201T100200Z", "SRV-3_D3", 50);
	bundle("ci-smoke_SRV-4_D4_20261201T100300Z", "SRV-4_D4", 99);
	/* An upload under way: its temporary name, and not a bundle yet. */
	bundle(".ci-smoke_SRV-5_D5_20261201T100400Z.partial", "SRV-5_D5", 10);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	char cmd[PATH_MAX];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static json_object *get(json_object *o, const char *key)
{
	json_object *v = NULL;
	assert_true(json_object_object_get_ex(o, key, &v));
	return v;
}

static json_object *model_of(char **dirs, size_t n)
{
	struct report_options o = {.dirs = (const char *const *)dirs, .n_dirs = n};
	struct model *m = NULL;
	json_object *model = NULL;
	assert_int_equal(report_build(&o, &m), 0);
	assert_int_equal(model_to_json(m, &model), 0);
	model_free(m);
	return model;
}

/* The first CLOSE at or after P (which must have one). */
static const char *upto(const char *p, const char *close)
{
	const char *e = strstr(p, close);
	assert_non_null(e);
	return e;
}

/* MODEL's report.html marks exactly BARS bars as outliers, each with its
 * label, and a tooltip that names HOST; the legend explains the mark iff
 * there is one. */
static void html_outliers(json_object *model, int bars, const char *host)
{
	char *html = NULL;
	size_t len = 0;
	struct model *m = NULL;
	assert_int_equal(model_from_json(model, &m), 0);
	FILE *f = open_memstream(&html, &len);
	assert_non_null(f);
	assert_int_equal(report_html_write(m, f), 0);
	assert_int_equal(fclose(f), 0);
	model_free(m);
	int marked = 0, labels = 0;
	for (const char *p = html; (p = strstr(p, "<rect class=\"bar ")); p++) {
		const char *o = strstr(p, " outlier\"");
		if (!o || o > upto(p, ">"))
			continue;
		marked++;
		const char *t = strstr(p, "<title>"), *te = upto(t, "</title>");
		char title[512];
		snprintf(title, sizeof title, "%.*s", (int)(te - t), t);
		assert_non_null(strstr(title, host));
		assert_non_null(strstr(title, "this server stands out from the others"));
	}
	for (const char *p = html; (p = strstr(p, "<text class=\"mark outlier\"")); p++)
		labels += strncmp(strchr(p, '>'), ">outlier</text>", 15) == 0;
	assert_int_equal(marked, bars);
	assert_int_equal(labels, bars);
	assert_int_equal(strstr(html, "outlier (dashed outline): this server's interval "
				      "excludes the other servers'") != NULL,
			 bars > 0);
	free(html);
}

static void test_rack(void **state)
{
	char **dirs = NULL;
	size_t n = 0;
	(void)state;

	assert_int_equal(report_rack_expand(dir, &dirs, &n), 0);
	assert_int_equal(n, 4); /* the partial upload is not one */
	assert_non_null(strstr(dirs[0], "SRV-1"));
	assert_non_null(strstr(dirs[3], "SRV-4"));
	/* A bundle itself, or a directory of none, is not a rack. */
	char **none = NULL;
	size_t k = 1;
	assert_int_equal(report_rack_expand(dirs[0], &none, &k), 0);
	assert_null(none);
	assert_int_equal(k, 0);
	assert_int_equal(report_rack_expand("/nonexistent", &none, &k), 0);
	assert_int_equal(k, 0);

	json_object *model = model_of(dirs, n);
	json_object *hosts = get(model, "hosts");
	assert_int_equal(json_object_array_length(hosts), 4);
	assert_string_equal(jsonget_string(json_object_array_get_idx(hosts, 2), "label"),
			    "SRV-3_D3");
	/* SRV-3 stands out in both cells, worse; nobody else does. */
	json_object *out = get(model, "outliers");
	assert_int_equal(json_object_array_length(out), 2);
	for (size_t i = 0; i < 2; i++) {
		json_object *o = json_object_array_get_idx(out, i);
		assert_string_equal(jsonget_string(o, "host"), "SRV-3_D3");
		assert_string_equal(jsonget_string(o, "metric"), "dd_mbps");
		assert_true(json_object_get_boolean(get(o, "worse")));
		assert_int_equal(json_object_get_int(get(o, "others")), 3);
		assert_true(json_object_get_double(get(o, "ci_high")) <
			    json_object_get_double(get(o, "others_ci_low")));
	}
	const char *h = json_object_to_json_string_ext(get(model, "headlines"),
						       JSON_C_TO_STRING_NOSLASHESCAPE);
	if (getenv("SHOW")) fprintf(stderr, "%s\n", h);
	assert_non_null(strstr(h, "server SRV-3_D3 stands out: dd dd_mbps (raw/raw/sparse/none/threads/virtio/dd)"));
	assert_non_null(strstr(h, "50 [47.24, 52.76] MB/s, the other 3 servers 100.3 [96.54, 104.1] MB/s, worse"));
	/* Each metric lists its own. */
	json_object *w = json_object_array_get_idx(get(model, "workloads"), 0);
	json_object *m = json_object_array_get_idx(get(w, "metrics"), 0);
	assert_int_equal(json_object_array_length(get(m, "outliers")), 2);
	html_outliers(model, 2, "SRV-3_D3");
	json_object_put(model);

	/* Two servers: each excludes the other, neither is the odd one. */
	model = model_of(dirs + 1, 2);
	assert_int_equal(json_object_array_length(get(model, "outliers")), 0);
	json_object_put(model);
	/* Three alike: none. */
	char *alike[] = {dirs[0], dirs[1], dirs[3]};
	model = model_of(alike, 3);
	assert_int_equal(json_object_array_length(get(model, "outliers")), 0);
	html_outliers(model, 0, "");
	json_object_put(model);
	for (size_t i = 0; i < n; i++)
		free(dirs[i]);
	free(dirs);
}

/* An uploaded bundle's SHA256SUMS (made here by sha256sum) is checked:
 * whole, it loads; a file changed or missing refuses the bundle. */
static void test_sums(void **state)
{
	char d[512], cmd[PATH_MAX * 2];
	char *dirs[] = {d};
	struct report_options o = {.dirs = (const char *const *)dirs, .n_dirs = 1};
	struct model *model = NULL;
	(void)state;

	snprintf(d, sizeof d, "%s/ci-smoke_SRV-1_D1_20261201T100000Z", dir);
	snprintf(cmd, sizeof cmd, "cd '%s' && sha256sum runs.jsonl host.json > SHA256SUMS", d);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(report_build(&o, &model), 0);
	model_free(model);
	snprintf(cmd, sizeof cmd, "cp '%s/host.json' '%s/h' && echo ' ' >> '%s/host.json'", d, dir, d);
	assert_int_equal(system(cmd), 0);
	model = NULL;
	assert_int_equal(report_build(&o, &model), -EINVAL);
	assert_null(model);
	snprintf(cmd, sizeof cmd, "mv '%s/h' '%s/host.json' && echo \"%064d  console/x.log\" >> '%s/SHA256SUMS'",
		 dir, d, 0, d);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(report_build(&o, &model), -EINVAL);
	snprintf(cmd, sizeof cmd, "rm '%s/SHA256SUMS'", d);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rack),
		cmocka_unit_test(test_sums),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
