/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the kit reads of a Redfish BMC before it trusts it with a power
 * cut (tests/unit/data/redfish-*.json, shaped as DSP0268 and the BMCs
 * that serve it write them): the systems collection's one member, a
 * ComputerSystem's PowerState and its Reset action with ResetType's
 * allowable values listed in the action (with PowerCycle, and without
 * it) or in an ActionInfo of their own; and a BMC that does not answer,
 * said without the account.  Then the client against a Redfish service
 * on this host (tests/lib/redfish-bmc.py: https with a certificate of its
 * own, Basic authentication): the system found through the collection,
 * PowerCycle asked with the account, a system that does not allow it, an
 * account refused, a certificate not trusted. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
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

static char dir[] = "/tmp/test-redfish-bmc.XXXXXX";
/* The service running, for live_teardown to stop when a check failed. */
static pid_t bmc_pid = -1;

/* A service of tests/lib/redfish-bmc.py serving FIXTURE: its pid, its
 * port into *PORT. */
static pid_t start_bmc(const char *fixture, int *port)
{
	char data[PATH_MAX], script[PATH_MAX], cert[PATH_MAX], key[PATH_MAX], log[PATH_MAX];
	char port_file[PATH_MAX];
	const char *top = getenv("TOP") ? getenv("TOP") : ".";

	snprintf(data, sizeof(data), "%s/tests/unit/data", top);
	snprintf(script, sizeof(script), "%s/tests/lib/redfish-bmc.py", top);
	snprintf(cert, sizeof(cert), "%s/cert.pem", dir);
	snprintf(key, sizeof(key), "%s/key.pem", dir);
	snprintf(log, sizeof(log), "%s/requests.jsonl", dir);
	snprintf(port_file, sizeof(port_file), "%s/port", dir);
	unlink(port_file);
	unlink(log);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		execlp("python3", "python3", script, data, cert, key, "reset-user:Sup3r:Secret",
		       fixture, log, port_file, (char *)NULL);
		_exit(127);
	}
	for (int i = 0; i < 200; i++) {
		FILE *f = fopen(port_file, "re");
		if (f) {
			int n = fscanf(f, "%d", port);
			fclose(f);
			bmc_pid = pid;
			assert_int_equal(n, 1);
			return pid;
		}
		usleep(50 * 1000);
	}
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	fail_msg("tests/lib/redfish-bmc.py did not start");
	return -1;
}

static void stop_bmc(pid_t pid)
{
	kill(pid, SIGTERM);
	waitpid(pid, NULL, 0);
	bmc_pid = -1;
}

static char *requests(void)
{
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s/requests.jsonl", dir);
	return read_path(path);
}

static int live_setup(void **state)
{
	char cmd[PATH_MAX * 2];

	(void)state;
	if (!mkdtemp(dir))
		return -1;
	snprintf(cmd, sizeof(cmd),
		 "openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=127.0.0.1 "
		 "-addext subjectAltName=IP:127.0.0.1 -keyout '%s/key.pem' -out '%s/cert.pem' "
		 ">/dev/null 2>&1 && printf 'reset-user:Sup3r:Secret\\n' >'%s/account' && "
		 "printf 'reset-user:wrong\\n' >'%s/wrong'",
		 dir, dir, dir, dir);
	return system(cmd) == 0 ? 0 : -1;
}

