/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the parts of the sweep share: sweep.c makes each run,
 * sweep_host.c the runs that boot no guest, sweep_crash.c finishes the
 * runs a host crash ended.  Private to runner/. */
#ifndef BUILDAPP_SWEEP_PARTS_H
#define BUILDAPP_SWEEP_PARTS_H

#include <stddef.h>
#include <stdint.h>

#include "journal.h"
#include "plan.h"
#include "results.h"
#include "storage.h"
#include "sweep.h"

/* RESULTS_DIR/console/run-NNNN.EXT, NNNN the run's position: its
 * console log (log), its acknowledgements (acks), into BUF of LEN. */
void sweep_run_file(const char *results_dir, unsigned position, const char *ext,
		    char *buf, size_t len);

/* The run's STATUS and MESSAGE (cut to the journal's size). */
void sweep_set_status(struct journal_run *jr, const char *status, const char *message);

/* Whether CELL's run cannot take its server down as its crash asks: a
 * host crash or power cut needs RESULTS on a disk that outlives it, and a
 * power cut a BMC that can make it (found before the sweep).  Such a run
 * is not made: JR says why, journaled failed. */
bool sweep_crash_not_made(const struct sweep_env *env, const struct plan_cell *cell,
			  struct journal_run *jr);

/* The volume CELL's runs use, or NULL. */
const struct storage_volume *sweep_find_volume(const struct sweep_env *env,
					       const struct plan_cell *cell);

/* After a durability run's crash: its ACKS acknowledged records read back
 * from VOL at the places TEXT's (LEN bytes of console) RECORDS line gives
 * and counted into RES (acks_per_second from ACK_SECONDS first), or the
 * run failed with the reason in JR.  Returns 0 or -ENOMEM. */
int sweep_check_durability(const struct storage_volume *vol, uint64_t acks,
			   double ack_seconds, uint64_t run_id, const char *text, size_t len,
			   struct journal_run *jr, struct results *res);

/* Seconds since the epoch, to the nanosecond the clock gives: a crash's
 * time, which the boot after it reads back. */
double sweep_realtime_seconds(void);

/* A qemu-img-bench cell's run on VOL, its metrics into *RES (a failure
 * is the run's status).  Returns 0, or a negative errno that stops the
 * sweep. */
int sweep_run_host_bench(const struct sweep_env *env, const struct plan_run *pr,
			 const struct storage_volume *vol, struct journal_run *jr,
			 struct results *res);

/* A host-native cell's run: the guest agent's workload on this host, on
 * the guest's filesystem on VOL mounted here.  As sweep_run_host_bench. */
int sweep_run_host_native(const struct sweep_env *env, const struct plan_run *pr,
			  const struct storage_volume *vol, struct journal_run *jr,
			  struct results *res);

#endif
