/* SPDX-License-Identifier: GPL-2.0-or-later */
/* [sweep] target_ci and max_runs: which cells get one more run. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "sweep.h"

/* A cell of N journaled runs whose primary metric has the ok samples V. */
static struct summary_cell cell_of(struct summary_metric *m, size_t n_runs,
				   const double *v, size_t n)
{
	memset(m, 0, sizeof(*m));
	strcpy(m->name, "boot_to_shutdown");
	strcpy(m->unit, "s");
	if (n)
		assert_int_equal(stats_compute(v, n, &m->stats), 0);
	return (struct summary_cell){.n_runs = n_runs, .metrics = m, .n_metrics = 1};
}

static void test_wide_interval_wants_a_run(void **state)
{
	struct profile_sweep s = {.runs = 3, .target_ci = 5, .max_runs = 10};
	struct summary_metric m;
	const double v[] = {10, 14, 12}; /* +/- 5.0 s around 12: 41% */
	struct summary_cell c = cell_of(&m, 3, v, 3);
	char why[160];

	(void)state;
	assert_true(sweep_cell_wants_run(&s, &c, why, sizeof(why)));
	assert_non_null(strstr(why, "boot_to_shutdown 95% CI is +/- 41.4% of the mean, target 5%"));
	s.target_ci = 50;
	assert_false(sweep_cell_wants_run(&s, &c, why, sizeof(why)));
}

/* A durability cell's runs are its crashes: none added, however wide. */
static void test_no_more_crashes(void **state)
{
	struct profile_sweep s = {.runs = 3, .durability_runs = 4, .target_ci = 5, .max_runs = 10};
	struct summary_metric m;
	const double v[] = {10, 14, 12, 11};
	struct summary_cell c = cell_of(&m, 4, v, 4);
	char why[160];

	(void)state;
	c.cell.workload = WORKLOAD_FIO;
	assert_true(sweep_cell_wants_run(&s, &c, why, sizeof(why)));
	c.cell.workload = WORKLOAD_DURABILITY;
	assert_false(sweep_cell_wants_run(&s, &c, why, sizeof(why)));
}

static void test_narrow_interval_is_enough(void **state)
{
	struct profile_sweep s = {.runs = 3, .target_ci = 5, .max_runs = 10};
	struct summary_metric m;
	const double v[] = {100.0, 100.5, 99.5}; /* +/- 1.24: 1.2% */
	struct summary_cell c = cell_of(&m, 3, v, 3);
	char why[160];

	(void)state;
	assert_false(sweep_cell_wants_run(&s, &c, why, sizeof(why)));
}

static void test_max_runs_and_off(void **state)
{
	struct profile_sweep s = {.runs = 3, .target_ci = 5, .max_runs = 4};
	struct summary_metric m;
	const double v[] = {10, 14, 12, 30};
	struct summary_cell c = cell_of(&m, 4, v, 4);
	char why[160];

	(void)state;
	/* Failed runs count too: 4 journaled, max 4. */
	assert_false(sweep_cell_wants_run(&s, &c, why, sizeof(why)));
	c.n_runs = 3;
	assert_true(sweep_cell_wants_run(&s, &c, why, sizeof(why)));
	s.target_ci = 0;
	assert_false(sweep_cell_wants_run(&s, &c, why, sizeof(why)));
}

static void test_too_few_ok_runs(void **state)
{
	struct profile_sweep s = {.runs = 2, .target_ci = 5, .max_runs = 6};
	struct summary_metric m;
	const double v[] = {10};
	struct summary_cell c = cell_of(&m, 2, v, 1); /* one run failed */
	char why[160];

	(void)state;
	assert_true(sweep_cell_wants_run(&s, &c, why, sizeof(why)));
	assert_string_equal(why, "1 ok run of boot_to_shutdown: no interval yet");
	/* Nothing measured at all (every run failed): no more runs. */
	c.n_metrics = 0;
	assert_false(sweep_cell_wants_run(&s, &c, why, sizeof(why)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_wide_interval_wants_a_run),
		cmocka_unit_test(test_narrow_interval_is_enough),
		cmocka_unit_test(test_max_runs_and_off),
		cmocka_unit_test(test_no_more_crashes),
		cmocka_unit_test(test_too_few_ok_runs),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
