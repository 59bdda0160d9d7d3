/* The licenses a kit's manifest names: a Debian copyright file's license
 * names, machine-readable or in free text; and for packages and host
 * files, this host's dpkg and its copyright files (zlib1g: Zlib). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <json-c/json.h>
#include <stdio.h>
#include <string.h>

#include "licenses.h"

static const char *name_at(json_object *a, size_t i)
{
	return json_object_get_string(json_object_array_get_idx(a, i));
}

static void test_machine_readable(void **state)
{
	json_object *names;

	(void)state;
	assert_true(licenses_of_copyright(
		"Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\n"
		"\n"
		"Files: *\nCopyright: 2020 Someone\nLicense: GPL-2+\n"
		"\n"
		"Files: lib/*\nLicense: LGPL-2.1 \n text of it\n .\n"
		"\n"
		"Files: other/*\nLicense:\n QEMU as a whole is released under the GPL.\n"
		" Its text is in /usr/share/common-licenses/GPL-2.\n"
		"\n"
		"Files: more/*\nLicense:\n Do what you like.\n"
		"\n"
		"License: GPL-2+\n the license's text, once more\n"
		" (/usr/share/common-licenses/GPL-3 is not this field's)\n",
		&names));
	assert_int_equal(json_object_array_length(names), 4);
	assert_string_equal(name_at(names, 0), "GPL-2+");
	assert_string_equal(name_at(names, 1), "LGPL-2.1");
	assert_string_equal(name_at(names, 2), "GPL-2"); /* no name, its text's */
	assert_string_equal(name_at(names, 3), ""); /* in words only */
	json_object_put(names);
}

static void test_free_text(void **state)
{
	json_object *names;

	(void)state;
	assert_false(licenses_of_copyright(
		"This is the Debian prepackaged version of a library.\n"
		"License: see below\n"
		"  On Debian systems, the complete text of the GNU Lesser General Public\n"
		"  License can be found in `/usr/share/common-licenses/LGPL-2.1'.\n"
		"The GPL is in /usr/share/common-licenses/GPL-2.  Again:\n"
		"/usr/share/common-licenses/GPL-2\n",
		&names));
	assert_int_equal(json_object_array_length(names), 2);
	assert_string_equal(name_at(names, 0), "LGPL-2.1");
	assert_string_equal(name_at(names, 1), "GPL-2");
	json_object_put(names);
}

/* This host's packages (a Debian 12 build host's: dpkg, zlib1g and libc6
 * are on every one): a package of the host root, a file a package owns,
 * one dpkg lists by its /usr-less name (merged /usr: libc6 lists
 * /lib/x86_64-linux-gnu/libc.so.6), and one no package owns. */
static void test_of_this_host(void **state)
{
	(void)state;
	json_object *sizes = json_tokener_parse(
		"{\"host_root_uncompressed\": {\"packages\": {\"zlib1g\": 1}}}");
	const char *files[] = {"/usr/bin/dpkg-query", "/nonexistent/buildapp-file", "", NULL,
			       "/usr/lib/x86_64-linux-gnu/libc.so.6"};
	json_object *l = licenses_json(sizes, files, 5), *pk, *z, *v, *orphans;

	assert_non_null(l);
	assert_string_equal(json_object_get_string(json_object_object_get(l, "buildapp")),
			    "GPL-2.0-or-later");
	assert_true(json_object_object_get_ex(l, "packages", &pk));
	assert_true(json_object_object_get_ex(pk, "zlib1g", &z));
	assert_true(json_object_object_get_ex(z, "licenses", &v));
	assert_string_equal(name_at(v, 0), "Zlib");
	assert_true(json_object_object_get_ex(z, "version", &v));
	assert_true(json_object_get_string_len(v) > 0);
	assert_string_equal(json_object_get_string(json_object_object_get(z, "copyright")),
			    "/usr/share/doc/zlib1g/copyright");
	assert_true(json_object_object_get_ex(pk, "dpkg", &z)); /* /usr/bin/dpkg-query's */
	assert_true(json_object_object_get_ex(pk, "libc6", &z)); /* by /lib's name */
	assert_true(json_object_object_get_ex(l, "files_of_no_package", &orphans));
	assert_int_equal(json_object_array_length(orphans), 1);
	assert_string_equal(name_at(orphans, 0), "/nonexistent/buildapp-file");
	/* in name order: equal inputs, equal bytes */
	const char *prev = "";
	json_object_object_foreach(pk, name, e) {
		(void)e;
		assert_true(strcmp(prev, name) < 0);
		prev = name;
	}
	json_object_put(l);
	json_object_put(sizes);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_machine_readable),
		cmocka_unit_test(test_free_text),
		cmocka_unit_test(test_of_this_host),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
