/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The power cuts of crash = power in the booted kit: before the sweep,
 * whether the server's BMC ([host] bmc: in-band IPMI, bmc.h; or Redfish,
 * redfish.h) can cut and restore its power, said in the plan's terms
 * (how many power-cut runs, of which cells, and whether they will be
 * made); the power cycle the sweep asks for at each crash point
 * (runner/hostcrash.h's hostcrash_power); appliance.txt's line. */
#ifndef BUILDAPP_POWER_H
#define BUILDAPP_POWER_H

#include <stdbool.h>
#include <stdio.h>

#include "hostcrash.h"
#include "plan.h"
#include "redfish.h"

struct power {
	struct hostcrash_power cut; /* for the sweep (sweep_env.power) */
	bool redfish;
	struct redfish rf;
	char state[768]; /* appliance.txt's power_cuts line; "": none planned */
};

/* Before the sweep of PLAN, with RESULTS at RESULTS_DIR: when it has power
 * cuts left to make, asks the BMC whether it can make them and says so on
 * the console; P->cut gets the power cycle, or (cut.cycle NULL) the
 * reason none can be made.  Never fails: the other runs are made. */
void power_prepare(struct power *p, const struct plan *plan, const char *results_dir);

/* appliance.txt's line of P (none when the plan has no power cuts). */
void power_write_report(const struct power *p, FILE *f);

/* Forgets P's account. */
void power_release(struct power *p);

#endif
