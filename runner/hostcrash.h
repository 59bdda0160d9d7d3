/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A durability run that ends with its host's crash ([workload] crash =
 * host, or power: the BMC cuts the server's power): what the boot after
 * it needs to finish the run, made durable on
 * RESULTS before the host goes down, as console/run-NNNN.crash beside
 * the run's acknowledgements (console/run-NNNN.acks), with the guest's
 * RECORDS line (where its records lie), so that the file alone finishes
 * the run.  Format: docs/guest-protocol.md. */
#ifndef BUILDAPP_HOSTCRASH_H
#define BUILDAPP_HOSTCRASH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "crashfacts.h"
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
	 * crash (to the millisecond): the run's whole cost, reboot included,
	 * is known when it is finished.  NAN, 0: not known. */
	double run_seconds;
	double crashed_at;
	/* How the host went down and what it held then (present), kept in
	 * the file for the journal line of the boot after; the way back is
	 * timed there. */
	struct crashfacts facts;
};

/* Readies this host's crashes, once a boot, before the sweep: with
 * WANT kexec, loads KERNEL and INITRD with this boot's command line
 * (kexec -s -l: kexec_file_load, the one Secure Boot's lockdown allows),
 * so that a crash is a jump into them; with firmware, or when the load
 * fails or there is nothing to load (KERNEL NULL, NONE_WHY saying why),
 * a crash resets through the firmware, the reason said once and recorded
 * with each crash.  DISK ("sda"; NULL: none) is the disk under test,
 * whose write cache each crash records. */
void hostcrash_prepare(enum crash_reboot want, const char *kernel, const char *initrd,
		       const char *none_why, const char *disk);

/* Whether PLAN takes its server down in durability runs (a durability
 * cell with crash = host or power). */
bool hostcrash_planned(const struct plan *plan);

/* The plan's crashes that take the server down (durability runs with
 * crash = host or power), and in BUF a sentence of what they cost: by the
 * profile's crash_reboot, a power cut's cold boot; the firmware's
 * one-time boot override warned of.  Returns the count (0: BUF empty). */
size_t hostcrash_plan_cost(const struct plan *plan, char *buf, size_t len);

/* The server's BMC for power cuts (crash = power), as the booted kit
 * found it before the sweep. */
struct hostcrash_power {
	/* Asks the BMC to cut this server's power and restore it; returns
	 * only when the power did not go (refused, or still on some time
	 * after the BMC's answer): a negative errno, WHY (LEN bytes) saying
	 * it.  NULL: no power cut can be made, REFUSED says why. */
	int (*cycle)(void *data, char *why, size_t len);
	void *data;
	/* The BMC and how it is asked, for the crash's record (no
	 * credentials): "in-band IPMI (/dev/ipmi0, IPMI 2.0): chassis power
	 * cycle". */
	char via[CRASHFACTS_TEXT_MAX];
	/* Why the BMC cannot cut this server's power (cycle NULL). */
	char refused[512];
};

/* Cuts this server's power at C's crash point through POWER's BMC: the
 * steps of crashsteps.h (QEMU and the host's writeback stopped,
 * RESULTS_DIR synced, C's facts read, the hardware watchdog disarmed),
 * then C's file written (hostcrash_write, mechanism "power") and the
 * power cycle asked.  Returns only when the power did not go: the file
 * removed, a negative errno (reported). */
int hostcrash_power_cut(const char *results_dir, struct hostcrash *c, pid_t qemu,
			const struct hostcrash_power *power);

/* RESULTS_DIR/console/run-NNNN.crash, NNNN the run's position. */
void hostcrash_path(const char *results_dir, unsigned position, char *buf, size_t len);

/* Writes C's file, synced with its directory (console/, which holds the
 * acknowledgements too).  Returns 0 or a negative errno (reported). */
int hostcrash_write(const char *results_dir, const struct hostcrash *c);

/* Crashes this host at C's crash point (crashsteps.h): QEMU (its pid)
 * and the host's writeback stopped, RESULTS_DIR synced, C's facts read,
 * then, each way recorded in C's file (hostcrash_write) before it acts,
 * the way hostcrash_prepare readied: kexec (reboot(2)
 * LINUX_REBOOT_CMD_KEXEC); else, or when it returns, the firmware (sysrq
 * b, emergency_restart); else reboot(2) LINUX_REBOOT_CMD_RESTART, whose
 * kernel_restart shuts the devices down first, recorded as "restart"
 * with why the others were not taken.  Returns only when the host is
 * still up: the file removed, a negative errno (reported). */
int hostcrash_reboot(const char *results_dir, struct hostcrash *c, pid_t qemu);

/* Seconds from C's crash to this kernel's start (its boot time read off
 * the real-time clock, to its second), or NAN. */
double hostcrash_seconds_to_kernel(const struct hostcrash *c);

/* Reads the crash file at PATH into *RET (hostcrash_release).  Returns 0,
 * -EBADMSG for a file it cannot parse (reported), or a negative errno. */
int hostcrash_read(const char *path, struct hostcrash *ret);
void hostcrash_release(struct hostcrash *c);

/* The paths of RESULTS_DIR's crash files, in position order, into *RET
 * (*RET_N of them; free each and the array).  Returns 0 or a negative
 * errno (no console directory is none). */
int hostcrash_list(const char *results_dir, char ***ret, size_t *ret_n);

#endif
