/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "hostcrash.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/reboot.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "atomicfile.h"
#include "bmcspec.h"
#include "cleanup.h"
#include "command.h"
#include "crashsteps.h"
#include "files.h"
#include "guestproto.h"
#include "log.h"
#include "parse.h"
#include "sysfs.h"

#define RECORDS_PREFIX GUESTPROTO_TAG GUESTPROTO_RECORDS " "

void hostcrash_path(const char *results_dir, unsigned position, char *buf, size_t len)
{
	snprintf(buf, len, "%s/console/run-%04u.crash", results_dir, position);
}

static int write_file(const void *ctx, FILE *f)
{
	const struct hostcrash *c = ctx;
	const struct crashfacts *k = &c->facts;

	fprintf(f, "%s\ncell=%s\nindex=%u\nposition=%u\nacks=%" PRIu64
		   "\nack_seconds=%.9g\nreset=%s\nrun_seconds=%.3f\ncrashed_at=%.3f\n",
		c->records, c->cell, c->index, c->position, c->acks, c->ack_seconds,
		c->reset, c->run_seconds, c->crashed_at);
	fprintf(f, "mechanism=%s\nfallback=%s\ndirty_kib=%" PRId64 "\nwriteback_kib=%" PRId64
		   "\nwrite_cache=%s\n",
		k->mechanism, k->fallback, k->dirty_kib, k->writeback_kib, k->disk_write_cache);
	if (k->bmc[0])
		fprintf(f, "bmc=%s\n", k->bmc);
	fprintf(f, "qemu_stopped_seconds=%.6f\nwriteback_stopped_seconds=%.6f\n"
		   "results_synced_seconds=%.6f\nfacts_read_seconds=%.6f\n",
		k->qemu_stopped_seconds, k->writeback_stopped_seconds,
		k->results_synced_seconds, k->facts_read_seconds);
	return ferror(f) ? -EIO : 0;
}

int hostcrash_write(const char *results_dir, const struct hostcrash *c)
{
	char path[PATH_MAX], dir[PATH_MAX];

	hostcrash_path(results_dir, c->position, path, sizeof(path));
	snprintf(dir, sizeof(dir), "%s/console", results_dir);
	return atomicfile_write(dir, strrchr(path, '/') + 1, write_file, c);
}

/* What a crash does this boot (hostcrash_prepare; until it is called,
 * the firmware, and that is said). */
static struct {
	enum crash_reboot way;
	char fallback[CRASHFACTS_TEXT_MAX];
	char disk[64];
} ready = {.way = CRASH_REBOOT_FIRMWARE,
	   .fallback = "nothing was readied for a crash in this boot"};

/* The last line the failed command left in ERR_PATH, else its status. */
static void command_failure(const char *err_path, int r, char *why, size_t len)
{
	char last[200];

	if (files_last_line(err_path, last, sizeof(last)))
		snprintf(why, len, "kexec -s -l: %s", last);
	else if (r < 0)
		snprintf(why, len, "kexec -s -l: %s", strerror(-r));
	else
		snprintf(why, len, "kexec -s -l: exit status %d", r);
}

/* Loads KERNEL and INITRD for a kexec with this boot's command line.
 * Returns 0, or -1 with WHY the reason in one line. */
static int load_kexec(const char *kernel, const char *initrd, char *why, size_t len)
{
	char cmdline[4096], loaded[8], err[] = "/tmp/buildapp-kexec.XXXXXX";
	int r;

	if (access(kernel, R_OK) < 0 || access(initrd, R_OK) < 0) {
		snprintf(why, len, "%s or %s: %s", kernel, initrd, strerror(errno));
		return -1;
	}
	if (sysfs_read("/proc/cmdline", cmdline, sizeof(cmdline)) < 0) {
		snprintf(why, len, "cannot read /proc/cmdline");
		return -1;
	}
	_cleanup_close_ int fd = mkstemp(err);
	if (fd < 0) {
		snprintf(why, len, "mkstemp: %s", strerror(errno));
		return -1;
	}
	char *argv[] = {"kexec", "-s", "-l", (char *)kernel, "--initrd", (char *)initrd,
			"--command-line", cmdline, NULL};
	struct command_opts o = {.out = COMMAND_OUT_DISCARD, .stderr_path = err,
				 .timeout = 300};
	r = command_spawn(argv, &o, NULL);
	if (r != 0)
		command_failure(err, r, why, len);
	unlink(err);
	if (r == 0 &&
	    (sysfs_read(crashsteps_host()->kexec_loaded, loaded, sizeof(loaded)) < 0 ||
	     strcmp(loaded, "1") != 0)) {
		snprintf(why, len, "kexec -s -l ended well, but /sys/kernel/kexec_loaded is not 1");
		r = -1;
	}
	return r == 0 ? 0 : -1;
}

