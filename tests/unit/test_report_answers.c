/* The report's answers read as a statistician reads them, on made-up
 * journals: no answer over several settings that every setting
 * contradicts (the crashes of unequal settings added would flip it:
 * Simpson), settings that point different ways left unanswered over
 * them (crashes, or runs shown faster in one and slower in another),
 * crash counts that differ between cells; a comparison whose runs
 * did not vary is no finding, and no verdict on a published claim rests
 * on it; the test named is the one used (61 crashes a side); a p of
 * 0.0502 does not print as 0.05; and no interval over records, in any
 * format.  Expected p-values are R's (tests/unit/data/exact-tests.R). */
#include <errno.h>
#include <limits.h>
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
#include "model.h"
#include "report.h"
#include "summary.h"

static char dir[] = "/tmp/test-report-answers.XXXXXX";

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = calloc(1, 1 << 20);
	assert_non_null(f);
	assert_non_null(buf);
	buf[fread(buf, 1, (1 << 20) - 1, f)] = '\0';
	fclose(f);
	return buf;
}

/* A bundle NAME under the test's directory, its path into BUF. */
static const char *bundle(const char *name, char *buf, size_t size)
{
	snprintf(buf, size, "%s/%s", dir, name);
	if (mkdir(buf, 0755) < 0 && errno != EEXIST)
		fail_msg("mkdir %s", buf);
	return buf;
}

static void cell_of(struct journal_run *run, enum backend backend, enum cache_mode cache,
		    enum workload_kind workload, int64_t l2)
{
	run->cell = (struct plan_cell){.backend = backend,
				       .format = backend == BACKEND_QCOW2 ? IMAGE_FORMAT_QCOW2
									  : IMAGE_FORMAT_RAW,
				       .prealloc = backend == BACKEND_QCOW2 ? QCOW2_PREALLOC_OFF : -1,
				       .cache = cache, .aio = AIO_THREADS,
				       .bus = workload == WORKLOAD_QEMU_IMG_BENCH ? -1 : BUS_VIRTIO,
				       .workload = workload,
				       .l2_cache = backend == BACKEND_QCOW2 ? l2 : -1};
	plan_cell_make_id(&run->cell);
}

/* N runs of a durability cell of BACKEND x CACHE after a host crash: the
 * first K lose all of the 192 they acknowledged, the others none; then
 * FAILED failed runs and EMPTY ok runs that acknowledged nothing (no
 * crash whose loss counts).  Their acknowledgements come at SPEED a
 * second, give or take one. */
static void crashes(const char *d, enum backend backend, enum cache_mode cache, unsigned n,
		    unsigned k, unsigned failed, unsigned empty, double speed, unsigned *position)
{
	char path[PATH_MAX + 16];
	snprintf(path, sizeof path, "%s/runs.jsonl", d);
	for (unsigned i = 0; i < n + failed + empty; i++) {
		struct journal_run run;
		journal_run_init(&run);
		cell_of(&run, backend, cache, WORKLOAD_DURABILITY, 0);
		run.index = i;
		run.position = (*position)++;
		snprintf(run.status, sizeof run.status, "%s", i < n + empty ? "ok" : "failed");
		snprintf(run.crash, sizeof run.crash, "host");
		if (i < n + empty) {
			double acked = i < n ? 192 : 0, lost = i < k ? 192 : 0;
			assert_int_equal(journal_run_add_metric(&run, "acks_per_second",
								speed - 1 + i % 3, "1/s"), 0);
			assert_int_equal(journal_run_add_metric(&run, "lost", lost, "records lost"), 0);
			assert_int_equal(journal_run_add_metric(&run, "acknowledged", acked, "records"),
					 0);
			assert_int_equal(journal_run_add_metric(&run, "lost_missing", lost,
								"records lost"), 0);
		}
		assert_int_equal(journal_append(path, &run), 0);
		journal_run_release(&run);
	}
}