static int live_teardown(void **state)
{
	char cmd[64];

	(void)state;
	if (bmc_pid > 0)
		stop_bmc(bmc_pid);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static void test_live(void **state)
{
	char url[96], account[PATH_MAX], wrong[PATH_MAX], ca[PATH_MAX], why[1024] = "";
	struct redfish rf;
	int port = 0;

	(void)state;
	if (system("command -v python3 >/dev/null && command -v openssl >/dev/null") != 0)
		skip();
	snprintf(account, sizeof(account), "%s/account", dir);
	snprintf(wrong, sizeof(wrong), "%s/wrong", dir);
	snprintf(ca, sizeof(ca), "%s/cert.pem", dir);

	/* The service's one system, PowerCycle allowed: asked with the
	 * account, and the power never goes (nothing behind it). */
	pid_t pid = start_bmc("redfish-system-powercycle.json", &port);
	snprintf(url, sizeof(url), "https://127.0.0.1:%d", port);
	assert_int_equal(redfish_open(&rf, url, account, ca, why, sizeof(why)), 0);
	if (redfish_check(&rf, why, sizeof(why)) != 0)
		fail_msg("check: %s", why);
	assert_string_equal(rf.system, "/redfish/v1/Systems/1");
	assert_string_equal(rf.target, "/redfish/v1/Systems/1/Actions/ComputerSystem.Reset");
	snprintf(url, sizeof(url), "Redfish https://127.0.0.1:%d/redfish/v1/Systems/1", port);
	assert_string_equal(rf.what, url);
	assert_int_equal(redfish_power_cycle(&rf, 0, why, sizeof(why)), -ETIMEDOUT);
	assert_non_null(strstr(why, "the BMC accepted the power cycle (HTTP 204), but the power "
				    "did not go within 0 s"));
	redfish_close(&rf);
	char *log = requests();
	assert_non_null(strstr(log, "{\"method\": \"GET\", \"path\": \"/redfish/v1/Systems\", "
				    "\"account\": true"));
	assert_non_null(strstr(log, "{\"method\": \"POST\", \"path\": \"/redfish/v1/Systems/1/"
				    "Actions/ComputerSystem.Reset\", \"account\": true, \"body\": "
				    "\"{\\\"ResetType\\\": \\\"PowerCycle\\\"}\"}"));
	free(log);

	/* An account the BMC refuses: said, the password not. */
	snprintf(url, sizeof(url), "https://127.0.0.1:%d/redfish/v1/Systems/1", port);
	assert_int_equal(redfish_open(&rf, url, wrong, ca, why, sizeof(why)), 0);
	assert_int_equal(redfish_check(&rf, why, sizeof(why)), -EACCES);
	assert_non_null(strstr(why, "the BMC refused the account of [host] bmc_credentials "
				    "(GET /redfish/v1/Systems/1: HTTP 401, The request requires "
				    "user authentication.)"));
	assert_null(strstr(why, "wrong"));
	redfish_close(&rf);

	/* Its certificate, which the system's CAs do not vouch for. */
	assert_int_equal(redfish_open(&rf, url, account, NULL, why, sizeof(why)), 0);
	assert_int_equal(redfish_check(&rf, why, sizeof(why)), -EIO);
	assert_non_null(strstr(why, "the BMC does not answer: GET https://127.0.0.1:"));
	assert_null(strstr(why, "Sup3r"));
	redfish_close(&rf);
	stop_bmc(pid);

	/* A system whose Reset does not list PowerCycle. */
	pid = start_bmc("redfish-system-no-powercycle.json", &port);
	snprintf(url, sizeof(url), "https://127.0.0.1:%d/redfish/v1/Systems/1/", port);
	assert_int_equal(redfish_open(&rf, url, account, ca, why, sizeof(why)), 0);
	assert_int_equal(redfish_check(&rf, why, sizeof(why)), -EOPNOTSUPP);
	char said[512];
	snprintf(said, sizeof(said), "Redfish https://127.0.0.1:%d/redfish/v1/Systems/1 does not "
		 "allow a power cycle: its Reset's ResetType values are On, ForceOff, "
		 "GracefulShutdown, ForceRestart, Nmi, PushPowerButton, GracefulRestart, and "
		 "PowerCycle is not one", port);
	assert_string_equal(why, said);
	redfish_close(&rf);
	log = requests();
	assert_null(strstr(log, "POST"));
	free(log);
	stop_bmc(pid);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_members),
		cmocka_unit_test(test_system),
		cmocka_unit_test(test_no_answer),
		cmocka_unit_test_setup_teardown(test_live, live_setup, live_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
