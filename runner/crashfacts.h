/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What a host crash leaves on record: the journal line of a durability
 * run that ended in its host's crash carries a "host_crash" object
 * (docs/results.md): the mechanism that crashed the host, why the way
 * asked for was not used, when each step before the trigger ended
 * (crashsteps.h: the guest's QEMU stopped, the host's writeback stopped,
 * RESULTS synced, these facts read), the host's dirty and writeback
 * memory at the trigger (/proc/meminfo), the disk under test's volatile
 * write cache then, and the way back (trigger to the next kernel,
 * trigger to the resumed sweep); for a power cut, the BMC asked.  Older
 * lines have none. */
#ifndef BUILDAPP_CRASHFACTS_H
#define BUILDAPP_CRASHFACTS_H

#include <stdbool.h>
#include <stdint.h>

#include <json.h>

#define CRASHFACTS_TEXT_MAX 256

struct crashfacts {
	bool present;           /* the line has a host_crash object */
	/* "kexec" (reboot(2) LINUX_REBOOT_CMD_KEXEC), "firmware" (sysrq b,
	 * emergency_restart), "restart" (reboot(2) LINUX_REBOOT_CMD_RESTART:
	 * kernel_restart, the orderly shutdown and then the firmware) or
	 * "power" (crash = power: the server's BMC cut its power and
	 * restored it, a cold boot) */
	char mechanism[16];
	char fallback[CRASHFACTS_TEXT_MAX]; /* why not the way asked; "": null */
	/* A power cut's BMC and how it was asked ("in-band IPMI (/dev/ipmi0,
	 * IPMI 2.0): chassis power cycle"); "": null (other mechanisms). */
	char bmc[CRASHFACTS_TEXT_MAX];
	/* The steps before the trigger, each the seconds from the crash
	 * point to its end; NAN: null (a line from before the steps). */
	double qemu_stopped_seconds;
	double writeback_stopped_seconds;
	double results_synced_seconds;
	double facts_read_seconds;
	int64_t dirty_kib;      /* Dirty at the trigger; -1: null */
	int64_t writeback_kib;  /* Writeback at the trigger; -1: null */
	char disk_write_cache[4]; /* "on", "off"; "": null */
	double to_kernel_seconds; /* trigger to the next kernel's start; NAN: null */
	double to_sweep_seconds;  /* trigger to the resumed sweep; NAN: null */
};

/* F as no record: not present, every value null. */
void crashfacts_init(struct crashfacts *f);

/* F as the journal's "host_crash" object, a new reference; NULL when F
 * is not present (the member is then left out) or out of memory. */
json_object *crashfacts_to_json(const struct crashfacts *f);

/* The "host_crash" member of the journal line LINE into *RET: absent or
 * null is a record not present.  False when it is there but not a
 * host_crash object (a mechanism of another name, a negative size, a
 * member of the wrong type). */
bool crashfacts_from_json(json_object *line, struct crashfacts *ret);

#endif
