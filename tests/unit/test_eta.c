/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The sweep's remaining-time estimate (eta.h), the journal's run phases
 * and the efficiency kept in timings.json (timings.h). */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "eta.h"
#include "jsonget.h"
#include "journal.h"
#include "timings.h"

static const struct plan_cell fio = {.workload = WORKLOAD_FIO};
static const struct plan_cell bonnie = {.workload = WORKLOAD_BONNIE};
static const struct plan_cell host_bonnie = {.workload = WORKLOAD_BONNIE, .host = true};

static void test_per_workload_mean(void **state)
{
	(void)state;
	struct eta e;
	struct eta_estimate est;
	char buf[256];

	eta_init(&e);
	for (int i = 0; i < 4; i++)
		eta_add_left(&e, &fio);
	for (int i = 0; i < 3; i++)
		eta_add_left(&e, &bonnie);
	/* Nothing finished: nothing to estimate from. */
	est = eta_estimate(&e);
	assert_int_equal(est.timed, 0);
	assert_int_equal(est.untimed, 7);
	eta_format(&e, buf, sizeof(buf));
	assert_string_equal(buf, "unknown: 7 runs not yet timed (bonnie, fio)");

	/* Two fio runs of 10 s and 20 s: 2 left at their mean. */
	eta_add_done(&e, &fio, 10);
	eta_add_done(&e, &fio, 20);
	est = eta_estimate(&e);
	assert_int_equal(est.timed, 2);
	assert_int_equal(est.untimed, 3);
	assert_true(fabs(est.seconds - 30) < 1e-9);
	eta_format(&e, buf, sizeof(buf));
	assert_string_equal(buf, "0:00:30 + 3 runs not yet timed (bonnie)");

	/* bonnie's runs are slow: its own mean, not fio's. */
	eta_add_done(&e, &bonnie, 600);
	est = eta_estimate(&e);
	assert_int_equal(est.untimed, 0);
	assert_true(fabs(est.seconds - (30 + 2 * 600)) < 1e-9);
	eta_format(&e, buf, sizeof(buf));
	assert_string_equal(buf, "0:20:30");
}

static void test_host_cells_apart(void **state)
{
	(void)state;
	struct eta e;
	char buf[256];

	eta_init(&e);
	eta_add_left(&e, &bonnie);
	eta_add_left(&e, &host_bonnie);
	eta_add_left(&e, &host_bonnie);
	eta_add_done(&e, &bonnie, 100);
	eta_format(&e, buf, sizeof(buf));
	assert_string_equal(buf, "unknown: 2 runs not yet timed (host bonnie)");
	eta_add_done(&e, &host_bonnie, 7);
	eta_format(&e, buf, sizeof(buf));
	assert_string_equal(buf, "0:00:07");
	eta_add_done(&e, &host_bonnie, 7);
	assert_true(eta_estimate(&e).seconds == 0);
	assert_int_equal(eta_estimate(&e).untimed, 0);
}

/* Resumed: the journal's runs are timed before any run of this sweep,
 * and a run without a time is done but does not move the mean. */
static void test_resumed_and_untimed_runs(void **state)
{
	(void)state;
	struct eta e;

	eta_init(&e);
	eta_add_done(&e, &fio, 40); /* journaled: no run left to take off */
	eta_add_done(&e, &fio, NAN);
	for (int i = 0; i < 3; i++)
		eta_add_left(&e, &fio);
	assert_true(fabs(eta_estimate(&e).seconds - 120) < 1e-9);
	eta_add_done(&e, &fio, 80);
	assert_true(fabs(eta_estimate(&e).seconds - 2 * 60) < 1e-9);
}

static void test_duration(void **state)
{
	(void)state;
	char buf[32];

	eta_format_duration(3 * 3600 + 25 * 60 + 7.4, buf, sizeof(buf));
	assert_string_equal(buf, "3:25:07");
	eta_format_duration(NAN, buf, sizeof(buf));
	assert_string_equal(buf, "0:00:00");
}

