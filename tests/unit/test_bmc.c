/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the kit reads of ipmitool's answers before it trusts a BMC with a
 * power cut: ipmitool 1.8.19's own output (OpenIPMI's ipmi_sim answering,
 * tests/unit/data/ipmitool-*.txt), and the chassis a BMC that does not
 * control the server's power reports (off), or one with a fault. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "bmc.h"
#include "testfile.h"

static void test_real_answers(void **state)
{
	char *info = read_data("ipmitool-mc-info.txt");
	char *status = read_data("ipmitool-chassis-status.txt");
	char buf[96];
	bool on = false, fault = true;

	(void)state;
	assert_int_equal(bmc_parse_mc_info(info, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "IPMI 2.0, firmware 9.08");
	assert_int_equal(bmc_parse_chassis_status(status, &on, &fault), 0);
	assert_true(on);
	assert_false(fault);
	free(info);
	free(status);
}

static void test_off_fault_and_junk(void **state)
{
	bool on = true, fault = false;
	char buf[96];

	(void)state;
	assert_int_equal(bmc_parse_chassis_status("System Power         : off\n"
						  "Power Control Fault  : false\n",
						  &on, &fault), 0);
	assert_false(on);
	assert_int_equal(bmc_parse_chassis_status("System Power : on\n"
						  "Power Control Fault : true\n",
						  &on, &fault), 0);
	assert_true(on);
	assert_true(fault);
	/* "System Power Something" is not the line. */
	assert_int_equal(bmc_parse_chassis_status("System Power Budget : on\n", &on, &fault),
			 -EBADMSG);
	assert_int_equal(bmc_parse_chassis_status("", &on, &fault), -EBADMSG);
	assert_int_equal(bmc_parse_mc_info("Device ID : 32\n", buf, sizeof(buf)), -EBADMSG);
	assert_int_equal(bmc_parse_mc_info("IPMI Version : 1.5  \r\n", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "IPMI 1.5");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_real_answers),
		cmocka_unit_test(test_off_fault_and_junk),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
