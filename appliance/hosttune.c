/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "hosttune.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cleanup.h"
#include "command.h"
#include "log.h"
#include "names.h"
#include "sysfs.h"

NAME_TABLE(disk_protocol, "ata", "scsi", "nvme")

/* Why the last tool run or read-back failed ("'hdparm -W1 /dev/sda'
 * failed with exit status 5"): not printed where it happens, because
 * whether it is an error or a warning is for refused() to say, from
 * [host] strict; refused() and hosttune_restore() print it once. */
static char failure[256];

static int failed(int r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int failed(int r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(failure, sizeof(failure), fmt, ap);
	va_end(ap);
	return r;
}

/* The cause of failure R: what failed() recorded, else R's errno text;
 * taken, so it is never told twice. */
static const char *take_failure(int r, char *buf, size_t len)
{
	snprintf(buf, len, "%s", failure[0] ? failure : strerror(-r));
	failure[0] = '\0';
	return buf;
}

enum disk_protocol hosttune_protocol(const char *disk)
{
	char vendor[64];

	if (strncmp(disk, "nvme", 4) == 0)
		return DISK_NVME;
	/* libata disks show up as SCSI disks whose vendor is "ATA". */
	if (sysfs_read_block(disk, "device/vendor", vendor, sizeof(vendor)) == 0 &&
	    strcmp(vendor, "ATA") == 0)
		return DISK_ATA;
	return DISK_SCSI;
}

/* Runs a tool, captures its output; reports a failure naming it.  With
 * LENIENT a non-zero exit status is not an error when the tool ran: sdparm
 * exits 5 when a drive (QEMU's among them) has no saved mode pages, after
 * printing the current value; what counts is the value read back. */
static int tool_lenient(char *const argv[], char **ret_out, bool lenient)
{
	char desc[256];
	_cleanup_free_ char *out = NULL;
	int r = command_capture(argv, NULL, 64 * 1024, &out);

	if (r == 0 || (lenient && r > 0)) {
		if (r > 0) {
			command_describe(argv, desc, sizeof(desc));
			log_debug("'%s' exited with status %d", desc, r);
		}
		if (ret_out)
			*ret_out = TAKE_PTR(out);
		return 0;
	}
	command_describe(argv, desc, sizeof(desc));
	if (r < 0)
		return failed(r, "'%s': %s", desc, strerror(-r));
	return failed(-EIO, "'%s' failed with exit status %d", desc, r);
}

static int tool(char *const argv[], char **ret_out)
{
	return tool_lenient(argv, ret_out, false);
}

/* The number after KEY in OUT ("write-caching =  1 (on)", "WCE  1 [cha:",
 * "Current value:0x00000001"), or -1. */
static long number_after(const char *out, const char *key)
{
	const char *p = strstr(out, key);
	char *end;

	if (!p)
		return -1;
	p += strlen(key);
	p += strspn(p, " \t=:");
	long v = strtol(p, &end, 0);
	return end == p ? -1 : v;
}

/* The device node the tool talks to: the disk itself, or for NVMe its
 * controller (/dev/nvme0 for nvme0n1): the volatile write cache is a
 * controller feature, and QEMU refuses it addressed to a namespace. */
static void tool_device(const char *disk, enum disk_protocol protocol,
			char *buf, size_t len)
{
	char path[128], target[256];
	ssize_t n;

	snprintf(buf, len, "/dev/%s", disk);
	if (protocol != DISK_NVME)
		return;
	snprintf(path, sizeof(path), "/sys/block/%s/device", disk);
	n = readlink(path, target, sizeof(target) - 1);
	if (n <= 0)
		return;
	target[n] = '\0';
	const char *base = strrchr(target, '/');
	base = base ? base + 1 : target;
	if (strncmp(base, "nvme", 4) == 0 && strlen(base) + 6 <= len)
		snprintf(buf, len, "/dev/%.*s", (int)(len - 6), base);
}

int hosttune_read_write_cache(const char *disk, enum disk_protocol protocol,
			      int *ret_on)
{
	char dev[HOSTTUNE_NAME_MAX + 8];
	_cleanup_free_ char *out = NULL;
	long v;
	int r;

	tool_device(disk, protocol, dev, sizeof(dev));
	switch (protocol) {
	case DISK_ATA:
		r = tool((char *[]){"hdparm", "-W", dev, NULL}, &out);
		v = r < 0 ? -1 : number_after(out, "write-caching");
		break;
	case DISK_SCSI:
		r = tool_lenient((char *[]){"sdparm", "--get", "WCE", dev, NULL},
				 &out, true);
		v = r < 0 ? -1 : number_after(out, "WCE");
		break;
	default:
		r = tool((char *[]){"nvme", "get-feature", dev, "-f", "6", "-n", "0",
				    NULL},
			 &out);
		v = r < 0 ? -1 : number_after(out, "Current value");
		if (v > 0)
			v &= 1;
		break;
	}
	if (r < 0)
		return r;
	if (v != 0 && v != 1)
		return failed(-EIO, "%s: cannot read the write cache "
			      "state from the %s tool's output",
			      dev, disk_protocol_name(protocol));
	*ret_on = (int)v;
	return 0;
}

static int set_write_cache(const char *disk, enum disk_protocol protocol,
			   int on)
{
	char dev[HOSTTUNE_NAME_MAX + 8];

	tool_device(disk, protocol, dev, sizeof(dev));
	switch (protocol) {
	case DISK_ATA:
		return tool((char *[]){"hdparm", on ? "-W1" : "-W0", dev, NULL},
			    NULL);
	case DISK_SCSI:
		/* Not --save: the drive's saved page stays as it was. */
		return tool_lenient((char *[]){"sdparm", "--set",
					   on ? "WCE=1" : "WCE=0", dev, NULL},
				    NULL, true);
	default:
		return tool((char *[]){"nvme", "set-feature", dev, "-f", "6", "-n", "0",
				       "-v", on ? "1" : "0", NULL},
			    NULL);
	}
}

/* A refused setting, told once with its cause: an error when strict,
 * else a warning, recorded. */
static int refused(const struct profile_host *host, struct hosttune *t, int r,
		   const char *what)
{
	char why[sizeof(failure)];

	take_failure(r, why, sizeof(why));
	if (host->strict) {
		log_error("%s: refused (strict = yes): %s", what, why);
		return r;
	}
	log_warning("%s: refused, continuing (strict = no): %s", what, why);
	if (t->n_warnings < HOSTTUNE_WARNINGS_MAX)
		snprintf(t->warnings[t->n_warnings++], HOSTTUNE_WARNING_LEN,
			 "%s: refused: %.*s", what, HOSTTUNE_WARNING_LEN / 2, why);
	return 0;
}

const char *hosttune_write_cache_text(axis_mask mask, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int v = 0; v < _WRITE_CACHE_MAX && used < len; v++)
		if (mask & AXIS_BIT(v))
			used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? "," : "",
						 write_cache_setting_name((enum write_cache_setting)v));
	return buf;
}

