/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Where a sweep's wall time goes, and its efficiency: the time spent
 * measuring (guests boot to shutdown, host-native workloads, qemu-img
 * bench) over the wall time since the command started, kit build,
 * provisioning and libvirt setup included.  Kept in RESULTS/timings.json,
 * one session per invocation (a resumed sweep adds one), so the figure
 * and its breakdown can be read back by the report (docs/results.md). */
#ifndef BUILDAPP_TIMINGS_H
#define BUILDAPP_TIMINGS_H

#include <stdint.h>

#include <json.h>

#include "journal.h"

enum timing_phase {
	TIMING_KIT,         /* guest kit and pristine image (buildapp run) */
	TIMING_PROVISION,   /* the backends on the target */
	TIMING_LIBVIRT,     /* connection and event loop */
	TIMING_CHECK_BOOT,  /* the KVM boot check */
	TIMING_RESET,       /* volume resets */
	TIMING_PAGE_CACHE,  /* page-cache drops */
	TIMING_GUEST_START, /* domain creation, to the STARTED event */
	TIMING_GUEST_STOP,  /* SHUTDOWN to vm_run's return: QEMU's exit, cleanup */
	TIMING_GUEST_OTHER, /* the rest of vm_run around boot to shutdown */
	TIMING_GUEST,       /* boot to shutdown: measured */
	TIMING_HOST_WORK,   /* host-native cells and qemu-img bench: measured */
	TIMING_RUNNER,      /* the rest of each run: parsing, journal */
	_TIMING_MAX
};

struct timings {
	double start;       /* CLOCK_MONOTONIC seconds at the command's start */
	int64_t start_time; /* Unix time of the same */
	double phase[_TIMING_MAX];
	unsigned runs;      /* runs made */
};

/* Zeroes T and starts its clock now. */
void timings_init(struct timings *t);
/* Adds the seconds since SINCE (monotonic_seconds(), monotonic.h) to phase P. */
void timings_add_since(struct timings *t, enum timing_phase p, double since);
/* Adds a journaled run's phases (journal_run.phases, boot_seconds). */
void timings_add_run(struct timings *t, const struct journal_run *run);

/* Appends T, as the session that ends now, to DIR/timings.json (the
 * sessions before it kept) and logs the sweep's efficiency over every
 * session and this session's breakdown.  Returns 0 or a negative errno,
 * reported. */
int timings_write(const char *dir, const struct timings *t);
/* DIR/timings.json into *RET (NULL when there is none).  Returns 0, or
 * -EBADMSG (reported) when it is not a timings.json of version 1. */
int timings_read(const char *dir, json_object **ret);

#endif
