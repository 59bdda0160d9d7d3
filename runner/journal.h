/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The run journal: one JSON object per line per finished run, appended
 * to results/runs.jsonl and fsync'd before the next run starts, so an
 * interrupted sweep loses nothing and can be resumed.  The format is
 * documented in docs/results.md. */
#ifndef BUILDAPP_JOURNAL_H
#define BUILDAPP_JOURNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "crashfacts.h"
#include "plan.h"
#include "profile.h"
#include "results.h"

#define JOURNAL_VERSION 1
#define JOURNAL_TEXT_MAX 256
/* Limits on what a journal line may hold, so a damaged file cannot make
 * the reader allocate without bound. */
#define JOURNAL_MAX_METRICS 512
#define JOURNAL_LINE_MAX (1 << 20)

/* Where one run's wall time went, in seconds; NAN: not measured (host
 * cells have no guest setup, journals older than these fields have
 * none).  boot_seconds is the guest's own share of workload. */
struct journal_phases {
	double reset;      /* storage_reset to the pristine image */
	double page_cache; /* sync and drop_caches */
	double workload;   /* vm_run (domain setup, boot to shutdown, teardown)
			    * or the host tool, start to end */
	double guest_start; /* of workload: vm_run's start to STARTED */
	double guest_stop;  /* of workload: SHUTDOWN to vm_run's return */
	double total;      /* the run's start to its journal line */
};

/* A checked reset ([sweep] verify_reset): the whole volume's sha256
 * after the fast reset (or, for a reset of kind "none", as the run that
 * only read it left it), then after the full reset made over it. */
struct journal_reset_check {
	bool done;
	char fast[65], full[65]; /* SHA256_HEX_LEN */
	bool identical;
};

struct journal_run {
	struct plan_cell cell;  /* id and the axis values */
	unsigned index;         /* run number within the cell, 0-based */
	unsigned position;      /* place in the sweep, 0-based */
	int64_t start_time;     /* Unix time (UTC) the run started */
	char status[32];        /* "ok", "timeout", "crashed", "failed"... */
	char message[JOURNAL_TEXT_MAX]; /* why, when not ok; else "" */
	double boot_seconds;    /* domain STARTED to SHUTDOWN (else STOPPED); NAN: none */
	bool applied_known;     /* the cache flags QEMU reported */
	struct cache_flags applied;
	bool kvm;               /* domain type kvm, else TCG (guest cells) */
	/* qcow2 cells: the cache option QEMU really had, cache-size in
	 * bytes (0: none, QEMU's defaults), and where it was read:
	 * "qemu command line" (the guest's QEMU as libvirt started it),
	 * "qemu-img arguments" (qemu-img bench), "asked" (not read back). */
	bool qcow2_cache_known;
	uint64_t qcow2_cache_size;
	char qcow2_cache_source[32];
	/* The volume's reset before this run: "full" (every byte the pristine
	 * image covers, or a fresh file), "fast" (only what the previous run
	 * on the volume wrote), "none" (the previous run opened the volume
	 * read-only: nothing to undo), "" (the run failed before it). */
	char reset[8];
	/* That reset checked, when it was fast or none and checked; and the check of
	 * the reset after this run, made for the last planned run on each
	 * volume (its own writes get a checked reset too). */
	struct journal_reset_check reset_check, reset_check_after;
	char host_kernel[128];
	char guest_kernel[128];
	/* How a durability run ended ([workload] crash: "guest"); "" for
	 * other kinds.  Its metrics say what was acknowledged and lost. */
	char crash[16];
	/* A run that ended in its host's crash: the crash's facts
	 * (crashfacts.h); not present for others and in older lines. */
	struct crashfacts host_crash;
	/* The disk under test's write cache as read back after the sweep
	 * set it for this run's cell ("on", "off"), in a sweep whose cells
	 * vary it ([host] write_cache a list); "": not set per run (absent
	 * from the line). */
	char disk_write_cache[4];
	/* A host cell's way to its volume: "direct" (an LV, or an image file
	 * through a loop device with direct I/O), "buffered" (an image file
	 * through the host's page cache); "" for other cells. */
	char host_io[16];
	/* What the run's tool said beside its numbers (fio's notes), and
	 * whether each fio job with a steadystate= reached it. */
	size_t n_notes;
	char notes[RESULTS_NOTES_MAX][RESULTS_NOTE_MAX];
	size_t n_steady;
	struct result_steady steady[RESULTS_STEADY_MAX];
	struct result_metric *metrics; /* owned: the run's results, then
					* reset_seconds */
	size_t n_metrics;
	struct journal_phases phases;
};

struct journal {
	struct journal_run *runs; /* in file order */
	size_t n_runs;
};

/* Zeroes RUN, sets boot_seconds and the phases to NAN, start_time to now and
 * host_kernel from uname(2). */
void journal_run_init(struct journal_run *run);
/* Frees what RUN owns and zeroes it. */
void journal_run_release(struct journal_run *run);
/* Appends a metric (NAME and UNIT copied; too long is -EINVAL).
 * Returns 0, -EINVAL or -ENOMEM. */
int journal_run_add_metric(struct journal_run *run, const char *name,
			   double value, const char *unit);
/* Keeps RES's notes and steady states in RUN (its metrics are added one
 * by one, journal_run_add_metric). */
void journal_run_add_notes(struct journal_run *run, const struct results *res);
/* The metric called NAME in RUN, or NULL. */
const struct result_metric *journal_run_metric(const struct journal_run *run,
					       const char *name);

/* RUN as one line of JSON, without the newline (caller frees).  Returns
 * 0, -EINVAL (a cell value out of range) or -ENOMEM. */
int journal_run_to_json(const struct journal_run *run, char **ret);
/* Parses one journal line into *ret (released by the caller).  Returns 0
 * or -EBADMSG. */
int journal_run_from_json(const char *line, struct journal_run *ret);

/* Appends RUN as one line to PATH (created 0644 if missing) and fsyncs it
 * (and its directory when it was created).  A last line cut short (no
 * newline) is removed first, and a write that fails removes what it wrote,
 * so one torn write costs only its own run.  Reports errors with their
 * cause (ENOSPC...); returns 0 or a negative errno. */
int journal_append(const char *path, const struct journal_run *run);

/* Reads every run of PATH into *ret (release with journal_release).  A
 * missing file is an empty journal; a last line without its newline is a
 * run cut short by a crash (a newline commits a record) and is skipped
 * with a warning, even when it parses; any other bad
 * line is an error naming it.  Returns 0 or a negative errno. */
int journal_read(const char *path, struct journal *ret);
/* Frees what J owns; accepts a zeroed journal and leaves one. */
void journal_release(struct journal *j);
/* True when J holds run INDEX of the cell CELL_ID (any status): a resumed
 * sweep skips it. */
bool journal_has_run(const struct journal *j, const char *cell_id,
		     unsigned index);

#endif
