/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The watchdog over a program's steps: what a process waits for is
 * described from /proc (its children with their command lines, its
 * threads), and a step past its limit is given up with that reason,
 * once, while a step that ends in time never is. */
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "monotonic.h"
#include "watchdog.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static char given_up[2 * WATCHDOG_TEXT_MAX];
static int n_given_up;

static void record(const char *why, void *data)
{
	(void)data;
	pthread_mutex_lock(&lock);
	snprintf(given_up, sizeof(given_up), "%s", why);
	n_given_up++;
	pthread_mutex_unlock(&lock);
}

static int count(void)
{
	pthread_mutex_lock(&lock);
	int n = n_given_up;
	pthread_mutex_unlock(&lock);
	return n;
}

/* A child that waits (a tool that never returns) is named with its
 * command line, its state and where it waits. */
static void test_describe_child(void **state)
{
	char buf[WATCHDOG_TEXT_MAX / 2], want[64];

	(void)state;
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		execlp("sleep", "sleep", "1000", (char *)NULL);
		_exit(127);
	}
	/* Until the child has become sleep(1), asleep in it. */
	snprintf(want, sizeof(want), "pid %d 'sleep 1000' S in ", (int)pid);
	for (int i = 0; i < 500 && !strstr(watchdog_describe_wait(buf, sizeof(buf)), want); i++)
		usleep(10 * 1000);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	assert_non_null(strstr(buf, want));
	assert_non_null(strstr(buf, "; this process: "));
	/* Gone, it is not described. */
	snprintf(want, sizeof(want), "pid %d ", (int)pid);
	assert_null(strstr(watchdog_describe_wait(buf, sizeof(buf)), want));
	assert_non_null(strstr(buf, "no process it started"));
}

/* With a limit of 2 s: a step marked again and again within it (progress)
 * is never given up; a step left alone is, once, with its name, its limit
 * and what the process waits for, and is no progress from its limit on
 * (what a hardware watchdog's feeding stops at). */
static void test_gives_up_once(void **state)
{
	char what[WATCHDOG_TEXT_MAX];
	unsigned seq;

	(void)state;
	/* What feeds a hardware watchdog: nothing before the start. */
	assert_false(watchdog_progressing());
	assert_int_equal(watchdog_start(2, record, NULL), 0);
	assert_true(watchdog_progressing());
	for (int i = 0; i < 6; i++) {
		watchdog_mark(0, "a step that makes progress %d", i);
		usleep(500 * 1000);
		assert_true(watchdog_progressing());
	}
	assert_int_equal(count(), 0);
	seq = watchdog_current(what, sizeof(what));
	assert_string_equal(what, "a step that makes progress 5");
	/* Idle: nothing is watched, and that is progress. */
	watchdog_idle();
	assert_true(watchdog_current(what, sizeof(what)) != seq);
	assert_string_equal(what, "");
	sleep(3);
	assert_int_equal(count(), 0);
	assert_true(watchdog_progressing());

	double t0 = monotonic_seconds();
	watchdog_step(1, "a step that hangs");
	while (count() == 0 && monotonic_seconds() - t0 < 60)
		usleep(50 * 1000);
	/* Not before its limit: 2 s, plus its 1 s extra. */
	assert_true(monotonic_seconds() - t0 >= 3);
	assert_int_equal(count(), 1);
	/* Past its limit: no progress, until a step is marked again. */
	assert_false(watchdog_progressing());
	pthread_mutex_lock(&lock);
	assert_non_null(strstr(given_up, "'a step that hangs' did not end within 3 s; waiting for: "));
	pthread_mutex_unlock(&lock);
	/* Given up once, not again and again. */
	sleep(2);
	assert_int_equal(count(), 1);
	watchdog_idle();
}

static void test_extra_for_bytes(void **state)
{
	(void)state;
	assert_int_equal(watchdog_extra_for_bytes(0), 0);
	assert_int_equal(watchdog_extra_for_bytes(64ULL << 20), 6);
	assert_int_equal(watchdog_extra_for_bytes(32ULL << 30), 3276);
	/* Capped: a month. */
	assert_int_equal(watchdog_extra_for_bytes(~0ULL), 86400U * 30);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_describe_child),
		cmocka_unit_test(test_gives_up_once),
		cmocka_unit_test(test_extra_for_bytes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
