/* SPDX-License-Identifier: GPL-2.0-or-later */
/* [host] bmc as the profile names it: in-band IPMI, or a Redfish
 * endpoint that is https:// only, carries no account in its URL and names
 * the service or one ComputerSystem; the URL split into the base the
 * client talks to and the system's path; and the account file of
 * [host] bmc_credentials, read without its password ever reaching a
 * message. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "bmcspec.h"
#include "testfile.h"

static char dir[] = "/tmp/test-bmcspec.XXXXXX";

static int setup(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[64];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

/* BMC is refused, its reason holding WORD. */
static void refused(const char *bmc, const char *word)
{
	char reason[512] = "";

	if (bmcspec_check(bmc, reason, sizeof(reason)) != -EINVAL)
		fail_msg("'%s' was taken", bmc);
	if (!strstr(reason, word))
		fail_msg("'%s': the reason '%s' does not say '%s'", bmc, reason, word);
}

static void test_check(void **state)
{
	static const char *const good[] = {
		"ipmi",
		"https://10.0.0.5",
		"https://10.0.0.5/",
		"https://bmc.lab:8443",
		"https://bmc.lab/redfish/v1",
		"https://bmc.lab/redfish/v1/",
		"https://[fe80::1]:443/redfish/v1/Systems/1",
		"https://bmc.lab/redfish/v1/Systems/System.Embedded.1/",
	};
	char reason[512];

	(void)state;
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		if (bmcspec_check(good[i], reason, sizeof(reason)) != 0)
			fail_msg("'%s' refused: %s", good[i], reason);
	assert_false(bmcspec_is_redfish("ipmi"));
	assert_true(bmcspec_is_redfish("https://10.0.0.5"));

	/* Basic authentication over http would give the password away. */
	refused("http://10.0.0.5", "https:// only");
	/* The profile is in the plan, the manifest and on the console. */
	refused("https://admin:secret@10.0.0.5", "bmc_credentials");
	refused("https://admin@10.0.0.5/redfish/v1/Systems/1", "must not carry credentials");
	refused("ipmi-lan", "neither ipmi");
	refused("IPMI", "neither ipmi");
	refused("https://", "names no host");
	refused("https://:443/", "names no host");
	refused("https://bmc.lab/redfish/v1/Managers/1", "https://HOST[:PORT]");
	refused("https://bmc.lab/redfish/v1/Systems", "https://HOST[:PORT]");
	refused("https://bmc.lab/redfish/v1/Systems/1/Actions", "https://HOST[:PORT]");
	refused("https://bmc.lab/?x=1", "no query");
	refused("https://bmc.lab/redfish/v1#a", "no query");
	refused("https://bmc.lab/ x", "spaces");
	refused("https://bmc.lab/\x01", "control");

	char longer[BMCSPEC_URL_MAX + 16] = "https://";
	memset(longer + 8, 'a', sizeof(longer) - 9);
	longer[sizeof(longer) - 1] = '\0';
	refused(longer, "longer than");
}

static void test_split(void **state)
{
	char base[BMCSPEC_URL_MAX], system[BMCSPEC_URL_MAX];

	(void)state;
	bmcspec_split("https://10.0.0.5:8443", base, system);
	assert_string_equal(base, "https://10.0.0.5:8443");
	assert_string_equal(system, "");
	bmcspec_split("https://bmc.lab/redfish/v1/", base, system);
	assert_string_equal(base, "https://bmc.lab");
	assert_string_equal(system, "");
	bmcspec_split("https://bmc.lab/redfish/v1/Systems/System.Embedded.1//", base, system);
	assert_string_equal(base, "https://bmc.lab");
	assert_string_equal(system, "/redfish/v1/Systems/System.Embedded.1");
}

/* The file NAME holding TEXT is refused, its reason holding WORD and
 * never the password SECRET. */
static void bad_credentials(const char *name, const char *text, const char *word,
			    const char *secret)
{
	char path[256], user[BMCSPEC_USER_MAX] = "", password[BMCSPEC_PASSWORD_MAX] = "";
	char reason[512] = "";

	write_file(dir, name, text);
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	assert_int_equal(bmcspec_read_credentials(path, user, password, reason, sizeof(reason)),
			 -EINVAL);
	if (!strstr(reason, word))
		fail_msg("%s: the reason '%s' does not say '%s'", name, reason, word);
	if (secret && strstr(reason, secret))
		fail_msg("%s: the reason '%s' says the password", name, reason);
	assert_string_equal(password, "");
}

static void test_credentials(void **state)
{
	char path[256], user[BMCSPEC_USER_MAX], password[BMCSPEC_PASSWORD_MAX];
	char reason[512] = "";

	(void)state;
	/* The password keeps its ':'; a CRLF line end is not part of it. */
	write_file(dir, "good", "reset-only:pa:ss word\r\nignored:line\n");
	snprintf(path, sizeof(path), "%s/good", dir);
	assert_int_equal(bmcspec_read_credentials(path, user, password, reason, sizeof(reason)),
			 0);
	assert_string_equal(user, "reset-only");
	assert_string_equal(password, "pa:ss word");
	/* No line end at all. */
	write_file(dir, "bare", "admin:Sup3rSecret");
	snprintf(path, sizeof(path), "%s/bare", dir);
	assert_int_equal(bmcspec_read_credentials(path, user, password, reason, sizeof(reason)),
			 0);
	assert_string_equal(password, "Sup3rSecret");

	bad_credentials("empty", "", "is empty", NULL);
	bad_credentials("no-colon", "Sup3rSecret\n", "no USER:PASSWORD", "Sup3rSecret");
	bad_credentials("no-user", ":Sup3rSecret\n", "no USER:PASSWORD", "Sup3rSecret");
	bad_credentials("control", "admin:Sup3r\tSecret\n", "control character", "Sup3r");

	char text[BMCSPEC_USER_MAX + BMCSPEC_PASSWORD_MAX + 64];
	snprintf(text, sizeof(text), "admin:%0*d\n", BMCSPEC_PASSWORD_MAX, 7);
	bad_credentials("long-password", text, "a password too long", "0000000007");
	memset(text, 'u', BMCSPEC_USER_MAX + 1);
	snprintf(text + BMCSPEC_USER_MAX + 1, sizeof(text) - BMCSPEC_USER_MAX - 1, ":Sup3rSecret\n");
	bad_credentials("long-user", text, "a user name too long", "Sup3rSecret");
	memset(text, 'x', sizeof(text) - 2);
	text[sizeof(text) - 2] = '\n';
	text[sizeof(text) - 1] = '\0';
	bad_credentials("long-line", text, "longer than", NULL);

	snprintf(path, sizeof(path), "%s/absent", dir);
	assert_int_equal(bmcspec_read_credentials(path, user, password, reason, sizeof(reason)),
			 -ENOENT);
	assert_non_null(strstr(reason, "No such file"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_check),
		cmocka_unit_test(test_split),
		cmocka_unit_test(test_credentials),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