void hostcrash_prepare(enum crash_reboot want, const char *kernel, const char *initrd,
		       const char *none_why, const char *disk)
{
	snprintf(ready.disk, sizeof(ready.disk), "%s", disk ? disk : "");
	ready.fallback[0] = '\0';
	ready.way = CRASH_REBOOT_FIRMWARE;
	if (want != CRASH_REBOOT_KEXEC)
		return;
	if (!kernel)
		snprintf(ready.fallback, sizeof(ready.fallback),
			 "no copy of this kit's kernel and initramfs to load: %s", none_why);
	else
		log_info("host crashes: loading this kit's kernel and initramfs for kexec "
			 "(kexec -s -l %s --initrd %s)", kernel, initrd);
	if (kernel && load_kexec(kernel, initrd, ready.fallback, sizeof(ready.fallback)) == 0) {
		ready.way = CRASH_REBOOT_KEXEC;
		return;
	}
	log_warning("host crashes: kexec cannot be used (%s): each crash resets through the "
		    "firmware instead, its POST each time", ready.fallback);
}

struct trigger {
	const char *results_dir;
	struct hostcrash *crash;
};

/* Adds "WHAT: CAUSE" to the reasons in WHY. */
static void add_reason(char *why, size_t len, const char *what, const char *cause)
{
	size_t n = strlen(why);

	snprintf(why + n, len - n, "%s%s: %s", n ? "; " : "", what, cause);
}

/* Records MECHANISM, with WHY the ways before it were not taken, in the
 * crash file, then says HOW the host goes down, the line out on the
 * serial console before it goes.  Returns 0 or a negative errno
 * (reported). */
static int announce(const struct trigger *t, const char *mechanism, const char *why,
		    const char *how)
{
	struct crashfacts *f = &t->crash->facts;
	int r;

	snprintf(f->mechanism, sizeof(f->mechanism), "%s", mechanism);
	snprintf(f->fallback, sizeof(f->fallback), "%s", why);
	r = hostcrash_write(t->results_dir, t->crash);
	if (r < 0)
		return r;
	log_info("  crash = %s: %s after %" PRIu64 " acknowledgements, without a sync",
		 strcmp(mechanism, "power") == 0 ? "power" : "host", how, t->crash->acks);
	tcdrain(STDERR_FILENO);
	return 0;
}

/* The trigger of hostcrash_reboot (crashsteps_trigger): the way readied
 * (kexec), else the firmware's (sysrq b), else reboot(2)'s restart, each
 * announced before it acts.  Returns only when the host is still up, the
 * crash file removed. */
static int take_down(void *data, struct crashfacts *facts)
{
	const struct trigger *t = data;
	const struct crashsteps_host *h = crashsteps_host();
	char why[CRASHFACTS_TEXT_MAX], path[PATH_MAX];
	_cleanup_close_ int sysrq = -1;
	int r;

	facts->present = true;
	snprintf(why, sizeof(why), "%s", ready.fallback);
	hostcrash_path(t->results_dir, t->crash->position, path, sizeof(path));
	if (ready.way == CRASH_REBOOT_KEXEC) {
		r = announce(t, "kexec", why, "kexec into this kit's kernel");
		if (r < 0)
			goto still_up;
		h->reboot(RB_KEXEC);
		add_reason(why, sizeof(why), "the kexec itself failed", strerror(errno));
		log_warning("host crash: %s", why);
	}
	/* sysrq b: emergency_restart(), no shutdown of anything.  A write to
	 * /proc/sysrq-trigger does not depend on kernel.sysrq. */
	sysrq = open(h->sysrq, O_WRONLY | O_CLOEXEC);
	if (sysrq < 0) {
		add_reason(why, sizeof(why), h->sysrq, strerror(errno));
	} else {
		r = announce(t, "firmware", why, "resetting through the firmware (sysrq b)");
		if (r < 0)
			goto still_up;
		add_reason(why, sizeof(why), "sysrq b",
			   write(sysrq, "b", 1) < 0 ? strerror(errno)
						    : "the host was still up after it");
	}
	/* reboot(2)'s restart: kernel_restart(), the orderly shutdown of the
	 * kexec way (reboot notifiers, device_shutdown), then the firmware. */
	log_warning("host crash: %s", why);
	r = announce(t, "restart", why,
		     "restarting through reboot(2) (the devices shut down, then the firmware)");
	if (r < 0)
		goto still_up;
	h->reboot(RB_AUTOBOOT);
	r = log_error_errno(-errno, "cannot reboot this host");
still_up:
	/* The run is failed now, not finished after a boot. */
	unlink(path);
	return r;
}