/* qemu-img bench runs of a cell, their seconds V (N of them). */
static void bench(const char *d, enum backend backend, int64_t l2, const double *v, size_t n,
		  unsigned *position)
{
	char path[PATH_MAX + 16];
	snprintf(path, sizeof path, "%s/runs.jsonl", d);
	for (size_t i = 0; i < n; i++) {
		struct journal_run run;
		journal_run_init(&run);
		cell_of(&run, backend, CACHE_NONE, WORKLOAD_QEMU_IMG_BENCH, l2);
		run.index = (unsigned)i;
		run.position = (*position)++;
		snprintf(run.status, sizeof run.status, "ok");
		assert_int_equal(journal_run_add_metric(&run, "bench_seconds", v[i], "s"), 0);
		assert_int_equal(journal_append(path, &run), 0);
		journal_run_release(&run);
	}
}

static char simpson[PATH_MAX], unequal[PATH_MAX], disagree[PATH_MAX], sixty_one[PATH_MAX],
	near[PATH_MAX], flat[PATH_MAX];

static int setup(void **state)
{
	unsigned position = 0;

	(void)state;
	if (!mkdtemp(dir))
		return -1;
	/* The journal: on the LV unsafe lost in 3 of 3 crashes and
	 * writethrough in 11 of 12, on qcow2 unsafe in 1 of 12 and
	 * writethrough in 0 of 3.  Added, 4 of 15 against 11 of 15. */
	bundle("simpson", simpson, sizeof simpson);
	crashes(simpson, BACKEND_LVM, CACHE_UNSAFE, 3, 3, 0, 0, 40, &position);
	crashes(simpson, BACKEND_LVM, CACHE_WRITETHROUGH, 12, 11, 0, 0, 30, &position);
	crashes(simpson, BACKEND_QCOW2, CACHE_UNSAFE, 12, 1, 0, 0, 30, &position);
	crashes(simpson, BACKEND_QCOW2, CACHE_WRITETHROUGH, 3, 0, 0, 0, 40, &position);
	/* Crash counts that differ: a failed run, a run that acknowledged
	 * nothing, a cell cut short. */
	position = 0;
	bundle("unequal", unequal, sizeof unequal);
	crashes(unequal, BACKEND_LVM, CACHE_UNSAFE, 5, 5, 1, 0, 30, &position);
	crashes(unequal, BACKEND_LVM, CACHE_WRITETHROUGH, 4, 0, 0, 1, 30, &position);
	crashes(unequal, BACKEND_QCOW2, CACHE_UNSAFE, 4, 3, 0, 0, 30, &position);
	crashes(unequal, BACKEND_QCOW2, CACHE_WRITETHROUGH, 6, 0, 0, 0, 30, &position);
	/* Settings that point different ways. */
	position = 0;
	bundle("disagree", disagree, sizeof disagree);
	crashes(disagree, BACKEND_LVM, CACHE_UNSAFE, 3, 3, 0, 0, 30, &position);
	crashes(disagree, BACKEND_LVM, CACHE_WRITETHROUGH, 3, 0, 0, 0, 30, &position);
	crashes(disagree, BACKEND_QCOW2, CACHE_UNSAFE, 3, 0, 0, 0, 30, &position);
	crashes(disagree, BACKEND_QCOW2, CACHE_WRITETHROUGH, 3, 3, 0, 0, 30, &position);
	/* 61 crashes a side: past the 60 where Fisher's test once stood in. */
	position = 0;
	bundle("sixty-one", sixty_one, sizeof sixty_one);
	crashes(sixty_one, BACKEND_LVM, CACHE_UNSAFE, 61, 4, 0, 0, 30, &position);
	crashes(sixty_one, BACKEND_LVM, CACHE_WRITETHROUGH, 61, 0, 0, 0, 30, &position);
	/* p = 0.0502. */
	position = 0;
	bundle("near", near, sizeof near);
	crashes(near, BACKEND_LVM, CACHE_UNSAFE, 16, 4, 0, 0, 30, &position);
	crashes(near, BACKEND_LVM, CACHE_WRITETHROUGH, 16, 0, 0, 0, 30, &position);
	/* Runs that did not vary at qemu-img's millisecond: each L2 cache
	 * size's two runs alike, raw's apart. */
	static const double small[] = {1.234, 1.234}, large[] = {1.223, 1.223},
			    raw[] = {1.301, 1.287};
	position = 0;
	bundle("flat", flat, sizeof flat);
	bench(flat, BACKEND_QCOW2, 65536, small, 2, &position);
	bench(flat, BACKEND_QCOW2, 1048576, large, 2, &position);
	bench(flat, BACKEND_RAW, -1, raw, 2, &position);
	return 0;
}

