/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The bundle's way out of the server: the upload, a stick plugged in,
 * and the wait for either where the bundle is only in RAM. */
#include "init.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "coldplug.h"
#include "files.h"
#include "hostinfo.h"
#include "hostjson.h"
#include "jsonget.h"
#include "log.h"
#include "netup.h"
#include "upload.h"
#include "watchdog.h"

/* The bundle's name: host.json's (written when the sweep started), else
 * made here from the same parts (no sweep ran: no host.json). */
static void bundle_name(const struct init_env *env, char name[HOSTINFO_BUNDLE_MAX])
{
	json_object *info = NULL;
	const char *n = NULL;
	struct hostinfo_server s;

	if (hostjson_read(RESULTS_DIR, &info) == 0 && info)
		n = jsonget_string(info, "bundle");
	if (n && *n) {
		snprintf(name, HOSTINFO_BUNDLE_MAX, "%s", n);
	} else {
		hostinfo_read_dmi("/sys/class/dmi/id", &s);
		const struct disk_info *d = env->have_target ? &env->target : NULL;
		if (hostinfo_bundle_name(env->profile.appliance.name, &s, NULL,
					 d ? d->serial : NULL, d ? d->wwid : NULL,
					 d ? d->name : NULL, hostinfo_boot_time(NULL), name,
					 HOSTINFO_BUNDLE_MAX) < 0)
			snprintf(name, HOSTINFO_BUNDLE_MAX, "buildapp_unknown");
	}
	json_object_put(info);
}

/* Sends the bundle where buildapp.upload= (or [appliance] upload) says,
 * over the network DHCP gives; the outcome goes into appliance.txt of
 * the copy kept here.  The copy sent says it was being sent. */
int init_bundle_upload(struct init_env *env, int status)
{
	const char *url = env->profile.appliance.upload;
	char name[HOSTINFO_BUNDLE_MAX], ifname[NETUP_IF_MAX], reason[256], shown[UPLOADURL_MAX];
	struct upload_result res;
	int r;

	if (!*url)
		return -ENOENT;
	bundle_name(env, name);
	uploadurl_redact(url, shown, sizeof shown);
	watchdog_step(0, "uploading the bundle to %s as %s", shown, name);
	snprintf(env->upload_status, sizeof env->upload_status, "sending to %s as %s", shown,
		 name);
	init_report_write(env, status);
	if (netup_dhcp("/sys/class/net", 20, ifname, reason, sizeof reason) < 0) {
		log_error("upload to %s: network: %s", shown, reason);
		snprintf(env->upload_status, sizeof env->upload_status,
			 "failed: network: %s (to %s)", reason, shown);
		return -ENETUNREACH;
	}
	struct upload_options o = {.url = url, .dir = RESULTS_DIR, .name = name,
				   .attempts = 5, .retry_seconds = 2, .timeout_seconds = 30,
				   .ca_file = access(BENCH_KIT_UPLOAD_CA, R_OK) == 0
						      ? BENCH_KIT_UPLOAD_CA
						      : NULL};
	if ((r = upload_bundle(&o, &res)) < 0) {
		log_error("upload to %s failed: %s", shown, res.error);
		snprintf(env->upload_status, sizeof env->upload_status, "failed: %s", res.error);
		return r;
	}
	log_info("uploaded to %s", res.where);
	snprintf(env->upload_status, sizeof env->upload_status,
		 "sent to %s (%zu files, %llu bytes, %s)", res.where, res.files, res.bytes,
		 UPLOAD_SUMS);
	return 0;
}

/* Whether an upload that failed with R (init_bundle_upload()) may succeed when tried
 * again: no network or no answer may come back; a refusal (an HTTP 4xx,
 * a bundle of that name already there) stays one. */
static bool upload_may_succeed(int r)
{
	return r == -ENETUNREACH || r == -EHOSTUNREACH;
}

#define STICK_DIR "/run/buildapp-stick"