int hostcrash_reboot(const char *results_dir, struct hostcrash *c, pid_t qemu)
{
	struct trigger t = {.results_dir = results_dir, .crash = c};

	crashfacts_init(&c->facts);
	return crashsteps_crash(qemu, results_dir, ready.disk, &c->facts, take_down, &t);
}

struct power_trigger {
	struct trigger t;
	const struct hostcrash_power *power;
};

/* The trigger of hostcrash_power_cut (crashsteps_trigger): the power
 * cycle asked of the BMC, announced before.  Returns only when the
 * server is still up, the crash file removed. */
static int cut_power(void *data, struct crashfacts *facts)
{
	const struct power_trigger *p = data;
	char why[CRASHFACTS_TEXT_MAX + 128], path[PATH_MAX], how[CRASHFACTS_TEXT_MAX + 64];
	int r;

	facts->present = true;
	snprintf(facts->bmc, sizeof(facts->bmc), "%s", p->power->via);
	hostcrash_path(p->t.results_dir, p->t.crash->position, path, sizeof(path));
	snprintf(how, sizeof(how), "cutting the power through the BMC, %s", p->power->via);
	r = announce(&p->t, "power", "", how);
	if (r >= 0) {
		r = p->power->cycle(p->power->data, why, sizeof(why));
		r = log_error_code(r < 0 ? r : -EIO, "the power cut did not happen: %s", why);
	}
	/* The run is failed now, not finished after a boot. */
	unlink(path);
	return r;
}

int hostcrash_power_cut(const char *results_dir, struct hostcrash *c, pid_t qemu,
			const struct hostcrash_power *power)
{
	struct power_trigger t = {.t = {.results_dir = results_dir, .crash = c},
				  .power = power};

	crashfacts_init(&c->facts);
	if (!power || !power->cycle)
		return log_error_code(-EOPNOTSUPP, "no BMC to cut the power: %s",
				      power ? power->refused : "none was found");
	return crashsteps_crash(qemu, results_dir, ready.disk, &c->facts, cut_power, &t);
}

double hostcrash_seconds_to_kernel(const struct hostcrash *c)
{
	struct timespec rt, bt;

	if (c->crashed_at <= 0 || clock_gettime(CLOCK_REALTIME, &rt) < 0 ||
	    clock_gettime(CLOCK_BOOTTIME, &bt) < 0)
		return NAN;
	double booted = (double)(rt.tv_sec - bt.tv_sec) + (double)(rt.tv_nsec - bt.tv_nsec) / 1e9;
	double d = booted - c->crashed_at;
	/* The clock a kernel starts with is the RTC's, to its second: a
	 * quick kexec may read as just before the crash. */
	if (d < -2)
		return NAN;
	return d < 0 ? 0 : d;
}

bool hostcrash_planned(const struct plan *plan)
{
	for (size_t i = 0; crash_takes_server_down(plan->profile.workload.crash) &&
			   i < plan->n_cells;
	     i++)
		if (plan->cells[i].workload == WORKLOAD_DURABILITY)
			return true;
	return false;
}