static int teardown(void **state)
{
	char cmd[PATH_MAX + 16];

	(void)state;
	if (getenv("KEEP_TMP"))
		return 0;
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static struct model *build(const char *path, const char *compare, const char *reference)
{
	const char *dirs[] = {path};
	struct report_options o = {.dirs = dirs, .n_dirs = 1, .compare = compare,
				   .reference = reference};
	struct model *m = NULL;

	assert_int_equal(report_build(&o, &m), 0);
	assert_non_null(m);
	return m;
}

static const struct model_metric *metric_of(const struct model *m, const char *name)
{
	for (size_t w = 0; w < m->n_workloads; w++)
		for (size_t k = 0; k < m->workloads[w].n_metrics; k++)
			if (strcmp(m->workloads[w].metrics[k].name, name) == 0)
				return &m->workloads[w].metrics[k];
	fail_msg("no metric %s", name);
	return NULL;
}

/* The loss comparison of AXIS over all its settings (POOLED) or holding
 * HELD_LEVEL. */
static const struct model_loss_comparison *loss_of(const struct model *m, const char *axis,
						   bool pooled, const char *held_level)
{
	const struct model_metric *lost = metric_of(m, "lost");
	for (size_t i = 0; i < lost->n_loss_comparisons; i++) {
		const struct model_loss_comparison *c = &lost->loss_comparisons[i];
		if (strcmp(c->axis, axis) != 0 || c->pooled != pooled)
			continue;
		if (pooled || (c->n_held && strcmp(c->held[0].level, held_level) == 0))
			return c;
	}
	fail_msg("no %s comparison of %s", pooled ? "pooled" : held_level, axis);
	return NULL;
}

/* Whether any answer says LEVEL loses them in more crashes. */
static bool any_says_more(const struct model *m, const char *who)
{
	char says[128];
	snprintf(says, sizeof says, "; %s loses them in more crashes", who);
	for (size_t i = 0; i < m->n_headlines; i++)
		if (strstr(m->headlines[i], says))
			return true;
	return false;
}

/* Unsafe lost in at least as large a share of crashes in both settings:
 * no answer says writethrough lost in more, and the answer over both
 * settings keeps each one's crashes apart. */
static void test_simpson(void **state)
{
	struct model *m = build(simpson, "cache:unsafe vs writethrough", NULL);

	(void)state;
	assert_false(any_says_more(m, "writethrough"));
	const struct model_loss_comparison *c = loss_of(m, "cache", true, NULL);
	assert_string_equal(c->sentence,
			    "unsafe vs writethrough, after a host crash (stratified over 2 settings "
			    "of backend): lost acknowledged writes in 3 of 3 crashes vs 11 of 12 "
			    "(backend=lvm), 1 of 12 vs 0 of 3 (backend=qcow2); no difference shown "
			    "(exact Mantel-Haenszel test, p=1)");
	assert_string_equal(c->test, "exact Mantel-Haenszel test");
	assert_true(c->strata == 2 && !c->shown && !c->disagree && fabs(c->p - 1) < 1e-9);
	/* Its acknowledgements came faster under unsafe on the LV and slower
	 * on qcow2, each shown: no answer over both either. */
	const struct model_metric *acks = metric_of(m, "acks_per_second");
	const struct model_comparison *pooled = NULL;
	for (size_t i = 0; i < acks->n_comparisons; i++)
		if (acks->comparisons[i].pooled && strcmp(acks->comparisons[i].axis, "cache") == 0)
			pooled = &acks->comparisons[i];
	assert_non_null(pooled);
	assert_true(pooled->disagree && !pooled->shown && !pooled->better);
	assert_string_equal(pooled->sentence,
			    "unsafe vs writethrough, acks_per_second (durability, pooled over 2 "
			    "settings of backend): the settings point different ways (shown better "
			    "in 1 and worse in 1 of the 2), so no answer is given over them (each "
			    "setting's stands); their mean +0% [-3%, +3%], n=15 each");
	/* The added counts are nowhere. */
	for (size_t i = 0; i < m->n_headlines; i++)
		assert_null(strstr(m->headlines[i], "of 15"));
	/* report.json says which test, and gives no added sides. */
	json_object *o = NULL;
	assert_int_equal(model_to_json(m, &o), 0);
	const char *text = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN);
	assert_non_null(strstr(text, "\"level_loss\":null,\"reference_loss\":null,\"test\":\"exact "
				     "Mantel-Haenszel test\",\"p\":1,\"shown\":false,"
				     "\"settings_disagree\":false,\"crashes_to_resolve\":null"));
	assert_non_null(strstr(text, "\"better\":false,\"sentence\":\"unsafe vs writethrough, "
				     "acks_per_second (durability, pooled over 2 settings of backend): "
				     "the settings point different ways"));
	assert_non_null(strstr(text, "\"settings_disagree\":true"));
	struct model *back = NULL;
	json_object *again = NULL;
	assert_int_equal(model_from_json(o, &back), 0);
	assert_int_equal(model_to_json(back, &again), 0);
	assert_string_equal(json_object_to_json_string(o), json_object_to_json_string(again));
	json_object_put(o);
	json_object_put(again);
	model_free(back);
	model_free(m);
}

