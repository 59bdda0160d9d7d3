/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "crashsteps.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/reboot.h>
#include <time.h>
#include <unistd.h>

#include "cleanup.h"
#include "hwwatchdog.h"
#include "log.h"
#include "monotonic.h"
#include "sysfs.h"

/* How long QEMU's threads may take to stop: one in the kernel (an
 * fdatasync under writethrough, a write the page cache throttles) stops
 * when it comes back from it. */
#define QEMU_STOP_SECONDS 10
/* A day: no inode dirtied within it is old enough for a periodic pass. */
#define EXPIRE_CENTISECS "8640000"
/* The disk under test, its partitions' holders and theirs: a few. */
#define BDIS_MAX 16
/* Their min_ratio together (the kernel refuses a sum of 100 or more over
 * all devices). */
#define BDI_MIN_RATIO_SUM 50
/* What stop_writeback changes: four sysctls and the bdis. */
#define SAVED_MAX (4 + BDIS_MAX)

static int reboot_syscall(int how)
{
	return reboot(how);
}

static const struct crashsteps_host real_host = {
	.vm = "/proc/sys/vm",
	.meminfo = "/proc/meminfo",
	.sys_block = "/sys/block",
	.sysrq = "/proc/sysrq-trigger",
	.kexec_loaded = "/sys/kernel/kexec_loaded",
	.reboot = reboot_syscall,
};
static const struct crashsteps_host *host = &real_host;

const struct crashsteps_host *crashsteps_host(void)
{
	return host;
}

void crashsteps_set_host(const struct crashsteps_host *h)
{
	host = h ? h : &real_host;
}

/* A knob as it was before the crash, to put back. */
struct saved {
	char path[PATH_MAX];
	char value[32];
};

struct crash {
	pid_t qemu;
	const char *results_dir;
	const char *disk;
	struct crashfacts *facts;
	struct saved saved[SAVED_MAX];
	size_t n_saved;
};

/* --- 1. the guest's QEMU ------------------------------------------------ */

/* Whether every thread of PID is stopped (or gone): 1, 0 with the first
 * that is not in BUSY, or a negative errno (no such process). */
static int all_stopped(pid_t pid, char *busy, size_t len)
{
	char dir[64];
	struct dirent *e;

	snprintf(dir, sizeof(dir), "/proc/%d/task", (int)pid);
	_cleanup_(closedirp) DIR *d = opendir(dir);
	if (!d)
		return -errno;
	while ((e = readdir(d))) {
		char path[sizeof(dir) + NAME_MAX + 8], stat[512];
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s/stat", dir, e->d_name);
		if (sysfs_read(path, stat, sizeof(stat)) < 0)
			continue; /* the thread ended */
		/* "tid (comm) S ...": the state follows the last ')'. */
		const char *p = strrchr(stat, ')');
		char state = p && p[1] == ' ' ? p[2] : '?';
		if (!strchr("tTXZx", state)) {
			snprintf(busy, len, "%.16s, in state %c", e->d_name, state);
			return 0;
		}
	}
	return 1;
}

static int stop_qemu(struct crash *k)
{
	char busy[64] = "";
	int r;

	if (k->qemu <= 0)
		return log_error_code(-ESRCH, "no QEMU to stop before the crash");
	if (kill(k->qemu, SIGSTOP) < 0)
		return log_error_errno(-errno, "cannot stop QEMU (pid %d)", (int)k->qemu);
	double until = monotonic_seconds() + QEMU_STOP_SECONDS;
	while ((r = all_stopped(k->qemu, busy, sizeof(busy))) == 0) {
		if (monotonic_seconds() > until)
			return log_error_code(-ETIMEDOUT,
					      "QEMU (pid %d) is not stopped %d s after SIGSTOP: "
					      "its thread %s",
					      (int)k->qemu, QEMU_STOP_SECONDS, busy);
		nanosleep(&(struct timespec){.tv_nsec = 1000000}, NULL);
	}
	if (r < 0)
		return log_error_errno(r, "QEMU (pid %d) is gone before the crash", (int)k->qemu);
	return 0;
}

/* --- 2. the host's writeback --------------------------------------------- */

/* Keeps what PATH holds in K->saved, to be put back. */
static int keep(struct crash *k, const char *path)
{
	struct saved *s = &k->saved[k->n_saved];
	int r;

	if (k->n_saved == SAVED_MAX)
		return log_error_code(-E2BIG, "too many writeback settings to keep");
	r = sysfs_read(path, s->value, sizeof(s->value));
	if (r < 0)
		return log_error_errno(r, "cannot read '%s'", path);
	snprintf(s->path, sizeof(s->path), "%s", path);
	k->n_saved++;
	return 0;
}

