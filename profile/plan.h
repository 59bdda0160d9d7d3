/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The plan: the resolved profile and the sweep it asks for, as cells
 * (one combination of the matrix axes) and runs in the order they are to
 * be made.  The builder makes it (profile/planner.h); its JSON form is
 * what `buildapp plan --json` prints and what the appliance reads. */
#ifndef BUILDAPP_PLAN_H
#define BUILDAPP_PLAN_H

#include <stdbool.h>
#include <sys/types.h>
#include <stddef.h>
#include <stdio.h>

#include "profile.h"

/* The plan's JSON: "format" and "version" (docs/plan.md). */
#define PLAN_FORMAT "buildapp-plan"
#define PLAN_VERSION 1

#define PLAN_CELL_ID_MAX 128
#define PLAN_REASON_MAX 160
/* Hard limits so a profile cannot ask for a plan that fills memory. */
#define PLAN_MAX_CELLS 4096
#define PLAN_MAX_RUNS 100000

/* A cell's id is its axis values joined by '/': backend, format,
 * preallocation, ["l2=SIZE" for a qcow2 cell with an L2 cache size of
 * its own,] cache, aio, bus and workload; "-" for a value the cell does
 * not have, and "host" in the bus's place for a host-native cell; then
 * each fio knob the sweep varies, as KEY=VALUE (rw=, bs=, qd=, jobs=,
 * engine=, mix=):
 * "lvm/raw/-/unsafe/threads/virtio/fio",
 * "qcow2/qcow2/off/l2=1M/none/threads/-/qemu-img-bench",
 * "raw/raw/sparse/-/-/host/fio",
 * "lvm/raw/-/none/threads/virtio/fio/rw=randread/qd=32". */
struct plan_cell {
	char id[PLAN_CELL_ID_MAX];
	enum backend backend;
	enum image_format format; /* of the guest disk on the backend */
	int prealloc; /* enum qcow2_prealloc or raw_prealloc; -1: none */
	enum cache_mode cache; /* -1: none (host cell) */
	enum aio_mode aio;     /* -1: none (host cell) */
	int bus; /* enum disk_bus; -1: no guest (qemu-img-bench, host cell) */
	enum workload_kind workload;
	/* qcow2 L2 cache in bytes; 0: QEMU's default; -1: none (not qcow2,
	 * or no QEMU at all) */
	int64_t l2_cache;
	/* A host-native cell ([workload] host_baseline): the workload ran
	 * on the host, with no guest and no QEMU ("guest": false in JSON).
	 * qemu-img-bench cells are not: QEMU's block layer is between the
	 * tool and the image, as in a guest. */
	bool host;
	/* fio's knobs, in a fio cell of a sweep that varies them (a list of
	 * more than one value in the profile); -1 otherwise: the profile's
	 * one value applies (plan_cell_fio), and the cell's id stays what
	 * it was before the knobs were axes.  rwmixread is -1 too in a
	 * cell whose rw mixes nothing (built-in job). */
	int fio_rw;            /* enum fio_rw */
	int64_t fio_bs;        /* bytes */
	int64_t fio_iodepth;
	int64_t fio_numjobs;
	int fio_ioengine;      /* enum fio_ioengine */
	int64_t fio_rwmixread; /* percent */
	/* The disk under test's write cache (enum write_cache_setting), set
	 * before each of the cell's runs, in a sweep that varies it ([host]
	 * write_cache lists more than one); -1 otherwise: the profile's one
	 * value, set once at boot. */
	int write_cache;
};

/* fio's knobs of a cell as its run uses them: the cell's own where the
 * sweep varies them, else the profile's one value. */
struct fio_knobs {
	enum fio_rw rw;
	uint64_t bs, iodepth, numjobs;
	enum fio_ioengine ioengine; /* auto resolved: psync or libaio */
	uint64_t rwmixread;
};

struct plan_excluded {
	struct plan_cell cell;
	char reason[PLAN_REASON_MAX];
};

struct plan_run {
	unsigned position; /* 0-based place in the sweep */
	unsigned cell;     /* index into plan.cells */
	unsigned index;    /* 0-based run number within its cell */
};

struct plan {
	struct profile profile;
	struct plan_cell *cells;
	size_t n_cells;
	struct plan_excluded *excluded;
	size_t n_excluded;
	struct plan_run *runs; /* in sweep order */
	size_t n_runs;
};

