/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The hardware watchdog's record (what the boot after a reset reads) and
 * the driver's boot status: a record written is read back whole, a file
 * without its "armed" line is not a record, and bootstatus's
 * WDIOF_CARDRESET bit is what says the watchdog reset the machine.  Arming needs a watchdog
 * device: tests/slow/hw-watchdog.sh. */
#include <errno.h>
#include <linux/watchdog.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "hwwatchdog.h"
#include "testfile.h"

static void test_record_round_trip(void **state)
{
	char dir[] = "/tmp/test-hwwatchdog.XXXXXX", path[256];
	struct hwwatchdog_record rec = {.armed = true, .timeout = 300, .armed_at = 1700000000.5,
					.step_at = 1700000100.25, .n_resets = 2};
	struct hwwatchdog_record back;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/hardware-watchdog.txt", dir);
	snprintf(rec.device, sizeof(rec.device), "/dev/watchdog");
	snprintf(rec.identity, sizeof(rec.identity), "iTCO_wdt");
	snprintf(rec.step, sizeof(rec.step), "run 3/24: cell 2/8 lvm/raw/-/none/threads/virtio/fio");
	snprintf(rec.resets[0], sizeof(rec.resets[0]), "the first");
	snprintf(rec.resets[1], sizeof(rec.resets[1]), "the second");
	assert_int_equal(hwwatchdog_record_write(path, &rec), 0);
	assert_int_equal(hwwatchdog_record_read(path, &back), 0);
	assert_true(back.armed);
	assert_string_equal(back.device, "/dev/watchdog");
	assert_string_equal(back.identity, "iTCO_wdt");
	assert_int_equal(back.timeout, 300);
	assert_true(back.armed_at == 1700000000.5);
	assert_string_equal(back.step, rec.step);
	assert_true(back.step_at == 1700000100.25);
	assert_int_equal(back.n_resets, 2);
	assert_string_equal(back.resets[1], "the second");

	/* Disarmed, and read as such; no temporary file left beside it. */
	rec.armed = false;
	assert_int_equal(hwwatchdog_record_write(path, &rec), 0);
	assert_int_equal(hwwatchdog_record_read(path, &back), 0);
	assert_false(back.armed);
	snprintf(path, sizeof(path), "%s/.hardware-watchdog.txt.tmp", dir);
	assert_int_equal(access(path, F_OK), -1);

	/* Not a record. */
	write_file(dir, "junk.txt", "step=run 1/2\n");
	snprintf(path, sizeof(path), "%s/junk.txt", dir);
	assert_int_equal(hwwatchdog_record_read(path, &back), -EBADMSG);
	snprintf(path, sizeof(path), "%s/absent.txt", dir);
	assert_int_equal(hwwatchdog_record_read(path, &back), -ENOENT);

	char cmd[300];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

static void test_boot_status(void **state)
{
	char dir[] = "/tmp/test-hwwatchdog.XXXXXX", text[32];

	(void)state;
	assert_non_null(mkdtemp(dir));
	/* No bootstatus: the driver cannot say. */
	assert_int_equal(hwwatchdog_boot_reset(dir), -1);
	write_file(dir, "bootstatus", "0\n");
	assert_int_equal(hwwatchdog_boot_reset(dir), 0);
	snprintf(text, sizeof(text), "%d\n", WDIOF_CARDRESET | WDIOF_OVERHEAT);
	write_file(dir, "bootstatus", text);
	assert_int_equal(hwwatchdog_boot_reset(dir), 1);
	snprintf(text, sizeof(text), "%d\n", WDIOF_OVERHEAT);
	write_file(dir, "bootstatus", text);
	assert_int_equal(hwwatchdog_boot_reset(dir), 0);
	write_file(dir, "bootstatus", "junk\n");
	assert_int_equal(hwwatchdog_boot_reset(dir), -1);

	char cmd[300];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_record_round_trip),
		cmocka_unit_test(test_boot_status),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
