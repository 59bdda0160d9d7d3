/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The report's loss answers, the crash as the unit: a made-up journal
 * (tests/unit/data/durability-host-crash.jsonl) whose unsafe crashes
 * lost 50 and 5 of 192 acknowledged records and whose writethrough ones
 * lost none, answered with k of n crashes and each crash's fraction,
 * never with an interval over the records pooled (55 of 384 [11%, 18%]
 * would exclude both crashes' own 26% and 2.6%); the host crash records
 * beside each crash in every format; and journals with enough crashes
 * to resolve the comparison, per pair of cells and over the settings. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <regex.h>
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

static char dir[] = "/tmp/test-report-loss.XXXXXX";
static char two[PATH_MAX], five[PATH_MAX], cuts[PATH_MAX];

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

/* Run INDEX of CELL, a crash recorded as FACTS that lost LOST of ACKED,
 * appended to D's journal at *POSITION. */
static void journal_crash(const char *d, const struct plan_cell *cell, unsigned index,
			  const char *crash, const struct crashfacts *facts, double lost,
			  double acked, unsigned *position)
{
	char path[PATH_MAX + 16];
	struct journal_run run;

	snprintf(path, sizeof path, "%s/runs.jsonl", d);
	journal_run_init(&run);
	run.cell = *cell;
	plan_cell_make_id(&run.cell);
	run.index = index;
	run.position = (*position)++;
	snprintf(run.status, sizeof run.status, "ok");
	snprintf(run.crash, sizeof run.crash, "%s", crash);
	run.host_crash = *facts;
	assert_int_equal(journal_run_add_metric(&run, "acks_per_second", 30 + index, "1/s"), 0);
	assert_int_equal(journal_run_add_metric(&run, "lost", lost, "records lost"), 0);
	assert_int_equal(journal_run_add_metric(&run, "acknowledged", acked, "records"), 0);
	assert_int_equal(journal_append(path, &run), 0);
	journal_run_release(&run);
}

/* N crashes a cell of BACKEND x CACHE, each losing LOST of ACKED. */
static void journal_crashes(const char *d, enum backend backend, enum cache_mode cache,
			    unsigned n, double lost, double acked, unsigned *position)
{
	struct plan_cell cell = {.backend = backend,
				 .format = backend == BACKEND_QCOW2 ? IMAGE_FORMAT_QCOW2
								    : IMAGE_FORMAT_RAW,
				 .prealloc = -1, .cache = cache, .aio = AIO_THREADS,
				 .bus = BUS_VIRTIO, .workload = WORKLOAD_DURABILITY,
				 .l2_cache = backend == BACKEND_QCOW2 ? 0 : -1};
	struct crashfacts facts;

	if (backend == BACKEND_QCOW2)
		cell.prealloc = QCOW2_PREALLOC_OFF;
	crashfacts_init(&facts);
	facts.present = true;
	snprintf(facts.mechanism, sizeof facts.mechanism, "kexec");
	facts.dirty_kib = 2048;
	for (unsigned i = 0; i < n; i++)
		journal_crash(d, &cell, i, "host", &facts, lost, acked, position);
}

/* N power cuts of a cell of lvm x CACHE x the disk's write cache WC
 * (WRITE_CACHE_ON, _OFF), cut I losing LOST[I] of 200 acknowledged. */
static void journal_cuts(const char *d, enum cache_mode cache, int wc, unsigned n,
			 const double *lost, unsigned *position)
{
	struct plan_cell cell = {.backend = BACKEND_LVM, .format = IMAGE_FORMAT_RAW,
				 .prealloc = -1, .cache = cache, .aio = AIO_THREADS,
				 .bus = BUS_VIRTIO, .workload = WORKLOAD_DURABILITY,
				 .l2_cache = -1, .write_cache = wc};
	struct crashfacts facts;

	crashfacts_init(&facts);
	facts.present = true;
	snprintf(facts.mechanism, sizeof facts.mechanism, "power");
	snprintf(facts.bmc, sizeof facts.bmc,
		 "in-band IPMI (/dev/ipmi0): IPMI 2.0, firmware 9.08, chassis power on: "
		 "chassis power cycle");
	snprintf(facts.disk_write_cache, sizeof facts.disk_write_cache, "%s",
		 wc == WRITE_CACHE_ON ? "on" : "off");
	facts.dirty_kib = facts.writeback_kib = 0;
	for (unsigned i = 0; i < n; i++)
		journal_crash(d, &cell, i, "power", &facts, lost[i], 200, position);
}

static int setup(void **state)
{
	const char *top = getenv("TOP");
	char cmd[PATH_MAX * 3];
	unsigned position = 0;

	(void)state;
	if (!mkdtemp(dir))
		return -1;
	snprintf(two, sizeof two, "%s/two", dir);
	snprintf(five, sizeof five, "%s/five", dir);
	snprintf(cuts, sizeof cuts, "%s/cuts", dir);
	snprintf(cmd, sizeof cmd, "mkdir '%s' && cp '%s/tests/unit/data/durability-host-crash.jsonl' "
		 "'%s/runs.jsonl'", two, top ? top : ".", two);
	if (system(cmd) != 0 || mkdir(five, 0755) < 0)
		return -1;
	/* All or none: unsafe lost every acknowledged record in each crash,
	 * writethrough none, five crashes a cell on two backends. */
	for (int b = 0; b < 2; b++) {
		enum backend backend = b ? BACKEND_QCOW2 : BACKEND_LVM;
		journal_crashes(five, backend, CACHE_UNSAFE, 5, 192, 192, &position);
		journal_crashes(five, backend, CACHE_WRITETHROUGH, 5, 0, 165, &position);
	}
	/* Power cuts, a lying disk's: with its write cache on, none and
	 * writethrough lost records in some cuts (the disk dropped what it
	 * said it had flushed), unsafe in every one; with it off, nothing
	 * was lost but by unsafe. */
	static const double none[5] = {0}, some[5] = {0, 12, 0, 3, 0}, all[5] = {40, 31, 52, 9, 77};
	if (mkdir(cuts, 0755) < 0)
		return -1;
	position = 0;
	for (int wc = WRITE_CACHE_ON; wc <= WRITE_CACHE_OFF; wc++) {
		journal_cuts(cuts, CACHE_NONE, wc, 5, wc == WRITE_CACHE_ON ? some : none, &position);
		journal_cuts(cuts, CACHE_WRITETHROUGH, wc, 5, wc == WRITE_CACHE_ON ? some : none,
			     &position);
		journal_cuts(cuts, CACHE_UNSAFE, wc, 5, all, &position);
	}
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

static struct model *build_comparing(const char *bundle, const char *compare)
{
	const char *dirs[] = {bundle};
	struct report_options o = {.dirs = dirs, .n_dirs = 1, .compare = compare};
	struct model *m = NULL;

	assert_int_equal(report_build(&o, &m), 0);
	assert_non_null(m);
	return m;
}

static struct model *build(const char *bundle)
{
	return build_comparing(bundle, "cache:unsafe vs writethrough");
}

static const struct model_metric *lost_metric(const struct model *m)
{
	for (size_t w = 0; w < m->n_workloads; w++)
		for (size_t k = 0; k < m->workloads[w].n_metrics; k++)
			if (strcmp(m->workloads[w].metrics[k].name, "lost") == 0)
				return &m->workloads[w].metrics[k];
	fail_msg("no lost metric");
	return NULL;
}

/* Every "[a%, b%]" in TEXT is the interval of a count of crashes ("k of
 * n crashes [", "vs k of n [") or holds both FRACTIONS (in percent): no
 * interval a reader could take for the fraction of records lost excludes
 * a crash's own. */
static void assert_no_interval_excludes(const char *text, const double *fraction, size_t n)
{
	regex_t re;
	regmatch_t m[6];
	const char *p = text;

	assert_int_equal(regcomp(&re, "([0-9]+ of [0-9]+( crash(es)?)? )?\\[([0-9.]+)%, ([0-9.]+)%\\]",
				 REG_EXTENDED),
			 0);
	while (regexec(&re, p, 6, m, 0) == 0) {
		double lo = strtod(p + m[4].rm_so, NULL), hi = strtod(p + m[5].rm_so, NULL);
		bool counts = m[1].rm_so >= 0;
		for (size_t i = 0; !counts && i < n; i++)
			if (!(lo <= 100 * fraction[i] && 100 * fraction[i] <= hi)) {
				fprintf(stderr, "an interval excludes a crash's %g%%: %.*s\n",
					100 * fraction[i], (int)(m[0].rm_eo - m[0].rm_so), p + m[0].rm_so);
				fail();
			}
		p += m[0].rm_eo;
	}
	regfree(&re);
}

/* Two crashes a mode: the answer counts crashes, lists each one's
 * fraction, and says what more crashes would resolve. */
static void test_two_crashes(void **state)
{
	static const char answer[] =
		"unsafe vs writethrough, after a host crash: lost acknowledged writes in 2 of 2 "
		"crashes [16%, 100%], 2.6% to 26% of them per crash, vs 0 of 2 [0%, 84%]; no "
		"difference shown at n=2 crashes each (Boschloo's exact test, p=0.12): about 3 "
		"crashes a side would show one if each lost as these did";
	const double own[] = {50 / 192.0, 5 / 192.0};
	struct model *m = build(two);
	char path[PATH_MAX + 32];

	(void)state;
	/* The question's answers: acks_per_second's, then the loss's. */
	assert_int_equal(m->n_asked, 2);
	assert_string_equal(m->headlines[1], answer);
	assert_no_interval_excludes(m->headlines[1], own, 2);

	const struct model_metric *lost = lost_metric(m);
	assert_int_equal(lost->n_loss_comparisons, 1);
	const struct model_loss_comparison *c = &lost->loss_comparisons[0];
	assert_string_equal(c->sentence, answer);
	assert_true(!c->shown && c->resolve == 3 && fabs(c->p - 0.125) < 1e-9);
	assert_string_equal(c->test, "Boschloo's exact test");
	assert_true(c->l.crashes == 2 && c->l.lost_any == 2 && c->r.lost_any == 0);
	assert_int_equal(lost->n_cells, 2);
	for (size_t i = 0; i < lost->n_cells; i++) {
		const struct model_cell *cell = &lost->cells[i];
		const struct model_loss *l = cell->loss;
		assert_non_null(l);
		assert_string_equal(l->crash, "host");
		assert_int_equal(l->n_runs, 2);
		assert_true(isnan(l->mean_low)); /* two crashes: no interval of the mean */
		if (strcmp(cell->label, "unsafe") == 0) {
			assert_string_equal(cell->display,
					    "lost acknowledged writes in 2 of 2 crashes [16%, 100%]; "
					    "per crash 26%, 2.6% (median 14%, 2.6% to 26%)");
			assert_true(l->runs[0].lost == 50 && l->runs[0].acknowledged == 192);
			assert_true(l->runs[0].has_host_crash && l->runs[1].has_host_crash);
			assert_string_equal(l->runs[0].mechanism, "kexec");
			assert_true(l->runs[0].dirty_kib == 1536 && l->runs[0].to_sweep_seconds == 61.5);
			assert_string_equal(l->runs[1].mechanism, "firmware");
			assert_string_equal(l->runs[1].fallback, "kexec_file_load: Operation not permitted");
			assert_null(l->runs[1].disk_write_cache);
			assert_true(isnan(l->runs[1].to_kernel_seconds));
		} else {
			assert_string_equal(cell->display, "lost acknowledged writes in 0 of 2 crashes "
							   "[0%, 84%]: no loss shown");
			/* A line from before the record has none. */
			assert_true(l->runs[0].has_host_crash && !l->runs[1].has_host_crash);
		}
	}

	/* report.json keeps it all, and reads back to the same. */
	json_object *o = NULL, *again = NULL;
	struct model *back = NULL;
	assert_int_equal(model_to_json(m, &o), 0);
	assert_int_equal(model_from_json(o, &back), 0);
	assert_int_equal(model_to_json(back, &again), 0);
	assert_string_equal(json_object_to_json_string(o), json_object_to_json_string(again));
	assert_non_null(strstr(json_object_to_json_string(o),
			       "\"host_crash\": { \"mechanism\": \"firmware\", \"fallback\": "
			       "\"kexec_file_load: Operation not permitted\", \"dirty_kib\": 96"));
	json_object_put(o);
	json_object_put(again);
	model_free(back);

	/* Every format: no interval over the records pooled, and each crash
	 * with its host crash record. */
	snprintf(path, sizeof path, "%s/out", dir);
	assert_int_equal(report_write(m, REPORT_ALL_FORMATS, path), 0);
	static const char *const files[] = {"report.txt", "report.csv", "report.json",
					    "report.html"};
	for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
		snprintf(path, sizeof path, "%s/out/%s", dir, files[i]);
		char *text = slurp(path);
		assert_null(strstr(text, "55 of 384"));
		assert_null(strstr(text, "[11%, 18%]"));
		if (strcmp(files[i], "report.txt") == 0) {
			assert_no_interval_excludes(strstr(text, "== durability: lost"), own, 2);
			assert_non_null(strstr(text, "    run 0: lost 50 of 192 acknowledged (26%); host "
						     "crash by kexec: dirty 1536 KiB, writeback 0 KiB at "
						     "the trigger, disk write cache off; from the crash "
						     "point: QEMU stopped at 12.0 ms, writeback stopped at "
						     "13.0 ms, RESULTS synced at 41.0 ms, facts read at "
						     "43.0 ms, then the trigger; 4.25 s to the next "
						     "kernel, 61.5 s to the resumed sweep\n"));
			assert_non_null(strstr(text, "    run 1: lost 5 of 192 acknowledged (2.6%); host "
						     "crash by firmware (kexec not used: kexec_file_load: "
						     "Operation not permitted): dirty 96 KiB, writeback 8 "
						     "KiB at the trigger, disk write cache unknown; 212 s "
						     "to the resumed sweep\n"));
			assert_non_null(strstr(text, "    run 1: lost 0 of 165 acknowledged (0%)\n"));
		}
		if (strcmp(files[i], "report.csv") == 0) {
			assert_non_null(strstr(text, ",192,0.026041666666666668,,,,,,,,firmware,"
						     "kexec_file_load: Operation not permitted,96,8,,,,,,,212,"));
			assert_non_null(strstr(text, ",off,0.012,0.013,0.041,0.043,4.25,61.5,"));
		}
		if (strcmp(files[i], "report.html") == 0) {
			assert_non_null(strstr(text, "<table class=\"crashes\">"));
			assert_non_null(strstr(text, "kexec_file_load: Operation not permitted"));
			assert_non_null(strstr(text, "<td class=\"num\">12.0 / 13.0 / 41.0 / 43.0 ms</td>"));
		}
		free(text);
	}
	model_free(m);
}

/* Five crashes a cell, all or none, on two backends: each pair resolves
 * (5 of 5 against 0 of 5, p = 2/1024), and so do the two settings
 * together, each one's crashes a stratum. */
static void test_resolved(void **state)
{
	struct model *m = build(five);
	const char *pair =
		"unsafe vs writethrough, after a host crash (backend=lvm): lost acknowledged "
		"writes in 5 of 5 crashes [48%, 100%], 100% of them per crash, vs 0 of 5 [0%, "
		"52%]; unsafe loses them in more crashes (Boschloo's exact test, p=0.002)";
	/* Each setting's crashes compared within it (R's mantelhaen.test,
	 * exact: 3.1494079113126756e-05), never added across them. */
	const char *pooled =
		"unsafe vs writethrough, after a host crash (stratified over 2 settings of "
		"backend): lost acknowledged writes in 5 of 5 crashes vs 0 of 5 (backend=lvm), 5 "
		"of 5 vs 0 of 5 (backend=qcow2); unsafe loses them in more crashes (exact "
		"Mantel-Haenszel test, p<0.0001)";
	bool seen_pair = false, seen_pooled = false;

	(void)state;
	for (size_t i = 0; i < m->n_asked; i++) {
		seen_pair |= strcmp(m->headlines[i], pair) == 0;
		seen_pooled |= strcmp(m->headlines[i], pooled) == 0;
	}
	assert_true(seen_pair && seen_pooled);
	const struct model_metric *lost = lost_metric(m);
	/* Two pairs and the pooled one for the question; the backend axis's
	 * pairs (lvm vs qcow2 at either cache mode) compared too. */
	size_t shown = 0, backend = 0;
	for (size_t i = 0; i < lost->n_loss_comparisons; i++) {
		const struct model_loss_comparison *c = &lost->loss_comparisons[i];
		if (strcmp(c->axis, "cache") == 0) {
			assert_true(c->shown);
			shown++;
		} else if (strcmp(c->axis, "backend") == 0) {
			assert_false(c->shown); /* both lost alike */
			assert_int_equal(c->resolve, 0);
			backend++;
		}
	}
	assert_int_equal(shown, 3);
	assert_int_equal(backend, 3);
	model_free(m);
}

/* Power cuts, per cache mode and disk write cache: counted by cut, each
 * cut's BMC on record, the write cache's two settings compared within
 * each cache mode and over them. */
static void test_power_cuts(void **state)
{
	struct model *m = build_comparing(cuts, "write_cache:on vs off");
	const char *on_off =
		"on vs off, after a power cut (cache=writethrough): lost acknowledged writes in 2 "
		"of 5 cuts [5.3%, 85%], 0% to 6% of them per cut, vs 0 of 5 [0%, 52%]; no "
		"difference shown at n=5 cuts each (Boschloo's exact test, p=0.19): about 9 cuts "
		"a side would show one if each lost as these did";
	const char *pooled =
		"on vs off, after a power cut (stratified over 3 settings of cache): lost "
		"acknowledged writes in 2 of 5 cuts vs 0 of 5 (cache=none), 2 of 5 vs 0 of 5 "
		"(cache=writethrough), 5 of 5 vs 5 of 5 (cache=unsafe); no difference shown "
		"(exact Mantel-Haenszel test, p=0.099)";
	const char *by_mode =
		"unsafe vs none, after a power cut (write_cache=off): lost acknowledged writes in "
		"5 of 5 cuts [48%, 100%], 4.5% to 38% of them per cut, vs 0 of 5 [0%, 52%]; unsafe "
		"loses them in more cuts (Boschloo's exact test, p=0.002)";
	bool seen_on_off = false, seen_pooled = false, seen_by_mode = false;
	char path[PATH_MAX + 32];

	(void)state;
	/* The question, write cache on against off, per cache mode and over
	 * them; the speed half beside it. */
	for (size_t i = 0; i < m->n_asked; i++) {
		seen_on_off |= strcmp(m->headlines[i], on_off) == 0;
		seen_pooled |= strcmp(m->headlines[i], pooled) == 0;
		assert_null(strstr(m->headlines[i], "crash"));
	}
	assert_true(seen_on_off && seen_pooled);
	assert_non_null(strstr(m->headlines[0], "on vs off, acks_per_second (durability, "
						"cache=none)"));
	const struct model_metric *lost = lost_metric(m);
	assert_int_equal(lost->n_cells, 6);
	for (size_t i = 0; i < lost->n_cells; i++) {
		const struct model_cell *c = &lost->cells[i];
		assert_string_equal(c->loss->crash, "power");
		assert_null(strstr(c->display, "crash"));
		assert_string_equal(c->loss->runs[0].mechanism, "power");
		assert_non_null(strstr(c->loss->runs[0].bmc, "chassis power cycle"));
		assert_string_equal(c->loss->runs[0].disk_write_cache,
				    strstr(c->id, "wc=on") ? "on" : "off");
	}
	/* The cache modes compared at each write cache setting too. */
	for (size_t i = 0; i < lost->n_loss_comparisons; i++)
		seen_by_mode |= strcmp(lost->loss_comparisons[i].sentence, by_mode) == 0;
	assert_true(seen_by_mode);

	/* report.json keeps each cut's BMC and reads back to the same. */
	json_object *o = NULL, *again = NULL;
	struct model *back = NULL;
	assert_int_equal(model_to_json(m, &o), 0);
	assert_int_equal(model_from_json(o, &back), 0);
	assert_int_equal(model_to_json(back, &again), 0);
	assert_string_equal(json_object_to_json_string(o), json_object_to_json_string(again));
	assert_non_null(strstr(json_object_to_json_string(o), "\"bmc\": \"in-band IPMI"));
	json_object_put(o);
	json_object_put(again);
	model_free(back);

	snprintf(path, sizeof path, "%s/cuts-out", dir);
	assert_int_equal(report_write(m, REPORT_ALL_FORMATS, path), 0);
	snprintf(path, sizeof path, "%s/cuts-out/report.txt", dir);
	char *text = slurp(path);
	assert_non_null(strstr(text, "(by cut: cuts that lost any acknowledged record, k of n with "
				     "the exact 95% interval, and each cut's fraction lost)\n"));
	assert_non_null(strstr(text, "  cuts of writethrough / on on cuts (lvm/raw/-/writethrough/"
				     "threads/virtio/durability/wc=on, after a power cut):\n"
				     "    run 0: lost 0 of 200 acknowledged (0%); power cut through "
				     "in-band IPMI (/dev/ipmi0): IPMI 2.0, firmware 9.08, chassis "
				     "power on: chassis power cycle: dirty 0 KiB, writeback 0 KiB at "
				     "the trigger, disk write cache on\n"
				     "    run 1: lost 12 of 200"));
	assert_null(strstr(text, "host crash by"));
	free(text);
	snprintf(path, sizeof path, "%s/cuts-out/report.html", dir);
	text = slurp(path);
	assert_non_null(strstr(text, "power (in-band IPMI (/dev/ipmi0)"));
	assert_non_null(strstr(text, ", after a power cut: lost acknowledged writes in 2 of 5 cuts"));
	assert_non_null(strstr(text, "durability: loss by cut "));
	assert_non_null(strstr(text, "bar: the share of cuts that lost any acknowledged write"));
	assert_non_null(strstr(text, "<th>power cut by</th>"));
	assert_non_null(strstr(text, "cuts that lost"));
	assert_non_null(strstr(text, "a cut's share lost"));
	assert_null(strstr(text, "Each crash"));
	assert_null(strstr(text, "loss by crash"));
	assert_null(strstr(text, "share of crashes"));
	free(text);
	model_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_two_crashes),
		cmocka_unit_test(test_resolved),
		cmocka_unit_test(test_power_cuts),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