/* Sets the write cache WANT (1/0) and reads it back into
 * t->write_cache_effective.  Returns 0 or a negative errno (failed()). */
static int set_and_read_back(struct hosttune *t, int want)
{
	int r = set_write_cache(t->disk, t->protocol, want);

	if (r == 0)
		r = hosttune_read_write_cache(t->disk, t->protocol,
					      &t->write_cache_effective);
	if (r == 0 && t->write_cache_effective != want)
		r = failed(-EIO, "/dev/%s: write cache reads back %s "
			   "after setting it %s",
			   t->disk, t->write_cache_effective ? "on" : "off",
			   want ? "on" : "off");
	return r;
}

static int apply_write_cache(const struct profile_host *host, struct hosttune *t)
{
	int r;

	r = hosttune_read_write_cache(t->disk, t->protocol,
				      &t->write_cache_original);
	if (r < 0)
		return refused(host, t, r, "reading the disk write cache");
	t->write_cache_effective = t->write_cache_original;
	/* keep, or a list: the sweep's axis, set before each run. */
	if (!host->write_cache || host->write_cache == AXIS_BIT(WRITE_CACHE_KEEP) ||
	    (host->write_cache & (host->write_cache - 1)))
		return 0;
	r = set_and_read_back(t, host->write_cache == AXIS_BIT(WRITE_CACHE_ON));
	return r < 0 ? refused(host, t, r, "setting the disk write cache") : 0;
}

int hosttune_set_write_cache(struct hosttune *t, enum write_cache_setting setting,
			     int *ret_on, char *why, size_t len)
{
	int want = setting == WRITE_CACHE_ON ? 1
		   : setting == WRITE_CACHE_OFF ? 0
						: t->write_cache_original;
	int r;

	failure[0] = '\0';
	if (want < 0) {
		snprintf(why, len, "write_cache = keep: the disk's own setting was not read at boot");
		return -ENODATA;
	}
	r = set_and_read_back(t, want);
	if (r < 0) {
		take_failure(r, why, len);
		return r;
	}
	*ret_on = t->write_cache_effective;
	return 0;
}

