/* Planner: matrix expansion, left-out cells, run order, JSON round trip. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "keys.h"
#include "loader.h"
#include "planner.h"

static void load(const char *text, struct profile *p)
{
	assert_int_equal(loader_load_buffer("test.ini", text, strlen(text), p), 0);
}

/* Every cell appears exactly `runs` times, run indexes 0..runs-1 each once,
 * and positions count up. */
static void check_runs_complete(const struct plan *plan)
{
	unsigned runs = plan->profile.sweep.runs;
	unsigned *seen = calloc(plan->n_cells * runs, sizeof(unsigned));

	assert_non_null(seen);
	assert_int_equal(plan->n_runs, plan->n_cells * runs);
	for (size_t i = 0; i < plan->n_runs; i++) {
		assert_int_equal(plan->runs[i].position, i);
		assert_true(plan->runs[i].cell < plan->n_cells);
		assert_true(plan->runs[i].index < runs);
		seen[plan->runs[i].cell * runs + plan->runs[i].index]++;
	}
	for (size_t i = 0; i < plan->n_cells * runs; i++)
		assert_int_equal(seen[i], 1);
	free(seen);
}

static void test_matrix_expansion(void **state)
{
	struct profile p;
	struct plan plan;

	(void)state;
	load("[storage]\nbackends = lvm, qcow2, raw\n"
	     "qcow2_preallocation = off, metadata, full\nraw_preallocation = sparse, full\n"
	     "[guest]\ncache = none, unsafe\naio = threads\nbus = virtio, sata\n"
	     "[workload]\nkinds = fio, qemu-img-bench\n[sweep]\nruns = 3\n",
	     &p);
	assert_int_equal(planner_build(&p, &plan), 0);
	/* placements: lvm(1) + qcow2(3) + raw(2) = 6; guest workload: 6 x 2
	 * caches x 2 buses = 24; qemu-img-bench has no bus: 6 x 2 = 12. */
	assert_int_equal(plan.n_cells, 36);
	assert_int_equal(plan.n_excluded, 0);
	for (size_t i = 0; i < plan.n_cells; i++) {
		const struct plan_cell *c = &plan.cells[i];
		assert_int_equal(c->format == IMAGE_FORMAT_QCOW2, c->backend == BACKEND_QCOW2);
		assert_int_equal(c->prealloc < 0, c->backend == BACKEND_LVM);
		assert_int_equal(c->bus < 0, c->workload == WORKLOAD_QEMU_IMG_BENCH);
		for (size_t j = 0; j < i; j++)
			assert_string_not_equal(plan.cells[j].id, c->id);
	}
	assert_string_equal(plan.cells[0].id, "lvm/raw/-/none/threads/virtio/fio");
	check_runs_complete(&plan);
	plan_release(&plan);
}

static void test_impossible_cells_left_out(void **state)
{
	struct profile p;
	struct plan plan;

	(void)state;
	load("[guest]\ncache = none, writeback, directsync, unsafe\naio = native, threads\n",
	     &p);
	assert_int_equal(planner_build(&p, &plan), 0);
	assert_int_equal(plan.n_cells, 6);    /* 4 threads + native x {none, directsync} */
	assert_int_equal(plan.n_excluded, 2); /* native x {writeback, unsafe} */
	for (size_t i = 0; i < plan.n_excluded; i++) {
		assert_int_equal(plan.excluded[i].cell.aio, AIO_NATIVE);
		assert_false(cache_mode_flags(plan.excluded[i].cell.cache).direct);
		assert_non_null(strstr(plan.excluded[i].reason, "cache.direct"));
	}
	for (size_t i = 0; i < plan.n_cells; i++)
		if (plan.cells[i].aio == AIO_NATIVE)
			assert_true(cache_mode_flags(plan.cells[i].cache).direct);
	plan_release(&plan);
}

static void test_order(void **state)
{
	struct profile p;
	struct plan a, b, c, blocked;

	(void)state;
	load("[guest]\ncache = none, writethrough, writeback, directsync, unsafe\n"
	     "[sweep]\nruns = 4\nseed = 7\n",
	     &p);
	assert_int_equal(planner_build(&p, &a), 0);
	assert_int_equal(planner_build(&p, &b), 0);
	check_runs_complete(&a);
	/* Same seed, same order. */
	assert_memory_equal(a.runs, b.runs, a.n_runs * sizeof(*a.runs));
	/* Interleaved: each round holds every cell once, and the order is
	 * shuffled (not 0,1,2,3,4 in every round). */
	bool shuffled = false;
	for (size_t i = 0; i < a.n_runs; i++) {
		assert_int_equal(a.runs[i].index, i / a.n_cells);
		if (a.runs[i].cell != i % a.n_cells)
			shuffled = true;
	}
	assert_true(shuffled);
	/* Another seed, another order. */
	p.sweep.seed = 8;
	assert_int_equal(planner_build(&p, &c), 0);
	assert_memory_not_equal(a.runs, c.runs, a.n_runs * sizeof(*a.runs));
	/* Blocked keeps each cell's runs together. */
	p.sweep.order = ORDER_BLOCKED;
	assert_int_equal(planner_build(&p, &blocked), 0);
	check_runs_complete(&blocked);
	for (size_t i = 0; i < blocked.n_runs; i++) {
		assert_int_equal(blocked.runs[i].cell, i / 4);
		assert_int_equal(blocked.runs[i].index, i % 4);
	}
	plan_release(&a);
	plan_release(&b);
	plan_release(&c);
	plan_release(&blocked);
}

static void test_json_round_trip(void **state)
{
	char path[] = "/tmp/buildapp-plan-XXXXXX";
	struct profile p;
	struct plan plan, back;
	char x[512], y[512];
	int fd;
	FILE *f;

	(void)state;
	assert_int_equal(loader_load("profiles/kvm-perf-2011.ini", &p), 0);
	assert_int_equal(planner_build(&p, &plan), 0);
	fd = mkstemp(path);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_int_equal(plan_write_json(&plan, f), 0);
	fclose(f);
	assert_int_equal(plan_read_json(path, &back), 0);
	unlink(path);

	assert_int_equal(back.n_cells, plan.n_cells);
	for (size_t i = 0; i < plan.n_cells; i++)
		assert_string_equal(back.cells[i].id, plan.cells[i].id);
	assert_int_equal(back.n_runs, plan.n_runs);
	assert_memory_equal(back.runs, plan.runs, plan.n_runs * sizeof(*plan.runs));
	for (size_t i = 0; i < n_profile_keys; i++) {
		const struct key_def *k = &profile_keys[i];
		assert_string_equal(keys_format(&back.profile, k, x, sizeof(x)),
				    keys_format(&plan.profile, k, y, sizeof(y)));
	}
	plan_release(&plan);
	plan_release(&back);
}

static void test_read_rejects_junk(void **state)
{
	char path[] = "/tmp/buildapp-plan-XXXXXX";
	struct plan plan;
	int fd;

	(void)state;
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_true(write(fd, "{\"format\": \"other\"}", 19) == 19);
	close(fd);
	assert_true(plan_read_json(path, &plan) < 0);
	unlink(path);
	assert_true(plan_read_json("/nonexistent.json", &plan) < 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_matrix_expansion),
		cmocka_unit_test(test_impossible_cells_left_out),
		cmocka_unit_test(test_order),
		cmocka_unit_test(test_json_round_trip),
		cmocka_unit_test(test_read_rejects_junk),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
