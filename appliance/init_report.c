/* SPDX-License-Identifier: GPL-2.0-or-later */
/* appliance.txt: what the appliance did, found and decided, one
 * `key: value` a line (docs/results.md). */
#include "init.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "cleanup.h"
#include "hostinfo.h"
#include "log.h"
#include "names.h"
#include "parse.h"
#include "safety.h"
#include "sysfs.h"

static void write_list(FILE *f, const char *key, char (*items)[SAFETY_ITEM_MAX],
		       size_t n)
{
	fprintf(f, "%s:", key);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%s %s", i ? "," : "", items[i]);
	fprintf(f, "%s\n", n ? "" : " none");
}

/* What the safety rules saw of the disk under test: the identities
 * [host] disk may name it by, and the signatures that need wipe. */
static void write_disk_facts(const struct init_env *env, FILE *f)
{
	struct safety_facts facts;
	char dev[DISK_NAME_MAX + 8];

	snprintf(dev, sizeof(dev), "/dev/%s", env->target.name);
	if (safety_probe(dev, &facts) < 0)
		return;
	write_list(f, "disk_identities", facts.identities, facts.n_identities);
	write_list(f, "disk_signatures", facts.signatures, facts.n_signatures);
}

void init_report_write(const struct init_env *env, int status)
{
	_cleanup_fclose_ FILE *f = fopen(REPORT_PATH ".tmp", "we");
	struct utsname u;
	char size[32];

	if (!f) {
		log_error("cannot write %s: %s", REPORT_PATH, strerror(errno));
		return;
	}
	uname(&u);
	fprintf(f, "buildapp appliance report\n");
	fprintf(f, "profile: %s\n", env->profile.appliance.name);
	fprintf(f, "firmware: %s\n", access("/sys/firmware/efi", F_OK) == 0 ? "uefi" : "bios");
	char lockdown[64];
	int secure = hostinfo_secure_boot();
	fprintf(f, "secure_boot: %s (kernel lockdown: %s)\n",
		secure < 0 ? "unknown" : secure ? "on" : "off",
		hostinfo_lockdown(lockdown, sizeof(lockdown)) == 0 ? lockdown : "unknown");
	fprintf(f, "kernel: %s %s\n", u.release, u.machine);
	fprintf(f, "kvm: %s\n", access("/dev/kvm", R_OK | W_OK) == 0 ? "/dev/kvm present" : "absent (TCG)");
	if (env->in_ram)
		fprintf(f, "results: RAM (no %s partition)\n", RESULTS_LABEL);
	else
		fprintf(f, "results: /dev/%s\n", env->results_part);
	/* What a power cut does to RESULTS' own synced writes: a disk with
	 * a volatile cache keeps them only if it honours flushes. */
	char rwc[32] = "";
	if (env->boot_disk[0] && sysfs_read_block(env->boot_disk, "queue/write_cache", rwc,
						  sizeof(rwc)) == 0)
		fprintf(f, "results_write_cache: %s\n",
			strcmp(rwc, "write back") == 0
				? "on (a volatile cache: the journal, crash files and "
				  "acknowledgements survive a power cut only if the disk "
				  "honours flushes)"
				: "off");
	fprintf(f, "boot_disk: %s\n", env->boot_disk[0] ? env->boot_disk : "none");
	fprintf(f, "disk_identity: %s\n", env->profile.host.disk);
	if (strcmp(env->profile.host.disk, "auto") == 0 && env->n_candidates > 0) {
		char list[CANDIDATES_TEXT_MAX];
		disks_describe(env->candidate, env->n_candidates, list, sizeof list);
		fprintf(f, "disk_candidates: %zu (%s)\n", env->n_candidates, list);
	}
	if (env->have_target) {
		fprintf(f, "disk_under_test: %s\n", env->target.name);
		fprintf(f, "disk_model: %s\n", env->target.model);
		fprintf(f, "disk_serial: %s\n", env->target.serial);
		fprintf(f, "disk_wwid: %s\n", env->target.wwid);
		fprintf(f, "disk_size: %s\n", format_size(env->target.size, size, sizeof(size)));
	} else {
		fprintf(f, "disk_under_test: none found\n");
	}
	if (env->have_target)
		write_disk_facts(env, f);
	char wc[32];
	fprintf(f, "write_cache_requested: %s\n",
		hosttune_write_cache_text(env->profile.host.write_cache, wc, sizeof(wc)));
	if (env->tuned) {
		hosttune_write_report(&env->tune, f);
		fprintf(f, "write_cache_after_restore: %s\n",
			env->write_cache_restored < 0 ? "unknown"
			: env->write_cache_restored ? "on" : "off");
	}
	hwwatch_write_report(&env->hw, f);
	power_write_report(&env->power, f);
	if (env->io_errors_before >= 0 && env->io_errors_after >= env->io_errors_before)
		fprintf(f, "disk_io_errors: %lld during the sweep\n",
			env->io_errors_after - env->io_errors_before);
	else if (env->have_target)
		fprintf(f, "disk_io_errors: unknown (the kernel keeps no count for this disk)\n");
	fprintf(f, "sweep: %s\n", env->sweep_status[0] ? env->sweep_status : "not run");
	fprintf(f, "upload: %s\n", env->upload_status[0] ? env->upload_status : "none asked");
	fprintf(f, "status: %s\n", status == 0 ? "ok" : "failed");
	if (status != 0)
		fprintf(f, "reason: %s\n", env->failure[0] ? env->failure : strerror(-status));
	/* A full RESULTS must not leave a half report under either name. */
	if (ferror(f) || fflush(f) != 0 || fsync(fileno(f)) < 0 ||
	    rename(REPORT_PATH ".tmp", REPORT_PATH) < 0) {
		int e = errno ? errno : EIO;
		unlink(REPORT_PATH ".tmp");
		log_error("cannot write %s: %s", REPORT_PATH, strerror(e));
	}
}
