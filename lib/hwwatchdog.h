/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The server's hardware watchdog: /dev/watchdog, whichever driver made it
 * (a chipset's iTCO_wdt or sp5100_tco, the BMC's through ipmi_watchdog,
 * QEMU's i6300esb).  Armed, it resets the server unless it is fed within
 * its timeout; here a thread feeds it while this process makes progress
 * as lib/watchdog.h sees it (watchdog_progressing), so a step past its
 * limit stops the feeding, and so does a wedged kernel, which the
 * process's own watchdog cannot see from inside.  Disarmed (the magic
 * close, 'V') before every power-off, reboot or crash the program makes
 * itself.
 *
 * While armed it keeps a record file (the caller's path, on a disk that
 * outlives a reset): that it is armed, the device and its timeout, and the
 * step under way, rewritten (whole, synced) by each step as it is marked
 * (watchdog_on_mark), so the boot after a reset can say what was under
 * way. */
#ifndef BUILDAPP_HWWATCHDOG_H
#define BUILDAPP_HWWATCHDOG_H

#include <stdbool.h>
#include <stddef.h>

#define HWWATCHDOG_TEXT_MAX 512
#define HWWATCHDOG_RESETS_MAX 16

struct hwwatchdog_record {
	bool armed; /* not disarmed since: the boot that armed it did not end well */
	char device[64];
	char identity[64]; /* the driver's: "i6300ESB timer", "iTCO_wdt" */
	unsigned timeout;  /* seconds, as the driver took it */
	double armed_at;   /* Unix time */
	char step[HWWATCHDOG_TEXT_MAX]; /* the step under way last written */
	double step_at;
	/* The resets recorded by the boots after them: "TIME during 'STEP'". */
	size_t n_resets;
	char resets[HWWATCHDOG_RESETS_MAX][HWWATCHDOG_TEXT_MAX];
};

/* Opens DEVICE ("/dev/watchdog"), which starts it, asks for TIMEOUT
 * seconds (the driver's own maximum when it refuses more), writes the
 * record at RECORD (NULL: none; its earlier resets kept) and starts the
 * feeder thread.  *RET gets what was armed.  Returns 0, -ENOENT when
 * there is no such device, or a negative errno (not reported; WHY says
 * it in a sentence). */
int hwwatchdog_arm(const char *device, unsigned timeout, const char *record,
		   struct hwwatchdog_record *ret, char *why, size_t why_len);

/* Disarms it (magic close) and marks the record disarmed.  Returns 0
 * (also when it was not armed) or -EBUSY when the driver could not stop
 * it (a driver built with nowayout, or without the magic close: it will
 * reset the server TIMEOUT s after the last feed).  Any thread, any
 * number of times. */
int hwwatchdog_disarm(void);

/* Arms it again as the last hwwatchdog_arm did (its device, timeout and
 * record), after hwwatchdog_disarm: a crash that was to take the server
 * down and did not.  Returns 0 (also when it was never armed, or is
 * armed), or a negative errno with WHY as hwwatchdog_arm's. */
int hwwatchdog_rearm(char *why, size_t why_len);

/* Whether the watchdog at SYSFS_DIR ("/sys/class/watchdog/watchdog0")
 * says it reset the machine this boot started after (its bootstatus has
 * WDIOF_CARDRESET): 1, 0, or -1 when it cannot say. */
int hwwatchdog_boot_reset(const char *sysfs_dir);

/* Reads the record at PATH into *RET.  Returns 0, -ENOENT, or -EBADMSG. */
int hwwatchdog_record_read(const char *path, struct hwwatchdog_record *ret);
/* Writes REC to PATH whole (through a temporary file, synced with its
 * directory).  Returns 0 or a negative errno (reported). */
int hwwatchdog_record_write(const char *path, const struct hwwatchdog_record *rec);

#endif