/* Releases what the plan owns (not the struct itself); accepts a zeroed
 * plan, and leaves one. */
void plan_release(struct plan *plan);

/* Text of the preallocation column of CELL: "off".."full", or "-". */
const char *plan_cell_prealloc_name(const struct plan_cell *cell);
/* What cache MODE means on the host, in the words of the cache-mode table
 * of the cache-modes-lvm study (Table 1); the strings are static. */
struct plan_cache_row {
	const char *host_write_cache;
	const char *host_page_cache;
	bool flushes_honoured;
};
struct plan_cache_row plan_cache_row(enum cache_mode mode);
/* The knobs of CELL of a plan of PROFILE, into *ret. */
void plan_cell_fio(const struct profile *profile, const struct plan_cell *cell,
		   struct fio_knobs *ret);
/* A cell with no fio knob of its own (every one -1), nor a write cache
 * of its own: what a planner starts from. */
#define PLAN_CELL_NO_FIO                                                       \
	.fio_rw = -1, .fio_bs = -1, .fio_iodepth = -1, .fio_numjobs = -1,      \
	.fio_ioengine = -1, .fio_rwmixread = -1, .write_cache = -1
/* Fills cell->id from its fields. */
void plan_cell_make_id(struct plan_cell *cell);

/* CELL as the JSON object of the plan's "cells" list (also used by the run
 * journal and the summary); a new reference.  And back: fills *ret from
 * the axis values and remakes its id; returns 0 or -EINVAL. */
struct json_object;
struct json_object *plan_cell_to_json(const struct plan_cell *cell);
int plan_cell_from_json(struct json_object *o, struct plan_cell *ret);
/* plan_cell_from_json, saying what is wrong with O in WHY (LEN bytes). */
int plan_cell_parse(struct json_object *o, struct plan_cell *ret, char *why, size_t len);

/* The axes of a cell: the members of its JSON object that tell one
 * configuration from another (all but "id" and "workload"), in the
 * object's order.  plan_axis is the name of axis I (static), or NULL from
 * I = plan_n_axes() on. */
const char *plan_axis(size_t i);
size_t plan_n_axes(void);
/* The profile key (a LIST of names) whose order is that of axis I's
 * levels, first the reference level of the report's comparisons; NULL
 * where no key orders them, as the plan's cells meet them in the order
 * the profile lists them anyway (no cell left out decides it). */
struct key_def;
const struct key_def *plan_axis_key(size_t i);
/* That key's value in PROFILE, the "profile" member of a plan's JSON:
 * its array of names (borrowed), or NULL. */
struct json_object *plan_axis_listed(struct json_object *profile, size_t i);
/* Axis AXIS of CELL as a report shows it: a name, "-" where the JSON has
 * null (an axis the cell does not have), an L2 cache size as the profile
 * writes it ("1M"; 0: "default"), "guest" or "host".  Static or in BUF
 * (32 bytes will do); NULL when AXIS is not an axis. */
const char *plan_cell_axis_text(const struct plan_cell *cell, const char *axis,
				char *buf, size_t len);
/* Whether axis AXIS (not "id" or "workload") of CELL, as
 * plan_cell_to_json writes it, is LEVEL: the levels a profile names in
 * [report] baseline and compare. */
bool plan_cell_at(const struct plan_cell *cell, const char *axis, const char *level);
/* The index in PLAN's cells of the cell whose id is ID, or -1. */
ssize_t plan_cell_find(const struct plan *plan, const char *id);
/* The axes' members of plan_cell_to_json(CELL) only; a new reference. */
struct json_object *plan_cell_axes_to_json(const struct plan_cell *cell);

/* Writes the plan as JSON (documented in docs/plan.md) to F.
 * Returns 0 or a negative errno. */
int plan_write_json(const struct plan *plan, FILE *f);
/* Reads a plan written by plan_write_json from PATH into *ret (which the
 * caller releases with plan_release).  Reports its own errors; returns 0
 * or a negative errno. */
int plan_read_json(const char *path, struct plan *ret);
/* The same from the LEN bytes of TEXT, named NAME in messages.  Every
 * member is checked (types, ranges, version, cell references, duplicate
 * cells and runs): a bad plan is -EINVAL with one message naming the
 * member, never a crash or a default. */
int plan_parse_json(const char *name, const char *text, size_t len,
		    struct plan *ret);

#endif
