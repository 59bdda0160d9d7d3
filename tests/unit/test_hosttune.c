/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of the host settings' refusals: a setting the device refuses
 * is told once, with its cause, as an error under strict = yes and as a
 * warning (recorded) under strict = no.  The disk does not exist, so
 * nothing of this host is changed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hosttune.h"
#include "log.h"

#define NO_DISK "buildapp-no-such-disk"

static unsigned count_lines(const char *s)
{
	unsigned n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

static struct profile_host keep_all(void)
{
	return (struct profile_host){
		.disk = NO_DISK,
		.write_cache = AXIS_BIT(WRITE_CACHE_KEEP),
		.page_cache = PAGE_CACHE_KEEP,
		.dirty_ratio = -1,
		.dirty_background_ratio = -1,
		.dirty_expire_centisecs = -1,
		.dirty_writeback_centisecs = -1,
		.scheduler = SCHEDULER_KEEP,
		.read_ahead_kb = -1,
	};
}

/* The vm.dirty_* settings hosttune can change, which a restore after an
 * early refusal once wrote 0 into: read before, compared (and put back)
 * after, so a failing test leaves the machine as it found it. */
static const char *const vm_names[] = {"dirty_ratio", "dirty_background_ratio",
				       "dirty_expire_centisecs", "dirty_writeback_centisecs"};
#define N_VM (sizeof(vm_names) / sizeof(vm_names[0]))

static void read_vm(char values[N_VM][16])
{
	for (size_t i = 0; i < N_VM; i++) {
		char path[64];
		snprintf(path, sizeof(path), "/proc/sys/vm/%s", vm_names[i]);
		FILE *f = fopen(path, "r");
		values[i][0] = '\0';
		if (f && !fgets(values[i], 16, f))
			values[i][0] = '\0';
		if (f)
			fclose(f);
	}
}

static void check_vm_kept(char before[N_VM][16])
{
	char now[N_VM][16];

	read_vm(now);
	for (size_t i = 0; i < N_VM; i++) {
		if (strcmp(before[i], now[i]) == 0)
			continue;
		char path[64];
		snprintf(path, sizeof(path), "/proc/sys/vm/%s", vm_names[i]);
		FILE *f = fopen(path, "w");
		if (f)
			fputs(before[i], f), fclose(f);
		fail_msg("vm.%s changed: %s, was %s", vm_names[i], now[i], before[i]);
	}
}

/* Applies the defaults but [host] scheduler = none and STRICT to the
 * missing disk; the messages it printed into LOG. */
static int apply(bool strict, struct hosttune *t, char **log)
{
	struct profile_host host = keep_all();
	char vm[N_VM][16];
	size_t size;
	FILE *f = open_memstream(log, &size);
	int r;

	assert_non_null(f);
	host.scheduler = SCHEDULER_NONE;
	host.strict = strict;
	read_vm(vm);
	log_set_stream(f);
	r = hosttune_apply(&host, NO_DISK, t);
	log_set_stream(NULL);
	fclose(f);
	check_vm_kept(vm);
	print_message("%s", *log);
	return r;
}

/* The write cache, read first even when kept, is refused: one error, its
 * cause the tool's output, and no other message (no restore error). */
static void test_refused_strict(void **state)
{
	struct hosttune t;
	char *log = NULL;

	(void)state;
	assert_true(apply(true, &t, &log) < 0);
	assert_int_equal(count_lines(log), 1);
	assert_non_null(strstr(log, "error: reading the disk write cache: refused "
				    "(strict = yes): /dev/" NO_DISK ": cannot read"));
	free(log);
}

/* Under strict = no each refusal is one warning with its cause, recorded,
 * and none is an error first. */
static void test_refused_lenient(void **state)
{
	struct hosttune t;
	char *log = NULL;

	(void)state;
	assert_int_equal(apply(false, &t, &log), 0);
	assert_int_equal(count_lines(log), 2);
	assert_null(strstr(log, "error:"));
	assert_non_null(strstr(log, "warning: reading the disk write cache: refused, "
				    "continuing (strict = no): /dev/" NO_DISK ": cannot read"));
	assert_non_null(strstr(log, "warning: scheduler none: refused, continuing "
				    "(strict = no): No such file or directory\n"));
	assert_int_equal(t.n_warnings, 2);
	assert_string_equal(t.warnings[1],
			    "scheduler none: refused: No such file or directory");
	free(log);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_refused_strict),
		cmocka_unit_test(test_refused_lenient),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