size_t hostcrash_plan_cost(const struct plan *plan, char *buf, size_t len)
{
	const struct profile *p = &plan->profile;
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; crash_takes_server_down(p->workload.crash) && i < plan->n_runs; i++)
		n += plan->cells[plan->runs[i].cell].workload == WORKLOAD_DURABILITY;
	if (n == 0)
		return 0;
	if (p->workload.crash == CRASH_POWER) {
		char bmc[BMCSPEC_URL_MAX + 96];
		if (bmcspec_is_redfish(p->host.bmc))
			snprintf(bmc, sizeof(bmc), "Redfish's ComputerSystem.Reset PowerCycle at %s",
				 p->host.bmc);
		else
			snprintf(bmc, sizeof(bmc), "in-band IPMI's chassis power cycle through "
				 "/dev/ipmi0");
		snprintf(buf, len,
			 "%zu power cut%s (durability runs with crash = power), each asked of the "
			 "server's BMC (%s, [host] bmc) and back by a cold boot: the server's "
			 "POST each time, tens of seconds to several minutes on a server (%zu "
			 "minutes at 3 each). The kit checks the BMC at boot; where it cannot cut "
			 "the power, these runs are not made and the others are. A one-time boot "
			 "override (Redfish BootSourceOverrideEnabled Once, ipmitool chassis "
			 "bootdev without options=persistent, a boot menu's choice) is spent by "
			 "the first cut, and the server then boots its own disk: make it "
			 "persistent (docs/kit.md)",
			 n, n == 1 ? "" : "s", bmc, 3 * n);
		return n;
	}
	if (p->workload.crash_reboot == CRASH_REBOOT_KEXEC)
		snprintf(buf, len,
			 "%zu host crash%s (durability runs with crash = host), each back by "
			 "kexec straight into this kit's kernel and initramfs: a kernel's "
			 "boot, no firmware POST (through the firmware, crash_reboot = "
			 "firmware, each would add the server's POST, tens of seconds to "
			 "several minutes: %zu minutes at 3 each; where kexec cannot be "
			 "loaded the kit falls back to the firmware and says so)",
			 n, n == 1 ? "" : "es", 3 * n);
	else
		snprintf(buf, len,
			 "%zu host crash%s (durability runs with crash = host), each back "
			 "through the server's firmware (crash_reboot = firmware): its POST "
			 "each time, tens of seconds to several minutes on a server (%zu "
			 "minutes at 3 each). A one-time boot override (Redfish "
			 "BootSourceOverrideEnabled Once, ipmitool chassis bootdev without "
			 "options=persistent, a boot menu's choice) is spent by the first "
			 "crash, and the server then boots its own disk: make it persistent "
			 "(docs/kit.md)",
			 n, n == 1 ? "" : "es", 3 * n);
	return n;
}

void hostcrash_release(struct hostcrash *c)
{
	free(c->records);
	memset(c, 0, sizeof(*c));
}

/* VALUE of "KEY=VALUE" in LINE, or NULL. */
static const char *value_of(const char *line, const char *key)
{
	size_t n = strlen(key);
	return strncmp(line, key, n) == 0 && line[n] == '=' ? line + n + 1 : NULL;
}

/* A step's time in the crash file: a number of seconds, else (nan, or a
 * word) not known. */
static double seconds_or_nan(const char *v)
{
	char *end;
	double d = strtod(v, &end);

	return end != v && !*end && d >= 0 ? d : NAN;
}

