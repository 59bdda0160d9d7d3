/* A durability run that ends with its host's crash ([workload] crash =
 * host): what the boot after it needs to finish the run, made durable on
 * RESULTS before the host goes down, as console/run-NNNN.crash beside
 * the run's acknowledgements (console/run-NNNN.acks).  The console log
 * itself is not synced, so the guest's RECORDS line (where its records
 * lie) is kept here too.  Format: docs/guest-protocol.md. */
#ifndef BUILDAPP_HOSTCRASH_H
#define BUILDAPP_HOSTCRASH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "plan.h"

struct hostcrash {
	char cell[PLAN_CELL_ID_MAX];
	unsigned index;    /* the run within its cell */
	unsigned position; /* the run's place in the sweep */
	uint64_t acks;     /* made durable at the crash point */
	double ack_seconds; /* first to last acknowledgement; NAN: one */
	char reset[8];     /* the volume's reset before the run */
	char *records;     /* the guest's RECORDS line (owned) */
	/* The run's start to the crash point, and the Unix time of the
	 * crash: the run's whole cost, reboot included, is known when it is
	 * finished.  NAN, 0: not known. */
	double run_seconds;
	int64_t crashed_at;
};

/* RESULTS_DIR/console/run-NNNN.crash, NNNN the run's position. */
void hostcrash_path(const char *results_dir, unsigned position, char *buf, size_t len);

/* Writes C's file and syncs it and its directory (console/, which holds
 * the acknowledgements too).  Returns 0 or a negative errno (reported). */
int hostcrash_write(const char *results_dir, const struct hostcrash *c);

/* hostcrash_write, then reboots this host at once without syncing anything else (sysrq b; reboot(2) where sysrq is
 * off), so what only the page cache held is gone.  Returns only when the
 * host is still up: the file removed, a negative errno (reported). */
int hostcrash_reboot(const char *results_dir, const struct hostcrash *c);

/* Reads the crash file at PATH into *RET (hostcrash_release).  Returns 0,
 * -EBADMSG for a file it cannot parse (reported), or a negative errno. */
int hostcrash_read(const char *path, struct hostcrash *ret);
void hostcrash_release(struct hostcrash *c);

/* The paths of RESULTS_DIR's crash files, in position order, into *RET
 * (*RET_N of them; free each and the array).  Returns 0 or a negative
 * errno (no console directory is none). */
int hostcrash_list(const char *results_dir, char ***ret, size_t *ret_n);

#endif