static int set_vm_sysctl(const struct profile_host *host, struct hosttune *t,
			 const char *name, int value, int *ret_original)
{
	char path[128], buf[32];
	int r;

	*ret_original = -1;
	if (value < 0)
		return 0;
	snprintf(path, sizeof(path), "/proc/sys/vm/%s", name);
	r = sysfs_read(path, buf, sizeof(buf));
	if (r == 0) {
		*ret_original = atoi(buf);
		snprintf(buf, sizeof(buf), "%d", value);
		r = sysfs_write(path, buf);
	}
	if (r < 0) {
		char what[160];
		snprintf(what, sizeof(what), "vm.%s = %d", name, value);
		return refused(host, t, r, what);
	}
	return 0;
}

/* The active scheduler: the bracketed word of queue/scheduler. */
static void current_scheduler(const char *disk, char *buf, size_t len)
{
	char line[256];
	const char *open, *close;

	buf[0] = '\0';
	if (sysfs_read_block(disk, "queue/scheduler", line, sizeof(line)) < 0)
		return;
	open = strchr(line, '[');
	close = open ? strchr(open, ']') : NULL;
	if (open && close && (size_t)(close - open - 1) < len)
		snprintf(buf, len, "%.*s", (int)(close - open - 1), open + 1);
}

static int apply_queue(const struct profile_host *host, struct hosttune *t)
{
	char path[256], buf[64];
	int r;

	current_scheduler(t->disk, t->scheduler_effective,
			  sizeof(t->scheduler_effective));
	if (host->scheduler != SCHEDULER_KEEP) {
		snprintf(t->scheduler_original, sizeof(t->scheduler_original),
			 "%s", t->scheduler_effective);
		snprintf(path, sizeof(path), "/sys/block/%s/queue/scheduler",
			 t->disk);
		r = sysfs_write(path, io_scheduler_name(host->scheduler));
		current_scheduler(t->disk, t->scheduler_effective,
				  sizeof(t->scheduler_effective));
		if (r == 0 && strcmp(t->scheduler_effective,
				     io_scheduler_name(host->scheduler)) != 0)
			r = failed(-EINVAL, "queue/scheduler reads back '%s'",
				   t->scheduler_effective);
		if (r < 0) {
			snprintf(buf, sizeof(buf), "scheduler %s",
				 io_scheduler_name(host->scheduler));
			r = refused(host, t, r, buf);
			if (r < 0)
				return r;
		}
	}
	t->read_ahead_kb_original = -1;
	if (sysfs_read_block(t->disk, "queue/read_ahead_kb", buf, sizeof(buf)) == 0)
		t->read_ahead_kb_effective = atol(buf);
	if (host->read_ahead_kb >= 0) {
		t->read_ahead_kb_original = t->read_ahead_kb_effective;
		snprintf(path, sizeof(path), "/sys/block/%s/queue/read_ahead_kb",
			 t->disk);
		snprintf(buf, sizeof(buf), "%lld", (long long)host->read_ahead_kb);
		r = sysfs_write(path, buf);
		if (r == 0)
			t->read_ahead_kb_effective = (long)host->read_ahead_kb;
		else
			return refused(host, t, r, "read_ahead_kb");
	}
	return 0;
}

int hosttune_apply(const struct profile_host *host, const char *disk,
		   struct hosttune *ret)
{
	failure[0] = '\0';
	struct hosttune t = {
		.write_cache_original = -1,
		.write_cache_effective = -1,
		/* Nothing changed yet: a refusal before these are read must not
		 * have hosttune_restore write 0 into them. */
		.dirty_ratio_original = -1,
		.dirty_background_ratio_original = -1,
		.dirty_expire_centisecs_original = -1,
		.dirty_writeback_centisecs_original = -1,
		.read_ahead_kb_original = -1,
		.read_ahead_kb_effective = -1,
	};
	int r;

	if (strlen(disk) >= sizeof(t.disk) || strchr(disk, '/'))
		return log_error_code(-EINVAL, "'%s': not a block device name",
				      disk);
	snprintf(t.disk, sizeof(t.disk), "%s", disk);
	t.protocol = hosttune_protocol(disk);

