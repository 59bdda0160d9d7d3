/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "planner.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cleanup.h"

/* splitmix64: small, well-mixed and the same everywhere, so a recorded
 * seed gives the same order on any host. */
static uint64_t next_random(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Where a guest disk lives: a backend and, for qcow2 and raw, one
 * preallocation mode (-1 for the backends without that axis). */
struct placement {
	enum backend backend;
	int prealloc;
};

static size_t placements(const struct profile *p, struct placement *out)
{
	int backends[AXIS_MASK_BITS], pre[AXIS_MASK_BITS];
	size_t n = 0, nb = AXIS_LISTED(p->storage.backends, backends);

	for (size_t i = 0; i < nb; i++) {
		enum backend b = backends[i];
		size_t np = 0;
		if (b == BACKEND_QCOW2)
			np = AXIS_LISTED(p->storage.qcow2_prealloc, pre);
		else if (b == BACKEND_RAW)
			np = AXIS_LISTED(p->storage.raw_prealloc, pre);
		if (np == 0)
			out[n++] = (struct placement){b, -1};
		for (size_t k = 0; k < np; k++)
			out[n++] = (struct placement){b, pre[k]};
	}
	return n;
}

typedef int (*cell_visitor)(void *ctx, const struct plan_cell *c,
			    const char *excluded_reason);

/* The levels of a numeric fio knob the sweep varies, into OUT; one level
 * of -1 when it has one value (the cell then has none of its own). */
static size_t num_levels(const struct num_axis *a, int64_t *out)
{
	if (a->n < 2) {
		out[0] = -1;
		return 1;
	}
	for (unsigned i = 0; i < a->n; i++)
		out[i] = (int64_t)a->v[i];
	return a->n;
}

/* The levels of a named fio knob the sweep varies, in the order the
 * profile lists them, into OUT (room for AXIS_MASK_BITS); one level of
 * -1 when it has one value. */
static size_t name_levels(axis_mask m, const struct axis_order *order, int *out)
{
	if (!m || !(m & (m - 1))) {
		out[0] = -1;
		return 1;
	}
	return axis_listed(m, order, out);
}

/* Why cell C, a fio cell of P, cannot run, or NULL. */
static const char *fio_excluded(const struct profile *p, const struct plan_cell *c)
{
	struct fio_knobs k;

	plan_cell_fio(p, c, &k);
	if (k.ioengine == FIO_IOENGINE_PSYNC && k.iodepth > 1)
		return "psync is synchronous: it never has more than one I/O "
		       "in flight, so an iodepth above 1 would measure iodepth 1";
	return NULL;
}

/* Visits BASE, and for a fio cell one cell per combination of the fio
 * knobs the sweep varies; rwmixread only where rw mixes reads and writes
 * (a job file may use it anywhere: there, in every cell).  WHY is BASE's
 * own reason to be left out, or NULL. */
static int visit_fio(const struct profile *p, const struct plan_cell *base,
		     const char *why, cell_visitor visit, void *ctx)
{
	const struct profile_workload *w = &p->workload;
	int rws[AXIS_MASK_BITS], engines[AXIS_MASK_BITS];
	int64_t bss[NUM_AXIS_MAX], depths[NUM_AXIS_MAX], jobs[NUM_AXIS_MAX],
		mixes[NUM_AXIS_MAX];
	static const int64_t no_mix = -1;

	if (base->workload != WORKLOAD_FIO)
		return visit(ctx, base, why);
	size_t nrw = name_levels(w->fio_rw, &w->fio_rw_order, rws);
	size_t nbs = num_levels(&w->fio_bs, bss);
	size_t nqd = num_levels(&w->fio_iodepth, depths);
	size_t nj = num_levels(&w->fio_numjobs, jobs);
	size_t ne = name_levels(w->fio_ioengine, &w->fio_ioengine_order, engines);
	size_t nmix = num_levels(&w->fio_rwmixread, mixes);

	for (size_t a = 0; a < nrw; a++)
	for (size_t b = 0; b < nbs; b++)
	for (size_t q = 0; q < nqd; q++)
	for (size_t j = 0; j < nj; j++)
	for (size_t e = 0; e < ne; e++) {
		struct plan_cell c = *base;
		struct fio_knobs k;

		c.fio_rw = rws[a];
		c.fio_bs = bss[b];
		c.fio_iodepth = depths[q];
		c.fio_numjobs = jobs[j];
		c.fio_ioengine = engines[e];
		plan_cell_fio(p, &c, &k);
		bool mixed = w->fio_job[0] || fio_rw_mixed(k.rw);
		const int64_t *mix_list = mixed ? mixes : &no_mix;
		for (size_t m = 0; m < (mixed ? nmix : 1); m++) {
			c.fio_rwmixread = mix_list[m];
			plan_cell_make_id(&c);
			int r = visit(ctx, &c, why ? why : fio_excluded(p, &c));
			if (r < 0)
				return r;
		}
	}
	return 0;
}

/* Visits BASE once per level of the disk's write cache when the sweep
 * varies it ([host] write_cache lists more than one), else once; each
 * through visit_fio. */
static int visit_cell(const struct profile *p, const struct plan_cell *base,
		      const char *why, cell_visitor visit, void *ctx)
{
	int levels[_WRITE_CACHE_MAX];
	size_t n = name_levels(p->host.write_cache, &p->host.write_cache_order, levels);

	for (size_t i = 0; i < n; i++) {
		struct plan_cell c = *base;
		c.write_cache = levels[i];
		plan_cell_make_id(&c);
		int r = visit_fio(p, &c, why, visit, ctx);
		if (r < 0)
			return r;
	}
	return 0;
}

/* The workloads a host-native cell can run: those the guest agent runs
 * on a mounted filesystem with a tool the host has too. */
static bool runs_on_host(enum workload_kind w)
{
	return w == WORKLOAD_BONNIE || w == WORKLOAD_DD || w == WORKLOAD_FIO;
}

/* The host-native cell of placement PL for workload W ([workload]
 * host_baseline): no guest, so no cache mode, aio, bus or L2 cache. */
static int visit_host_cell(const struct profile *p, const struct placement *pl,
			   enum workload_kind w, cell_visitor visit, void *ctx)
{
	struct plan_cell cell = {
		.backend = pl->backend,
		.format = pl->backend == BACKEND_QCOW2 ? IMAGE_FORMAT_QCOW2
						       : IMAGE_FORMAT_RAW,
		.prealloc = pl->prealloc,
		.cache = -1,
		.aio = -1,
		.bus = -1,
		.workload = w,
		.l2_cache = -1,
		.host = true,
		PLAN_CELL_NO_FIO,
	};

	plan_cell_make_id(&cell);
	return visit_cell(p, &cell,
			 cell.format == IMAGE_FORMAT_QCOW2
				 ? "host baseline: the host has no native view of a "
				   "qcow2 image's filesystem (the raw cell is its "
				   "baseline)"
				 : NULL,
			 visit, ctx);
}

/* Calls VISIT for every cell of the matrix, each axis's levels in the
 * order the profile lists them (so its first cells are at the reference
 * levels).  qemu-img bench runs on the host with no guest, so its cells
 * have no bus; the L2 cache axis applies to qcow2 cells only. */
static int for_each_cell(const struct profile *p, cell_visitor visit, void *ctx)
{
	int works[AXIS_MASK_BITS], caches[AXIS_MASK_BITS], aios[AXIS_MASK_BITS],
		buses[AXIS_MASK_BITS];
	struct placement places[_BACKEND_MAX * AXIS_MASK_BITS];
	size_t nw = AXIS_LISTED(p->workload.kinds, works);
	size_t npl = placements(p, places);
	size_t nc = AXIS_LISTED(p->guest.cache, caches);
	size_t na = AXIS_LISTED(p->guest.aio, aios);
	size_t nbus = AXIS_LISTED(p->guest.bus, buses);
	static const int no_bus = -1;
	static const int64_t no_l2 = -1;
	int64_t l2s[L2_CACHE_MAX_VALUES];
	int r;

	for (unsigned i = 0; i < p->guest.l2_cache.n; i++)
		l2s[i] = (int64_t)p->guest.l2_cache.bytes[i];
	for (size_t w = 0; w < nw; w++) {
		bool guest = works[w] != WORKLOAD_QEMU_IMG_BENCH;
		const int *bus_list = guest ? buses : &no_bus;
		size_t n_bus = guest ? nbus : 1;

		for (size_t pl = 0; pl < npl; pl++) {
			bool qcow2 = places[pl].backend == BACKEND_QCOW2;
			const int64_t *l2_list = qcow2 ? l2s : &no_l2;
			size_t n_l2 = qcow2 ? p->guest.l2_cache.n : 1;

			for (size_t l = 0; l < n_l2; l++)
			for (size_t c = 0; c < nc; c++)
			for (size_t a = 0; a < na; a++)
			for (size_t b = 0; b < n_bus; b++) {
				struct plan_cell cell = {
					.backend = places[pl].backend,
					.format = qcow2 ? IMAGE_FORMAT_QCOW2
							: IMAGE_FORMAT_RAW,
					.prealloc = places[pl].prealloc,
					.cache = caches[c],
					.aio = aios[a],
					.bus = bus_list[b],
					.workload = works[w],
					.l2_cache = l2_list[l],
					PLAN_CELL_NO_FIO,
				};
				const char *why = NULL;

				if (cell.aio == AIO_NATIVE &&
				    !cache_mode_allows_native_aio(cell.cache))
					why = "aio=native needs cache.direct=on "
					      "(cache none or directsync)";
				plan_cell_make_id(&cell);
				r = visit_cell(p, &cell, why, visit, ctx);
				if (r < 0)
					return r;
			}
			if (p->workload.host_baseline && runs_on_host(works[w])) {
				r = visit_host_cell(p, &places[pl], works[w], visit, ctx);
				if (r < 0)
					return r;
			}
		}
	}
	return 0;
}

struct count {
	const struct profile *profile;
	size_t cells, excluded;
	size_t runs, max_runs; /* planned, and with target_ci's */
};

static int count_cell(void *ctx, const struct plan_cell *c, const char *why)
{
	struct count *n = ctx;
	const struct profile_sweep *s = &n->profile->sweep;

	if (why) {
		n->excluded++;
		return 0;
	}
	n->cells++;
	unsigned runs = profile_cell_runs(s, c->workload);
	n->runs += runs;
	/* target_ci adds runs to the speed cells only (sweep.c). */
	n->max_runs += c->workload != WORKLOAD_DURABILITY && s->max_runs > runs ? s->max_runs
										 : runs;
	return 0;
}

static struct count count_all(const struct profile *profile)
{
	struct count n = {.profile = profile};

	for_each_cell(profile, count_cell, &n);
	return n;
}

void planner_count(const struct profile *profile, size_t *ret_cells,
		   size_t *ret_excluded)
{
	struct count n = count_all(profile);

	*ret_cells = n.cells;
	*ret_excluded = n.excluded;
}

size_t planner_max_runs(const struct profile *profile)
{
	return count_all(profile).max_runs;
}

static int add_cell(void *ctx, const struct plan_cell *c, const char *why)
{
	struct plan *plan = ctx;

	if (why) {
		struct plan_excluded *e = &plan->excluded[plan->n_excluded++];
		e->cell = *c;
		snprintf(e->reason, sizeof(e->reason), "%s", why);
	} else {
		plan->cells[plan->n_cells++] = *c;
	}
	return 0;
}

static unsigned cell_runs(const struct plan *plan, size_t c)
{
	return profile_cell_runs(&plan->profile.sweep, plan->cells[c].workload);
}

static void order_runs(struct plan *plan)
{
	const struct profile_sweep *s = &plan->profile.sweep;
	unsigned rounds = 0;
	size_t pos = 0;

	if (s->order == ORDER_BLOCKED) {
		for (size_t c = 0; c < plan->n_cells; c++)
			for (unsigned i = 0; i < cell_runs(plan, c); i++, pos++)
				plan->runs[pos] = (struct plan_run){
					(unsigned)pos, (unsigned)c, i};
		return;
	}
	/* Interleaved: round i holds the i-th run of every cell that has
	 * one, in a shuffled order, so slow drift of the host spreads over
	 * all cells alike.  With as many runs in every cell, every round
	 * holds every cell (and the order is the one it always was); with
	 * durability_runs apart, the rounds past the shorter count hold the
	 * longer cells only. */
	for (size_t c = 0; c < plan->n_cells; c++)
		rounds = cell_runs(plan, c) > rounds ? cell_runs(plan, c) : rounds;
	uint64_t state = s->seed;
	for (unsigned i = 0; i < rounds; i++) {
		struct plan_run *round = &plan->runs[pos];
		size_t n = 0;
		for (size_t c = 0; c < plan->n_cells; c++)
			if (i < cell_runs(plan, c))
				round[n++] = (struct plan_run){0, (unsigned)c, i};
		for (size_t c = n; c > 1; c--) {
			size_t j = (size_t)(next_random(&state) % c);
			struct plan_run t = round[c - 1];
			round[c - 1] = round[j];
			round[j] = t;
		}
		for (size_t c = 0; c < n; c++, pos++)
			plan->runs[pos].position = (unsigned)pos;
	}
}

int planner_build(const struct profile *profile, struct plan *ret)
{
	struct plan plan = {.profile = *profile};
	struct count n = count_all(profile);
	int r;

	if (n.cells + n.excluded > PLAN_MAX_CELLS || n.runs > PLAN_MAX_RUNS)
		return -E2BIG;
	plan.cells = calloc(n.cells ? n.cells : 1, sizeof(*plan.cells));
	plan.excluded = calloc(n.excluded ? n.excluded : 1, sizeof(*plan.excluded));
	plan.runs = calloc(n.runs + 1, sizeof(*plan.runs));
	if (!plan.cells || !plan.excluded || !plan.runs) {
		plan_release(&plan);
		return -ENOMEM;
	}
	r = for_each_cell(profile, add_cell, &plan);
	if (r < 0) {
		plan_release(&plan);
		return r;
	}
	plan.n_runs = n.runs;
	order_runs(&plan);
	*ret = plan;
	return 0;
}
