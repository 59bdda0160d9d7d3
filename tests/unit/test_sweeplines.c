/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The sweep's result lines (runner/sweeplines.h): their grammar, a run's
 * primary metric as the measurement, and a planned run the journal lacks
 * as a failed case. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "files.h"
#include "journal.h"
#include "sweeplines.h"

/* What FN printed, in a new string. */
#define CAPTURE(buf, call)                                                                 \
	do {                                                                               \
		size_t len_;                                                               \
		FILE *f = open_memstream(&(buf), &len_);                                   \
		assert_non_null(f);                                                        \
		call;                                                                      \
		assert_int_equal(fclose(f), 0);                                            \
	} while (0)

static void run_of(struct journal_run *jr, enum workload_kind w, const char *id,
		   unsigned index, const char *status)
{
	journal_run_init(jr);
	jr->cell.workload = w;
	snprintf(jr->cell.id, sizeof jr->cell.id, "%s", id);
	jr->index = index;
	snprintf(jr->status, sizeof jr->status, "%s", status);
}

static void test_run_lines(void **state)
{
	(void)state;
	struct journal_run jr;
	char *out = NULL;

	/* The first metric is the primary one; reset_seconds, added after
	 * the run's own, never is. */
	run_of(&jr, WORKLOAD_QEMU_IMG_BENCH, "lvm/raw/-/unsafe/threads/-/qemu-img-bench", 0, "ok");
	assert_int_equal(journal_run_add_metric(&jr, "bench_seconds", 5.712, "s"), 0);
	assert_int_equal(journal_run_add_metric(&jr, "bench_iops", 350.1, "IOPS"), 0);
	assert_int_equal(journal_run_add_metric(&jr, "reset_seconds", 0.5, "s"), 0);
	CAPTURE(out, sweeplines_run(f, &jr));
	assert_string_equal(out, "BUILDAPP-SWEEP case=lvm/raw/-/unsafe/threads/-/qemu-img-bench/run-1 "
				 "result=pass measurement=5.712 units=s\n");
	free(out);
	journal_run_release(&jr);

	/* The tarball workloads' primary metric is the boot time. */
	run_of(&jr, WORKLOAD_TARBALL_WRITE, "raw/raw/sparse/none/native/virtio/tarball-write", 2, "ok");
	jr.boot_seconds = 17.25;
	assert_int_equal(journal_run_add_metric(&jr, "write_seconds", 3, "s"), 0);
	CAPTURE(out, sweeplines_run(f, &jr));
	assert_string_equal(out, "BUILDAPP-SWEEP case=raw/raw/sparse/none/native/virtio/tarball-write/"
				 "run-3 result=pass measurement=17.25 units=s\n");
	free(out);
	journal_run_release(&jr);

	/* A failed run: no measurement, an empty unit. */
	run_of(&jr, WORKLOAD_DD, "lvm/raw/-/none/native/virtio/dd", 1, "timeout");
	assert_int_equal(journal_run_add_metric(&jr, "reset_seconds", 0.5, "s"), 0);
	CAPTURE(out, sweeplines_run(f, &jr));
	assert_string_equal(out, "BUILDAPP-SWEEP case=lvm/raw/-/none/native/virtio/dd/run-2 "
				 "result=fail units=\n");
	free(out);
	journal_run_release(&jr);
}

static void test_case_text(void **state)
{
	(void)state;
	char *out = NULL;

	/* Fields cannot hold white space, the text cannot end the line. */
	CAPTURE(out, sweeplines_case(f, "answer/cache:unsafe vs none", "pass", -12.5, "%",
				     "unsafe vs none:\n-12%\t[-20%, -4%]"));
	assert_string_equal(out, "BUILDAPP-SWEEP case=answer/cache:unsafe_vs_none result=pass "
				 "measurement=-12.5 units=% unsafe vs none: -12% [-20%, -4%]\n");
	free(out);
	CAPTURE(out, sweeplines_case(f, "answer/2", "skip", NAN, "", NULL));
	assert_string_equal(out, "BUILDAPP-SWEEP case=answer/2 result=skip units=\n");
	free(out);
}

static void test_start_and_end(void **state)
{
	(void)state;
	char dir[] = "/tmp/test-sweeplines-XXXXXX", path[64];
	struct plan_cell cells[2] = {{.workload = WORKLOAD_DD}, {.workload = WORKLOAD_DD}};
	struct plan_run runs[3] = {{0, 0, 0}, {1, 1, 0}, {2, 0, 1}};
	struct plan plan = {.cells = cells, .n_cells = 2, .runs = runs, .n_runs = 3};
	struct journal_run jr;
	char *out = NULL;

	snprintf(plan.profile.appliance.name, sizeof plan.profile.appliance.name, "rack kit");
	snprintf(cells[0].id, sizeof cells[0].id, "a");
	snprintf(cells[1].id, sizeof cells[1].id, "b");
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/runs.jsonl", dir);

	CAPTURE(out, sweeplines_start(f, plan.profile.appliance.name, plan.n_runs));
	assert_string_equal(out, "BUILDAPP-SWEEP start kit=rack_kit runs=3\n");
	free(out);
	CAPTURE(out, sweeplines_start(f, "", 0));
	assert_string_equal(out, "BUILDAPP-SWEEP start kit=- runs=0\n");
	free(out);

	/* Run 1 of a is ok, run 1 of b failed, run 2 of a was never made. */
	run_of(&jr, WORKLOAD_DD, "a", 0, "ok");
	jr.cell = cells[0];
	assert_int_equal(journal_run_add_metric(&jr, "dd_seconds", 1, "s"), 0);
	assert_int_equal(journal_append(path, &jr), 0);
	journal_run_release(&jr);
	run_of(&jr, WORKLOAD_DD, "b", 0, "failed");
	jr.cell = cells[1];
	assert_int_equal(journal_append(path, &jr), 0);
	journal_run_release(&jr);

	CAPTURE(out, assert_int_equal(sweeplines_end(f, &plan, dir, true, "sent"), 0));
	assert_string_equal(out, "BUILDAPP-SWEEP case=a/run-2 result=fail units= not made\n"
				 "BUILDAPP-SWEEP case=sweep result=fail measurement=1 units=failed_runs\n"
				 "BUILDAPP-SWEEP case=upload result=pass units=\n"
				 "BUILDAPP-SWEEP end result=fail made=2 failed=1 upload=sent\n");
	free(out);

	/* Every run made and ok, nothing to upload: the end passes. */
	unlink(path);
	plan.n_runs = 1;
	run_of(&jr, WORKLOAD_DD, "a", 0, "ok");
	jr.cell = cells[0];
	assert_int_equal(journal_append(path, &jr), 0);
	journal_run_release(&jr);
	CAPTURE(out, assert_int_equal(sweeplines_end(f, &plan, dir, true, "none"), 0));
	assert_string_equal(out, "BUILDAPP-SWEEP case=sweep result=pass measurement=0 "
				 "units=failed_runs\n"
				 "BUILDAPP-SWEEP end result=pass made=1 failed=0 upload=none\n");
	free(out);
	assert_int_equal(files_remove_tree(dir), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_run_lines),
		cmocka_unit_test(test_case_text),
		cmocka_unit_test(test_start_and_end),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
