/* Upload URLs: what the profile and the command line take (http and
 * https collections; credentials on the command line only), what is
 * refused with its reason, and credentials left out of messages. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "cmdline.h"
#include "upload.h"

static void check_urls(void **state)
{
	char reason[256];
	(void)state;

	assert_int_equal(uploadurl_check("", false, reason, sizeof reason), 0);
	assert_int_equal(uploadurl_check("http://10.0.2.2:8080/rack/", false, reason, sizeof reason), 0);
	assert_int_equal(uploadurl_check("https://dav.lab.example/r", false, reason, sizeof reason), 0);
	assert_int_equal(uploadurl_check("http://lab:pw@dav/rack/", true, reason, sizeof reason), 0);

	static const struct {
		const char *url;
		bool credentials;
		const char *reason;
	} bad[] = {
		{"http://lab:pw@dav/rack/", false, "must not carry credentials"},
		{"ftp://dav/rack/", true, "is not an http:// or https:// URL"},
		{"dav/rack/", true, "is not an http:// or https:// URL"},
		{"http:///rack/", true, "names no host"},
		{"http://u@/rack/", true, "names no host"},
		{"http://dav/rack/?x=1", true, "no query or fragment"},
		{"http://dav/ra ck/", true, "must not contain spaces"},
		{"http://dav/\track/", true, "control characters"},
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		reason[0] = '\0';
		assert_int_equal(uploadurl_check(bad[i].url, bad[i].credentials, reason,
						  sizeof reason), -EINVAL);
		if (!strstr(reason, bad[i].reason))
			fail_msg("%s: '%s' lacks '%s'", bad[i].url, reason, bad[i].reason);
	}
	char longer[UPLOADURL_MAX + 8];
	memset(longer, 'a', sizeof longer - 1);
	memcpy(longer, "http://", 7);
	longer[sizeof longer - 1] = '\0';
	assert_int_equal(uploadurl_check(longer, true, reason, sizeof reason), -EINVAL);
	assert_non_null(strstr(reason, "longer than"));
}

static void redact(void **state)
{
	char buf[128];
	(void)state;

	assert_string_equal(uploadurl_redact("http://lab:pw@10.0.2.2:80/rack/", buf, sizeof buf),
			    "http://***@10.0.2.2:80/rack/");
	assert_string_equal(uploadurl_redact("https://dav/rack/", buf, sizeof buf),
			    "https://dav/rack/");
	/* An '@' in the path is not a user. */
	assert_string_equal(uploadurl_redact("http://dav/a@b/", buf, sizeof buf), "http://dav/a@b/");
}

/* The kernel command line as the appliance shows it: the upload URL's
 * password left out, however long; the kit's last word found only whole. */
static void cmdline_on_console(void **state)
{
	char buf[1024], line[800];

	(void)state;
	assert_string_equal(cmdline_shown("quiet buildapp.upload=http://lab:pw@dav/rack/ "
					  "buildapp.end ip=dhcp", buf, sizeof buf),
			    "quiet buildapp.upload=http://***@dav/rack/ buildapp.end ip=dhcp");
	assert_string_equal(cmdline_shown("  a  b ", buf, sizeof buf), "  a  b ");
	snprintf(line, sizeof line, "buildapp.upload=http://u:secret@h/%0400d x", 0);
	cmdline_shown(line, buf, sizeof buf);
	assert_null(strstr(buf, "secret"));
	assert_string_equal(buf, "buildapp.upload=(too long) x");
	assert_true(cmdline_has_word("a buildapp.end b", CMDLINE_END));
	assert_true(cmdline_has_word("a buildapp.end", CMDLINE_END));
	assert_false(cmdline_has_word("a buildapp.ends", CMDLINE_END));
	assert_false(cmdline_has_word("a buildapp.en", CMDLINE_END));
	assert_false(cmdline_has_word("xbuildapp.end", CMDLINE_END));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(check_urls),
		cmocka_unit_test(redact),
		cmocka_unit_test(cmdline_on_console),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
