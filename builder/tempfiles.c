/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "tempfiles.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cleanup.h"
#include "files.h"
#include "command.h"
#include "log.h"
#include "owner.h"
#include "signals.h"

struct tempfile {
	char path[PATH_MAX];
	volatile sig_atomic_t used;
	int is_dir;
	unsigned long seq; /* registration order, for tempfiles_remove_since */
};

static struct tempfile entries[TEMPFILES_MAX];
static unsigned long next_seq = 1;

/* rm -rf PATH with fork and execve, which are async-signal-safe: for the
 * paths a signal handler may remove.  Elsewhere, files_remove_tree. */
static void remove_tree(const char *path)
{
	command_run_from_handler("/bin/rm", (char *const[]){"rm", "-rf", "--", (char *)path, NULL});
}

/* Only async-signal-safe calls: it runs from the signal handler too.
 * Files first, then directories, then trees. */
static void remove_entries(unsigned long since)
{
	for (int pass = 0; pass < 3; pass++)
		for (int i = TEMPFILES_MAX - 1; i >= 0; i--) {
			struct tempfile *t = &entries[i];
			if (!t->used || t->is_dir != pass || t->seq < since)
				continue;
			if (t->is_dir == TEMPFILE_TREE)
				remove_tree(t->path);
			else if (t->is_dir)
				rmdir(t->path);
			else
				unlink(t->path);
			t->used = 0;
		}
}

/* --- libguestfs' socket directory ---------------------------------------- */

#define SOCKDIR_PREFIX "/tmp/libguestfs"
#define SOCKDIR_LEN (sizeof(SOCKDIR_PREFIX) - 1 + 6) /* + XXXXXX */

/* Reads at most LEN - 1 bytes of PATH into BUF, terminated.  Returns
 * the count or -1.  Async-signal-safe. */
static ssize_t read_small(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	return n;
}

/* "/proc/" PID NAME into BUF, without snprintf (not async-signal-safe). */
static void proc_path(char *buf, size_t len, const char *pid, const char *name)
{
	size_t n = 0;
	for (const char *parts[] = {"/proc/", pid, name}, **p = parts; p < parts + 3; p++)
		for (const char *c = *p; *c && n + 1 < len; c++)
			buf[n++] = *c;
	buf[n] = '\0';
}

/* When process PID is a child of SELF whose command line names a
 * libguestfs socket directory (its QEMU: -chardev socket,path=...), that
 * directory into DIR. */
static bool child_sockdir(pid_t self, const char *pid, char *dir)
{
	char path[64], buf[8192];

	proc_path(path, sizeof(path), pid, "/stat");
	if (read_small(path, buf, sizeof(buf)) < 0)
		return false;
	/* "PID (COMM) STATE PPID ...": COMM may hold anything but the last ')'. */
	char *p = strrchr(buf, ')');
	if (!p || p[1] != ' ' || !p[2] || p[3] != ' ')
		return false;
	long ppid = 0;
	for (p += 4; *p >= '0' && *p <= '9'; p++)
		ppid = ppid * 10 + (*p - '0');
	if (ppid != self)
		return false;
	proc_path(path, sizeof(path), pid, "/cmdline");
	ssize_t n = read_small(path, buf, sizeof(buf));
	for (ssize_t i = 0; i < n; i++)
		if (buf[i] == '\0')
			buf[i] = ' ';
	char *at = n > 0 ? strstr(buf, "path=" SOCKDIR_PREFIX) : NULL;
	if (!at)
		return false;
	at += 5;
	for (size_t i = sizeof(SOCKDIR_PREFIX) - 1; i < SOCKDIR_LEN; i++) {
		char c = at[i];
		if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')))
			return false;
	}
	if (at[SOCKDIR_LEN] != '/')
		return false;
	memcpy(dir, at, SOCKDIR_LEN);
	dir[SOCKDIR_LEN] = '\0';
	return true;
}

/* As root, libguestfs keeps a launch's sockets in /tmp/libguestfsXXXXXX
 * whatever its tmpdir is, and only guestfs_close removes it: found in the
 * command line of the handle's QEMU (a child of this process), it goes
 * with the other temporaries.  From the handler: raw directory reads, no
 * stdio, no malloc. */
static void remove_guestfs_sockdirs(void)
{
	char buf[4096], dir[SOCKDIR_LEN + 1];
	pid_t self = getpid();
	long n;
	int proc = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (proc < 0)
		return;
	while ((n = syscall(SYS_getdents64, proc, buf, sizeof(buf))) > 0)
		for (long off = 0; off < n;) {
			struct dirent64 *d = (struct dirent64 *)(buf + off);
			off += d->d_reclen;
			if (d->d_name[0] >= '1' && d->d_name[0] <= '9' &&
			    child_sockdir(self, d->d_name, dir))
				remove_tree(dir);
		}
	close(proc);
}

/* The cleanup the signal policy runs once the tools are dead. */
static void remove_on_signal(void)
{
	remove_entries(0);
}

