/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Planner: matrix expansion, left-out cells, run order, JSON round trip. */
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
#include <unistd.h>

#include "backend.h"
#include "keys.h"
#include "loader.h"
#include "planner.h"

static void load(const char *text, struct profile *p)
{
	assert_int_equal(loader_load_buffer("test.ini", text, strlen(text), p), 0);
}

/* Every cell appears exactly its runs times (profile_cell_runs: [sweep]
 * durability_runs for a durability cell), run indexes 0..runs-1 each
 * once, and positions count up. */
static void check_runs_complete(const struct plan *plan)
{
	const unsigned most = 1000;
	unsigned *seen = calloc(plan->n_cells * most, sizeof(unsigned));
	size_t total = 0;

	assert_non_null(seen);
	for (size_t c = 0; c < plan->n_cells; c++)
		total += profile_cell_runs(&plan->profile.sweep, plan->cells[c].workload);
	assert_int_equal(plan->n_runs, total);
	for (size_t i = 0; i < plan->n_runs; i++) {
		const struct plan_run *r = &plan->runs[i];
		assert_int_equal(r->position, i);
		assert_true(r->cell < plan->n_cells);
		assert_true(r->index < profile_cell_runs(&plan->profile.sweep,
							 plan->cells[r->cell].workload));
		seen[r->cell * most + r->index]++;
	}
	for (size_t c = 0; c < plan->n_cells; c++)
		for (unsigned i = 0; i < profile_cell_runs(&plan->profile.sweep, plan->cells[c].workload);
		     i++)
			assert_int_equal(seen[c * most + i], 1);
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

/* Writes PLAN as JSON and reads it back into *BACK; returns the text. */
static char *round_trip(const struct plan *plan, struct plan *back)
{
	char path[] = "/tmp/buildapp-plan-XXXXXX";
	char *text = calloc(1, 1 << 20);
	int fd = mkstemp(path);
	FILE *f;

	assert_non_null(text);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_int_equal(plan_write_json(plan, f), 0);
	fclose(f);
	f = fopen(path, "r");
	assert_true(fread(text, 1, (1 << 20) - 1, f) > 0);
	fclose(f);
	assert_int_equal(plan_read_json(path, back), 0);
	unlink(path);
	return text;
}

/* [sweep] durability_runs: the durability cells get their own number of
 * runs, interleaved with the others' while both have runs left; 0, or
 * the same number as runs, is the order of a plan without it. */
static void test_durability_runs(void **state)
{
	static const char base[] = "[storage]\nbackends = raw, qcow2\n[guest]\ncache = none, unsafe\n"
				   "[workload]\nkinds = fio, durability\n[sweep]\nruns = 3\n";
	char ini[512];
	struct profile p;
	struct plan a, same, more, fewer;

	(void)state;
	load(base, &p);
	assert_int_equal(p.sweep.durability_runs, 0);
	assert_int_equal(planner_build(&p, &a), 0);
	check_runs_complete(&a);
	assert_int_equal(a.n_runs, 8 * 3);
	snprintf(ini, sizeof(ini), "%sdurability_runs = 3\n", base);
	load(ini, &p);
	assert_int_equal(planner_build(&p, &same), 0);
	assert_int_equal(same.n_runs, a.n_runs);
	assert_memory_equal(same.runs, a.runs, a.n_runs * sizeof(*a.runs));

	snprintf(ini, sizeof(ini), "%sdurability_runs = 7\n", base);
	load(ini, &p);
	assert_int_equal(planner_build(&p, &more), 0);
	check_runs_complete(&more);
	/* 4 fio cells x 3, 4 durability cells x 7 */
	assert_int_equal(more.n_runs, 4 * 3 + 4 * 7);
	/* The first three rounds hold every cell; then durability only. */
	for (size_t i = 0; i < more.n_runs; i++) {
		const struct plan_run *r = &more.runs[i];
		bool durable = more.cells[r->cell].workload == WORKLOAD_DURABILITY;
		if (i < 3 * 8)
			assert_int_equal(r->index, i / 8);
		else
			assert_true(durable && r->index == 3 + (i - 24) / 4);
	}
	snprintf(ini, sizeof(ini), "%sdurability_runs = 1\norder = blocked\n", base);
	load(ini, &p);
	assert_int_equal(planner_build(&p, &fewer), 0);
	check_runs_complete(&fewer);
	assert_int_equal(fewer.n_runs, 4 * 3 + 4 * 1);
	/* The JSON says both counts, and reads back as it was. */
	struct plan back;
	char *text = round_trip(&more, &back);
	assert_non_null(strstr(text, "\"runs_per_cell\": 3"));
	assert_non_null(strstr(text, "\"durability_runs_per_cell\": 7"));
	assert_non_null(strstr(text, "\"durability_runs\": 7"));
	assert_int_equal(back.n_runs, more.n_runs);
	assert_memory_equal(back.runs, more.runs, more.n_runs * sizeof(*more.runs));
	free(text);
	plan_release(&back);
	plan_release(&a);
	plan_release(&same);
	plan_release(&more);
	plan_release(&fewer);
}

static void test_json_round_trip(void **state)
{
	struct profile p;
	struct plan plan, back;
	char x[512], y[512];

	(void)state;
	assert_int_equal(loader_load("profiles/kvm-perf-2011.ini", &p), 0);
	assert_int_equal(planner_build(&p, &plan), 0);
	free(round_trip(&plan, &back));

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

/* The L2 cache axis multiplies qcow2 cells only, and host_baseline adds one
 * host cell per raw/LVM placement and host-capable workload (none for
 * qcow2: left out, with the reason); both show in the ids and the JSON. */
static void test_l2_cache_and_host_cells(void **state)
{
	struct profile p;
	struct plan plan, back;
	size_t n_qcow2 = 0, n_host = 0;

	(void)state;
	load("[storage]\nbackends = qcow2, raw\n"
	     "[guest]\ncache = none, unsafe\nl2_cache = default, 1M, 8M\n"
	     "[workload]\nkinds = fio, qemu-img-bench, tarball-write\nhost_baseline = yes\n"
	     "[sweep]\nruns = 2\n",
	     &p);
	assert_int_equal(planner_build(&p, &plan), 0);
	/* per workload: qcow2 3 sizes x 2 caches + raw 2 caches = 8 cells, x 3
	 * workloads = 24, plus the raw fio host cell. */
	assert_int_equal(plan.n_cells, 25);
	assert_int_equal(plan.n_excluded, 1);
	assert_string_equal(plan.excluded[0].cell.id, "qcow2/qcow2/off/-/-/host/fio");
	assert_non_null(strstr(plan.excluded[0].reason, "qcow2"));
	for (size_t i = 0; i < plan.n_cells; i++) {
		const struct plan_cell *c = &plan.cells[i];
		if (c->format == IMAGE_FORMAT_QCOW2)
			n_qcow2++;
		else
			assert_int_equal(c->l2_cache, -1);
		if (c->host) {
			n_host++;
			assert_string_equal(c->id, "raw/raw/sparse/-/-/host/fio");
			assert_int_equal(c->workload, WORKLOAD_FIO);
		}
		for (size_t j = 0; j < i; j++)
			assert_string_not_equal(plan.cells[j].id, c->id);
	}
	assert_int_equal(n_qcow2, 18);
	assert_int_equal(n_host, 1);
	assert_string_equal(plan.cells[0].id, "qcow2/qcow2/off/none/threads/virtio/fio");
	assert_string_equal(plan.cells[2].id, "qcow2/qcow2/off/l2=1M/none/threads/virtio/fio");
	assert_int_equal(plan.cells[2].l2_cache, 1 << 20);
	check_runs_complete(&plan);

	char *text = round_trip(&plan, &back);
	assert_non_null(strstr(text, "\"l2_cache\": 8388608"));
	assert_non_null(strstr(text, "\"l2_cache\": null"));
	assert_non_null(strstr(text, "\"guest\": false"));
	assert_non_null(strstr(text, "\"default\",\n        \"1M\",\n        \"8M\"\n"));
	free(text);
	assert_int_equal(back.n_cells, plan.n_cells);
	for (size_t i = 0; i < plan.n_cells; i++) {
		assert_string_equal(back.cells[i].id, plan.cells[i].id);
		assert_int_equal(back.cells[i].host, plan.cells[i].host);
		assert_int_equal(back.cells[i].l2_cache, plan.cells[i].l2_cache);
	}
	plan_release(&back);
	plan_release(&plan);
}

/* [host] write_cache as a list multiplies every cell, host and
 * qemu-img-bench cells too, each level in the id and the JSON, read back
 * the same; one value makes no axis: the cells and their ids are those
 * of a profile without the key, and their JSON has no write_cache. */
static void test_write_cache_axis(void **state)
{
	struct profile p;
	struct plan one, plan, back;

	(void)state;
	load("[host]\nwrite_cache = on\n[storage]\nbackends = raw\n"
	     "[workload]\nkinds = durability, qemu-img-bench, dd\nhost_baseline = yes\n", &p);
	assert_int_equal(planner_build(&p, &one), 0);
	assert_int_equal(one.n_cells, 4);
	for (size_t i = 0; i < one.n_cells; i++) {
		assert_int_equal(one.cells[i].write_cache, -1);
		assert_null(strstr(one.cells[i].id, "wc="));
	}
	char *text = round_trip(&one, &back);
	assert_null(strstr(text, "\"write_cache\": \""));
	assert_non_null(strstr(text, "\"write_cache\": [\n        \"on\"\n      ]"));
	free(text);
	plan_release(&back);

	load("[host]\nwrite_cache = on, off, keep\n[storage]\nbackends = raw\n"
	     "[workload]\nkinds = durability, qemu-img-bench, dd\nhost_baseline = yes\n", &p);
	assert_int_equal(planner_build(&p, &plan), 0);
	assert_int_equal(plan.n_cells, 3 * one.n_cells);
	for (size_t i = 0; i < plan.n_cells; i++) {
		const struct plan_cell *c = &plan.cells[i];
		char want[PLAN_CELL_ID_MAX + 16];
		assert_true(c->write_cache >= 0);
		snprintf(want, sizeof(want), "%s/wc=%s", one.cells[i / 3].id,
			 write_cache_setting_name(c->write_cache));
		assert_string_equal(c->id, want);
	}
	/* Listed order: the first kind and the first write cache setting. */
	assert_string_equal(plan.cells[0].id, "raw/raw/sparse/none/threads/virtio/durability/wc=on");
	check_runs_complete(&plan);
	text = round_trip(&plan, &back);
	assert_non_null(strstr(text, "\"write_cache\": \"off\""));
	free(text);
	assert_int_equal(back.n_cells, plan.n_cells);
	for (size_t i = 0; i < plan.n_cells; i++) {
		assert_string_equal(back.cells[i].id, plan.cells[i].id);
		assert_int_equal(back.cells[i].write_cache, plan.cells[i].write_cache);
	}
	plan_release(&back);
	plan_release(&plan);
	plan_release(&one);
}

/* Bad values of the new keys are refused with the key's name. */
static void test_new_keys_validated(void **state)
{
	static const char *const bad[] = {
		"[storage]\nbackends = qcow2\n[guest]\nl2_cache = 1M, 1M\n",
		"[storage]\nbackends = qcow2\n[guest]\nl2_cache = 8T\n",
		"[storage]\nbackends = qcow2\n[guest]\nl2_cache = lots\n",
		"[storage]\nbackends = raw\n[guest]\nl2_cache = 1M\n",
		"[workload]\nkinds = qemu-img-bench\nhost_baseline = yes\n",
		"[report]\nreference = kvm-perf-2012\n",
	};
	struct profile p;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_not_equal(loader_load_buffer("test.ini", bad[i], strlen(bad[i]), &p), 0);
	load("[report]\nreference = guest-vs-host\n[storage]\nbackends = raw\n"
	     "[guest]\nl2_cache = default\n",
	     &p);
	assert_int_equal(p.report.reference, REFERENCE_GUEST_VS_HOST);
}

/* C written as JSON and read back: the same cell, the same id. */
static void check_cell_round_trip(const struct plan_cell *c)
{
	json_object *o = plan_cell_to_json(c);
	struct plan_cell back;

	assert_non_null(o);
	if (plan_cell_from_json(o, &back) != 0)
		fail_msg("%s: %s does not read back", c->id, json_object_to_json_string(o));
	assert_string_equal(back.id, c->id);
	assert_int_equal(back.backend, c->backend);
	assert_int_equal(back.format, c->format);
	assert_int_equal(back.prealloc, c->prealloc);
	assert_int_equal(back.cache, c->cache);
	assert_int_equal(back.aio, c->aio);
	assert_int_equal(back.bus, c->bus);
	assert_int_equal(back.workload, c->workload);
	assert_int_equal(back.l2_cache, c->l2_cache);
	assert_int_equal(back.host, c->host);
	json_object_put(o);
}

/* Every field of a cell at every value the reader takes (-1: none), in
 * guest cells and host cells, reads back as written. */
static void test_cell_fields_round_trip(void **state)
{
	static const int64_t l2s[] = {0, 4096, 1 << 20, 8 << 20};
	size_t n = 0;

	(void)state;
	for (int b = 0; b < backend_names.count; b++)
		for (int f = 0; f < image_format_names.count; f++) {
			int n_pre = b == BACKEND_QCOW2 ? qcow2_prealloc_names.count
						       : raw_prealloc_names.count;
			bool qcow2 = f == IMAGE_FORMAT_QCOW2;
			for (int pre = -1; pre < n_pre; pre++)
				for (int w = 0; w < workload_kind_names.count; w++) {
					struct plan_cell c = {
						.backend = b, .format = f, .prealloc = pre,
						.cache = -1, .aio = -1, .bus = -1,
						.workload = w, .l2_cache = -1, .host = true,
					};
					plan_cell_make_id(&c);
					check_cell_round_trip(&c);
					n++;
					c.host = false;
					for (c.cache = 0; (int)c.cache < cache_mode_names.count; c.cache++)
						for (c.aio = 0; (int)c.aio < aio_mode_names.count; c.aio++)
							for (c.bus = -1; c.bus < disk_bus_names.count; c.bus++)
								for (size_t l = 0; l < (qcow2 ? 4 : 1); l++) {
									c.l2_cache = qcow2 ? l2s[l] : -1;
									plan_cell_make_id(&c);
									check_cell_round_trip(&c);
									n++;
								}
				}
		}
	assert_true(n > 10000);
}

/* The JSON of a cell, member by member and null by null, as plans and
 * journals have it; and the id of each kind of cell, which matches cells
 * across hosts. */
static void test_cell_json_form(void **state)
{
	struct plan_cell l2 = {
		.backend = BACKEND_QCOW2, .format = IMAGE_FORMAT_QCOW2, .prealloc = 0,
		.cache = CACHE_NONE, .aio = AIO_THREADS, .bus = -1,
		.workload = WORKLOAD_QEMU_IMG_BENCH, .l2_cache = 1 << 20, PLAN_CELL_NO_FIO,
	};
	struct plan_cell host = {
		.backend = BACKEND_RAW, .format = IMAGE_FORMAT_RAW, .prealloc = 0,
		.cache = -1, .aio = -1, .bus = -1, .workload = WORKLOAD_FIO,
		.l2_cache = -1, .host = true, PLAN_CELL_NO_FIO,
	};
	char buf[32];

	(void)state;
	plan_cell_make_id(&l2);
	plan_cell_make_id(&host);
	assert_string_equal(l2.id, "qcow2/qcow2/off/l2=1M/none/threads/-/qemu-img-bench");
	assert_string_equal(host.id, "raw/raw/sparse/-/-/host/fio");
	json_object *o = plan_cell_to_json(&l2);
	assert_string_equal(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE),
			    "{\"id\":\"qcow2/qcow2/off/l2=1M/none/threads/-/qemu-img-bench\","
			    "\"backend\":\"qcow2\",\"format\":\"qcow2\",\"preallocation\":\"off\","
			    "\"cache\":\"none\",\"aio\":\"threads\",\"bus\":null,"
			    "\"workload\":\"qemu-img-bench\",\"l2_cache\":1048576,\"guest\":true}");
	json_object_put(o);
	o = plan_cell_to_json(&host);
	assert_string_equal(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE),
			    "{\"id\":\"raw/raw/sparse/-/-/host/fio\",\"backend\":\"raw\","
			    "\"format\":\"raw\",\"preallocation\":\"sparse\",\"cache\":null,"
			    "\"aio\":null,\"bus\":null,\"workload\":\"fio\",\"l2_cache\":null,"
			    "\"guest\":false}");
	json_object_put(o);

	/* The axes: every member but the id and the workload, in order; a
	 * fio knob only in a cell that has one of its own. */
	static const char *const axes[] = {"backend", "format", "preallocation", "cache",
					   "aio", "bus", "l2_cache", "guest", "fio_rw",
					   "fio_bs", "fio_iodepth", "fio_numjobs",
					   "fio_ioengine", "fio_rwmixread", "write_cache"};
	assert_int_equal(plan_n_axes(), sizeof(axes) / sizeof(axes[0]));
	o = plan_cell_axes_to_json(&host);
	size_t i = 0;
	json_object_object_foreach(o, key, value) {
		(void)value;
		assert_string_equal(plan_axis(i), axes[i]);
		assert_string_equal(key, axes[i]);
		i++;
	}
	assert_int_equal(i, 8);
	json_object_put(o);
	struct plan_cell knobs = host;
	knobs.fio_rw = FIO_RW_RANDRW;
	knobs.fio_bs = 1 << 20;
	knobs.fio_iodepth = 32;
	knobs.fio_numjobs = 4;
	knobs.fio_ioengine = FIO_IOENGINE_IO_URING;
	knobs.fio_rwmixread = 0;
	knobs.write_cache = WRITE_CACHE_OFF;
	plan_cell_make_id(&knobs);
	assert_string_equal(knobs.id, "raw/raw/sparse/-/-/host/fio/rw=randrw/bs=1M/qd=32/"
				      "jobs=4/engine=io_uring/mix=0/wc=off");
	o = plan_cell_axes_to_json(&knobs);
	i = 0;
	json_object_object_foreach(o, key2, value2) {
		(void)value2;
		assert_string_equal(key2, axes[i]);
		i++;
	}
	assert_int_equal(i, plan_n_axes());
	assert_null(plan_axis(i));
	json_object_put(o);
	check_cell_round_trip(&knobs);
	assert_string_equal(plan_cell_axis_text(&knobs, "fio_bs", buf, sizeof(buf)), "1M");
	assert_string_equal(plan_cell_axis_text(&knobs, "fio_iodepth", buf, sizeof(buf)), "32");
	assert_true(plan_cell_at(&knobs, "fio_iodepth", "32"));
	assert_true(plan_cell_at(&knobs, "fio_bs", "1M"));
	assert_true(plan_cell_at(&knobs, "write_cache", "off"));
	assert_string_equal(plan_cell_axis_text(&host, "write_cache", buf, sizeof(buf)), "-");
	assert_string_equal(plan_cell_axis_text(&host, "fio_iodepth", buf, sizeof(buf)), "-");
	assert_string_equal(plan_cell_axis_text(&l2, "l2_cache", buf, sizeof(buf)), "1M");
	assert_string_equal(plan_cell_axis_text(&l2, "bus", buf, sizeof(buf)), "-");
	assert_string_equal(plan_cell_axis_text(&l2, "guest", buf, sizeof(buf)), "guest");
	assert_string_equal(plan_cell_axis_text(&host, "guest", buf, sizeof(buf)), "host");
	assert_string_equal(plan_cell_axis_text(&host, "preallocation", buf, sizeof(buf)), "sparse");
	assert_string_equal(plan_cell_axis_text(&host, "l2_cache", buf, sizeof(buf)), "-");
	assert_null(plan_cell_axis_text(&host, "workload", buf, sizeof(buf)));
	l2.l2_cache = 0;
	assert_string_equal(plan_cell_axis_text(&l2, "l2_cache", buf, sizeof(buf)), "default");
}

