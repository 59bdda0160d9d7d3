/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "watchdog.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cleanup.h"
#include "log.h"
#include "monotonic.h"
#include "signals.h"
#include "sysfs.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
	char what[WATCHDOG_TEXT_MAX / 2];
	double started; /* monotonic seconds; 0: no step under way */
	unsigned extra; /* seconds beyond the common limit */
	bool reported;  /* said past half its limit */
	bool given_up;
	unsigned seq;   /* counts the steps marked */
} step;
static unsigned common_limit;
static bool started;
static void (*on_mark_fn)(const char *what, void *data);
static void *on_mark_data;

void watchdog_on_mark(void (*fn)(const char *what, void *data), void *data)
{
	pthread_mutex_lock(&lock);
	on_mark_fn = fn;
	on_mark_data = data;
	pthread_mutex_unlock(&lock);
}

/* Calls the on_mark function, outside the lock, with the step under way. */
static void marked(void)
{
	char what[sizeof(step.what)];
	void (*fn)(const char *, void *);
	void *data;

	pthread_mutex_lock(&lock);
	fn = on_mark_fn;
	data = on_mark_data;
	snprintf(what, sizeof(what), "%s", step.started > 0 ? step.what : "");
	pthread_mutex_unlock(&lock);
	if (fn)
		fn(what, data);
}
static watchdog_give_up_fn *give_up_fn;
static void *give_up_data;

static void vmark(unsigned extra, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));
static void vmark(unsigned extra, const char *fmt, va_list ap)
{
	pthread_mutex_lock(&lock);
	vsnprintf(step.what, sizeof(step.what), fmt, ap);
	step.started = monotonic_seconds();
	step.extra = extra;
	step.reported = step.given_up = false;
	step.seq++;
	pthread_mutex_unlock(&lock);
	marked();
}

void watchdog_mark(unsigned extra, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmark(extra, fmt, ap);
	va_end(ap);
}

void watchdog_step(unsigned extra, const char *fmt, ...)
{
	char what[sizeof(step.what)];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	log_info("%s", what);
	watchdog_mark(extra, "%s", what);
}

unsigned watchdog_extra_for_bytes(unsigned long long bytes)
{
	unsigned long long s = bytes / (10ULL << 20);
	return s > 86400ULL * 30 ? 86400U * 30 : (unsigned)s;
}

void watchdog_idle(void)
{
	pthread_mutex_lock(&lock);
	step.started = 0;
	step.seq++;
	pthread_mutex_unlock(&lock);
	marked();
}

bool watchdog_progressing(void)
{
	bool ok;

	pthread_mutex_lock(&lock);
	ok = started && (step.started <= 0 ||
			 (!step.given_up &&
			  monotonic_seconds() - step.started < common_limit + step.extra));
	pthread_mutex_unlock(&lock);
	return ok;
}

unsigned watchdog_current(char *buf, size_t len)
{
	unsigned seq;

	pthread_mutex_lock(&lock);
	snprintf(buf, len, "%s", step.started > 0 ? step.what : "");
	seq = step.seq;
	pthread_mutex_unlock(&lock);
	return seq;
}

/* --- what this process waits for ------------------------------------ */

/* The state letter and parent of /proc/.../stat at PATH (the fields
 * after the command's closing parenthesis: it may hold blanks). */
static int read_stat(const char *path, char *ret_state, pid_t *ret_ppid)
{
	char buf[512];
	int ppid;

	if (sysfs_read(path, buf, sizeof(buf)) < 0)
		return -ENOENT;
	const char *close = strrchr(buf, ')');
	if (!close || sscanf(close + 1, " %c %d", ret_state, &ppid) != 2)
		return -EBADMSG;
	*ret_ppid = ppid;
	return 0;
}

/* The kernel function DIR's task sleeps in ("0" when it runs). */
static const char *read_wchan(const char *dir, char *buf, size_t len)
{
	char path[128];

	snprintf(path, sizeof(path), "%s/wchan", dir);
	if (sysfs_read(path, buf, len) < 0 || !buf[0])
		snprintf(buf, len, "?");
	else if (strcmp(buf, "0") == 0)
		snprintf(buf, len, "running");
	return buf;
}

