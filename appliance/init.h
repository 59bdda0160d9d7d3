/* SPDX-License-Identifier: GPL-2.0-or-later */
/* buildapp-init's private header: the boot's state, shared by init.c
 * (the boot's work), init_report.c (appliance.txt) and init_bundle.c (the
 * bundle's way out: the upload, a stick, the wait for either). */
#ifndef BUILDAPP_INIT_H
#define BUILDAPP_INIT_H

#include <stdbool.h>

#include "disks.h"
#include "hosttune.h"
#include "hwwatch.h"
#include "plan.h"
#include "power.h"
#include "profile.h"

#define RESULTS_LABEL "RESULTS"
#define RESULTS_DIR "/results"
#define REPORT_PATH RESULTS_DIR "/appliance.txt"
/* disks_describe's text */
#define CANDIDATES_TEXT_MAX 4096

struct init_env {
	struct profile profile;
	struct plan plan; /* n_cells 0: none baked into this root */
	char results_part[DISK_NAME_MAX];
	char boot_disk[DISK_NAME_MAX];
	struct disk_info target;
	int have_target;
	/* The disks that could be the disk under test (disks_candidates). */
	struct disk_info candidate[DISKS_MAX];
	size_t n_candidates;
	struct hosttune tune;
	int tuned;
	int write_cache_restored; /* read back after the restore, -1 unknown */
	char sweep_status[640];
	char failure[512]; /* the error that stopped the boot's work, as shown */
	int in_ram;        /* no RESULTS partition: the bundle is in RAM */
	char upload_status[768];
	int bad_plan;      /* plan_read_json's error: nothing is touched */
	/* A kit's sweep, planned or refused, starts and ends on the console
	 * as a lab's engine reads it (sweeplines.h); a root without a plan
	 * has no sweep to speak of. */
	bool sweep_lines;
	/* The kernel's I/O error count of the disk under test before and
	 * after the sweep; -1: none kept for it. */
	long long io_errors_before, io_errors_after;
	struct hwwatch hw; /* the server's hardware watchdog */
	struct power power; /* the BMC for crash = power's power cuts */
};


/* appliance.txt on RESULTS for the boot's work so far, STATUS 0 or the
 * error that ended it (env->failure says it as shown); written whole or
 * not at all. */
void init_report_write(const struct init_env *env, int status);

/* Sends the bundle where buildapp.upload= (or [appliance] upload) says,
 * over the network DHCP gives; its outcome goes into env->upload_status
 * and appliance.txt of the copy kept here.  Returns 0, -ENOENT when no
 * upload is asked for, or the error. */
int init_bundle_upload(struct init_env *env, int status);

/* Netbooted, and its upload failed (U, init_bundle_upload's): waits until
 * the bundle in RAM is somewhere else (docs/kit.md, "Uploads"). */
void init_bundle_keep(struct init_env *env, int status, int u);

#endif
