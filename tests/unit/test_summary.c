/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Summary: the kvm-perf study's write runs journaled as a sweep, summed
 * up again: the published means, the intervals (exact t), the study's
 * ordering, first runs, failed runs, and the files written. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <json.h>

#include "journal.h"
#include "kvmperf.h"
#include "names.h"
#include "summary.h"

static char dir[] = "/tmp/test-summary.XXXXXX";
static char journal_path[128];

static void journal_study_cell(size_t i, unsigned *position)
{
	for (size_t r = 0; r < cells[i].n[WRITES]; r++) {
		struct journal_run run;
		journal_run_init(&run);
		snprintf(run.cell.id, sizeof run.cell.id, "%s/%s/%s/%s/%s#%zu",
			 cells[i].type, cells[i].cache, cells[i].aio,
			 cells[i].iface, cells[i].prealloc, i);
		run.cell.backend = BACKEND_RAW;
		run.cell.format = strcmp(cells[i].type, "qcow2") ? IMAGE_FORMAT_RAW
								: IMAGE_FORMAT_QCOW2;
		run.cell.prealloc = -1;
		run.cell.cache = name_table_lookup(&cache_mode_names, cells[i].cache);
		run.cell.aio = name_table_lookup(&aio_mode_names, cells[i].aio);
		run.cell.bus = name_table_lookup(&disk_bus_names, cells[i].iface);
		run.cell.workload = WORKLOAD_TARBALL_WRITE;
		run.index = (unsigned)r;
		run.position = (*position)++;
		snprintf(run.status, sizeof run.status, "ok");
		run.boot_seconds = cells[i].runs[WRITES][r];
		assert_int_equal(journal_append(journal_path, &run), 0);
		journal_run_release(&run);
	}
}

static struct journal_run fio_run(enum cache_mode cache, enum aio_mode aio,
				  unsigned index, unsigned position)
{
	struct journal_run run;
	journal_run_init(&run);
	snprintf(run.cell.id, sizeof run.cell.id, "lvm/raw/-/%s/%s/virtio/fio",
		 cache_mode_name(cache), aio_mode_name(aio));
	run.cell.backend = BACKEND_LVM;
	run.cell.prealloc = -1;
	run.cell.cache = cache;
	run.cell.aio = aio;
	run.cell.bus = BUS_VIRTIO;
	run.cell.workload = WORKLOAD_FIO;
	run.index = index;
	run.position = position;
	snprintf(run.status, sizeof run.status, "ok");
	return run;
}

/* Cells journaled in reverse, runs interleaved: the summary has to
 * regroup and re-sort them. */