/* Cells with different numbers of crashes (a failed run and a run that
 * acknowledged nothing count as none): each pair says its own n, and the
 * settings are strata of one test (R's mantelhaen.test(exact = TRUE) of
 * 5 of 5 vs 0 of 4 and 3 of 4 vs 0 of 6: 0.00026455026455026462). */
static void test_unequal(void **state)
{
	struct model *m = build(unequal, "cache:unsafe vs writethrough", NULL);

	(void)state;
	const struct model_loss_comparison *lvm = loss_of(m, "cache", false, "lvm");
	assert_true(lvm->l.crashes == 5 && lvm->r.crashes == 4);
	assert_non_null(strstr(lvm->sentence, "lost acknowledged writes in 5 of 5 crashes [48%, "
					      "100%], 100% of them per crash, vs 0 of 4 [0%, 60%]"));
	const struct model_loss_comparison *c = loss_of(m, "cache", true, NULL);
	assert_non_null(strstr(c->sentence, "lost acknowledged writes in 5 of 5 crashes vs 0 of 4 "
					    "(backend=lvm), 3 of 4 vs 0 of 6 (backend=qcow2); unsafe "
					    "loses them in more crashes (exact Mantel-Haenszel test, "
					    "p=0.00026)"));
	assert_true(fabs(c->p - 0.00026455026455026462) < 1e-12 && c->shown);
	model_free(m);
}

/* Unsafe lost in every crash on the LV and in none on qcow2, and
 * writethrough the other way: no answer over both. */
