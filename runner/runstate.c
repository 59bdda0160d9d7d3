/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "runstate.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <glob.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cleanup.h"
#include "files.h"
#include "log.h"
#include "owner.h"
#include "sysfs.h"
#include "tool.h"

#define LOOP_RECORD "loop"

/* The write end of the guardian's pipe, or -1 without a guardian. */
static int guard_fd = -1;

int runstate_create(char *dir)
{
	if (!mkdtemp(dir))
		return log_error_errno(-errno, "mkdtemp");
	int r = owner_claim(dir);
	if (r < 0)
		return log_error_errno(r, "cannot lock '%s/.owner'", dir);
	/* The guardian waits for this directory's owner to let go. */
	if (guard_fd >= 0 && dprintf(guard_fd, "%s\n", dir) < 0)
		log_warning("cannot tell the guardian of '%s': %s", dir, strerror(errno));
	return 0;
}

int runstate_record_loop(const char *dir, const char *dev, const char *image)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/" LOOP_RECORD, dir);
	_cleanup_fclose_ FILE *f = fopen(path, "we");
	if (!f || fprintf(f, "%s\n%s\n", dev, image) < 0 || fflush(f) != 0)
		return log_error_errno(-errno, "cannot write '%s'", path);
	return 0;
}

/* Whether process PID's command line holds TEXT: a pid file's pid may
 * since be another process's. */
static bool cmdline_holds(long pid, const char *text)
{
	char path[64], buf[65536];

	snprintf(path, sizeof(path), "/proc/%ld/cmdline", pid);
	_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	if (n <= 0)
		return false;
	for (ssize_t i = 0; i < n; i++)
		if (buf[i] == '\0')
			buf[i] = ' ';
	buf[n] = '\0';
	return strstr(buf, text) != NULL;
}

static void kill_guests(const char *dir)
{
	char pattern[PATH_MAX];
	glob_t g;

	snprintf(pattern, sizeof(pattern), "%s/run/qemu/*.pid", dir);
	if (glob(pattern, 0, NULL, &g) != 0)
		return;
	for (size_t i = 0; i < g.gl_pathc; i++) {
		char text[32];
		if (sysfs_read(g.gl_pathv[i], text, sizeof(text)) < 0)
			continue;
		long pid = strtol(text, NULL, 10);
		if (pid <= 1 || !cmdline_holds(pid, dir))
			continue;
		kill((pid_t)pid, SIGKILL);
		/* Gone before its disk is unmounted and its loop detached. */
		for (int t = 0; t < 50 && kill((pid_t)pid, 0) == 0; t++)
			usleep(100 * 1000);
		log_info("killed QEMU (pid %ld) of a sweep that was killed (%s)",
			 pid, dir);
	}
	globfree(&g);
}

static void unmount_under(const char *dir)
{
	_cleanup_fclose_ FILE *f = fopen("/proc/self/mounts", "re");
	char line[4096], src[PATH_MAX], mnt[PATH_MAX];
	size_t n = strlen(dir);

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "%4095s %4095s", src, mnt) == 2 &&
		    strncmp(mnt, dir, n) == 0 && mnt[n] == '/') {
			if (umount(mnt) < 0 && umount2(mnt, MNT_DETACH) < 0)
				log_warning("cannot unmount '%s': %s", mnt,
					    strerror(errno));
			else
				log_info("unmounted '%s' (%s) of a sweep that was killed",
					 mnt, src);
		}
}

static void detach_loop(const char *dir)
{
	char path[PATH_MAX], dev[PATH_MAX], image[PATH_MAX], backing[PATH_MAX];

	snprintf(path, sizeof(path), "%s/" LOOP_RECORD, dir);
	_cleanup_fclose_ FILE *f = fopen(path, "re");
	if (!f || !fgets(dev, sizeof(dev), f) || !fgets(image, sizeof(image), f))
		return;
	dev[strcspn(dev, "\n")] = '\0';
	image[strcspn(image, "\n")] = '\0';
	const char *name = strrchr(dev, '/');
	if (!name || strncmp(name + 1, "loop", 4) != 0)
		return;
	/* Detached since, and maybe attached again to another file: not ours. */
	snprintf(path, sizeof(path), "/sys/block/%s/loop/backing_file", name + 1);
	if (sysfs_read(path, backing, sizeof(backing)) < 0 || strcmp(backing, image) != 0)
		return;
	char *argv[] = {"losetup", "-d", dev, NULL};
	if (tool_run(argv, NULL, NULL) == 0)
		log_info("detached '%s' (%s) of a sweep that was killed", dev, image);
}

void runstate_reap(void)
{
	glob_t g;

	if (glob("/tmp/buildapp-run-??????", GLOB_ONLYDIR, NULL, &g) != 0)
		return;
	for (size_t i = 0; i < g.gl_pathc; i++) {
		const char *dir = g.gl_pathv[i];
		if (!owner_abandoned(dir))
			continue;
		kill_guests(dir);
		unmount_under(dir);
		detach_loop(dir);
		int r = files_remove_tree(dir);
		if (r < 0)
			log_warning("cannot remove '%s': %s", dir, strerror(-r));
		else
			log_info("removed '%s', left by a sweep that was killed", dir);
	}
	globfree(&g);
}

static void wake(int sig)
{
	(void)sig;
}

int runstate_guard(void)
{
	int p[2];

	/* Close-on-exec: QEMU and the tools never hold the write end. */
	if (pipe2(p, O_CLOEXEC) < 0) {
		int r = -errno;
		log_warning("no guardian for this sweep: pipe: %s", strerror(-r));
		return r;
	}
	pid_t pid = fork();
	if (pid < 0) {
		int r = -errno;
		close(p[0]);
		close(p[1]);
		log_warning("no guardian for this sweep: fork: %s", strerror(-r));
		return r;
	}
	if (pid > 0) {
		close(p[0]);
		guard_fd = p[1];
		return 0; /* p[1] stays open here and in every fork */
	}
	close(p[1]);
	if (dup2(p[0], 3) < 0)
		_exit(1);
	close_range(4, ~0U, 0);
	signal(SIGINT, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	prctl(PR_SET_NAME, "buildapp-guard");
	/* The state directories the sweep made, one a line; end of file:
	 * the last holder of the write end is gone. */
	char dirs[4096];
	size_t len = 0;
	for (;;) {
		ssize_t n = read(3, dirs + len, sizeof(dirs) - 1 - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
		if (len == sizeof(dirs) - 1)
			len = 0; /* not a sweep's: start over */
	}
	dirs[len] = '\0';
	/* A dying process drops its pipe before its lock, maybe: wait
	 * (bounded) until each directory's owner has let go, or reaping
	 * would take it for a live sweep's and leave it. */
	struct sigaction wake_up = {.sa_handler = wake}; /* no SA_RESTART */
	sigaction(SIGALRM, &wake_up, NULL);
	for (char *save = NULL, *dir = strtok_r(dirs, "\n", &save); dir;
	     dir = strtok_r(NULL, "\n", &save)) {
		char path[PATH_MAX];
		snprintf(path, sizeof(path), "%s/.owner", dir);
		int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
		if (fd < 0)
			continue; /* removed by its sweep */
		alarm(10);
		flock(fd, LOCK_SH);
		alarm(0);
		close(fd);
	}
	runstate_reap();
	_exit(0);
}