/* Copies the bundle in RAM to a directory of its name (NAME.2, ... when
 * taken) on partition PART, a stick labelled RESULTS plugged in since
 * the boot.  Returns 0 once it is written and synced. */
static int copy_to_stick(struct init_env *env, int status, const char *part)
{
	char dev[DISK_NAME_MAX + 8], name[HOSTINFO_BUNDLE_MAX], dir[sizeof STICK_DIR + HOSTINFO_BUNDLE_MAX + 16];
	int r;

	snprintf(dev, sizeof dev, "/dev/%s", part);
	mkdir(STICK_DIR, 0755);
	if (mount(dev, STICK_DIR, "ext4", MS_NOATIME, NULL) < 0)
		return log_error_errno(-errno, "mounting the stick %s", dev);
	bundle_name(env, name);
	snprintf(dir, sizeof dir, "%s/%s", STICK_DIR, name);
	for (unsigned k = 2; access(dir, F_OK) == 0 && k < 100; k++)
		snprintf(dir, sizeof dir, "%s/%s.%u", STICK_DIR, name, k);
	snprintf(env->upload_status + strlen(env->upload_status),
		 sizeof env->upload_status - strlen(env->upload_status),
		 "; the bundle was written to the stick %s as %s", dev, dir + strlen(STICK_DIR) + 1);
	init_report_write(env, status);
	r = files_copy_tree(RESULTS_DIR, dir);
	sync();
	if (umount(STICK_DIR) < 0 && r == 0)
		r = -errno;
	if (r < 0)
		return log_error_errno(r, "writing the bundle to the stick %s", dev);
	log_info("the bundle is on the stick %s, in %s: it can be unplugged", dev,
		 dir + strlen(STICK_DIR) + 1);
	return 0;
}

/* Netbooted, and its upload failed (U): the bundle in RAM is the sweep's
 * only copy, and powering off would lose it.  The upload is tried again
 * with backoff for [appliance] upload_retry seconds, unless no retry can
 * change its refusal; then the server stays up, saying how to get the
 * bundle: a stick with a partition labelled RESULTS (looked for every 5
 * s) gets a copy, and the upload is tried every 5 minutes.  Returns once
 * the bundle is somewhere else. */
void init_bundle_keep(struct init_env *env, int status, int u)
{
	time_t end = time(NULL) + (time_t)env->profile.appliance.upload_retry;
	unsigned wait = 10;
	char part[DISK_NAME_MAX];

	/* It waits on purpose, for as long as it takes. */
	watchdog_idle();
	if (u == -ENOENT)
		log_error("no upload was asked for (buildapp.upload=, [appliance] upload)");
	else if (!upload_may_succeed(u))
		log_error("the upload was refused (%s): no retry can change that", env->upload_status);
	while (u < 0 && upload_may_succeed(u) && time(NULL) + (time_t)wait <= end) {
		log_warning("the bundle is only in RAM: trying the upload again in %u s", wait);
		sleep(wait);
		wait = wait * 2 > 300 ? 300 : wait * 2;
		u = init_bundle_upload(env, status);
		init_report_write(env, status);
	}
	if (u == 0)
		return;
	log_error("this sweep's only copy is in RAM (%s): this server stays up. Plug in a stick "
		  "with an ext4 partition labelled %s and the bundle is written to it%s",
		  RESULTS_DIR, RESULTS_LABEL,
		  upload_may_succeed(u) ? "; the upload is tried again every 5 minutes" : "");
	for (unsigned t = 5;; t += 5) {
		sleep(5);
		coldplug_run();
		if (disks_find_label(RESULTS_LABEL, part, env->boot_disk) == 0 &&
		    copy_to_stick(env, status, part) == 0)
			return;
		if (upload_may_succeed(u) && t % 300 == 0) {
			u = init_bundle_upload(env, status);
			init_report_write(env, status);
			if (u == 0)
				return;
		}
	}
}
