/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "bench.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>


#include "cleanup.h"
#include "files.h"
#include "guestcmdline.h"
#include "hostcrash.h"
#include "log.h"
#include "signals.h"
#include "runstate.h"
#include "safety.h"
#include "volrecord.h"
#include "volreset.h"
#include "volumes.h"
#include "watchdog.h"
#include "monotonic.h"

/* The boot check's guest: the kit's kernel on the first volume. */
static struct vm_spec check_spec(const struct profile *p,
				 const struct bench_inputs *in,
				 const struct storage_volume *vol,
				 const char *console)
{
	return (struct vm_spec){
		.name = "buildapp-check",
		.kernel = in->kernel,
		.firmware = domain_guest_firmware(),
		.initrd = in->initrd,
		.cmdline = guestcmdline_base,
		.memory = p->guest.memory,
		.vcpus = 1,
		.disk = vol->path,
		.format = vol->format,
		.cache = CACHE_UNSAFE,
		.aio = AIO_THREADS,
		.bus = BUS_VIRTIO,
		.console_log = console,
	};
}

/* Where the embedded driver keeps what it probed of QEMU, under its root. */
#define CAPS_IN_ROOT "cache/qemu/capabilities"

/* Copies the *.xml files of directory FROM into TO (which must exist),
 * each through a temporary name so a reader never sees half a file.
 * Best effort: a file that cannot be copied is left out. */
static void copy_xml_files(const char *from, const char *to)
{
	_cleanup_(closedirp) DIR *d = opendir(from);
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d))) {
		size_t n = strlen(e->d_name);
		char src[PATH_MAX], tmp[PATH_MAX], dst[PATH_MAX];

		if (n < 5 || strcmp(e->d_name + n - 4, ".xml") != 0)
			continue;
		snprintf(src, sizeof(src), "%s/%s", from, e->d_name);
		snprintf(dst, sizeof(dst), "%s/%s", to, e->d_name);
		snprintf(tmp, sizeof(tmp), "%s/.%s.%ld", to, e->d_name,
			 (long)getpid());
		if (files_copy(src, tmp, 0644, 0) < 0 || rename(tmp, dst) < 0)
			unlink(tmp);
	}
}

/* libvirt probes QEMU (4-5 s here) the first time a driver root starts a
 * domain, and every sweep has a root of its own: without this, the first
 * run of every sweep would wait for the probe.  Its result is kept in
 * CAPS and put into each new root; libvirt checks it against the QEMU
 * binary, its own version and the host, and probes again when it is
 * stale.  SAVE copies the root's back to CAPS. */
static void share_qemu_caps(const char *caps, const char *statedir, bool save)
{
	const char *parts[] = {"cache", "cache/qemu", CAPS_IN_ROOT};
	char root[PATH_MAX];

	if (save) {
		snprintf(root, sizeof(root), "%s/" CAPS_IN_ROOT, statedir);
		if (mkdir(caps, 0755) == 0 || errno == EEXIST)
			copy_xml_files(root, caps);
		return;
	}
	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
		snprintf(root, sizeof(root), "%s/%s", statedir, parts[i]);
		if (mkdir(root, 0700) < 0 && errno != EEXIST)
			return;
	}
	copy_xml_files(caps, root);
}

/* host.json: what the report says of this host.  Written when the
 * sweep starts, and again by a resumed one. */
static int write_host_json(const struct bench_inputs *in, const struct vm_host *host)
{
	char qemu[32], libvirt[32];

	vm_host_versions(host, qemu, libvirt);
	if (mkdir(in->results_dir, 0755) < 0 && errno != EEXIST)
		return log_error_errno(-errno, "creating '%s'", in->results_dir);
	return in->record_host(in->host_data, in->results_dir, vm_host_kvm(host), qemu,
			       libvirt);
}

/* The runs a crashed host left (crash = host), finished before the
 * volumes are provisioned again, which would overwrite what they are
 * checked for: the volumes opened as they are, each run's records read
 * back and journaled, the volumes let go. */
static int finish_host_crashes(const struct bench_inputs *in, const char *mountpoint,
			       const char *own_ptuuid, struct recipe *rec)
{
	char **paths = NULL;
	size_t n = 0;
	int r = hostcrash_list(in->results_dir, &paths, &n);

	for (size_t i = 0; i < n; i++)
		free(paths[i]);
	free(paths);
	if (r < 0 || n == 0)
		return r;
	log_info("%zu run%s ended with this host's crash: finishing %s", n,
		 n == 1 ? "" : "s", n == 1 ? "it" : "them");
	r = volumes_adopt(&in->plan->profile, in->target, mountpoint, own_ptuuid, rec);
	if (r < 0)
		return r;
	struct sweep_env env = {
		.plan = in->plan,
		.volumes = rec->volumes,
		.n_volumes = rec->n_volumes,
		.results_dir = in->results_dir,
		.result_lines = in->result_lines,
	};
	r = sweep_finish_crashes(&env);
	volumes_release(rec);
	return r;
}

