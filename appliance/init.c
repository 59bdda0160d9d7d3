/* SPDX-License-Identifier: GPL-2.0-or-later */
/* buildapp-init: PID 1 of the appliance.  Mounts the API filesystems,
 * then forks the worker and only reaps (reaper.h).  The worker loads the
 * drivers the hardware asks for, mounts RESULTS, picks the disk
 * under test, applies the host settings, runs the sweep, writes a report
 * to RESULTS, then powers off, reboots or leaves a shell (`after`).
 *
 * Settings come from the kernel command line (buildapp.disk=,
 * buildapp.after=, buildapp.write_cache=, buildapp.strict=, ...), on top
 * of the profile defaults.  appliance.txt is init_report.c's, the
 * bundle's way out (upload, stick) init_bundle.c's; init.h their state. */
#include <stdatomic.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cleanup.h"
#include "coldplug.h"
#include "cmdline.h"
#include "command.h"
#include "hostcrash.h"
#include "hostinfo.h"
#include "hwwatchdog.h"
#include "log.h"
#include "bench.h"
#include "keys.h"
#include "kvmboot.h"
#include "kitkernel.h"
#include "reaper.h"
#include "precision.h"
#include "report.h"
#include "pvhkernel.h"
#include "sweeplines.h"
#include "sysfs.h"
#include "upload.h"
#include "watchdog.h"

#include "init.h"

static void mount_api_filesystems(void)
{
	static const struct {
		const char *type, *dir, *opts;
	} fs[] = {
		{"proc", "/proc", NULL},
		{"sysfs", "/sys", NULL},
		{"devtmpfs", "/dev", "mode=0755"},
		{"tmpfs", "/run", "mode=0755"},
		{"tmpfs", "/tmp", "mode=1777"},
	};

	for (size_t i = 0; i < sizeof(fs) / sizeof(fs[0]); i++) {
		mkdir(fs[i].dir, 0755);
		if (mount(fs[i].type, fs[i].dir, fs[i].type, MS_NOSUID,
			  fs[i].opts) < 0 &&
		    errno != EBUSY)
			log_warning("mounting %s on %s: %s", fs[i].type, fs[i].dir,
				    strerror(errno));
	}
	/* What host.json says of Secure Boot and the kernel's lockdown
	 * (hostinfo.h): the EFI variables and the LSMs' files, read-only. */
	mount("securityfs", "/sys/kernel/security", "securityfs",
	      MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL);
	if (access("/sys/firmware/efi", F_OK) == 0) {
		command_run((char *[]){"modprobe", "-q", "efivarfs", NULL}, NULL, 1);
		mount("efivarfs", "/sys/firmware/efi/efivars", "efivarfs",
		      MS_NOSUID | MS_NODEV | MS_NOEXEC | MS_RDONLY, NULL);
	}
}

/* The console, when the initramfs had no /dev/console for the kernel. */
static void open_console(void)
{
	if (fcntl(1, F_GETFD) >= 0)
		return;
	int fd = open("/dev/console", O_RDWR | O_NOCTTY);
	if (fd < 0)
		return;
	dup2(fd, 0), dup2(fd, 1), dup2(fd, 2);
	if (fd > 2)
		close(fd);
}

/* --- settings from the kernel command line ---------------------------- */

/* buildapp.KEY=VALUE: a key of [host] or [appliance], [guest] accel or
 * [workload] crash_reboot, in profile text, overriding the plan's (so a
 * netboot entry can name another disk, or a lab whose kexec fails choose
 * the firmware).  The other keys shape the plan's cells and stay. */
static void apply_cmdline_option(struct profile *p, const char *key,
				 const char *value)
{
	const struct key_def *k = keys_find("host", key);
	char reason[256];

	if (!k)
		k = keys_find("appliance", key);
	if (!k && strcmp(key, "accel") == 0)
		k = keys_find("guest", key);
	if (!k && strcmp(key, "crash_reboot") == 0)
		k = keys_find("workload", key);
	if (!k) {
		log_warning("buildapp.%s: unknown setting, ignored", key);
		return;
	}
	if (keys_set(p, k, value, reason, sizeof(reason)) < 0)
		log_warning("buildapp.%s=%s: %s; ignored", key, value, reason);
}

