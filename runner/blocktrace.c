/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "blocktrace.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "cleanup.h"
#include "log.h"
#include "signals.h"
#include "sysfs.h"

#define TRACEFS "/sys/kernel/tracing"
#define EVENT "events/block/block_bio_queue"
/* The event's line, as every kernel since 2.6.31 prints it (checked
 * against the event's format file before it is read so). */
#define EVENT_FMT "\"%d,%d %s %llu + %u [%s]\""
#define INSTANCE_PREFIX "buildapp-writes-"
/* Per CPU, while the instance exists; the reader empties it every
 * READ_EVERY_MS.  A buffer that still fills loses events, and
 * the reset after the run is the full one. */
#define BUFFER_KB "4096"
#define READ_EVERY_MS 50

struct blocktrace {
	char dir[PATH_MAX]; /* the instance */
	unsigned major, minor;
	uint64_t size;      /* the device's, in bytes */
	uint64_t *bits;     /* one per BLOCKTRACE_GRANULARITY block */
	int fd;             /* the instance's trace_pipe */
	pthread_t reader;
	atomic_bool stopping;
	/* Set by the reader: why what was written is not known. */
	char unknown[160];
	char buf[1 << 16]; /* the reader's, a line not read whole yet */
};

int blocktrace_parse_line(const char *line, unsigned *major, unsigned *minor,
			  uint64_t *sector, uint32_t *sectors,
			  enum blocktrace_op *op)
{
	const char *p = strstr(line, "block_bio_queue: ");
	char rwbs[16];
	bool write = false, read = false, flush = false, other = false;

	if (!p) {
		if (strstr(line, "LOST") && strstr(line, "EVENTS"))
			return -EOVERFLOW;
		return line[strspn(line, " \t\r\n")] ? -EINVAL : 0;
	}
	if (sscanf(p + strlen("block_bio_queue: "), "%u,%u %15s %" SCNu64 " + %" SCNu32,
		   major, minor, rwbs, sector, sectors) != 5)
		return -EINVAL;
	/* blk_fill_rwbs(): F (a preflush, or a flush alone), then the
	 * operation (W write or write-zeroes, D discard, DE secure erase, R
	 * read, N any other), then flags (F FUA, A ahead, S sync, M meta). */
	for (const char *c = rwbs; *c; c++) {
		write |= *c == 'W' || *c == 'D';
		read |= *c == 'R';
		flush |= *c == 'F';
		other |= *c == 'N';
	}
	*op = write ? BLOCKTRACE_WRITE
	    : read  ? BLOCKTRACE_READ
	    : other ? BLOCKTRACE_OTHER
	    : flush ? BLOCKTRACE_FLUSH
		    : BLOCKTRACE_OTHER;
	return 1;
}

static void set_unknown(struct blocktrace *t, const char *why)
{
	if (!t->unknown[0])
		snprintf(t->unknown, sizeof(t->unknown), "%s", why);
}

static void mark(struct blocktrace *t, uint64_t sector, uint32_t sectors)
{
	uint64_t start = sector * 512, end = start + (uint64_t)sectors * 512;

	if (sectors == 0)
		return;
	if (end > t->size || end < start) {
		set_unknown(t, "a write past the device's end");
		return;
	}
	for (uint64_t b = start / BLOCKTRACE_GRANULARITY;
	     b <= (end - 1) / BLOCKTRACE_GRANULARITY; b++)
		t->bits[b / 64] |= UINT64_C(1) << (b % 64);
}

static void take_line(struct blocktrace *t, const char *line)
{
	unsigned major, minor;
	uint64_t sector;
	uint32_t sectors;
	enum blocktrace_op op;
	int r = blocktrace_parse_line(line, &major, &minor, &sector, &sectors, &op);

	if (r == -EOVERFLOW)
		set_unknown(t, "the kernel dropped events (its trace buffer was full)");
	else if (r < 0)
		set_unknown(t, "a trace line that cannot be read");
	else if (r == 0 || major != t->major || minor != t->minor)
		return;
	else if (op == BLOCKTRACE_WRITE)
		mark(t, sector, sectors);
	else if (op == BLOCKTRACE_OTHER)
		set_unknown(t, "a request that is neither a read nor a write");
}