void tempfiles_remove_on_signal(void)
{
	/* Before QEMU is killed: a dead child's command line is empty. */
	signals_on_signal(remove_guestfs_sockdirs, SIGNALS_BEFORE_KILL);
	signals_on_signal(remove_on_signal, SIGNALS_AFTER_KILL);
}

int tempfiles_add(const char *path, int is_dir)
{
	sigset_t old;
	int r = -ENOSPC;

	if (strlen(path) >= PATH_MAX)
		return -ENAMETOOLONG;
	/* Whatever command registers a temporary wants it gone on a signal. */
	tempfiles_remove_on_signal();
	signals_block(&old);
	for (int i = 0; i < TEMPFILES_MAX; i++)
		if (!entries[i].used) {
			strcpy(entries[i].path, path);
			entries[i].is_dir = is_dir;
			entries[i].seq = next_seq++;
			entries[i].used = 1;
			r = 0;
			break;
		}
	signals_unblock(&old);
	return r;
}

void tempfiles_forget(const char *path)
{
	sigset_t old;

	signals_block(&old);
	for (int i = 0; i < TEMPFILES_MAX; i++)
		if (entries[i].used && strcmp(entries[i].path, path) == 0)
			entries[i].used = 0;
	signals_unblock(&old);
}

void tempfiles_remove_all(void)
{
	tempfiles_remove_since(0);
}

unsigned long tempfiles_mark(void)
{
	return next_seq;
}

void tempfiles_remove_since(unsigned long mark)
{
	sigset_t old;

	signals_block(&old);
	remove_entries(mark);
	signals_unblock(&old);
}

/* --- leftovers of killed builds ------------------------------------------ */

int tempfiles_mkdtemp_owned(char *template)
{
	if (!mkdtemp(template))
		return log_error_errno(-errno, "cannot create '%s'", template);
	int r = tempfiles_add(template, TEMPFILE_TREE);
	if (r < 0) {
		rmdir(template);
		return log_error_code(r, "'%s': too many temporary files", template);
	}
	r = owner_claim(template);
	if (r < 0)
		return log_error_errno(r, "cannot lock '%s/.owner'", template);
	return 0;
}

void tempfiles_reap_owned(const char *dir, const char *pattern)
{
	_cleanup_(closedirp) DIR *d = opendir(dir);
	struct dirent *e;
	char path[PATH_MAX + 256];

	while (d && (e = readdir(d))) {
		if (e->d_type != DT_DIR || fnmatch(pattern, e->d_name, 0) != 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (!owner_abandoned(path))
			continue;
		files_remove_tree(path);
		log_info("removed '%s', left by a build that was killed", path);
	}
}

void tempfiles_tmp_name(const char *path, char *buf, size_t len)
{
	snprintf(buf, len, "%s.tmp%d", path, (int)getpid());
}

void tempfiles_reap_tmp(const char *path)
{
	_cleanup_free_ char *copy = strdup(path), *copy2 = strdup(path);
	char stale[PATH_MAX + 256];
	struct dirent *e;

	if (!copy || !copy2)
		return;
	const char *base = basename(copy2);
	size_t n = strlen(base);
	const char *dir = dirname(copy);
	_cleanup_(closedirp) DIR *d = opendir(dir);
	while (d && (e = readdir(d))) {
		const char *p = e->d_name;
		char *end;
		if (strncmp(p, base, n) != 0 || strncmp(p + n, ".tmp", 4) != 0)
			continue;
		long pid = strtol(p + n + 4, &end, 10);
		/* A live pid may be another build making the same file. */
		if (end == p + n + 4 || *end || pid <= 0 || pid == getpid() ||
		    kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;
		snprintf(stale, sizeof(stale), "%s/%s", dir, p);
		files_remove_tree(stale);
		log_info("removed '%s', left by a build that was killed", stale);
	}
}

static char scratch[64];
static pid_t scratch_owner;

/* At exit of the process that made it, not of a forked child's exit(). */
static void remove_scratch(void)
{
	if (scratch[0] && getpid() == scratch_owner) {
		tempfiles_forget(scratch);
		files_remove_tree(scratch);
	}
}

int tempfiles_scratch(char *buf, size_t len)
{
	static bool at_exit;
	char *dir = scratch;
	struct stat st;

	if (!at_exit)
		at_exit = atexit(remove_scratch) == 0;
	if (!dir[0] || stat(dir, &st) < 0) {
		tempfiles_reap_owned("/tmp", "buildapp-tmp.??????");
		snprintf(dir, sizeof(scratch), "/tmp/buildapp-tmp.XXXXXX");
		int r = tempfiles_mkdtemp_owned(dir);
		if (r < 0) {
			dir[0] = '\0';
			return r;
		}
		scratch_owner = getpid();
	}
	if (strlen(dir) >= len)
		return -ENAMETOOLONG;
	memcpy(buf, dir, strlen(dir) + 1);
	return 0;
}
