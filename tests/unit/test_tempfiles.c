/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What a killed build leaves is removed by the next one only when its
 * owner is dead: owned directories by their .owner lock, NAME.tmpPID by
 * the pid. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tempfiles.h"

static char top[] = "/tmp/test-tempfiles.XXXXXX";

static bool exists(const char *name)
{
	char path[256];
	snprintf(path, sizeof(path), "%s/%s", top, name);
	return access(path, F_OK) == 0;
}

static void make(const char *name, bool dir)
{
	char path[256];
	snprintf(path, sizeof(path), "%s/%s", top, name);
	if (dir)
		assert_int_equal(mkdir(path, 0755), 0);
	else
		close(open(path, O_WRONLY | O_CREAT, 0644));
}

/* A pid no process has: a child that has been reaped. */
static pid_t dead_pid(void)
{
	pid_t pid = fork();
	if (pid == 0)
		_exit(0);
	waitpid(pid, NULL, 0);
	return pid;
}

static void test_reap_owned(void **state)
{
	char mine[300];

	(void)state;
	/* Ours, locked for as long as this process lives. */
	snprintf(mine, sizeof(mine), "%s/.a.kit-XXXXXX", top);
	assert_int_equal(tempfiles_mkdtemp_owned(mine), 0);
	/* A killed build's: .owner there, no lock held. */
	make(".b.kit-BBBBBB", true);
	make(".b.kit-BBBBBB/.owner", false);
	make(".b.kit-BBBBBB/initrd", false);
	/* Not made by a build that records its owner: left alone. */
	make(".c.kit-CCCCCC", true);
	/* Not a work directory. */
	make("other", true);
	make("other/.owner", false);

	tempfiles_reap_owned(top, ".*.kit-??????");
	assert_true(access(mine, F_OK) == 0);
	assert_false(exists(".b.kit-BBBBBB"));
	assert_true(exists(".c.kit-CCCCCC"));
	assert_true(exists("other"));
	tempfiles_remove_all();
	assert_false(access(mine, F_OK) == 0);
}

static void test_reap_tmp(void **state)
{
	char name[64], path[256];

	(void)state;
	snprintf(name, sizeof(name), "disk.img.tmp%d", (int)dead_pid());
	make(name, false);
	make("disk.img.tmp1", false); /* pid 1 is alive */
	make("disk.img.tmpx", false);
	make("kit-1234.tmp1", true);
	char dead[64], inner[80];
	snprintf(dead, sizeof(dead), "kit-1234.tmp%d", (int)dead_pid());
	make(dead, true);
	snprintf(inner, sizeof(inner), "%s/vmlinuz", dead);
	make(inner, false);

	snprintf(path, sizeof(path), "%s/disk.img", top);
	tempfiles_reap_tmp(path);
	assert_false(exists(name));
	assert_true(exists("disk.img.tmp1"));
	assert_true(exists("disk.img.tmpx"));
	snprintf(path, sizeof(path), "%s/kit-1234", top);
	tempfiles_reap_tmp(path);
	assert_true(exists("kit-1234.tmp1"));
	/* the dead build's directory, with what it held */
	assert_false(exists(inner));
	assert_false(exists(dead));

	char buf[256];
	tempfiles_tmp_name("/x/disk.img", buf, sizeof(buf));
	snprintf(path, sizeof(path), "/x/disk.img.tmp%d", (int)getpid());
	assert_string_equal(buf, path);
}

static int setup(void **state)
{
	(void)state;
	return mkdtemp(top) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[300];
	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
	return system(cmd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reap_owned),
		cmocka_unit_test(test_reap_tmp),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