/* Reads the trace until told to stop and the trace is empty. */
static void *read_trace(void *data)
{
	struct blocktrace *t = data;
	char *buf = t->buf;
	size_t have = 0;

	for (;;) {
		bool stopping = atomic_load(&t->stopping);
		ssize_t n = read(t->fd, buf + have, sizeof(t->buf) - 1 - have);

		if (n < 0 && errno == EINTR)
			continue;
		/* Emptied: a sleep, not poll(2), which would have the kernel
		 * wake the thread for every event (a context switch per bio,
		 * which cost a host fio run 10-20% of its IOPS here). */
		if (n < 0 && errno == EAGAIN) {
			if (stopping)
				break;
			nanosleep(&(struct timespec){0, READ_EVERY_MS * 1000000L}, NULL);
			continue;
		}
		if (n <= 0) {
			set_unknown(t, n < 0 ? "the trace could not be read"
					     : "the trace ended early");
			break;
		}
		have += (size_t)n;
		buf[have] = '\0';
		char *line = buf, *nl;
		while ((nl = strchr(line, '\n'))) {
			*nl = '\0';
			take_line(t, line);
			line = nl + 1;
		}
		have = (size_t)(buf + have - line);
		memmove(buf, line, have);
		if (have == sizeof(t->buf) - 1) {
			set_unknown(t, "a trace line that cannot be read");
			have = 0;
		}
	}
	return NULL;
}

static int instance_write(const struct blocktrace *t, const char *name,
			  const char *value)
{
	char path[PATH_MAX + 64];

	snprintf(path, sizeof(path), "%s/%s", t->dir, name);
	return sysfs_write(path, value);
}

/* Instances of runners that are gone (killed during a host-native
 * run) go before a new one is made. */
static void remove_stale_instances(void)
{
	_cleanup_(closedirp) DIR *d = opendir(TRACEFS "/instances");
	struct dirent *e;

	while (d && (e = readdir(d))) {
		char path[PATH_MAX];
		long pid;

		if (strncmp(e->d_name, INSTANCE_PREFIX, strlen(INSTANCE_PREFIX)) != 0)
			continue;
		pid = strtol(e->d_name + strlen(INSTANCE_PREFIX), NULL, 10);
		if (pid > 0 && (kill((pid_t)pid, 0) == 0 || errno != ESRCH))
			continue;
		snprintf(path, sizeof(path), TRACEFS "/instances/%s", e->d_name);
		if (rmdir(path) < 0)
			log_warning("cannot remove the stale trace instance %s: %s",
				    path, strerror(errno));
	}
}

/* tracefs at TRACEFS, mounted there if it is not yet (the appliance
 * mounts only what it needs). */
static int tracefs_ready(void)
{
	if (access(TRACEFS "/instances", F_OK) == 0)
		return 0;
	if (mount("tracefs", TRACEFS, "tracefs", MS_NOSUID | MS_NODEV | MS_NOEXEC,
		  NULL) < 0 && errno != EBUSY)
		return -errno;
	return access(TRACEFS "/instances", F_OK) < 0 ? -errno : 0;
}

/* The event's print format is the one read_trace parses. */
static int check_format(void)
{
	_cleanup_fclose_ FILE *f = fopen(TRACEFS "/" EVENT "/format", "re");
	char line[512];

	while (f && fgets(line, sizeof(line), f))
		if (strncmp(line, "print fmt: " EVENT_FMT, strlen("print fmt: " EVENT_FMT)) == 0)
			return 0;
	return f ? -EPROTO : -errno;
}

static void instance_remove(struct blocktrace *t)
{
	if (t->fd >= 0)
		close(t->fd);
	t->fd = -1;
	if (t->dir[0] && rmdir(t->dir) < 0)
		log_warning("cannot remove the trace instance %s: %s", t->dir,
			    strerror(errno));
	t->dir[0] = '\0';
}

static void blocktrace_free(struct blocktrace *t)
{
	if (!t)
		return;
	instance_remove(t);
	free(t->bits);
	free(t);
}
DEFINE_TRIVIAL_CLEANUP_FUNC(struct blocktrace, blocktrace_free);

/* The instance and its event, filtered to T's device, on. */
static int instance_make(struct blocktrace *t)
{
	char path[PATH_MAX + 64], filter[64];
	int r;

	snprintf(t->dir, sizeof(t->dir), TRACEFS "/instances/" INSTANCE_PREFIX "%ld",
		 (long)getpid());
	if (mkdir(t->dir, 0700) < 0) {
		r = -errno;
		t->dir[0] = '\0';
		return r;
	}
	/* The kernel's dev_t: major << 20 | minor. */
	snprintf(filter, sizeof(filter), "dev == %lu",
		 ((unsigned long)t->major << 20) | t->minor);
	r = instance_write(t, "buffer_size_kb", BUFFER_KB);
	if (r >= 0)
		r = instance_write(t, EVENT "/filter", filter);
	if (r >= 0) {
		snprintf(path, sizeof(path), "%s/trace_pipe", t->dir);
		t->fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		r = t->fd < 0 ? -errno : 0;
	}
	if (r >= 0)
		r = instance_write(t, EVENT "/enable", "1");
	return r;
}

