/* What the kit reads of a Redfish BMC before it trusts it with a power
 * cut (tests/unit/data/redfish-*.json, shaped as DSP0268 and the BMCs
 * that serve it write them): the systems collection's one member, a
 * ComputerSystem's PowerState and its Reset action with ResetType's
 * allowable values listed in the action (with PowerCycle, and without
 * it) or in an ActionInfo of their own; and a BMC that does not answer,
 * said without the account. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "redfish.h"
#include "testfile.h"

static struct redfish_system parsed(const char *name)
{
	struct redfish_system s;
	char *text = read_data(name);

	assert_int_equal(redfish_parse_system(text, &s), 0);
	free(text);
	return s;
}

static void test_members(void **state)
{
	char path[BMCSPEC_URL_MAX];
	size_t n = 0;
	char *text = read_data("redfish-systems.json");

	(void)state;
	assert_int_equal(redfish_parse_members(text, path, &n), 0);
	assert_int_equal(n, 1);
	assert_string_equal(path, "/redfish/v1/Systems/System.Embedded.1");
	free(text);
	assert_int_equal(redfish_parse_members("{\"Members\": []}", path, &n), 0);
	assert_int_equal(n, 0);
	assert_string_equal(path, "");
	assert_int_equal(redfish_parse_members("{\"Members\": {}}", path, &n), -EBADMSG);
	assert_int_equal(redfish_parse_members("[1]", path, &n), -EBADMSG);
	assert_int_equal(redfish_parse_members("<html>", path, &n), -EBADMSG);
}

static void test_system(void **state)
{
	(void)state;
	struct redfish_system s = parsed("redfish-system-powercycle.json");
	assert_string_equal(s.power_state, "On");
	assert_string_equal(s.target,
			    "/redfish/v1/Systems/System.Embedded.1/Actions/ComputerSystem.Reset");
	assert_string_equal(s.action_info, "");
	assert_true(s.listed && s.power_cycle);

	/* A BMC that lists its reset types, PowerCycle not among them. */
	s = parsed("redfish-system-no-powercycle.json");
	assert_true(s.listed);
	assert_false(s.power_cycle);
	assert_string_equal(s.values, "On, ForceOff, GracefulShutdown, ForceRestart, Nmi, "
				      "PushPowerButton, GracefulRestart");

	/* The values in an ActionInfo of their own. */
	s = parsed("redfish-system-actioninfo.json");
	assert_false(s.listed);
	assert_string_equal(s.action_info, "/redfish/v1/Systems/1/ResetActionInfo");
	assert_string_equal(s.target,
			    "https://10.0.0.5/redfish/v1/Systems/1/Actions/ComputerSystem.Reset");
	char *info = read_data("redfish-reset-actioninfo.json");
	assert_int_equal(redfish_parse_action_info(info, &s), 0);
	assert_true(s.listed && s.power_cycle);
	free(info);
	s = parsed("redfish-system-actioninfo.json");
	info = read_data("redfish-reset-actioninfo-no-powercycle.json");
	assert_int_equal(redfish_parse_action_info(info, &s), 0);
	assert_true(s.listed);
	assert_false(s.power_cycle);
	free(info);

	/* No Reset action, no PowerState; not a resource at all. */
	assert_int_equal(redfish_parse_system("{\"Id\": \"1\"}", &s), 0);
	assert_string_equal(s.power_state, "");
	assert_string_equal(s.target, "");
	assert_false(s.listed);
	assert_int_equal(redfish_parse_system("\"On\"", &s), -EBADMSG);
	assert_int_equal(redfish_parse_action_info("{\"Id\": \"x\"}", &s), -EBADMSG);
}

/* A BMC nobody answers at: the reason says so and names neither the user
 * nor the password. */
static void test_no_answer(void **state)
{
	char dir[] = "/tmp/test-redfish.XXXXXX", path[64], why[1024] = "";
	struct redfish rf;

	(void)state;
	assert_non_null(mkdtemp(dir));
	write_file(dir, "account", "reset-user:Sup3rSecret\n");
	snprintf(path, sizeof(path), "%s/account", dir);
	assert_int_equal(redfish_open(&rf, "https://127.0.0.1:1/redfish/v1/Systems/1", path, NULL,
				      why, sizeof(why)),
			 0);
	assert_string_equal(rf.what, "Redfish https://127.0.0.1:1/redfish/v1/Systems/1");
	assert_int_equal(redfish_check(&rf, why, sizeof(why)), -EIO);
	assert_non_null(strstr(why, "the BMC does not answer"));
	assert_null(strstr(why, "Sup3rSecret"));
	assert_null(strstr(why, "reset-user"));
	redfish_close(&rf);
	assert_string_equal(rf.password, "");
	assert_string_equal(rf.user, "");
	unlink(path);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_members),
		cmocka_unit_test(test_system),
		cmocka_unit_test(test_no_answer),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