/* The line as the kernel got it, on the console, where a lab compares it
 * with the one it gave (a boot loader may cut it short); and, when the
 * kit's own words are there, whether all of them arrived: the last is
 * CMDLINE_END. */
static void say_cmdline(const char *line)
{
	char shown[4096];

	log_info("kernel command line: %s", cmdline_shown(line, shown, sizeof shown));
	if (cmdline_has_word(line, CMDLINE_END))
		log_info("kernel command line: the kit's words arrived whole (up to %s)",
			 CMDLINE_END);
	else if (strstr(line, CMDLINE_PREFIX))
		log_warning("kernel command line: it has no %s, the last of the kit's own words: "
			    "cut short on its way to the kernel (iPXE reads a typed line of at "
			    "most 255 characters), or written by hand; a setting it lacks is "
			    "the plan's", CMDLINE_END);
}

static void read_cmdline(struct profile *p)
{
	char line[4096];
	char *save = NULL;

	if (sysfs_read("/proc/cmdline", line, sizeof(line)) < 0)
		return;
	say_cmdline(line);
	for (char *w = strtok_r(line, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		char *eq = strchr(w, '=');
		if (strncmp(w, "buildapp.", 9) != 0 || !eq)
			continue;
		*eq = '\0';
		apply_cmdline_option(p, w + 9, eq + 1);
	}
}

/* --- RESULTS and the disk under test ---------------------------------- */

static int mount_results(struct init_env *env)
{
	char dev[DISK_NAME_MAX + 8];
	int r = -ENOENT;

	/* Controllers probe asynchronously and reveal more devices (a
	 * SCSI disk needs sd_mod after ahci): coldplug again while waiting,
	 * up to 20 s. */
	watchdog_mark(0, "looking for the partition labelled %s", RESULTS_LABEL);
	for (int i = 0; i < 80 && r < 0; i++) {
		coldplug_run();
		r = disks_find_label(RESULTS_LABEL, env->results_part,
				     env->boot_disk);
		if (r < 0)
			usleep(250 * 1000);
	}
	mkdir(RESULTS_DIR, 0755);
	if (r < 0) {
		/* Netbooted: the root is RAM, and so is the bundle, until it
		 * is uploaded or the server powers off. */
		env->in_ram = 1;
		log_warning("no partition labelled %s: the results stay in RAM (%s), lost at "
			    "power off unless uploaded (buildapp.upload=)",
			    RESULTS_LABEL, RESULTS_DIR);
		return 0;
	}
	snprintf(dev, sizeof(dev), "/dev/%s", env->results_part);
	if (mount(dev, RESULTS_DIR, "ext4", MS_NOATIME, NULL) < 0) {
		r = -errno;
		return log_error_errno(r, "mounting %s on %s", dev, RESULTS_DIR);
	}
	log_info("RESULTS: %s (on %s, which is not a disk to test)", dev, env->boot_disk);
	return 0;
}

/* 0 when RESULTS takes a write that reaches its disk (a small file,
 * written, synced and removed), else a negative errno. */
static int results_writable(void)
{
	const char *path = RESULTS_DIR "/.write-check";
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	int r = write(fd, "ok\n", 3) == 3 && fsync(fd) == 0 ? 0 : -errno;
	if (close(fd) < 0 && r == 0)
		r = -errno;
	unlink(path);
	return r;
}

/* The guest kernel, when the kit stores it once (on the ESP of the disk
 * RESULTS is on: kitkernel.h), in place before the sweep and host.json's
 * kit identity, which hashes it; without it the sweep is not run. */
static int fetch_guest_kernel(struct init_env *env)
{
	char why[sizeof(env->failure) - 32];
	int r = kitkernel_fetch(BENCH_KIT_DIR, env->boot_disk, "/run/buildapp-esp", why,
				sizeof(why));

	if (r < 0) {
		snprintf(env->sweep_status, sizeof(env->sweep_status), "not run: %s", why);
		snprintf(env->failure, sizeof(env->failure), "%s", why);
		log_error("sweep: not run: %s", why);
	}
	return r;
}

/* The kernel's count of DISK's failed commands (SCSI and ATA disks:
 * device/ioerr_cnt), or -1 where it keeps none (NVMe, virtio). */
static long long disk_io_errors(const char *disk)
{
	char buf[32], *end;
	if (sysfs_read_block(disk, "device/ioerr_cnt", buf, sizeof(buf)) < 0)
		return -1;
	long long n = strtoll(buf, &end, 0); /* "0x1c" */
	return end != buf && n >= 0 ? n : -1;
}

/* This boot's guests run under TCG ([guest] accel = tcg, or a server that
 * is itself emulated by TCG): KVM's modules, which the coldplug loaded for
 * the CPU, go again, so that nothing makes a KVM VM.  libvirt's probe of
 * QEMU would, and on a server emulated by TCG, KVM VMs made and destroyed
 * wedge its kernel now and then, silently (docs/testing.md, "The virtual
 * lab server's CPU"). */
static void unload_kvm_for_tcg(const struct init_env *env)
{
	enum vm_accel accel = env->profile.guest.accel;
	static const char *const modules[] = {"kvm_amd", "kvm_intel", "kvm"};

	if (access("/dev/kvm", F_OK) < 0 ||
	    !(accel == VM_ACCEL_TCG || (accel == VM_ACCEL_AUTO && kvmboot_host_emulated())))
		return;
	for (size_t i = 0; i < sizeof(modules) / sizeof(modules[0]); i++)
		command_run((char *[]){"modprobe", "-q", "-r", (char *)modules[i], NULL}, NULL, 1);
	if (access("/dev/kvm", F_OK) == 0)
		log_warning("guests run under TCG here, but KVM's modules could not be unloaded: "
			    "libvirt may still make KVM VMs");
	else
		log_info("guests run under TCG here (%s): KVM's modules unloaded",
			 accel == VM_ACCEL_TCG ? "[guest] accel = tcg" : "this server is emulated by TCG");
}

#define KEXEC_ESP "/run/buildapp-esp"

/* A plan with host crashes coming back by kexec loads the kernel and the
 * initramfs this boot came from, its ESP's or its CD's (a netbooted kit
 * has no copy of them: its crashes go through the firmware, which boots
 * it again). */
static void prepare_host_crashes(const struct init_env *env)
{
	enum crash_reboot want = env->plan.profile.workload.crash_reboot;
	char crashes[1024], why[400] = "";
	bool esp = false;

	if (hostcrash_plan_cost(&env->plan, crashes, sizeof(crashes)) == 0)
		return;
	/* A power cut loads nothing: its crash facts need the disk alone. */
	if (env->plan.profile.workload.crash == CRASH_POWER) {
		hostcrash_prepare(CRASH_REBOOT_FIRMWARE, NULL, NULL, "", env->target.name);
		return;
	}
	if (sweep_host_crashes_left(&env->plan, RESULTS_DIR) == 0) {
		log_info("host crashes: all of this plan's are made: nothing to load for them");
		return;
	}
	watchdog_mark(0, "loading this kit's kernel for the host crashes");
	if (want == CRASH_REBOOT_KEXEC)
		esp = kitkernel_mount_boot(env->boot_disk, KEXEC_ESP, why, sizeof(why)) == 0;
	hostcrash_prepare(want, esp ? KEXEC_ESP KITKERNEL_ESP_PATH : NULL,
			  esp ? KEXEC_ESP KITKERNEL_ESP_INITRD : NULL, why, env->target.name);
	if (esp)
		kitkernel_umount_boot(KEXEC_ESP);
}

/* The disk's write cache for a cell's runs (sweep.h's set_write_cache),
 * DATA the host settings applied at boot. */
static int set_write_cache(void *data, enum write_cache_setting setting, int *ret_on,
			   char *why, size_t len)
{
	return hosttune_set_write_cache(data, setting, ret_on, why, len);
}

/* The sweep runs here, between applying the host settings and restoring
 * them: it provisions the storage backends on env->target, runs the plan
 * baked into the root by the kit (BENCH_KIT_DIR) and writes the journal,
 * console logs, summary and report under RESULTS_DIR. */
static int run_sweep(struct init_env *env)
{
	struct sweep_outcome out;
	char target[DISK_NAME_MAX + 8];
	int r;

	if (env->plan.n_cells == 0) {
		/* A root without a plan only applies and reports the host
		 * settings: that is its whole job, not a failure. */
		snprintf(env->sweep_status, sizeof(env->sweep_status),
			 "not run: no plan in this appliance");
		return 0;
	}
	/* The plan's runs, with this boot's host settings recorded in it. */
	env->plan.profile.host = env->profile.host;
	env->plan.profile.guest.accel = env->profile.guest.accel;
	snprintf(target, sizeof(target), "/dev/%s", env->target.name);
	/* The guests boot the kernel's ELF when it has a PVH entry
	 * (runner/pvhkernel.h): unpacked here once, in RAM, rather than
	 * by every guest; the image carries only the bzImage. */
	const char *kernel = BENCH_KIT_DIR "/vmlinux";
	watchdog_mark(0, "unpacking the guest kernel's ELF");
	if (pvhkernel_write(BENCH_KIT_DIR "/vmlinuz", kernel) < 0) {
		kernel = BENCH_KIT_DIR "/vmlinuz";
		log_warning("guest kernel: no PVH entry to boot: the guests boot the bzImage");
	} else {
		log_info("guest kernel: the guests boot its PVH ELF (%s)", kernel);
	}
	struct hostinfo_inputs host = {
		.plan = &env->plan,
		.target = target,
		.tune = &env->tune,
		.kit_dir = BENCH_KIT_DIR,
	};
	bool summarized = false;
	struct bench_inputs in = {
		.plan = &env->plan,
		.kernel = kernel,
		.initrd = BENCH_KIT_DIR "/initrd.img",
		.pristine = BENCH_KIT_DIR "/disk.qcow2",
		.agent = access(BENCH_KIT_AGENT, X_OK) == 0 ? BENCH_KIT_AGENT : NULL,
		.job_file = access(BENCH_KIT_JOB, R_OK) == 0 ? BENCH_KIT_JOB : NULL,
		.target = target,
		.results_dir = RESULTS_DIR,
		.accel = env->profile.guest.accel,
		.record_host = hostinfo_record_sweep,
		.host_data = &host,
		.summarized = &summarized,
		.precision = precision_cells_wanting_runs,
		.results_in_ram = env->in_ram,
		.result_lines = stdout,
		.set_write_cache = set_write_cache,
		.write_cache_data = &env->tune,
		.power = &env->power.cut,
	};
	unload_kvm_for_tcg(env);
	prepare_host_crashes(env);
	if (!env->in_ram)
		power_prepare(&env->power, &env->plan, RESULTS_DIR);
	log_clear_last_error();
	env->io_errors_before = disk_io_errors(env->target.name);
	r = bench_run(&in, &out);
	power_release(&env->power);
	env->io_errors_after = disk_io_errors(env->target.name);
	/* The kernel counts every command that ended with an error status,
	 * one the disk refuses as unsupported too (QEMU's AHCI disks refuse
	 * a couple in a sweep whose runs all end well): a warning only
	 * where runs failed. */
	long long io_errors = env->io_errors_after - env->io_errors_before;
	/* A sweep stopped by a RESULTS that no longer takes writes (a
	 * failing stick) is not the disk under test's doing. */
	int results_w = r < 0 && !env->in_ram ? results_writable() : 0;
	bool runs_failed = r < 0 || out.failed;
	if (env->io_errors_before >= 0 && io_errors > 0 && runs_failed && results_w == 0)
		log_warning("the disk under test (/dev/%s) failed %lld commands during the "
			    "sweep: I/O errors; the runs they stopped are journaled failed "
			    "with them", env->target.name, io_errors);
	else if (env->io_errors_before >= 0 && io_errors > 0 && !runs_failed)
		log_info("the disk under test (/dev/%s) ended %lld commands with an error "
			 "status during the sweep (the kernel's ioerr_cnt, which counts "
			 "commands a disk refuses as unsupported too); every run ended well",
			 env->target.name, io_errors);
	watchdog_mark(0, "writing the report to %s", RESULTS_DIR);
	if (summarized)
		report_after_sweep(RESULTS_DIR, stdout, stdout);
	if (r < 0) {
		snprintf(env->sweep_status, sizeof(env->sweep_status),
			 "failed: %s", *log_last_error() ? log_last_error()
							  : strerror(-r));
		/* Whose fault, said once where the operator looks: nothing
		 * after this reaches a RESULTS that takes no writes.  Any
		 * other reason was the error logged last, and stays
		 * appliance.txt's reason. */
		if (results_w < 0)
			log_error("the sweep stopped: RESULTS (/dev/%s) cannot be written (%s); "
				  "its journal keeps the runs journaled before",
				  env->results_part, strerror(-results_w));
	} else {
		char not_made[SWEEP_NOT_MADE_TEXT_MAX];
		sweep_not_made_text(&out, not_made, sizeof not_made);
		snprintf(env->sweep_status, sizeof(env->sweep_status),
			 "%zu run%s made, %zu failed%s, %zu already there", out.made,
			 out.made == 1 ? "" : "s", out.failed, not_made, out.skipped);
	}
	return r;
}

/* The disk under test: the disk [host] disk names, or with "auto" the
 * only candidate (disks.h).  Controllers probe asynchronously, and a
 * second disk may show up a moment after the first: "auto" decides once
 * the number of candidates has not changed for 2 s. */
static int find_target(struct init_env *env)
{
	const char *id = env->profile.host.disk;
	bool is_auto = strcmp(id, "auto") == 0;
	size_t last = SIZE_MAX;
	int r = -ENOENT;

	for (int i = 0, same = 0; i < 80; i++) {
		coldplug_run();
		size_t n = disks_candidates(env->boot_disk, env->candidate, DISKS_MAX);
		same = n == last ? same + 1 : 0;
		last = n;
		env->n_candidates = n;
		r = disks_find_target(id, env->boot_disk, &env->target);
		if ((r == 0 && !is_auto) || (is_auto && n > 0 && same >= 8))
			break;
		usleep(250 * 1000);
	}
	return r;
}

static int run(struct init_env *env)
{
	int r;

	r = mount_results(env);
	if (r < 0)
		return r;
	/* A reset by the hardware watchdog ended the boot before: said,
	 * its run journaled, and the sweep goes on only where `after` would
	 * have had the server boot again. */
	if (hwwatch_check_reset(&env->hw, env->in_ram ? NULL : RESULTS_DIR, &env->plan, stdout) &&
	    env->profile.appliance.after != AFTER_REBOOT) {
		snprintf(env->sweep_status, sizeof(env->sweep_status),
			 "stopped: %.500s ([appliance] after = %s)", env->hw.reset_text,
			 after_action_name(env->profile.appliance.after));
		snprintf(env->failure, sizeof(env->failure), "%.500s", env->hw.reset_text);
		return -ETIMEDOUT;
	}
	if (env->hw.reset_before)
		log_info("going on with the sweep ([appliance] after = reboot)");
	hwwatch_arm(&env->hw, env->profile.appliance.hardware_watchdog,
		    env->in_ram ? NULL : RESULTS_DIR);
	if (env->bad_plan) {
		snprintf(env->sweep_status, sizeof(env->sweep_status),
			 "not run: the plan of this appliance is invalid");
		return env->bad_plan;
	}
	watchdog_mark(0, "reading the guest kernel from the ESP");
	if (env->plan.n_cells > 0 && (r = fetch_guest_kernel(env)) < 0)
		return r;
	watchdog_mark(0, "looking for the disk under test '%s'", env->profile.host.disk);
	r = find_target(env);
	log_info("coldplug: %zu device aliases", coldplug_aliases());
	if (r == -ENOTUNIQ) {
		char list[CANDIDATES_TEXT_MAX];
		disks_describe(env->candidate, env->n_candidates, list, sizeof list);
		return log_error_code(r, "disk under test 'auto': %zu disks could be it (%s), "
				      "and auto takes a disk only when it is the only one: nothing "
				      "was written; name one by an identity with [host] disk "
				      "(buildapp.disk=ID on the kernel command line)",
				      env->n_candidates, list);
	}
	if (r < 0) {
		char seen[512] = "";
		struct dirent **names = NULL;
		int n = scandir("/sys/block", &names, NULL, alphasort);
		for (int i = 0; i < n; i++) {
			if (names[i]->d_name[0] != '.' &&
			    strlen(seen) + strlen(names[i]->d_name) + 2 < sizeof(seen)) {
				strcat(seen, " ");
				strcat(seen, names[i]->d_name);
			}
			free(names[i]);
		}
		free(names);
		return log_error_code(r, "disk under test '%s': no such disk "
				      "(the boot disk %s is never used; disks:%s)",
				      env->profile.host.disk,
				      env->boot_disk[0] ? env->boot_disk : "(none: netbooted)",
				      seen);
	}
	env->have_target = 1;
	log_info("disk under test: /dev/%s (%s, serial %s)", env->target.name,
		 env->target.model, env->target.serial);

	char wc[32];
	watchdog_step(0, "applying the host settings to /dev/%s (write cache %s, page cache "
			 "writeback, queue)", env->target.name,
		      hosttune_write_cache_text(env->profile.host.write_cache, wc, sizeof(wc)));
	r = hosttune_apply(&env->profile.host, env->target.name, &env->tune);
	if (r < 0)
		return r;
	env->tuned = 1;
	r = run_sweep(env);
	watchdog_mark(0, "restoring the host settings of /dev/%s", env->target.name);
	int k = hosttune_restore(&env->tune);
	if (hosttune_read_write_cache(env->tune.disk, env->tune.protocol,
				      &env->write_cache_restored) < 0)
		env->write_cache_restored = -1;
	return r < 0 ? r : k;
}

/* The plan's host crashes and what they cost, among the first lines on
 * the console, where a lab sees them before they are spent. */
static void say_host_crashes(const struct plan *plan)
{
	char text[1024];

	if (plan->n_cells == 0 || hostcrash_plan_cost(plan, text, sizeof(text)) == 0)
		return;
	if (plan->profile.workload.crash_reboot == CRASH_REBOOT_FIRMWARE ||
	    plan->profile.workload.crash == CRASH_POWER)
		log_warning("this plan holds %s", text);
	else
		log_info("this plan holds %s", text);
}

/* The sweep's end on the console for a lab's engine (sweeplines.h),
 * after the first try of the upload (U, init_bundle_upload()'s), so that an engine
 * that powers the server off at the end line gets the bundle first
 * where it can. */
static void say_sweep_end(const struct init_env *env, int r, int u)
{
	if (env->sweep_lines)
		sweeplines_end(stdout, &env->plan, RESULTS_DIR, r == 0,
			       u == 0 ? "sent" : u == -ENOENT ? "none" : "failed");
}

/* Set in PID 1 before it forks the worker: the worker powers off itself. */
static int booted_as_init;

/* STALLED: a step the watchdog gave up on may hold a disk that takes no
 * more writes, and sync(2) would wait for it with the rest: RESULTS alone
 * is synced (its files were written and synced one by one). */
static void finish(enum after_action after, bool stalled)
{
	/* Nothing more to watch: what follows is the end the kit chose
	 * (its record on RESULTS says so before the unmount). */
	int w = hwwatchdog_disarm();
	if (w < 0)
		log_warning("the hardware watchdog could not be disarmed (its driver does not "
			    "stop it): it will reset this server");
	if (stalled) {
		_cleanup_close_ int fd = open(RESULTS_DIR, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd >= 0)
			syncfs(fd);
	} else {
		sync();
		umount(RESULTS_DIR);
		sync();
	}
	if (after == AFTER_SHELL) {
		watchdog_idle();
		log_info("starting a shell; leaving it powers off");
		command_run((char *[]){"sh", NULL}, NULL, 0);
	}
	if (!booted_as_init)
		exit(0);
	reboot(after == AFTER_REBOOT ? RB_AUTOBOOT : RB_POWER_OFF);
	for (;;)
		pause();
}

/* The end of the boot's work, whether it went well (R 0), failed, or was
 * given up by the watchdog (STALLED): the report on RESULTS, the upload,
 * then what `after` says.  Once: a step the watchdog gave up on that ends
 * after all finds the end under way. */
static void conclude(struct init_env *env, int r, bool stalled)
{
	static atomic_flag concluding = ATOMIC_FLAG_INIT;

	if (atomic_flag_test_and_set(&concluding))
		for (;;)
			pause();
	int u = -ENOENT;
	if (env->results_part[0] || env->in_ram) {
		init_report_write(env, r);
		u = init_bundle_upload(env, r);
		init_report_write(env, r);
	}
	say_sweep_end(env, r, u);
	if (env->in_ram && u < 0)
		init_bundle_keep(env, r, u);
	log_info("%s; %s", r == 0 ? "done" : "failed",
		 after_action_name(env->profile.appliance.after));
	finish(env->profile.appliance.after, stalled);
}

/* The watchdog's end of a step that never ended (watchdog.h): its reason
 * goes to appliance.txt, and the server does what `after` says, so the lab
 * sees a failed kit, not a silent one.  The step's thread stays where it
 * hangs. */
static void stalled(const char *why, void *data)
{
	struct init_env *env = data;

	/* Where every process waits, kernel stacks and all: what the next
	 * look at a hang starts from. */
	if (env->results_part[0] || env->in_ram) {
		_cleanup_fclose_ FILE *f = fopen(RESULTS_DIR "/watchdog.txt", "we");
		if (f) {
			watchdog_write_detail(f);
			if (fflush(f) == 0)
				fsync(fileno(f));
		}
	}
	snprintf(env->failure, sizeof(env->failure), "the watchdog stopped this boot's work: %s",
		 why);
	snprintf(env->sweep_status, sizeof(env->sweep_status), "stopped by the watchdog: %s",
		 why);
	conclude(env, -ETIMEDOUT, true);
}

int main(void)
{
	struct init_env env;
	int r;

	log_set_program("buildapp-init");
	memset(&env, 0, sizeof(env));
	env.write_cache_restored = -1;
	env.io_errors_before = env.io_errors_after = -1;
	if (getpid() == 1) {
		mount_api_filesystems();
		open_console();
		setenv("PATH", "/usr/sbin:/usr/bin:/sbin:/bin", 1);
		/* No udevd runs here: LVM creates its device nodes itself
		 * rather than wait for udev to confirm them. */
		setenv("DM_DISABLE_UDEV", "1", 1);
		/* PID 1 only reaps (QEMU, libvirt's daemon, ends under it);
		 * the worker does the rest (reaper.h). */
		booted_as_init = 1;
		reaper_fork_worker(REAPER_INIT);
	}
	/* The plan carries the whole profile; without one (a root built by
	 * hand) the defaults stand.  The command line overrides either. */
	if (access(BENCH_KIT_DIR "/plan.json", F_OK) < 0 && errno == ENOENT) {
		log_info("no plan in this root: host settings only");
		keys_set_defaults(&env.profile);
	} else if ((r = plan_read_json(BENCH_KIT_DIR "/plan.json", &env.plan)) == 0) {
		env.profile = env.plan.profile;
	} else {
		/* Reported, and nothing is touched; `after` is the default
		 * or the command line's. */
		env.bad_plan = r;
		snprintf(env.failure, sizeof(env.failure), "%s", log_last_error());
		keys_set_defaults(&env.profile);
	}
	read_cmdline(&env.profile);
	env.plan.profile.workload.crash_reboot = env.profile.workload.crash_reboot;
	say_host_crashes(&env.plan);
	env.sweep_lines = env.plan.n_cells > 0 || env.bad_plan;
	if (env.sweep_lines)
		sweeplines_start(stdout, env.profile.appliance.name, env.plan.n_runs);
	char reason[256];
	if (uploadurl_check(env.profile.appliance.upload, true, reason, sizeof reason) < 0) {
		log_error("buildapp.upload: %s; nothing is uploaded", reason);
		snprintf(env.upload_status, sizeof env.upload_status,
			 "failed: buildapp.upload: %s", reason);
		env.profile.appliance.upload[0] = '\0';
	}
	log_clear_last_error();
	/* From here no step goes on unseen (watchdog.h). */
	r = watchdog_start(env.profile.appliance.stall_timeout, stalled, &env);
	if (r < 0)
		log_warning("no watchdog over this boot's steps: %s", strerror(-r));
	r = run(&env);
	if (r < 0 && !env.failure[0])
		snprintf(env.failure, sizeof(env.failure), "%s", log_last_error());
	conclude(&env, r, false);
	return 0;
}
