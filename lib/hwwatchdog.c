/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "hwwatchdog.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/watchdog.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "atomicfile.h"
#include "cleanup.h"
#include "log.h"
#include "monotonic.h"
#include "parse.h"
#include "signals.h"
#include "sysfs.h"
#include "watchdog.h"

#define SYSFS_WATCHDOG0 "/sys/class/watchdog/watchdog0"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
	int fd; /* -1: not armed */
	unsigned options; /* WDIOF_* the driver has */
	char record_path[PATH_MAX];
	struct hwwatchdog_record rec;
	bool thread;
} armed = {.fd = -1};
/* What the last hwwatchdog_arm asked, for hwwatchdog_rearm. */
static struct {
	bool asked;
	char device[64];
	unsigned timeout;
	char record[PATH_MAX];
} last;

static double now_unix(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Text without the line ends that would break the record's lines. */
static void copy_line(char *dst, size_t len, const char *src)
{
	size_t n = strnlen(src, len - 1);

	memcpy(dst, src, n);
	dst[n] = '\0';
	for (char *p = dst; *p; p++)
		if (*p == '\n' || *p == '\r')
			*p = ' ';
}

/* ---- the record --------------------------------------------------------- */

static int write_record(const void *ctx, FILE *f)
{
	const struct hwwatchdog_record *r = ctx;

	fprintf(f, "armed=%s\ndevice=%s\nidentity=%s\ntimeout=%u\narmed_at=%.3f\n",
		r->armed ? "yes" : "no", r->device, r->identity, r->timeout, r->armed_at);
	fprintf(f, "step=%s\nstep_at=%.3f\n", r->step, r->step_at);
	for (size_t i = 0; i < r->n_resets; i++)
		fprintf(f, "reset=%s\n", r->resets[i]);
	return ferror(f) ? -EIO : 0;
}

int hwwatchdog_record_write(const char *path, const struct hwwatchdog_record *rec)
{
	_cleanup_free_ char *dir = strdup(path);
	char *slash = dir ? strrchr(dir, '/') : NULL;
	int r;

	if (!slash)
		return log_error_errno(-EINVAL, "'%s': not a path in a directory", path);
	*slash = '\0';
	r = atomicfile_write(dir, slash + 1, write_record, rec);
	if (r < 0)
		return r;
	/* The rename itself survives a reset only once its directory is. */
	_cleanup_close_ int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 || fsync(fd) < 0)
		return log_error_errno(-errno, "cannot sync '%s'", dir);
	return 0;
}

/* VALUE of "KEY=VALUE" in LINE, or NULL. */
static const char *value_of(const char *line, const char *key)
{
	size_t n = strlen(key);
	return strncmp(line, key, n) == 0 && line[n] == '=' ? line + n + 1 : NULL;
}

int hwwatchdog_record_read(const char *path, struct hwwatchdog_record *ret)
{
	_cleanup_fclose_ FILE *f = fopen(path, "re");
	char line[HWWATCHDOG_TEXT_MAX + 64];
	const char *v;
	bool has_armed = false;

	memset(ret, 0, sizeof(*ret));
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if ((v = value_of(line, "armed"))) {
			ret->armed = strcmp(v, "yes") == 0;
			has_armed = true;
		} else if ((v = value_of(line, "device"))) {
			copy_line(ret->device, sizeof(ret->device), v);
		} else if ((v = value_of(line, "identity"))) {
			copy_line(ret->identity, sizeof(ret->identity), v);
		} else if ((v = value_of(line, "timeout"))) {
			uint64_t t;
			if (parse_uint64(v, &t) == 0 && t <= UINT_MAX)
				ret->timeout = (unsigned)t;
		} else if ((v = value_of(line, "armed_at"))) {
			ret->armed_at = strtod(v, NULL);
		} else if ((v = value_of(line, "step"))) {
			copy_line(ret->step, sizeof(ret->step), v);
		} else if ((v = value_of(line, "step_at"))) {
			ret->step_at = strtod(v, NULL);
		} else if ((v = value_of(line, "reset")) && ret->n_resets < HWWATCHDOG_RESETS_MAX) {
			copy_line(ret->resets[ret->n_resets++], HWWATCHDOG_TEXT_MAX, v);
		}
	}
	return has_armed ? 0 : -EBADMSG;
}

/* ---- the device --------------------------------------------------------- */

int hwwatchdog_boot_reset(const char *sysfs_dir)
{
	char path[PATH_MAX], buf[32], *end;

	snprintf(path, sizeof(path), "%s/bootstatus", sysfs_dir);
	if (sysfs_read(path, buf, sizeof(buf)) < 0)
		return -1;
	unsigned long v = strtoul(buf, &end, 0);
	if (end == buf)
		return -1;
	return (v & WDIOF_CARDRESET) != 0;
}

/* The step WHAT into the record, written before the step goes on (a
 * record written later by another thread may never be: whatever stops
 * the process stops that thread too); called with the lock held. */
static void record_step_locked(const char *what)
{
	if (armed.fd < 0 || !armed.record_path[0])
		return;
	copy_line(armed.rec.step, sizeof(armed.rec.step), what);
	armed.rec.step_at = now_unix();
	/* Said once where it fails: the feeding goes on. */
	hwwatchdog_record_write(armed.record_path, &armed.rec);
}

/* lib/watchdog's on_mark: each step as it is marked. */
static void record_step(const char *what, void *data)
{
	(void)data;
	pthread_mutex_lock(&lock);
	record_step_locked(what);
	pthread_mutex_unlock(&lock);
}

/* Feeds the device every quarter of its timeout while the process makes
 * progress (a second at most between looks). */