static void test_disagree(void **state)
{
	struct model *m = build(disagree, NULL, NULL);

	(void)state;
	const struct model_loss_comparison *c = loss_of(m, "cache", true, NULL);
	assert_true(c->disagree && !c->shown && isnan(c->p));
	assert_string_equal(c->sentence,
			    "writethrough vs unsafe, after a host crash (stratified over 2 settings "
			    "of backend): lost acknowledged writes in 0 of 3 crashes vs 3 of 3 "
			    "(backend=lvm), 3 of 3 vs 0 of 3 (backend=qcow2); the settings point "
			    "different ways, so no answer is given over them (each setting's "
			    "stands)");
	/* Each setting's answer is an answer of its own. */
	static const char pair[] = "writethrough vs unsafe, after a host crash (backend=";
	size_t pairs = 0;
	for (size_t i = 0; i < m->n_headlines; i++)
		pairs += strncmp(m->headlines[i], pair, strlen(pair)) == 0;
	assert_int_equal(pairs, 2);
	json_object *o = NULL;
	assert_int_equal(model_to_json(m, &o), 0);
	assert_non_null(strstr(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN),
			       "\"p\":null,\"shown\":false,\"settings_disagree\":true"));
	json_object_put(o);
	model_free(m);
}

/* 61 crashes a side: the sentence names Boschloo's test and gives its p
 * (0.084981409127447477; Fisher's is 0.119) and its estimate (69). */
static void test_sixty_one(void **state)
{
	struct model *m = build(sixty_one, "cache:unsafe vs writethrough", NULL);

	(void)state;
	const struct model_loss_comparison *c = &metric_of(m, "lost")->loss_comparisons[0];
	assert_string_equal(c->test, "Boschloo's exact test");
	assert_true(fabs(c->p - 0.084981409127447477) < 1e-7);
	assert_int_equal(c->resolve, 69);
	assert_non_null(strstr(c->sentence, "no difference shown at n=61 crashes each (Boschloo's "
					    "exact test, p=0.085): about 69 crashes a side would "
					    "show one if each lost as these did"));
	model_free(m);
}

/* 4 of 16 against 0 of 16: p = 0.0502, not shown, and not "p=0.05". */
static void test_near(void **state)
{
	struct model *m = build(near, "cache:unsafe vs writethrough", NULL);

	(void)state;
	const struct model_loss_comparison *c = &metric_of(m, "lost")->loss_comparisons[0];
	assert_false(c->shown);
	assert_true(fabs(c->p - 0.050227551255375195) < 1e-7);
	assert_non_null(strstr(c->sentence, "no difference shown at n=16 crashes each (Boschloo's "
					    "exact test, p=0.0502): about 18 crashes a side would "
					    "show one if each lost as these did"));
	model_free(m);
}

/* Two L2 cache sizes whose runs read the same to the millisecond: no
 * interval, nothing shown, and the study's claim about them not
 * resolved; raw's runs varied and are compared as ever. */
