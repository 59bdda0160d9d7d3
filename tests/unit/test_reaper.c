/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The reaping parent (lib/reaper.c): the worker's exit status and its
 * death by a signal pass through; an orphan of the worker ends under the
 * reaper, which reaps it at once; a signal sent to the reaper with kill()
 * reaches the worker; SIGKILL of the reaper kills the worker too. */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "reaper.h"

static void sleep_ms(long ms)
{
	struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};

	nanosleep(&t, NULL);
}

/* The parent of PID, from /proc/PID/stat, or -1. */
static pid_t parent_of(pid_t pid)
{
	char path[64], comm[64], state;
	int ppid = -1;

	snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
	FILE *f = fopen(path, "re");
	if (!f)
		return -1;
	if (fscanf(f, "%*d (%63[^)]) %c %d", comm, &state, &ppid) != 3)
		ppid = -1;
	fclose(f);
	return ppid;
}

/* Whether PID is gone (reaped) within MS. */
static int gone_within(pid_t pid, long ms)
{
	for (long t = 0; t < ms; t += 10) {
		if (kill(pid, 0) < 0 && errno == ESRCH)
			return 1;
		sleep_ms(10);
	}
	return 0;
}

/* Forks a process that becomes a reaper and runs WORK in its worker
 * (WORK's return is the worker's exit status); FD gets the worker's
 * messages.  Returns the reaper's pid. */
static pid_t start_reaper(int (*work)(int fd), int *fd)
{
	int p[2];

	assert_int_equal(pipe(p), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(p[0]);
		if (reaper_fork_worker(REAPER_SUBREAPER) < 0)
			_exit(99);
		_exit(work(p[1]));
	}
	close(p[1]);
	*fd = p[0];
	return pid;
}

/* Waits for the reaper PID, which must have exited with CODE. */
static void assert_exited(pid_t pid, int code)
{
	int status;

	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), code);
}

static int exit_three(int fd)
{
	(void)fd;
	return 3;
}

static void test_exit_status_passes_through(void **state)
{
	int fd;
	pid_t pid = start_reaper(exit_three, &fd);

	assert_exited(pid, 3);
	close(fd);
	(void)state;
}

/* The worker's child forks an orphan (as libvirt starts QEMU) and exits.
 * The orphan, while it lives, has the reaper for parent; once it exits
 * it is gone (reaped, not a zombie) while the worker still runs, so the
 * reaper reaped it.  The worker's exit status says whether it was (5:
 * still there after 10 s). */
static int make_orphan(int fd)
{
	int p[2];
	pid_t middle, orphan = 0;

	if (pipe(p) < 0)
		return 1;
	middle = fork();
	if (middle == 0) {
		orphan = fork();
		if (orphan == 0) {
			sleep_ms(300);
			_exit(0);
		}
		if (write(p[1], &orphan, sizeof orphan) != sizeof orphan)
			_exit(1);
		_exit(0);
	}
	waitpid(middle, NULL, 0);
	if (read(p[0], &orphan, sizeof orphan) != sizeof orphan)
		return 1;
	if (write(fd, &orphan, sizeof orphan) != sizeof orphan)
		return 1;
	return gone_within(orphan, 10000) ? 0 : 5;
}

static void test_orphan_reaped_by_reaper(void **state)
{
	int fd;
	pid_t orphan = 0, pid = start_reaper(make_orphan, &fd);

	assert_int_equal(read(fd, &orphan, sizeof orphan), sizeof orphan);
	assert_int_equal(parent_of(orphan), pid);
	assert_exited(pid, 0);
	close(fd);
	(void)state;
}

/* Says it is there, then waits to be killed. */
static int wait_for_signal(int fd)
{
	pid_t self = getpid();

	if (write(fd, &self, sizeof self) != sizeof self)
		return 1;
	for (int i = 0; i < 1000; i++)
		sleep_ms(10);
	return 4;
}

static void test_term_reaches_worker(void **state)
{
	int fd, status;
	pid_t worker = 0, pid = start_reaper(wait_for_signal, &fd);

	assert_int_equal(read(fd, &worker, sizeof worker), sizeof worker);
	assert_int_equal(kill(pid, SIGTERM), 0);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	/* The worker died of it, and so did the reaper. */
	assert_true(WIFSIGNALED(status));
	assert_int_equal(WTERMSIG(status), SIGTERM);
	close(fd);
	(void)state;
}

static void test_kill_of_reaper_kills_worker(void **state)
{
	int fd, status;
	pid_t worker = 0, pid = start_reaper(wait_for_signal, &fd);

	/* The worker ends under this process then: wait for it here. */
	assert_int_equal(prctl(PR_SET_CHILD_SUBREAPER, 1), 0);
	assert_int_equal(read(fd, &worker, sizeof worker), sizeof worker);
	assert_int_equal(kill(pid, SIGKILL), 0);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_int_equal(waitpid(worker, &status, 0), worker);
	assert_true(WIFSIGNALED(status));
	assert_int_equal(WTERMSIG(status), SIGKILL);
	prctl(PR_SET_CHILD_SUBREAPER, 0);
	close(fd);
	(void)state;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exit_status_passes_through),
		cmocka_unit_test(test_orphan_reaped_by_reaper),
		cmocka_unit_test(test_term_reaches_worker),
		cmocka_unit_test(test_kill_of_reaper_kills_worker),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