static void test_journal_phases(void **state)
{
	(void)state;
	struct journal_run run, back;
	char *line = NULL;

	journal_run_init(&run);
	snprintf(run.cell.id, sizeof run.cell.id, "raw/raw/sparse/unsafe/threads/virtio/fio");
	run.cell.workload = WORKLOAD_FIO;
	snprintf(run.status, sizeof run.status, "ok");
	run.boot_seconds = 12.5;
	run.phases = (struct journal_phases){1.25, 0.5, 14, 0.75, 0.25, 16};
	assert_int_equal(journal_run_to_json(&run, &line), 0);
	assert_non_null(strstr(line, "\"phases\":{\"reset\":1.25,\"page_cache\":0.5,"
				     "\"workload\":14,\"guest_start\":0.75,"
				     "\"guest_stop\":0.25,\"total\":16}"));
	assert_int_equal(journal_run_from_json(line, &back), 0);
	assert_true(back.phases.reset == 1.25 && back.phases.total == 16 &&
		    back.phases.guest_start == 0.75 && back.phases.guest_stop == 0.25);
	free(line);
	journal_run_release(&back);

	/* A journal line of before the phases: none known. */
	run.phases = (struct journal_phases){NAN, NAN, NAN, NAN, NAN, NAN};
	assert_int_equal(journal_run_to_json(&run, &line), 0);
	assert_non_null(strstr(line, "\"phases\":null"));
	assert_int_equal(journal_run_from_json(line, &back), 0);
	assert_true(isnan(back.phases.total) && isnan(back.phases.reset));
	free(line);
	journal_run_release(&back);
	journal_run_release(&run);
}

/* Two sessions of one sweep: the efficiency is over both, each session
 * keeps its own breakdown. */
static void test_timings_sessions(void **state)
{
	(void)state;
	char dir[] = "/tmp/test-timings-XXXXXX";
	struct journal_run run;
	struct timings t;
	json_object *o = NULL, *s, *ph;
	double v;

	assert_non_null(mkdtemp(dir));
	journal_run_init(&run);
	run.boot_seconds = 30;
	run.phases = (struct journal_phases){4, 1, 35, 2, 1, 41};
	for (int k = 0; k < 2; k++) {
		timings_init(&t);
		/* As if the session had begun 100 s ago. */
		t.start -= 100;
		t.phase[TIMING_PROVISION] = 10;
		timings_add_run(&t, &run);
		assert_int_equal(timings_write(dir, &t), 0);
	}
	assert_true(t.phase[TIMING_GUEST] == 30 && t.phase[TIMING_GUEST_START] == 2 &&
		    t.phase[TIMING_GUEST_STOP] == 1 && t.phase[TIMING_GUEST_OTHER] == 2 &&
		    t.phase[TIMING_RESET] == 4 && t.phase[TIMING_RUNNER] == 1);
	assert_int_equal(timings_read(dir, &o), 0);
	assert_non_null(o);
	assert_true(json_object_object_get_ex(o, "sessions", &s));
	assert_int_equal(json_object_array_length(s), 2);
	assert_true(jsonget_number(o, "measured_seconds", &v) && v == 60);
	assert_true(jsonget_number(o, "efficiency", &v));
	assert_true(v > 0.29 && v <= 0.30); /* 60 s of a little over 200 */
	assert_true(json_object_object_get_ex(json_object_array_get_idx(s, 1), "phases", &ph));
	assert_true(jsonget_number(ph, "provision", &v) && v == 10);
	assert_true(jsonget_number(ph, "other", &v) && v >= 49 && v < 51);
	json_object_put(o);

	/* Not a timings.json: an error, so the report refuses it. */
	char path[64];
	snprintf(path, sizeof(path), "%s/timings.json", dir);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs("{\"version\": 9}\n", f);
	fclose(f);
	assert_int_equal(timings_read(dir, &o), -EBADMSG);
	unlink(path);
	assert_int_equal(timings_read(dir, &o), 0);
	assert_null(o);
	rmdir(dir);
	journal_run_release(&run);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_per_workload_mean),
		cmocka_unit_test(test_host_cells_apart),
		cmocka_unit_test(test_resumed_and_untimed_runs),
		cmocka_unit_test(test_duration),
		cmocka_unit_test(test_journal_phases),
		cmocka_unit_test(test_timings_sessions),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