static void *feed(void *arg)
{
	double fed = monotonic_seconds();

	(void)arg;
	for (;;) {
		sleep(1);
		pthread_mutex_lock(&lock);
		if (armed.fd < 0) {
			pthread_mutex_unlock(&lock);
			continue;
		}
		double every = armed.rec.timeout / 4.0 < 1 ? 1 : armed.rec.timeout / 4.0;
		if (watchdog_progressing() && monotonic_seconds() - fed >= every - 0.5) {
			ioctl(armed.fd, WDIOC_KEEPALIVE, 0);
			fed = monotonic_seconds();
		}
		pthread_mutex_unlock(&lock);
	}
	return NULL;
}

static int start_thread(void)
{
	int r = armed.thread ? 0 : signals_thread_start(NULL, feed, NULL);

	armed.thread |= r == 0;
	return r;
}

/* Asks the driver for TIMEOUT seconds, or its maximum when it refuses
 * (sysfs max_timeout); returns what it took, or 0 when it cannot say. */
static unsigned set_timeout(int fd, unsigned timeout)
{
	int t = (int)timeout, now = 0;
	char buf[32];

	if (ioctl(fd, WDIOC_SETTIMEOUT, &t) < 0 &&
	    sysfs_read(SYSFS_WATCHDOG0 "/max_timeout", buf, sizeof(buf)) == 0 &&
	    (t = atoi(buf)) > 0 && (unsigned)t < timeout)
		ioctl(fd, WDIOC_SETTIMEOUT, &t);
	if (ioctl(fd, WDIOC_GETTIMEOUT, &now) < 0 || now <= 0)
		return 0;
	return (unsigned)now;
}

int hwwatchdog_arm(const char *device, unsigned timeout, const char *record,
		   struct hwwatchdog_record *ret, char *why, size_t why_len)
{
	struct watchdog_info info = {0};
	struct hwwatchdog_record old;
	int r;

	pthread_mutex_lock(&lock);
	if (armed.fd >= 0) {
		*ret = armed.rec;
		pthread_mutex_unlock(&lock);
		return 0;
	}
	int fd = open(device, O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		r = -errno;
		snprintf(why, why_len, "%s: %s", device, strerror(-r));
		pthread_mutex_unlock(&lock);
		return r;
	}
	ioctl(fd, WDIOC_GETSUPPORT, &info);
	unsigned took = set_timeout(fd, timeout);
	memset(&armed.rec, 0, sizeof(armed.rec));
	/* The resets the boots before recorded stay in the record. */
	if (record && hwwatchdog_record_read(record, &old) == 0) {
		armed.rec.n_resets = old.n_resets;
		memcpy(armed.rec.resets, old.resets, sizeof(old.resets));
	}
	armed.rec.armed = true;
	copy_line(armed.rec.device, sizeof(armed.rec.device), device);
	snprintf(armed.rec.identity, sizeof(armed.rec.identity), "%.*s",
		 (int)sizeof(info.identity), info.identity[0] ? (const char *)info.identity
							       : "unknown");
	armed.rec.timeout = took ? took : timeout;
	armed.rec.armed_at = now_unix();
	armed.options = info.options;
	armed.fd = fd;
	last.asked = true;
	snprintf(last.device, sizeof(last.device), "%s", device);
	last.timeout = timeout;
	snprintf(last.record, sizeof(last.record), "%s", record ? record : "");
	snprintf(armed.record_path, sizeof(armed.record_path), "%s", record ? record : "");
	ioctl(fd, WDIOC_KEEPALIVE, 0);
	char what[HWWATCHDOG_TEXT_MAX];
	watchdog_current(what, sizeof(what));
	record_step_locked(what);
	r = start_thread();
	*ret = armed.rec;
	pthread_mutex_unlock(&lock);
	if (r == 0 && record)
		watchdog_on_mark(record_step, NULL);
	if (r < 0) {
		snprintf(why, why_len, "cannot start the thread that feeds it: %s", strerror(-r));
		hwwatchdog_disarm();
	}
	return r;
}

int hwwatchdog_disarm(void)
{
	char state[32];
	int r = 0;

	pthread_mutex_lock(&lock);
	if (armed.fd < 0) {
		pthread_mutex_unlock(&lock);
		return 0;
	}
	watchdog_on_mark(NULL, NULL);
	/* The magic close: 'V' written, then the device closed. */
	(void)!write(armed.fd, "V", 1);
	close(armed.fd);
	armed.fd = -1;
	if (!(armed.options & WDIOF_MAGICCLOSE) ||
	    (sysfs_read(SYSFS_WATCHDOG0 "/state", state, sizeof(state)) == 0 &&
	     strcmp(state, "active") == 0))
		r = -EBUSY;
	/* One that could not stop is still armed, and the record says so. */
	armed.rec.armed = r < 0;
	if (armed.record_path[0])
		hwwatchdog_record_write(armed.record_path, &armed.rec);
	pthread_mutex_unlock(&lock);
	return r;
}

int hwwatchdog_rearm(char *why, size_t why_len)
{
	struct hwwatchdog_record rec;
	char device[sizeof(last.device)], record[sizeof(last.record)];
	unsigned timeout;

	pthread_mutex_lock(&lock);
	bool again = last.asked && armed.fd < 0;
	snprintf(device, sizeof(device), "%s", last.device);
	snprintf(record, sizeof(record), "%s", last.record);
	timeout = last.timeout;
	pthread_mutex_unlock(&lock);
	if (!again)
		return 0;
	return hwwatchdog_arm(device, timeout, record[0] ? record : NULL, &rec, why, why_len);
}