int bench_run(const struct bench_inputs *in, struct sweep_outcome *ret)
{
	const struct plan *plan = in->plan;
	const struct profile *p = &plan->profile;
	_cleanup_free_ struct recipe *rec = calloc(1, sizeof(*rec));
	/* Short: libvirt puts sockets under it (108-byte limit); /tmp
	 * exists in the appliance's root too. */
	char statedir[] = RUNSTATE_TEMPLATE;
	char console[PATH_MAX], mountpoint[PATH_MAX];
	struct vm_host *host = NULL;
	struct sweep_outcome out;
	struct timings own_tm, *tm = in->timings;
	bool provisioned = false, pristine[RECIPE_MAX_VOLUMES] = {false};
	double t;
	int r;

	if (!rec)
		return -ENOMEM;
	if (!tm) {
		timings_init(&own_tm);
		tm = &own_tm;
	}
	/* From here a signal stops the sweep and this function cleans up. */
	signals_defer();
	runstate_reap();
	r = runstate_create(statedir);
	if (r < 0)
		return r;
	snprintf(mountpoint, sizeof(mountpoint), "%s/volumes", statedir);
	snprintf(console, sizeof(console), "%s/check.log", statedir);
	r = mkdir(mountpoint, 0755) < 0 ? -errno : 0;
	if (r >= 0 && in->image)
		r = runstate_record_loop(statedir, in->target, in->image);
	char own[SAFETY_ITEM_MAX];
	bool have_own = volumes_layout_read(in->results_dir, own, sizeof(own)) == 0;
	t = monotonic_seconds();
	if (r >= 0)
		r = finish_host_crashes(in, mountpoint, have_own ? own : NULL, rec);
	if (r >= 0) {
		r = volumes_provision(p, in->target, mountpoint,
				      have_own ? own : NULL, in->pristine, rec, pristine);
		provisioned = r >= 0;
	}
	/* A volume that holds the pristine image (filled with it, or kept
	 * so): its first run's reset is none. */
	for (size_t i = 0; provisioned && i < rec->n_volumes; i++)
		if (pristine[i])
			volreset_note_pristine(&rec->volumes[i]);
	timings_add_since(tm, TIMING_PROVISION, t);
	/* What a later boot or run with these RESULTS recognises as its own. */
	if (r >= 0 && rec->target.kind == STORAGE_TARGET_DISK) {
		watchdog_step(0, "recording the partition table of %s in %s", in->target,
			      in->results_dir);
		r = volumes_layout_write(in->results_dir, in->target);
	}
	if (r >= 0 && !in->uri && in->caps_dir)
		share_qemu_caps(in->caps_dir, statedir, false);
	t = monotonic_seconds();
	if (r >= 0) {
		watchdog_step(0, "starting libvirt (%s; it asks QEMU what it can do)",
			      in->uri ? in->uri : "its embedded QEMU driver");
		r = vm_host_open(in->uri, statedir, in->accel, &host);
	}
	timings_add_since(tm, TIMING_LIBVIRT, t);
	t = monotonic_seconds();
	if (r >= 0) {
		struct vm_spec check = check_spec(p, in, &rec->volumes[0], console);
		r = vm_host_check_boot(host, &check, 60);
	}
	timings_add_since(tm, TIMING_CHECK_BOOT, t);
	if (r >= 0) {
		watchdog_step(0, "writing host.json (this host, its disk and its settings)");
		r = write_host_json(in, host);
	}
	if (r >= 0) {
		log_info("sweep: %zu runs of %zu cells, %s guests", plan->n_runs,
			 plan->n_cells, vm_host_kvm(host) ? "KVM" : "TCG");
		struct sweep_env env = {
			.plan = plan,
			.kernel = in->kernel,
			.initrd = in->initrd,
			.pristine = in->pristine,
			.volumes = rec->volumes,
			.n_volumes = rec->n_volumes,
			.results_dir = in->results_dir,
			.host = host,
			.agent = in->agent,
			.job_file = in->job_file,
			.timings = tm,
			.summarized = in->summarized,
			.results_in_ram = in->results_in_ram,
			.precision = in->precision,
			.result_lines = in->result_lines,
			.set_write_cache = in->set_write_cache,
			.write_cache_data = in->write_cache_data,
			.power = in->power,
		};
		r = sweep_run(&env, &out);
	}
	vm_host_close(host);
	if (host && !in->uri && in->caps_dir)
		share_qemu_caps(in->caps_dir, statedir, true);
	volrecord_close();
	if (provisioned)
		volumes_release(rec);
	int rm = files_remove_tree(statedir);
	if (rm < 0)
		log_warning("could not remove %s: %s", statedir, strerror(-rm));
	if (r < 0)
		return r;
	char not_made[SWEEP_NOT_MADE_TEXT_MAX];
	sweep_not_made_text(&out, not_made, sizeof not_made);
	log_info("sweep done: %zu run%s made, %zu already there, %zu failed%s", out.made,
		 out.made == 1 ? "" : "s", out.skipped, out.failed, not_made);
	*ret = out;
	return 0;
}