	r = apply_write_cache(host, &t);
	if (r == 0)
		r = set_vm_sysctl(host, &t, "dirty_ratio", host->dirty_ratio,
				  &t.dirty_ratio_original);
	if (r == 0)
		r = set_vm_sysctl(host, &t, "dirty_background_ratio",
				  host->dirty_background_ratio,
				  &t.dirty_background_ratio_original);
	if (r == 0)
		r = set_vm_sysctl(host, &t, "dirty_expire_centisecs",
				  host->dirty_expire_centisecs,
				  &t.dirty_expire_centisecs_original);
	if (r == 0)
		r = set_vm_sysctl(host, &t, "dirty_writeback_centisecs",
				  host->dirty_writeback_centisecs,
				  &t.dirty_writeback_centisecs_original);
	if (r == 0)
		r = apply_queue(host, &t);
	if (r < 0) {
		hosttune_restore(&t);
		return r;
	}
	*ret = t;
	return 0;
}

/* vm.NAME back to ORIGINAL, unless it was kept (-1). */
static int restore_vm(const char *name, int original)
{
	char path[128], buf[32];

	if (original < 0)
		return 0;
	snprintf(path, sizeof(path), "/proc/sys/vm/%s", name);
	snprintf(buf, sizeof(buf), "%d", original);
	return sysfs_write(path, buf);
}

int hosttune_restore(const struct hosttune *t)
{
	char path[256], buf[32];
	int r = 0, k;

	failure[0] = '\0';
	if (t->write_cache_original >= 0 &&
	    t->write_cache_effective != t->write_cache_original) {
		k = set_write_cache(t->disk, t->protocol, t->write_cache_original);
		r = r ? r : k;
	}
	k = restore_vm("dirty_ratio", t->dirty_ratio_original);
	r = r ? r : k;
	k = restore_vm("dirty_background_ratio", t->dirty_background_ratio_original);
	r = r ? r : k;
	k = restore_vm("dirty_expire_centisecs", t->dirty_expire_centisecs_original);
	r = r ? r : k;
	k = restore_vm("dirty_writeback_centisecs", t->dirty_writeback_centisecs_original);
	r = r ? r : k;
	if (t->scheduler_original[0]) {
		snprintf(path, sizeof(path), "/sys/block/%s/queue/scheduler", t->disk);
		k = sysfs_write(path, t->scheduler_original);
		r = r ? r : k;
	}
	if (t->read_ahead_kb_original >= 0) {
		snprintf(path, sizeof(path), "/sys/block/%s/queue/read_ahead_kb",
			 t->disk);
		snprintf(buf, sizeof(buf), "%ld", t->read_ahead_kb_original);
		k = sysfs_write(path, buf);
		r = r ? r : k;
	}
	if (r < 0) {
		char why[sizeof(failure)];
		log_error("restoring the host settings of /dev/%s: %s", t->disk,
			  take_failure(r, why, sizeof(why)));
	}
	return r;
}

static const char *on_off(int v)
{
	return v < 0 ? "unknown" : v ? "on" : "off";
}

void hosttune_write_report(const struct hosttune *t, FILE *f)
{
	fprintf(f, "disk_protocol: %s\n", disk_protocol_name(t->protocol));
	fprintf(f, "write_cache_original: %s\n", on_off(t->write_cache_original));
	fprintf(f, "write_cache_effective: %s\n", on_off(t->write_cache_effective));
	if (t->dirty_ratio_original >= 0)
		fprintf(f, "dirty_ratio_original: %d\n", t->dirty_ratio_original);
	if (t->dirty_background_ratio_original >= 0)
		fprintf(f, "dirty_background_ratio_original: %d\n",
			t->dirty_background_ratio_original);
	if (t->dirty_expire_centisecs_original >= 0)
		fprintf(f, "dirty_expire_centisecs_original: %d\n",
			t->dirty_expire_centisecs_original);
	if (t->dirty_writeback_centisecs_original >= 0)
		fprintf(f, "dirty_writeback_centisecs_original: %d\n",
			t->dirty_writeback_centisecs_original);
	fprintf(f, "scheduler_effective: %s\n",
		t->scheduler_effective[0] ? t->scheduler_effective : "unknown");
	fprintf(f, "read_ahead_kb_effective: %ld\n", t->read_ahead_kb_effective);
	for (unsigned i = 0; i < t->n_warnings; i++)
		fprintf(f, "warning: %s\n", t->warnings[i]);
}