/* PID's command line, its arguments joined by blanks, in BUF. */
static const char *read_cmdline(pid_t pid, char *buf, size_t len)
{
	char path[64];
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/cmdline", (int)pid);
	_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC);
	n = fd < 0 ? -1 : read(fd, buf, len - 1);
	if (n <= 0) {
		snprintf(buf, len, "?");
		return buf;
	}
	buf[n] = '\0';
	while (n > 0 && buf[n - 1] == '\0')
		n--;
	for (ssize_t i = 0; i < n; i++)
		if (buf[i] == '\0' || !isprint((unsigned char)buf[i]))
			buf[i] = ' ';
	buf[n] = '\0';
	return buf;
}

static void append(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void append(char *buf, size_t len, const char *fmt, ...)
{
	size_t used = strlen(buf);
	va_list ap;

	if (used + 1 >= len)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + used, len - used, fmt, ap);
	va_end(ap);
}

static void describe_threads(char *buf, size_t len)
{
	_cleanup_(closedirp) DIR *d = opendir("/proc/self/task");
	pid_t self = gettid();
	struct dirent *e;

	while (d && (e = readdir(d))) {
		char dir[64], path[96], wchan[64], state;
		pid_t tid = (pid_t)atoi(e->d_name), ppid;

		if (tid <= 0 || tid == self)
			continue;
		snprintf(dir, sizeof(dir), "/proc/self/task/%d", (int)tid);
		snprintf(path, sizeof(path), "%s/stat", dir);
		if (read_stat(path, &state, &ppid) < 0)
			continue;
		append(buf, len, "%sthread %d %c in %s", buf[0] ? "; " : "", (int)tid, state,
		       read_wchan(dir, wchan, sizeof(wchan)));
	}
}

#define PROCS_MAX 4096

/* Whether PID's chain of parents leads to this process. */
static bool is_descendant(pid_t pid)
{
	for (int depth = 0; pid > 1 && depth < 64; depth++) {
		char path[64], state;
		pid_t ppid;
		snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
		if (read_stat(path, &state, &ppid) < 0)
			return false;
		if (ppid == getpid())
			return true;
		pid = ppid;
	}
	return false;
}

/* Each process whose chain of parents leads to this one. */
static void describe_children(char *buf, size_t len)
{
	_cleanup_(closedirp) DIR *d = opendir("/proc");
	_cleanup_free_ pid_t *pids = calloc(PROCS_MAX, sizeof(*pids));
	_cleanup_free_ pid_t *parents = calloc(PROCS_MAX, sizeof(*parents));
	_cleanup_free_ bool *ours = calloc(PROCS_MAX, sizeof(*ours));
	size_t n = 0;
	struct dirent *e;

	if (!pids || !parents || !ours)
		return;
	while (d && n < PROCS_MAX && (e = readdir(d))) {
		char path[64], state;
		pid_t pid = (pid_t)atoi(e->d_name);

		snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
		if (pid > 0 && read_stat(path, &state, &parents[n]) == 0) {
			pids[n] = pid;
			ours[n] = false;
			n++;
		}
	}
	/* Descendants, to a fixed point: a child of a descendant is one. */
	for (bool more = true; more;) {
		more = false;
		for (size_t i = 0; i < n; i++) {
			bool parent_ours = parents[i] == getpid();
			for (size_t j = 0; !parent_ours && j < n; j++)
				parent_ours = ours[j] && pids[j] == parents[i];
			if (parent_ours && !ours[i])
				ours[i] = more = true;
		}
	}
	for (size_t i = 0; i < n; i++) {
		char dir[64], path[96], wchan[64], cmd[160], state;
		pid_t ppid;

		snprintf(dir, sizeof(dir), "/proc/%d", (int)pids[i]);
		snprintf(path, sizeof(path), "%s/stat", dir);
		if (!ours[i] || read_stat(path, &state, &ppid) < 0)
			continue;
		append(buf, len, "%spid %d '%s' %c in %s", buf[0] ? "; " : "", (int)pids[i],
		       read_cmdline(pids[i], cmd, sizeof(cmd)),
		       state, read_wchan(dir, wchan, sizeof(wchan)));
	}
}

const char *watchdog_describe_wait(char *buf, size_t len)
{
	char threads[WATCHDOG_TEXT_MAX / 2] = "";

	buf[0] = '\0';
	describe_children(buf, len);
	if (!buf[0])
		append(buf, len, "no process it started");
	describe_threads(threads, sizeof(threads));
	append(buf, len, "; this process: %s", threads[0] ? threads : "no other thread");
	return buf;
}