static int write_knob(const char *path, const char *value)
{
	int r = sysfs_write(path, value);
	return r < 0 ? log_error_errno(r, "cannot write %s to '%s'", value, path) : 0;
}

/* Writes VALUE to PATH, keeping what it held. */
static int set_knob(struct crash *k, const char *path, const char *value)
{
	int r = keep(k, path);
	return r < 0 ? r : write_knob(path, value);
}

/* vm.NAME_bytes set to BYTES, keeping what was in force: NAME_bytes, or
 * NAME_ratio when the bytes are 0 (the kernel refuses 0 bytes; writing
 * the ratio back sets them to 0 again). */
static int set_bytes(struct crash *k, const char *name, const char *bytes)
{
	char path[PATH_MAX], ratio[PATH_MAX], old[32];
	int r;

	snprintf(path, sizeof(path), "%s/%s_bytes", host->vm, name);
	snprintf(ratio, sizeof(ratio), "%s/%s_ratio", host->vm, name);
	r = sysfs_read(path, old, sizeof(old));
	if (r < 0)
		return log_error_errno(r, "cannot read '%s'", path);
	r = keep(k, strcmp(old, "0") == 0 ? ratio : path);
	return r < 0 ? r : write_knob(path, bytes);
}

/* Adds NAME (a block device of sys_block) to NAMES, then the devices that
 * hold it and its partitions (an LV's dm device, and one on that). */
static void add_with_holders(const char *name, char names[][NAME_MAX + 1], size_t *n)
{
	char dir[PATH_MAX];
	struct dirent *e;

	for (size_t i = 0; i < *n; i++)
		if (strcmp(names[i], name) == 0)
			return;
	if (*n == BDIS_MAX)
		return;
	snprintf(names[(*n)++], NAME_MAX + 1, "%s", name);
	snprintf(dir, sizeof(dir), "%s/%s", host->sys_block, name);
	_cleanup_(closedirp) DIR *d = opendir(dir);
	while (d && (e = readdir(d))) {
		char sub[sizeof(dir) + NAME_MAX + 16];
		struct dirent *h;

		if (e->d_name[0] == '.')
			continue;
		/* The device's own holders, and each partition's. */
		if (strcmp(e->d_name, "holders") == 0)
			snprintf(sub, sizeof(sub), "%s/holders", dir);
		else if (strncmp(e->d_name, name, strlen(name)) == 0)
			snprintf(sub, sizeof(sub), "%s/%s/holders", dir, e->d_name);
		else
			continue;
		_cleanup_(closedirp) DIR *hd = opendir(sub);
		while (hd && (h = readdir(hd)))
			if (h->d_name[0] != '.')
				add_with_holders(h->d_name, names, n);
	}
}

static int stop_writeback(struct crash *k)
{
	char path[PATH_MAX], bytes[32], ratio[16];
	char names[BDIS_MAX][NAME_MAX + 1];
	size_t n = 0;
	int r;

	/* The largest the kernel takes: a limit of UINT_MAX pages
	 * (dirty_bytes_handler and dirty_background_bytes_handler). */
	snprintf(bytes, sizeof(bytes), "%" PRIu64,
		 (uint64_t)UINT_MAX * (uint64_t)sysconf(_SC_PAGESIZE));
	snprintf(path, sizeof(path), "%s/dirty_writeback_centisecs", host->vm);
	r = set_knob(k, path, "0");
	if (r < 0)
		return r;
	snprintf(path, sizeof(path), "%s/dirty_expire_centisecs", host->vm);
	r = set_knob(k, path, EXPIRE_CENTISECS);
	if (r < 0)
		return r;
	/* dirty first: the background threshold is at most half of it. */
	r = set_bytes(k, "dirty", bytes);
	if (r < 0)
		return r;
	r = set_bytes(k, "dirty_background", bytes);
	if (r < 0)
		return r;
	if (k->disk && *k->disk)
		add_with_holders(k->disk, names, &n);
	snprintf(ratio, sizeof(ratio), "%zu", n ? BDI_MIN_RATIO_SUM / n : 0);
	for (size_t i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s/bdi/min_ratio", host->sys_block, names[i]);
		if (access(path, F_OK) < 0)
			continue; /* a device without its own bdi */
		r = set_knob(k, path, ratio);
		if (r < 0)
			return r;
	}
	return 0;
}