static void test_flat(void **state)
{
	struct model *m = build(flat, NULL, "qcow2-l2-cache");
	const struct model_metric *b = metric_of(m, "bench_seconds");
	bool seen = false;

	(void)state;
	for (size_t i = 0; i < b->n_comparisons; i++) {
		const struct model_comparison *c = &b->comparisons[i];
		if (strcmp(c->axis, "l2_cache") != 0)
			continue;
		seen = true;
		assert_true(c->no_spread && !c->shown && isnan(c->r.low) && isnan(c->r.high));
		assert_true(fabs(c->resolution - 0.001) < 1e-15);
		assert_non_null(strstr(c->sentence, ": -0.89%, n=2 each, not shown: no run varied at "
						    "the metric's resolution (0.001 s), so there is no "
						    "interval; runs read to a finer resolution (longer "
						    "runs) would answer, more runs only if they vary"));
		assert_null(strstr(c->sentence, "["));
	}
	assert_true(seen);
	/* Nor is a cell's: "1.234 in each of 2 runs", not "1.234 ± 0", and
	 * no interval (the chart draws no whisker). */
	size_t alike = 0;
	for (size_t i = 0; i < b->n_cells; i++) {
		const struct model_cell *c = &b->cells[i];
		bool same = strcmp(c->display, "1.234 in each of 2 runs") == 0 ||
			    strcmp(c->display, "1.223 in each of 2 runs") == 0;
		assert_true(same == (isnan(c->ci_low) && isnan(c->ci_high)));
		alike += same;
	}
	assert_int_equal(alike, 2);
	/* The claims on it are not resolved: "lower", and "10x lower". */
	json_object *o = NULL, *refs, *verdicts;
	assert_int_equal(model_to_json(m, &o), 0);
	assert_true(json_object_object_get_ex(o, "references", &refs));
	assert_true(json_object_object_get_ex(json_object_array_get_idx(refs, 0), "verdicts",
					      &verdicts));
	for (size_t i = 0; i < 2; i++) {
		json_object *v = json_object_array_get_idx(verdicts, i), *outcome, *text;
		assert_true(json_object_object_get_ex(v, "outcome", &outcome));
		assert_true(json_object_object_get_ex(v, "verdict", &text));
		assert_string_equal(json_object_get_string(outcome), "not resolved");
		assert_string_equal(json_object_get_string(text),
				    "not resolved at n=2 each: no run varied at the metric's "
				    "resolution, so there is no interval (a finer resolution would "
				    "answer)");
	}
	/* ... and report.json says why, and reads back so. */
	const char *text = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN);
	assert_non_null(strstr(text, "\"did_not_vary\":true,\"resolution\":0.001"));
	struct model *back = NULL;
	assert_int_equal(model_from_json(o, &back), 0);
	const struct model_metric *bb = metric_of(back, "bench_seconds");
	bool kept = false;
	for (size_t i = 0; i < bb->n_comparisons; i++)
		kept |= bb->comparisons[i].no_spread && bb->comparisons[i].resolution == 0.001;
	assert_true(kept);
	model_free(back);
	json_object_put(o);
	model_free(m);
}

/* The section of TEXT from the line starting with FROM to the next
 * "\n== " (or the end), as a new string. */
static char *section(const char *text, const char *from)
{
	const char *a = strstr(text, from), *b;
	assert_non_null(a);
	b = strstr(a + 1, "\n== ");
	return strndup(a, b ? (size_t)(b - a) : strlen(a));
}

/* Counts of records are said by crash in every format: no "±", no
 * interval of them in the CSV or the JSON, no negative bound, and
 * summary.txt's rows of them give k of n crashes. */