/* A cell of a plan or journal from before host cells and the L2 cache
 * axis ran in a guest, with QEMU's default L2 cache on qcow2 (none on
 * raw); its id is the one it had. */
static void test_cell_without_added_members(void **state)
{
	static const char *const old[] = {
		"{\"backend\":\"qcow2\",\"format\":\"qcow2\",\"preallocation\":\"off\","
		"\"cache\":\"none\",\"aio\":\"threads\",\"bus\":\"virtio\",\"workload\":\"fio\"}",
		"{\"backend\":\"raw\",\"format\":\"raw\",\"preallocation\":null,"
		"\"cache\":\"unsafe\",\"aio\":\"threads\",\"bus\":\"sata\",\"workload\":\"fio\"}",
	};
	struct plan_cell c;

	(void)state;
	json_object *o = json_tokener_parse(old[0]);
	assert_int_equal(plan_cell_from_json(o, &c), 0);
	assert_false(c.host);
	assert_int_equal(c.l2_cache, 0);
	assert_string_equal(c.id, "qcow2/qcow2/off/none/threads/virtio/fio");
	json_object_put(o);
	o = json_tokener_parse(old[1]);
	assert_int_equal(plan_cell_from_json(o, &c), 0);
	assert_false(c.host);
	assert_int_equal(c.l2_cache, -1);
	assert_string_equal(c.id, "raw/raw/-/unsafe/threads/sata/fio");
	/* But a host cell says so, and has no QEMU settings. */
	json_object_object_add(o, "guest", json_object_new_boolean(false));
	assert_int_equal(plan_cell_from_json(o, &c), -EINVAL);
	json_object_put(o);
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
		cmocka_unit_test(test_durability_runs),
		cmocka_unit_test(test_json_round_trip),
		cmocka_unit_test(test_read_rejects_junk),
		cmocka_unit_test(test_l2_cache_and_host_cells),
		cmocka_unit_test(test_new_keys_validated),
		cmocka_unit_test(test_cell_fields_round_trip),
		cmocka_unit_test(test_cell_json_form),
		cmocka_unit_test(test_write_cache_axis),
		cmocka_unit_test(test_cell_without_added_members),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