int blocktrace_start(const char *device, struct blocktrace **ret)
{
	_cleanup_(blocktrace_freep) struct blocktrace *t = calloc(1, sizeof(*t));
	char path[PATH_MAX], size[32];
	struct stat st;
	int r;

	if (!t)
		return -ENOMEM;
	t->fd = -1;
	if (stat(device, &st) < 0 || !S_ISBLK(st.st_mode)) {
		log_warning("'%s' is no block device: its writes are not tracked",
			    device);
		return -ENOTBLK;
	}
	t->major = major(st.st_rdev);
	t->minor = minor(st.st_rdev);
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/size", t->major, t->minor);
	r = sysfs_read(path, size, sizeof(size));
	t->size = r < 0 ? 0 : strtoull(size, NULL, 10) * 512;
	t->bits = t->size ? calloc((t->size / BLOCKTRACE_GRANULARITY + 64) / 64,
				   sizeof(uint64_t))
			  : NULL;
	if (!t->bits) {
		log_warning("cannot read the size of '%s': its writes are not tracked",
			    device);
		return r < 0 ? r : -ENOMEM;
	}
	r = tracefs_ready();
	if (r >= 0)
		r = check_format();
	if (r == -EPROTO) {
		log_warning("the kernel's block_bio_queue event prints what this "
			    "runner cannot read: the writes to '%s' are not tracked",
			    device);
		return r;
	}
	if (r >= 0) {
		remove_stale_instances();
		r = instance_make(t);
	}
	if (r < 0) {
		log_warning("cannot trace the writes to '%s' (%s, %s): not tracked",
			    device, TRACEFS, strerror(-r));
		return r;
	}
	r = signals_thread_start(&t->reader, read_trace, t);
	if (r < 0) {
		log_warning("cannot start reading the trace: %s", strerror(-r));
		return r;
	}
	*ret = TAKE_PTR(t);
	return 0;
}

/* The events the kernel lost, over every CPU's buffer of the instance:
 * "overrun" (overwritten unread) and "dropped events" (refused). */
static uint64_t lost_events(const struct blocktrace *t)
{
	static const char *const fields[] = {"overrun", "dropped events"};
	char path[PATH_MAX + 512];
	_cleanup_(closedirp) DIR *d = NULL;
	struct dirent *e;
	uint64_t sum = 0;

	snprintf(path, sizeof(path), "%s/per_cpu", t->dir);
	d = opendir(path);
	while (d && (e = readdir(d))) {
		char line[128];
		_cleanup_fclose_ FILE *f = NULL;

		if (strncmp(e->d_name, "cpu", 3) != 0)
			continue;
		snprintf(path, sizeof(path), "%s/per_cpu/%s/stats", t->dir, e->d_name);
		f = fopen(path, "re");
		while (f && fgets(line, sizeof(line), f))
			for (size_t i = 0; i < 2; i++) {
				size_t len = strlen(fields[i]);

				if (strncmp(line, fields[i], len) == 0 && line[len] == ':')
					sum += strtoull(line + len + 1, NULL, 10);
			}
	}
	return sum;
}

int blocktrace_stop(struct blocktrace *t_, struct written *ret)
{
	_cleanup_(blocktrace_freep) struct blocktrace *t = t_;
	uint64_t blocks = (t->size + BLOCKTRACE_GRANULARITY - 1) / BLOCKTRACE_GRANULARITY;
	int r;

	/* Nothing is written any more: every bio is in the buffer. */
	instance_write(t, EVENT "/enable", "0");
	atomic_store(&t->stopping, true);
	pthread_join(t->reader, NULL);
	if (!ret)
		return 0;
	if (lost_events(t))
		set_unknown(t, "the kernel dropped events (its trace buffer was full)");
	if (t->unknown[0]) {
		log_warning("what the run wrote is not known (%s): the next reset "
			    "is the full one", t->unknown);
		return -ENODATA;
	}
	*ret = (struct written){NULL, 0, 0, 0};
	for (uint64_t b = 0; b < blocks; b++) {
		uint64_t first = b;

		if (!(t->bits[b / 64] & (UINT64_C(1) << (b % 64))))
			continue;
		while (b + 1 < blocks && (t->bits[(b + 1) / 64] & (UINT64_C(1) << ((b + 1) % 64))))
			b++;
		uint64_t start = first * BLOCKTRACE_GRANULARITY;
		uint64_t end = (b + 1) * BLOCKTRACE_GRANULARITY;
		r = written_add(ret, start, (end > t->size ? t->size : end) - start);
		if (r < 0) {
			written_release(ret);
			return log_error_errno(r, "cannot list the written ranges");
		}
	}
	return 0;
}