static void test_records(void **state)
{
	struct model *m = build(simpson, NULL, NULL);
	static const char *const records[] = {"lost", "acknowledged", "lost_missing"};
	char path[PATH_MAX + 64], out[PATH_MAX + 16];

	(void)state;
	for (size_t r = 0; r < 3; r++) {
		const struct model_metric *x = metric_of(m, records[r]);
		for (size_t i = 0; i < x->n_cells; i++) {
			const struct model_cell *c = &x->cells[i];
			assert_true(isnan(c->ci_low) && isnan(c->ci_high));
			assert_null(strstr(c->display, "±"));
		}
	}
	const struct model_metric *missing = metric_of(m, "lost_missing");
	bool said = false;
	for (size_t i = 0; i < missing->n_cells; i++)
		said |= strcmp(missing->cells[i].display,
			       "in 1 of 12 crashes; per crash 0 to 192, median 0") == 0;
	assert_true(said);
	const struct model_metric *acked = metric_of(m, "acknowledged");
	said = false;
	for (size_t i = 0; i < acked->n_cells; i++)
		said |= strcmp(acked->cells[i].display, "192 in each of 3 crashes") == 0;
	assert_true(said);

	snprintf(out, sizeof out, "%s/simpson-report", dir);
	assert_int_equal(report_write(m, REPORT_ALL_FORMATS, out), 0);
	snprintf(path, sizeof path, "%s/report.txt", out);
	char *txt = slurp(path);
	static const char *const heads[] = {"== durability: lost (", "== durability: acknowledged (",
					    "== durability: lost_missing ("};
	for (size_t i = 0; i < 3; i++) {
		char *s = section(txt, heads[i]);
		assert_null(strstr(s, "±"));
		assert_null(strstr(s, "interval wider"));
		free(s);
	}
	free(txt);
	/* CSV: the cell rows of counts of records have no ci95 columns; no
	 * number in them is negative. */
	char cmd[PATH_MAX * 2];
	snprintf(cmd, sizeof cmd,
		 "python3 -c 'import csv,sys; r=list(csv.DictReader(open(sys.argv[1], newline=\"\")));"
		 " c=[x for x in r if x[\"kind\"] == \"cell\" and x[\"unit\"].startswith(\"records\")];"
		 " sys.exit(not (len(c) == 12 and all(x[\"ci95_low (unit)\"] == x[\"ci95_high (unit)\"]"
		 " == \"\" for x in c) and not any(v.startswith(\"-\") for x in c for v in"
		 " x.values())))' '%s/report.csv'",
		 out);
	assert_int_equal(system(cmd), 0);
	/* JSON: their cells' interval is null. */
	snprintf(cmd, sizeof cmd,
		 "python3 -c 'import json,sys; m=json.load(open(sys.argv[1]));"
		 " c=[c for w in m[\"workloads\"] for x in w[\"metrics\"] if x[\"unit\"].startswith("
		 "\"records\") for c in x[\"cells\"]];"
		 " sys.exit(not (len(c) == 12 and all(x[\"ci_low\"] is None and x[\"ci_high\"] is None"
		 " for x in c)))' '%s/report.json'",
		 out);
	assert_int_equal(system(cmd), 0);
	/* HTML: each table of their values says by crash, with no "±". */
	snprintf(path, sizeof path, "%s/report.html", out);
	char *html = slurp(path);
	const char *p = html;
	size_t tables = 0;
	while ((p = strstr(p, "<caption>by crash: each crash's count</caption>"))) {
		const char *end = strstr(p, "</table>");
		assert_non_null(end);
		char *t = strndup(p, (size_t)(end - p));
		assert_null(strstr(t, "±"));
		free(t);
		tables++;
		p = end;
	}
	assert_int_equal(tables, 2); /* acknowledged, lost_missing: lost is drawn by crash */
	assert_null(strstr(html, "192 ± 0"));
	free(html);
	model_free(m);

	/* summary.txt and summary.json: the same. */
	assert_int_equal(summary_write_results(simpson), 0);
	snprintf(path, sizeof path, "%s/summary.txt", simpson);
	char *sum = slurp(path);
	for (const char *line = sum; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		const char *eol = strchr(line, '\n');
		char *l = strndup(line, eol ? (size_t)(eol - line) : strlen(line));
		if (strstr(l, " records "))
			assert_null(strstr(l, "±"));
		free(l);
	}
	assert_non_null(strstr(sum, "lost                   records lost  12  1 of 12 crashes"));
	free(sum);
	snprintf(cmd, sizeof cmd,
		 "python3 -c 'import json,sys; s=json.load(open(sys.argv[1]));"
		 " c=[x for c in s[\"cells\"] for x in c[\"metrics\"] if x[\"unit\"].startswith("
		 "\"records\")];"
		 " sys.exit(not (len(c) == 12 and all(x[\"ci95\"] is None for x in c)))'"
		 " '%s/summary.json'",
		 simpson);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_simpson),	   cmocka_unit_test(test_unequal),
		cmocka_unit_test(test_disagree),   cmocka_unit_test(test_sixty_one),
		cmocka_unit_test(test_near),	   cmocka_unit_test(test_flat),
		cmocka_unit_test(test_records),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
