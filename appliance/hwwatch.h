/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The server's hardware watchdog in the kit ([appliance]
 * hardware_watchdog; the device: lib/hwwatchdog.h): armed for the boot's
 * work, fed while it makes progress, its record on RESULTS
 * (hardware-watchdog.txt: what was under way); and, at the boot after it
 * reset the server, that reset said: in appliance.txt, as the journal line
 * of the run it cut short (failed, with the reason) and as that run's
 * result line on the console.  Whether the sweep then goes on is the
 * caller's ([appliance] after). */
#ifndef BUILDAPP_HWWATCH_H
#define BUILDAPP_HWWATCH_H

#include <stdbool.h>
#include <stdio.h>

#include "hwwatchdog.h"
#include "plan.h"

#define HWWATCH_RECORD "hardware-watchdog.txt"
#define HWWATCH_DEVICE "/dev/watchdog"

struct hwwatch {
	bool armed;
	struct hwwatchdog_record rec; /* as armed, or as read at boot */
	char state[320];  /* appliance.txt's hardware_watchdog line */
	/* This boot follows a reset by the hardware watchdog: what it cut
	 * short, as appliance.txt and the reason say it. */
	bool reset_before;
	char reset_text[HWWATCHDOG_TEXT_MAX + 160];
};

/* Before the boot's work, with RESULTS at RESULTS_DIR: whether the boot
 * before was reset by the hardware watchdog (its record armed, and the
 * driver's boot status a watchdog reset).  If so it is said on the
 * console, added to the record's resets, and when its step was a planned
 * run of PLAN, that run is journaled failed with the reason and its
 * result line goes to RESULT_LINES (NULL: none).  Returns W->reset_before. */
bool hwwatch_check_reset(struct hwwatch *w, const char *results_dir, const struct plan *plan,
			 FILE *result_lines);

/* Arms the server's watchdog for TIMEOUT seconds (0: not at all), its
 * record in RESULTS_DIR (NULL: none, the results are in RAM): the one at
 * /dev/watchdog, or the BMC's through ipmi_watchdog when the server has
 * only a BMC.  What happened goes to W->state and the console; a server
 * without one runs on. */
void hwwatch_arm(struct hwwatch *w, unsigned timeout, const char *results_dir);

/* appliance.txt's lines of W. */
void hwwatch_write_report(const struct hwwatch *w, FILE *f);

#endif