/* Puts back what stop_writeback changed, last first. */
static void restore_writeback(struct crash *k)
{
	while (k->n_saved > 0) {
		const struct saved *s = &k->saved[--k->n_saved];
		int r = sysfs_write(s->path, s->value);
		if (r < 0)
			log_warning("cannot put %s back into '%s': %s", s->value, s->path,
				    strerror(-r));
	}
}

/* --- 3. RESULTS, 4. the facts --------------------------------------------- */

static int sync_results(struct crash *k)
{
	_cleanup_close_ int fd = open(k->results_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0 || syncfs(fd) < 0)
		return log_error_errno(-errno, "cannot sync RESULTS ('%s')", k->results_dir);
	return 0;
}

/* VALUE kB of /proc/meminfo's NAME line, or -1. */
static int64_t meminfo_kib(const char *text, const char *name)
{
	size_t n = strlen(name);

	for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
		if (strncmp(l, name, n) == 0 && l[n] == ':')
			return strtoll(l + n + 1, NULL, 10);
	return -1;
}

/* What cannot be read is recorded as not known: never a reason to keep
 * the host up. */
static int read_facts(struct crash *k)
{
	struct crashfacts *f = k->facts;
	char text[8192], wc[32], path[PATH_MAX];

	/* /proc/meminfo reads the global counters, which each CPU updates
	 * in batches (tens of pages a CPU behind, until vmstat's work folds
	 * them every second): stat_refresh folds them now (vmstat_refresh). */
	snprintf(path, sizeof(path), "%s/stat_refresh", host->vm);
	if (sysfs_write(path, "1") < 0)
		log_warning("cannot write '%s': Dirty and Writeback may lag by a few "
			    "pages a CPU", path);
	_cleanup_close_ int fd = open(host->meminfo, O_RDONLY | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : read(fd, text, sizeof(text) - 1);

	text[n > 0 ? n : 0] = '\0';
	f->dirty_kib = meminfo_kib(text, "Dirty");
	f->writeback_kib = meminfo_kib(text, "Writeback");
	f->disk_write_cache[0] = '\0';
	snprintf(path, sizeof(path), "%s/%s/queue/write_cache", host->sys_block,
		 k->disk ? k->disk : "");
	if (k->disk && *k->disk && sysfs_read(path, wc, sizeof(wc)) == 0)
		snprintf(f->disk_write_cache, sizeof(f->disk_write_cache), "%s",
			 strcmp(wc, "write back") == 0	     ? "on"
			 : strcmp(wc, "write through") == 0 ? "off"
							     : "");
	return 0;
}

/* --- the crash ------------------------------------------------------------ */

static const struct step {
	const char *name;
	int (*run)(struct crash *k);
	size_t done_at; /* its double in struct crashfacts */
} steps[] = {
	{"stop the guest's QEMU", stop_qemu, offsetof(struct crashfacts, qemu_stopped_seconds)},
	{"stop the host's writeback", stop_writeback,
	 offsetof(struct crashfacts, writeback_stopped_seconds)},
	{"sync RESULTS", sync_results, offsetof(struct crashfacts, results_synced_seconds)},
	{"read what the host holds", read_facts, offsetof(struct crashfacts, facts_read_seconds)},
};

int crashsteps_crash(pid_t qemu, const char *results_dir, const char *disk,
		     struct crashfacts *facts, crashsteps_trigger *trigger, void *data)
{
	struct crash k = {.qemu = qemu, .results_dir = results_dir, .disk = disk,
			  .facts = facts};
	double start = monotonic_seconds();
	int r = 0;

	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]) && r >= 0; i++) {
		r = steps[i].run(&k);
		if (r >= 0)
			*(double *)((char *)facts + steps[i].done_at) = monotonic_seconds() - start;
		else
			log_warning("host crash: could not %s: the host stays up", steps[i].name);
	}
	if (r >= 0) {
		if (hwwatchdog_disarm() < 0)
			log_warning("host crash: the hardware watchdog could not be disarmed (its "
				    "driver does not stop it): it may reset the server during the "
				    "boot after the crash");
		r = trigger(data, facts);
		char why[256];
		if (hwwatchdog_rearm(why, sizeof(why)) < 0)
			log_warning("the hardware watchdog could not be armed again: %s", why);
	}
	restore_writeback(&k);
	return r;
}