static int parse_line(char *line, struct hostcrash *c, unsigned *seen)
{
	const char *v;
	uint64_t u;

	if (strncmp(line, RECORDS_PREFIX, strlen(RECORDS_PREFIX)) == 0) {
		free(c->records);
		c->records = strdup(line);
		*seen |= 1;
		return c->records ? 0 : -ENOMEM;
	}
	if ((v = value_of(line, "cell"))) {
		if (!*v || strlen(v) >= sizeof(c->cell))
			return -EBADMSG;
		snprintf(c->cell, sizeof(c->cell), "%s", v);
		*seen |= 2;
	} else if ((v = value_of(line, "index"))) {
		if (parse_uint64(v, &u) < 0 || u > UINT_MAX)
			return -EBADMSG;
		c->index = (unsigned)u;
		*seen |= 4;
	} else if ((v = value_of(line, "position"))) {
		if (parse_uint64(v, &u) < 0 || u > UINT_MAX)
			return -EBADMSG;
		c->position = (unsigned)u;
		*seen |= 8;
	} else if ((v = value_of(line, "acks"))) {
		if (parse_uint64(v, &c->acks) < 0)
			return -EBADMSG;
		*seen |= 16;
	} else if ((v = value_of(line, "ack_seconds"))) {
		char *end;
		c->ack_seconds = strtod(v, &end);
		if (end == v || *end)
			return -EBADMSG;
		*seen |= 32;
	} else if ((v = value_of(line, "reset"))) {
		if (strlen(v) >= sizeof(c->reset))
			return -EBADMSG;
		snprintf(c->reset, sizeof(c->reset), "%s", v);
		*seen |= 64;
	} else if ((v = value_of(line, "run_seconds"))) {
		c->run_seconds = strtod(v, NULL);
	} else if ((v = value_of(line, "crashed_at"))) {
		c->crashed_at = strtod(v, NULL);
	} else if ((v = value_of(line, "mechanism"))) {
		snprintf(c->facts.mechanism, sizeof(c->facts.mechanism), "%s", v);
	} else if ((v = value_of(line, "fallback"))) {
		snprintf(c->facts.fallback, sizeof(c->facts.fallback), "%s", v);
	} else if ((v = value_of(line, "bmc"))) {
		snprintf(c->facts.bmc, sizeof(c->facts.bmc), "%s", v);
	} else if ((v = value_of(line, "dirty_kib"))) {
		c->facts.dirty_kib = strtoll(v, NULL, 10);
	} else if ((v = value_of(line, "writeback_kib"))) {
		c->facts.writeback_kib = strtoll(v, NULL, 10);
	} else if ((v = value_of(line, "qemu_stopped_seconds"))) {
		c->facts.qemu_stopped_seconds = seconds_or_nan(v);
	} else if ((v = value_of(line, "writeback_stopped_seconds"))) {
		c->facts.writeback_stopped_seconds = seconds_or_nan(v);
	} else if ((v = value_of(line, "results_synced_seconds"))) {
		c->facts.results_synced_seconds = seconds_or_nan(v);
	} else if ((v = value_of(line, "facts_read_seconds"))) {
		c->facts.facts_read_seconds = seconds_or_nan(v);
	} else if ((v = value_of(line, "write_cache"))) {
		if (strcmp(v, "on") == 0 || strcmp(v, "off") == 0)
			snprintf(c->facts.disk_write_cache, sizeof(c->facts.disk_write_cache),
				 "%s", v);
	}
	/* Other lines: what a later version adds. */
	return 0;
}

int hostcrash_read(const char *path, struct hostcrash *ret)
{
	_cleanup_fclose_ FILE *f = fopen(path, "re");
	char line[8192];
	unsigned seen = 0;
	int r = 0;

	memset(ret, 0, sizeof(*ret));
	ret->ack_seconds = NAN;
	ret->run_seconds = NAN;
	/* A file from before these facts: sysrq b was the only way back. */
	crashfacts_init(&ret->facts);
	ret->facts.present = true;
	snprintf(ret->facts.mechanism, sizeof(ret->facts.mechanism), "firmware");
	if (!f)
		return -errno;
	while (r >= 0 && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		r = parse_line(line, ret, &seen);
	}
	if (r >= 0 && seen != 127)
		r = -EBADMSG;
	if (r < 0) {
		hostcrash_release(ret);
		if (r == -EBADMSG)
			log_error("'%s': not a crash file (a RECORDS line, then cell, "
				  "index, position, acks, ack_seconds and reset)", path);
		return r;
	}
	return 0;
}

static int is_crash_file(const struct dirent *e)
{
	unsigned position;
	int end = 0;
	/* %n counts only when the literal ".crash" matched to its end. */
	return sscanf(e->d_name, "run-%u.crash%n", &position, &end) == 1 && end > 0 &&
	       e->d_name[end] == '\0';
}

int hostcrash_list(const char *results_dir, char ***ret, size_t *ret_n)
{
	char dir[PATH_MAX];
	struct dirent **names = NULL;
	int n, r = 0;

	*ret = NULL;
	*ret_n = 0;
	snprintf(dir, sizeof(dir), "%s/console", results_dir);
	/* Zero-padded positions: alphabetical is position order. */
	n = scandir(dir, &names, is_crash_file, alphasort);
	if (n < 0)
		return errno == ENOENT ? 0 : -errno;
	char **paths = calloc((size_t)n + 1, sizeof(*paths));
	for (int i = 0; i < n; i++) {
		if (paths && r >= 0 &&
		    asprintf(&paths[i], "%s/%s", dir, names[i]->d_name) < 0) {
			paths[i] = NULL;
			r = -ENOMEM;
		}
		free(names[i]);
	}
	free(names);
	if (!paths || r < 0) {
		for (int i = 0; paths && i < n; i++)
			free(paths[i]);
		free(paths);
		return -ENOMEM;
	}
	*ret = paths;
	*ret_n = (size_t)n;
	return 0;
}