/* Copies the file PATH into F under a heading, indented. */
static void copy_indented(FILE *f, const char *heading, const char *path)
{
	_cleanup_fclose_ FILE *in = fopen(path, "re");
	char line[512];

	fprintf(f, "  %s:\n", heading);
	if (!in) {
		fprintf(f, "    (%s: %s)\n", path, strerror(errno));
		return;
	}
	while (fgets(line, sizeof(line), in))
		fprintf(f, "    %s%s", line, strchr(line, '\n') ? "" : "\n");
}

void watchdog_write_detail(FILE *f)
{
	_cleanup_(closedirp) DIR *procs = opendir("/proc");
	_cleanup_(closedirp) DIR *tasks = opendir("/proc/self/task");
	struct dirent *e;

	/* Every process: what waits on what is often not a child of ours
	 * (QEMU is its own session's, reaped by PID 1). */
	fprintf(f, "processes (pid ppid state wait command):\n");
	while (procs && (e = readdir(procs))) {
		char dir[64], path[96], wchan[64], cmd[200], state;
		pid_t pid = (pid_t)atoi(e->d_name), ppid;

		snprintf(dir, sizeof(dir), "/proc/%d", (int)pid);
		snprintf(path, sizeof(path), "%s/stat", dir);
		if (pid <= 0 || read_stat(path, &state, &ppid) < 0)
			continue;
		fprintf(f, "  %d %d %c %s %s\n", (int)pid, (int)ppid, state,
			read_wchan(dir, wchan, sizeof(wchan)), read_cmdline(pid, cmd, sizeof(cmd)));
	}
	/* This process's threads and the processes it started, with their
	 * kernel stacks: where each of them waits. */
	fprintf(f, "this process's threads:\n");
	while (tasks && (e = readdir(tasks))) {
		char path[300], heading[300];
		if (e->d_name[0] == '.')
			continue;
		snprintf(heading, sizeof(heading), "thread %s, kernel stack", e->d_name);
		snprintf(path, sizeof(path), "/proc/self/task/%s/stack", e->d_name);
		copy_indented(f, heading, path);
		snprintf(heading, sizeof(heading), "thread %s, status", e->d_name);
		snprintf(path, sizeof(path), "/proc/self/task/%s/status", e->d_name);
		copy_indented(f, heading, path);
	}
	if (procs) {
		rewinddir(procs);
		fprintf(f, "the processes it started:\n");
		while ((e = readdir(procs))) {
			pid_t pid = (pid_t)atoi(e->d_name);
			char path[96], heading[64];
			if (pid <= 0 || !is_descendant(pid))
				continue;
			snprintf(heading, sizeof(heading), "pid %d, kernel stack", (int)pid);
			snprintf(path, sizeof(path), "/proc/%d/stack", (int)pid);
			copy_indented(f, heading, path);
		}
	}
}

/* --- the thread ------------------------------------------------------ */

#define WATCHDOG_POLL_SECONDS 1

static void *watch(void *arg)
{
	(void)arg;
	for (;;) {
		char what[sizeof(step.what)], wait[WATCHDOG_TEXT_MAX / 2],
			why[sizeof(what) + sizeof(wait) + 64];
		bool report = false, over = false;
		double took = 0;
		unsigned limit = 0;

		sleep(WATCHDOG_POLL_SECONDS);
		pthread_mutex_lock(&lock);
		if (step.started > 0 && !step.given_up) {
			limit = common_limit + step.extra;
			took = monotonic_seconds() - step.started;
			over = took >= limit;
			report = !over && !step.reported && took >= limit / 2.0;
			step.reported |= report;
			step.given_up |= over;
			snprintf(what, sizeof(what), "%s", step.what);
		}
		pthread_mutex_unlock(&lock);
		if (!report && !over)
			continue;
		watchdog_describe_wait(wait, sizeof(wait));
		if (report) {
			log_warning("still at '%s' after %.0f s (half its limit of %u s); "
				    "waiting for: %s", what, took, limit, wait);
			continue;
		}
		snprintf(why, sizeof(why), "'%s' did not end within %u s; waiting for: %s",
			 what, limit, wait);
		log_error("%s", why);
		give_up_fn(why, give_up_data);
	}
	return NULL;
}

int watchdog_start(unsigned limit, watchdog_give_up_fn *give_up, void *data)
{
	int r;

	if (started)
		return 0;
	common_limit = limit;
	give_up_fn = give_up;
	give_up_data = data;
	r = signals_thread_start(NULL, watch, NULL);
	if (r < 0)
		return r;
	pthread_mutex_lock(&lock);
	started = true;
	pthread_mutex_unlock(&lock);
	return 0;
}
