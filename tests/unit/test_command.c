/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The one runner (lib/command.c) and the one signal and child policy
 * (lib/signals.c): what a child gets (stdin, environment, its own process
 * group), what comes back (output, a cut, exit status, the killing
 * signal), and that SIGTERM during a tool kills the tool and whatever it
 * started, runs the cleanups and kills the process, or with signals
 * deferred lets the caller go on and die of it later. */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "command.h"
#include "signals.h"

static char dir[] = "/tmp/test-command-XXXXXX";
static char path_buf[256];

static const char *in_dir(const char *name)
{
	snprintf(path_buf, sizeof(path_buf), "%s/%s", dir, name);
	return path_buf;
}

static int setup(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[300];
	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static void test_capture(void **state)
{
	(void)state;
	struct command_opts o = {.out = COMMAND_OUT_CAPTURE};
	struct command_result res;

	assert_int_equal(command_spawn((char *[]){"printf", "a b\\n", NULL}, &o, &res), 0);
	assert_string_equal(res.out, "a b\n");
	assert_int_equal(res.len, 4);
	assert_false(res.cut);
	free(res.out);

	/* Past MAX the rest is read and dropped: the child still exits. */
	o.max = 10;
	assert_int_equal(command_spawn((char *[]){"sh", "-c", "yes | head -c 300000", NULL},
				       &o, &res), 0);
	assert_int_equal(res.len, 10);
	assert_string_equal(res.out, "y\ny\ny\ny\ny\n");
	assert_true(res.cut);
	free(res.out);

	/* Exit statuses and signals come back as they are. */
	o.max = 0;
	assert_int_equal(command_spawn((char *[]){"sh", "-c", "echo out; exit 3", NULL}, &o, &res), 3);
	assert_string_equal(res.out, "out\n");
	free(res.out);
	assert_int_equal(command_spawn((char *[]){"sh", "-c", "kill -9 $$", NULL}, &o, &res), -EINTR);
	assert_int_equal(res.signal, SIGKILL);
	free(res.out);
	assert_int_equal(command_spawn((char *[]){"/nonexistent/tool", NULL}, &o, &res), -ENOENT);

	/* command_check reports and says -EIO; any_status takes any exit. */
	char *out = NULL;
	assert_int_equal(command_check((char *[]){"sh", "-c", "exit 5", NULL}, NULL, NULL), -EIO);
	o.any_status = true;
	assert_int_equal(command_check((char *[]){"sh", "-c", "echo v; exit 5", NULL}, &o, &out), 0);
	assert_string_equal(out, "v\n");
	free(out);
}

static void test_what_the_child_gets(void **state)
{
	(void)state;
	struct command_result res;
	FILE *f = fopen(in_dir("input"), "w");
	assert_non_null(f);
	fputs("from a file\n", f);
	fclose(f);

	struct command_opts o = {.out = COMMAND_OUT_CAPTURE, .stdin_path = in_dir("input")};
	assert_int_equal(command_spawn((char *[]){"cat", NULL}, &o, &res), 0);
	assert_string_equal(res.out, "from a file\n");
	free(res.out);
	/* Without one, /dev/null. */
	o.stdin_path = NULL;
	assert_int_equal(command_spawn((char *[]){"cat", NULL}, &o, &res), 0);
	assert_string_equal(res.out, "");
	free(res.out);

	/* A whole environment, or ours with a variable replaced. */
	o.env = (char *[]){"ONLY=1", NULL};
	assert_int_equal(command_spawn((char *[]){"/usr/bin/env", NULL}, &o, &res), 0);
	assert_string_equal(res.out, "ONLY=1\n");
	free(res.out);
	setenv("TEST_COMMAND_VAR", "ours", 1);
	o.env = NULL;
	o.env_extra = (char *[]){"TEST_COMMAND_VAR=theirs", NULL};
	assert_int_equal(command_spawn((char *[]){"sh", "-c", "echo $TEST_COMMAND_VAR; env | grep -c ^TEST_COMMAND_VAR=", NULL},
				       &o, &res), 0);
	assert_string_equal(res.out, "theirs\n1\n");
	free(res.out);

	/* It leads a process group of its own: field 5 of its stat is its
	 * pid (field 1). */
	o.env_extra = NULL;
	assert_int_equal(command_spawn((char *[]){"cat", "/proc/self/stat", NULL}, &o, &res), 0);
	long pid, pgrp;
	char *p = strrchr(res.out, ')');
	assert_non_null(p);
	assert_int_equal(sscanf(res.out, "%ld", &pid), 1);
	assert_int_equal(sscanf(p + 2, "%*c %*d %ld", &pgrp), 1);
	assert_int_equal(pid, pgrp);
	free(res.out);

	/* Quiet tools' stdout is gone. */
	o.out = COMMAND_OUT_DISCARD;
	assert_int_equal(command_spawn((char *[]){"echo", "x", NULL}, &o, NULL), 0);
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* At the timeout the whole group goes (the sleep is the shell's child),
 * what it printed before is kept. */
static void test_timeout(void **state)
{
	(void)state;
	struct command_opts o = {.out = COMMAND_OUT_CAPTURE, .timeout = 1};
	struct command_result res;
	char *const argv[] = {"sh", "-c", "echo started; sleep 30 & wait", NULL};

	for (int capture = 0; capture < 2; capture++) {
		o.out = capture ? COMMAND_OUT_CAPTURE : COMMAND_OUT_DISCARD;
		double t0 = now();
		assert_int_equal(command_spawn(argv, &o, &res), -ETIME);
		assert_true(res.timed_out);
		assert_true(now() - t0 < 5);
		if (capture)
			assert_string_equal(res.out, "started\n");
		free(res.out);
	}
	assert_int_equal(command_check(argv, &o, NULL), -EIO);
	/* Done before the timeout: as without one. */
	assert_int_equal(command_spawn((char *[]){"sh", "-c", "echo x; exit 4", NULL}, &o, &res), 4);
	assert_false(res.timed_out);
	free(res.out);
}

/* Waits (at most 20 s) for FILE to hold a pid. */
static pid_t read_pid(const char *file)
{
	for (int i = 0; i < 200; i++) {
		FILE *f = fopen(file, "r");
		long pid = 0;
		if (f) {
			int n = fscanf(f, "%ld", &pid);
			fclose(f);
			if (n == 1 && pid > 0)
				return (pid_t)pid;
		}
		usleep(100000);
	}
	fail_msg("no pid in %s", file);
	return -1;
}

/* PID is gone (or a zombie nobody reaped yet): not running. */
static bool gone(pid_t pid)
{
	char path[64], buf[512];
	for (int i = 0; i < 100; i++) {
		snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
		FILE *f = fopen(path, "r");
		if (!f)
			return true;
		size_t n = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
		buf[n] = '\0';
		char *p = strrchr(buf, ')');
		if (p && p[2] == 'Z')
			return true;
		usleep(100000);
	}
	return false;
}

static char marker[256];

static void remove_marker(void)
{
	unlink(marker);
}

/* The grandchild: a tool's own child (as supermin's tar, qemu-img's). */
static char *const sleeper[] = {"sh", "-c", "sleep 60 & echo $! > \"$PIDFILE\"; wait", NULL};

/* In a child: runs the sleeper with a cleanup that removes the marker,
 * signals deferred or not; SIGTERM comes when the sleep is running.  The
 * child must die of SIGTERM, the tool's own child with it, and the
 * cleanup must have run. */
static void sigterm_during_tool(bool deferred)
{
	char pidfile[256], env[300];
	snprintf(pidfile, sizeof(pidfile), "%s", in_dir(deferred ? "pid2" : "pid1"));
	snprintf(marker, sizeof(marker), "%s", in_dir(deferred ? "marker2" : "marker1"));
	snprintf(env, sizeof(env), "PIDFILE=%s", pidfile);
	close(open(marker, O_WRONLY | O_CREAT, 0644));

	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		if (deferred)
			signals_defer();
		signals_on_signal(remove_marker, SIGNALS_AFTER_KILL);
		int r = command_run(sleeper, (char *[]){env, NULL}, 0);
		if (!deferred)
			_exit(0); /* the signal should have killed us first */
		/* The tool was stopped, we were not: say so, then die of it
		 * after the cleanups (the marker still there until then). */
		if (r != -EINTR || signals_pending() != SIGTERM || access(marker, F_OK) < 0)
			_exit(1);
		signals_reraise();
		_exit(2);
	}
	pid_t grandchild = read_pid(pidfile);
	kill(pid, SIGTERM);
	int status;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	if (WIFEXITED(status))
		fail_msg("exited %d instead of dying of SIGTERM", WEXITSTATUS(status));
	assert_int_equal(WTERMSIG(status), SIGTERM);
	assert_true(gone(grandchild));
	assert_int_equal(access(marker, F_OK), -1);
}

static void test_signal_kills_tool_and_dies(void **state)
{
	(void)state;
	sigterm_during_tool(false);
}

static void test_deferred_signal(void **state)
{
	(void)state;
	sigterm_during_tool(true);
}

/* A child some library started (libguestfs' QEMU), registered, is killed
 * when the process exits. */
static void test_exit_kills_children(void **state)
{
	(void)state;
	char pidfile[256];
	snprintf(pidfile, sizeof(pidfile), "%s", in_dir("pid3"));

	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		pid_t s = fork();
		if (s == 0) {
			execlp("sleep", "sleep", "60", (char *)NULL);
			_exit(127);
		}
		FILE *f = fopen(pidfile, "w");
		fprintf(f, "%d\n", (int)s);
		fclose(f);
		signals_add_child(s, false);
		exit(0);
	}
	int status;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_true(gone(read_pid(pidfile)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_capture),
		cmocka_unit_test(test_what_the_child_gets),
		cmocka_unit_test(test_timeout),
		cmocka_unit_test(test_signal_kills_tool_and_dies),
		cmocka_unit_test(test_deferred_signal),
		cmocka_unit_test(test_exit_kills_children),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