static int setup(void **state)
{
	if (load_study(state) < 0 || !mkdtemp(dir))
		return -1;
	snprintf(journal_path, sizeof journal_path, "%s/runs.jsonl", dir);
	unsigned position = 0;
	for (size_t i = n_cells; i-- > 0;)
		journal_study_cell(i, &position);

	/* A fio cell with three ok runs and a timeout. */
	for (unsigned r = 0; r < 4; r++) {
		struct journal_run run = fio_run(CACHE_NONE, AIO_NATIVE, r, position++);
		if (r == 1)
			snprintf(run.status, sizeof run.status, "timeout");
		/* cache=none is (on, on, off); run 2 reports something else */
		run.applied_known = true;
		run.applied = (struct cache_flags){true, r != 2, false};
		run.boot_seconds = 30 + r;
		/* The first run's reset is full, the others' fast. */
		snprintf(run.reset, sizeof run.reset, "%s", r ? "fast" : "full");
		assert_int_equal(journal_run_add_metric(&run, "iops", 1000.0 * (r + 1), "IOPS"), 0);
		assert_int_equal(journal_run_add_metric(&run, "clat_p99", 50.0 + r, "us"), 0);
		assert_int_equal(journal_append(journal_path, &run), 0);
		journal_run_release(&run);
	}
	/* A second fio cell, higher IOPS: sorted before the first. */
	struct journal_run run = fio_run(CACHE_UNSAFE, AIO_THREADS, 0, position++);
	assert_int_equal(journal_run_add_metric(&run, "iops", 9000, "IOPS"), 0);
	assert_int_equal(journal_append(journal_path, &run), 0);
	journal_run_release(&run);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	if (getenv("KEEP_TMP")) /* to look at the files written */
		return 0;
	char cmd[256];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static void test_study_table(void **state)
{
	(void)state;
	struct journal j;
	struct summary s;
	assert_int_equal(journal_read(journal_path, &j), 0);
	assert_int_equal(summary_build(&j, &s), 0);
	journal_release(&j);
	assert_int_equal(s.n_cells, n_cells + 2);

	/* The tarball-write cells come first, in the study's own order
	 * (it sorted by mean write time), with its published means. */
	for (size_t i = 0; i < n_cells; i++) {
		const struct summary_cell *c = &s.cells[i];
		char want[64];
		snprintf(want, sizeof want, "#%zu", i);
		assert_non_null(strstr(c->cell.id, want));
		assert_int_equal(c->n_metrics, 1);
		const struct summary_metric *m = &c->metrics[0];
		assert_string_equal(m->name, SUMMARY_BOOT_METRIC);
		assert_true(m->lower_is_better);
		assert_int_equal(m->stats.n, cells[i].n[WRITES]);
		assert_true(m->stats.first == cells[i].runs[WRITES][0]);
		char mean[32];
		snprintf(mean, sizeof mean, "%f +/-", m->stats.mean);
		assert_true(strncmp(cells[i].interval[WRITES], mean, strlen(mean)) == 0);
		double published = strtod(strstr(cells[i].interval[WRITES], "+/-") + 3, NULL);
		assert_true(fabs(m->stats.ci95 - published) < 2.1e-6 * published + 5e-7);
	}

	/* fio: by mean IOPS, higher first; the timeout counted, not measured. */
	const struct summary_cell *best = &s.cells[n_cells], *fio = &s.cells[n_cells + 1];
	assert_string_equal(best->cell.id, "lvm/raw/-/unsafe/threads/virtio/fio");
	assert_string_equal(fio->cell.id, "lvm/raw/-/none/native/virtio/fio");
	assert_int_equal(fio->n_runs, 4);
	assert_int_equal(fio->n_failed, 1);
	assert_int_equal(fio->n_cache_mismatch, 1);
	assert_int_equal(best->n_cache_mismatch, 0);
	assert_int_equal(fio->n_fast_reset, 3);
	assert_int_equal(fio->n_full_reset, 1);
	assert_int_equal(best->n_fast_reset + best->n_full_reset, 0);
	assert_int_equal(fio->n_metrics, 3);
	assert_string_equal(fio->metrics[0].name, "iops");
	assert_false(fio->metrics[0].lower_is_better);
	assert_int_equal(fio->metrics[0].stats.n, 3);
	assert_true(fio->metrics[0].stats.mean == (1000.0 + 3000 + 4000) / 3);
	assert_true(fio->metrics[0].stats.first == 1000.0);
	assert_string_equal(fio->metrics[1].name, "clat_p99");
	assert_true(fio->metrics[1].lower_is_better);
	assert_string_equal(fio->metrics[2].name, SUMMARY_BOOT_METRIC);
	assert_int_equal(best->metrics[0].stats.n, 1);
	assert_true(isnan(best->metrics[0].stats.ci95));
	summary_release(&s);
}

static char *slurp(const char *name)
{
	char path[160];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	char *buf = calloc(1, 1 << 20);
	size_t n = fread(buf, 1, (1 << 20) - 1, f);
	buf[n] = 0;
	fclose(f);
	return buf;
}

static void test_files(void **state)
{
	(void)state;
	assert_int_equal(summary_write_results(dir), 0);

	char *text = slurp("summary.txt");
	assert_non_null(strstr(text, "== tarball-write: sorted by mean boot_to_shutdown (s), lower is better =="));
	assert_non_null(strstr(text, "== fio: sorted by mean iops (IOPS), higher is better =="));
	assert_non_null(strstr(text, "214.2 ± 4.5"));
	/* sd, min, max and the first run at the interval's place, not six decimals */
	assert_null(strstr(text, "214.186900"));
	assert_non_null(strstr(text, "3/4"));
	assert_non_null(strstr(text, "warning: in 1 run(s) QEMU applied other cache flags than cache=none asks for"));
	assert_non_null(strstr(text, "  resets: 3 fast, 1 full, 0 none (journal: reset)\n"));
	/* Said once: the cell without a fast reset has no such line. */
	assert_null(strstr(strstr(text, "resets:") + 1, "resets:"));
	const char *top = strstr(text, "qcow2/unsafe/native/virtio/yes#0 ");
	const char *bottom = strstr(text, "qcow2/directsync/threads/ide/no#81 ");
	assert_non_null(top);
	assert_non_null(bottom);
	assert_true(top < bottom);
	free(text);

	char *json = slurp("summary.json");
	json_object *o = json_tokener_parse(json);
	assert_non_null(o);
	json_object *list, *first, *metrics, *m, *v;
	assert_true(json_object_object_get_ex(o, "cells", &list));
	assert_int_equal(json_object_array_length(list), n_cells + 2);
	first = json_object_array_get_idx(list, 0);
	assert_true(json_object_object_get_ex(first, "primary", &v));
	assert_string_equal(json_object_get_string(v), SUMMARY_BOOT_METRIC);
	assert_true(json_object_object_get_ex(first, "metrics", &metrics));
	m = json_object_array_get_idx(metrics, 0);
	assert_true(json_object_object_get_ex(m, "mean", &v));
	char mean[32];
	snprintf(mean, sizeof mean, "%f", json_object_get_double(v));
	assert_string_equal(mean, "214.186900");
	assert_true(json_object_object_get_ex(m, "n", &v));
	assert_int_equal(json_object_get_int(v), 10);
	/* n = 1: no sd, no interval */
	json_object *single = json_object_array_get_idx(list, n_cells);
	assert_true(json_object_object_get_ex(single, "metrics", &metrics));
	m = json_object_array_get_idx(metrics, 0);
	assert_true(json_object_object_get_ex(m, "ci95", &v));
	assert_null(v);
	json_object_put(o);
	free(json);
}

/* A durability journal (tests/unit/data/durability-host-crash.jsonl):
 * unsafe's two host crashes lost 50 and 5 of 192 acknowledged records,
 * writethrough's none of 165.  The loss is counted by crash, never as
 * records pooled (55 of 384 [11%, 18%] would exclude both crashes' own
 * fractions, 26% and 2.6%). */
static void test_loss_by_crash(void **state)
{
	const char *top = getenv("TOP");
	char path[PATH_MAX];
	struct journal j = {0};
	struct summary s;

	(void)state;
	snprintf(path, sizeof path, "%s/tests/unit/data/durability-host-crash.jsonl",
		 top ? top : ".");
	assert_int_equal(journal_read(path, &j), 0);
	assert_int_equal(summary_build(&j, &s), 0);
	assert_int_equal(s.n_cells, 2);
	for (size_t i = 0; i < s.n_cells; i++) {
		const struct summary_cell *c = &s.cells[i];
		assert_int_equal(c->n_crashes, 2);
		if (c->cell.cache == CACHE_UNSAFE) {
			assert_int_equal(c->loss.lost_any, 2);
			/* in run index order */
			assert_true(c->crashes[0].index == 0 && c->crashes[0].lost == 50 &&
				    c->crashes[1].lost == 5 && c->crashes[1].acknowledged == 192);
			assert_true(c->loss.min == 5 / 192.0 && c->loss.max == 50 / 192.0);
			assert_true(fabs(c->loss.low - 0.15811388300839305) < 1e-9);
		} else {
			assert_int_equal(c->loss.lost_any, 0);
			assert_true(c->loss.max == 0);
		}
	}
	FILE *f = tmpfile();
	assert_non_null(f);
	assert_int_equal(summary_write_text(&s, f), 0);
	char text[8192] = "";
	rewind(f);
	text[fread(text, 1, sizeof text - 1, f)] = '\0';
	fclose(f);
	assert_non_null(strstr(text, "  loss by crash: lost acknowledged writes in 2 of 2 crashes "
				     "[16%, 100%]; per crash 26%, 2.6% (median 14%, 2.6% to 26%)\n"));
	assert_non_null(strstr(text, "  loss by crash: lost acknowledged writes in 0 of 2 crashes "
				     "[0%, 84%]: no loss shown\n"));
	assert_null(strstr(text, "[11%, 18%]"));
	f = tmpfile();
	assert_non_null(f);
	assert_int_equal(summary_write_json(&s, f), 0);
	rewind(f);
	text[fread(text, 1, sizeof text - 1, f)] = '\0';
	fclose(f);
	json_object *o = json_tokener_parse(text), *list, *loss, *v;
	assert_non_null(o);
	assert_true(json_object_object_get_ex(o, "cells", &list));
	for (size_t i = 0; i < 2; i++) {
		assert_true(json_object_object_get_ex(json_object_array_get_idx(list, i), "loss",
						      &loss));
		assert_true(json_object_object_get_ex(loss, "crashes", &v));
		assert_int_equal(json_object_get_int(v), 2);
		assert_true(json_object_object_get_ex(loss, "runs", &v));
		assert_int_equal(json_object_array_length(v), 2);
		assert_true(json_object_object_get_ex(loss, "fraction_mean_low", &v));
		assert_null(v); /* two crashes: no interval of the mean */
	}
	json_object_put(o);
	summary_release(&s);
	journal_release(&j);
}

static void test_empty(void **state)
{
	(void)state;
	struct journal j = {0};
	struct summary s;
	assert_int_equal(summary_build(&j, &s), 0);
	assert_int_equal(s.n_cells, 0);
	summary_release(&s);
	assert_true(summary_unit_lower_is_better("ms"));
	assert_false(summary_unit_lower_is_better("KiB/s"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_study_table),
		cmocka_unit_test(test_files),
		cmocka_unit_test(test_loss_by_crash),
		cmocka_unit_test(test_empty),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
