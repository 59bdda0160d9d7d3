/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Profile loader: shipped profiles, every bad-input class, includes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "keys.h"
#include "loader.h"
#include "log.h"
#include "planner.h"

static char tmpdir[] = "/tmp/buildapp-test-XXXXXX";
static char *messages;
static size_t messages_len;
static FILE *message_stream;

static int setup(void **state)
{
	(void)state;
	message_stream = open_memstream(&messages, &messages_len);
	log_set_stream(message_stream);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	log_set_stream(NULL);
	fclose(message_stream);
	free(messages);
	messages = NULL;
	return 0;
}

/* Writes CONTENT to NAME in the test directory; returns the path (static). */
static const char *write_file(const char *name, const char *content)
{
	static char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(content, f);
	fclose(f);
	return path;
}

/* Loads CONTENT as a profile file; returns the loader's result and leaves
 * the message it printed in `messages`. */
static int load_text(const char *content, struct profile *p)
{
	const char *path = write_file("t.ini", content);

	fclose(message_stream);
	free(messages);
	message_stream = open_memstream(&messages, &messages_len);
	log_set_stream(message_stream);
	int r = loader_load(path, p);
	fflush(message_stream);
	return r;
}

/* The load fails with a message containing every one of the strings. */
static void expect_error(const char *content, ...)
{
	struct profile p;
	va_list ap;
	const char *want;

	if (load_text(content, &p) == 0)
		fail_msg("profile loaded but should not: %.200s", content);
	va_start(ap, content);
	while ((want = va_arg(ap, const char *))) {
		if (!strstr(messages, want))
			fail_msg("message '%s' lacks '%s'", messages, want);
	}
	va_end(ap);
	/* One message, one line. */
	assert_non_null(strchr(messages, '\n'));
	assert_null(strchr(strchr(messages, '\n') + 1, '\n'));
}

static void test_shipped_profiles_load(void **state)
{
	DIR *d = opendir("profiles");
	struct dirent *e;
	int n = 0;

	(void)state;
	assert_non_null(d);
	while ((e = readdir(d))) {
		char path[512];
		struct profile p;
		struct plan plan;
		size_t len = strlen(e->d_name);

		if (len < 5 || strcmp(e->d_name + len - 4, ".ini") != 0)
			continue;
		snprintf(path, sizeof(path), "profiles/%s", e->d_name);
		if (loader_load(path, &p) != 0)
			fail_msg("%s does not load: %s", path, messages);
		assert_int_equal(planner_build(&p, &plan), 0);
		assert_true(plan.n_cells > 0);
		plan_release(&plan);
		n++;
	}
	closedir(d);
	assert_true(n >= 8);
}

static void test_headline_profile(void **state)
{
	struct profile p;

	(void)state;
	assert_int_equal(loader_load("profiles/lvm-unsafe.ini", &p), 0);
	assert_int_equal(p.storage.backends, AXIS_BIT(BACKEND_LVM) | AXIS_BIT(BACKEND_QCOW2));
	assert_int_equal(p.guest.cache, AXIS_BIT(CACHE_UNSAFE) | AXIS_BIT(CACHE_WRITETHROUGH) |
						AXIS_BIT(CACHE_NONE) | AXIS_BIT(CACHE_WRITEBACK));
	/* it asks what it is named for, first */
	assert_int_equal(strncmp(p.report.compare, "cache:unsafe vs writethrough,", 29), 0);
	assert_int_equal(p.guest.bus, AXIS_BIT(BUS_VIRTIO));
	assert_int_equal(p.guest.aio, AXIS_BIT(AIO_THREADS));
	assert_int_equal(p.workload.kinds, AXIS_BIT(WORKLOAD_TARBALL_WRITE) |
						   AXIS_BIT(WORKLOAD_TARBALL_READ) |
						   AXIS_BIT(WORKLOAD_DURABILITY));
	/* and what each mode loses when the server dies */
	assert_int_equal(p.workload.crash, CRASH_HOST);
	assert_int_equal(p.sweep.runs, 5);
	assert_string_equal(p.appliance.name, "lvm-unsafe");
}

static void test_defaults_and_types(void **state)
{
	struct profile p;

	(void)state;
	assert_int_equal(load_text("[storage]\nsize = 1.5G\nfill = on\n"
				   "[host]\ndirty_ratio = 20\nread_ahead_kb = keep\n"
				   "[guest]\nmemory = 256M ; comment\n"
				   "[sweep]\ntarget_ci = 2.5\nseed = 18446744073709551615\n",
				   &p),
			 0);
	assert_int_equal(p.storage.size, 1536ULL << 20);
	assert_true(p.storage.fill);
	assert_int_equal(p.host.dirty_ratio, 20);
	assert_int_equal(p.host.read_ahead_kb, -1);
	assert_int_equal(p.host.dirty_background_ratio, -1);
	assert_int_equal(p.guest.memory, 256ULL << 20);
	assert_true(p.sweep.target_ci > 2.49 && p.sweep.target_ci < 2.51);
	assert_true(p.sweep.seed == UINT64_MAX);
	/* Defaults from the key table. */
	assert_int_equal(p.guest.cache, AXIS_BIT(CACHE_NONE));
	assert_int_equal(p.guest.timeout, 600);
	assert_int_equal(p.storage.cluster_size, 65536);
	assert_string_equal(p.appliance.name, "t");
}

static void test_unknown_names(void **state)
{
	(void)state;
	expect_error("[guest]\ncahce = none\n", "t.ini:2:", "[guest] cahce",
		     "unknown key", "did you mean 'cache'", NULL);
	expect_error("[gust]\ncache = none\n", "t.ini:1:", "[gust]",
		     "unknown section", "did you mean [guest]", NULL);
	expect_error("[guest]\n\n\ncache = wirteback\n", "t.ini:4:", "[guest] cache",
		     "'wirteback'", "did you mean 'writeback'", NULL);
	expect_error("[storage]\nbackends = lvm, ext4file\n", "t.ini:2:",
		     "[storage] backends", "did you mean 'ext4-file'", NULL);
	expect_error("[guest]\nzzzzzzzz = 1\n", "[guest] zzzzzzzz", "unknown key",
		     NULL);
}

static void test_bad_values(void **state)
{
	(void)state;
	expect_error("[storage]\nsize = 1P\n", "t.ini:2:", "[storage] size",
		     "out of range", NULL);
	expect_error("[storage]\nsize = 12Q\n", "[storage] size", "not a size", NULL);
	expect_error("[sweep]\nruns = 0\n", "[sweep] runs", "out of range", NULL);
	expect_error("[sweep]\nruns = -3\n", "[sweep] runs", "not a whole number",
		     NULL);
	expect_error("[sweep]\nruns = 99999999999999999999999\n", "[sweep] runs",
		     "out of range", NULL);
	expect_error("[storage]\nfill = maybe\n", "[storage] fill", "not a boolean",
		     NULL);
	expect_error("[guest]\ncache = none, none\n", "[guest] cache", "listed twice",
		     NULL);
	expect_error("[guest]\ncache = none,,unsafe\n", "[guest] cache", "empty item",
		     NULL);
	expect_error("[guest]\ncache =\n", "[guest] cache", "empty value", NULL);
	expect_error("[storage]\ncluster_size = 96K\n", "[storage] cluster_size",
		     "power of two", NULL);
	expect_error("[host]\ndirty_ratio = 10\ndirty_background_ratio = 20\n",
		     "t.ini:3:", "[host] dirty_background_ratio", NULL);
	expect_error("[sweep]\nruns = 5\nmax_runs = 3\n", "t.ini:3:",
		     "[sweep] max_runs", NULL);
	/* The durability cells' own count of runs: 0 (runs) to 1000, and
	 * named when it makes the plan too large. */
	expect_error("[sweep]\ndurability_runs = 1001\n", "t.ini:2:",
		     "[sweep] durability_runs", "out of range", NULL);
	expect_error("[sweep]\ndurability_runs = -1\n", "t.ini:2:",
		     "[sweep] durability_runs", "not a whole number", NULL);
	expect_error("[sweep]\ndurability_runs = many\n", "[sweep] durability_runs", NULL);
	expect_error("[storage]\nbackends = raw, qcow2, lvm, ext4-file\n"
		     "raw_preallocation = sparse, falloc, full\n"
		     "qcow2_preallocation = off, metadata, falloc, full\n"
		     "[guest]\ncache = none, writethrough, writeback, directsync, unsafe\n"
		     "bus = virtio, sata, scsi\n[workload]\nkinds = durability, fio\n"
		     "[sweep]\nruns = 2\ndurability_runs = 1000\n",
		     "[sweep] durability_runs", "100000 runs in all", NULL);
	expect_error("[host]\nwipe = yes\n", "[host] wipe", "stable identity", NULL);
	expect_error("[appliance]\nname = a b\n", "[appliance] name", NULL);
	expect_error("[appliance]\nupload = http://lab:pw@dav/rack/\n", "t.ini:2:",
		     "[appliance] upload", "must not carry credentials", NULL);
	expect_error("[appliance]\nupload = dav.lab/rack/\n", "[appliance] upload",
		     "not an http:// or https:// URL", NULL);
	expect_error("[appliance]\nupload_ca = /nonexistent/ca.pem\n", "t.ini:2:",
		     "[appliance] upload_ca", "'/nonexistent/ca.pem'", "No such file", NULL);
	expect_error("[appliance]\nupload_ca = /etc/hostname\n", "[appliance] upload_ca",
		     "no PEM certificate", NULL);
	expect_error("[guest]\ncache = unsafe, none\n[report]\ncompare = cache:unsafe vs writethrough\n",
		     "t.ini:4:", "[report] compare", "the sweep runs no cache writethrough", NULL);
	expect_error("[report]\ncompare = cache:unsafe writethrough\n", "t.ini:2:",
		     "[report] compare", "expected AXIS:LEVEL vs REFERENCE", NULL);
	expect_error("[guest]\ncache = unsafe, none\n[report]\ncompare = cache:none vs none\n",
		     "[report] compare", "compares none with itself", NULL);
	/* fio on the device: within the disk, and not with host cells. */
	expect_error("[storage]\nsize = 1G\n[workload]\nkinds = fio\nfio_target = device\n"
		     "fio_size = 2G\n", "t.ini:6:", "[workload] fio_size",
		     "fio_target = device", "more than the guest's disk", NULL);
	expect_error("[workload]\nkinds = fio\nfio_target = device\nfio_size = 8M\n"
		     "host_baseline = yes\n", "t.ini:3:", "[workload] fio_target",
		     "host_baseline", NULL);
	expect_error("[workload]\nfio_target = disk\n", "t.ini:2:", "[workload] fio_target",
		     NULL);
	struct profile p;
	assert_int_equal(load_text("[storage]\nsize = 1G\n[workload]\nkinds = fio\n"
				   "fio_target = device\nfio_size = 1G\n", &p), 0);
	assert_int_equal(p.workload.fio_target, FIO_TARGET_DEVICE);
	assert_int_equal(load_text("[guest]\ncache = unsafe, none\n[report]\n"
				   "compare = cache:unsafe vs none in write_seconds, cache:none vs unsafe\n",
				   &p), 0);
}

static void test_impossible_combination(void **state)
{
	struct profile p;

	(void)state;
	expect_error("[guest]\ncache = writeback\naio = native\n", "t.ini:3:",
		     "[guest] aio", "none or directsync", "'writeback'", NULL);
	expect_error("[guest]\naio = native\ncache = unsafe\n", "t.ini:2:",
		     "[guest] aio", NULL);
	expect_error("[guest]\naio = native\ncache = unsafe, writethrough\n",
		     "[guest] aio", "every cell", NULL);
	/* As lists the impossible cells are left out, not an error. */
	assert_int_equal(load_text("[guest]\naio = native, threads\n"
				   "cache = unsafe, none\n", &p),
			 0);
	assert_int_equal(load_text("[guest]\naio = native\ncache = none\n", &p), 0);
}

/* HEAD followed by 100,000 FILL characters fails with WANT. */
static void expect_long_line(const char *head, char fill, const char *want)
{
	size_t n = strlen(head);
	char *big = malloc(n + 100001);

	assert_non_null(big);
	memcpy(big, head, n);
	memset(big + n, fill, 100000);
	big[n + 100000] = '\0';
	expect_error(big, want, NULL);
	free(big);
}

static void test_syntax_and_junk(void **state)
{
	char junk[300];

	(void)state;
	expect_error("x = 1\n", "t.ini:1:", "before any [section]", NULL);
	expect_error("[guest]\nthis is not ini\n", "t.ini:2:", "[guest]",
		     "syntax error", NULL);
	expect_error("[guest\n", "t.ini:1:", "syntax error", NULL);
	/* A byte order mark starts a file saved by some editors: accepted
	 * there (CRLF too), and the first line keeps its number; anywhere
	 * else it is out of place. */
	struct profile p;
	assert_int_equal(load_text("\xef\xbb\xbf[guest]\r\ncache = none\r\n", &p), 0);
	assert_int_equal(p.guest.cache, AXIS_BIT(CACHE_NONE));
	expect_error("\xef\xbb\xbf[guest]\ncache = fast\n", "t.ini:2:", "[guest] cache", NULL);
	expect_error("[guest]\n\xef\xbb\xbf" "cache = none\n", "t.ini:2:", "syntax error", NULL);
	expect_error("[guest]\ncache = none\ncache = unsafe\n", "t.ini:3:",
		     "given twice (first at line 2)", NULL);
	for (size_t i = 0; i < sizeof(junk) - 1; i++)
		junk[i] = (char)(i * 37 % 256 ? i * 37 % 256 : 1);
	junk[sizeof(junk) - 1] = '\0';
	expect_error(junk, "t.ini:1:", "binary data", NULL);
	expect_long_line("[guest]\ncache = ", 'a',
			 "t.ini:2: [guest] cache: line longer than 1000");
	/* The case: a 100,000-character name on line 7. */
	expect_long_line("[appliance]\n; the\n; kit\n\n[host]\n[appliance]\n  Name= ",
			 'n', "t.ini:7: [appliance] name: line longer than 1000");
	/* A value continued onto a long line is still its key's. */
	expect_long_line("[guest]\ncache = none, \\\n", 'u',
			 "t.ini:3: [guest] cache: line longer than");
	/* No key on the line: the section alone. */
	expect_long_line("[host]\n;", '=', "t.ini:2: [host]: line longer than");
}

/* Values are read as iniparser reads them: quotes, comments after a
 * value, '\' continuations, CRLF line ends. */
static void test_value_syntax(void **state)
{
	struct profile p;
	char *big;

	(void)state;
	assert_int_equal(load_text("[guest]\r\ncache = \"unsafe\" ; quoted\r\n"
				   "memory = '1G'\n"
				   "[storage]\nbackends = lvm, \\\n   qcow2 # both\n"
				   "[sweep]\nruns = 4 ; a comment\nseed = \"7\n"
				   "[appliance]\nupload = http://dav.lab/rack/#x\n",
				   &p),
			 0);
	assert_int_equal(p.guest.cache, AXIS_BIT(CACHE_UNSAFE));
	assert_int_equal(p.guest.memory, 1ULL << 30);
	assert_int_equal(p.storage.backends,
			 AXIS_BIT(BACKEND_LVM) | AXIS_BIT(BACKEND_QCOW2));
	assert_int_equal(p.sweep.runs, 4);
	assert_true(p.sweep.seed == 7);
	assert_string_equal(p.appliance.upload, "http://dav.lab/rack/");
	/* Empty once read: "", a comment, a continuation the file ends in. */
	expect_error("[guest]\ncache = \"\"\n", "t.ini:2: [guest] cache: empty value",
		     NULL);
	expect_error("[guest]\ncache = ; none\n", "t.ini:2: [guest] cache: empty value",
		     NULL);
	expect_error("[sweep]\nruns = 3\n[guest]\ncache = none\\\n",
		     "t.ini:4: [guest] cache: empty value", NULL);
	/* Lines of 1000 characters joined past iniparser's 1023. */
	big = malloc(3000);
	assert_non_null(big);
	snprintf(big, 3000, "[guest]\ncache = none, \\\n%900su\\\n%900sunsafe\n", "", "");
	expect_error(big, "t.ini: cannot be parsed as INI", NULL);
	free(big);
}

static void test_missing_file(void **state)
{
	struct profile p;

	(void)state;
	assert_true(loader_load("/nonexistent/x.ini", &p) < 0);
	assert_true(loader_load(tmpdir, &p) < 0);
	assert_true(loader_load("/dev/null", &p) < 0); /* not a regular file */
	assert_int_equal(load_text("", &p), 0);      /* empty: all defaults */
	assert_int_equal(p.sweep.runs, 5);
}

static void test_includes(void **state)
{
	struct profile p;
	char content[64];

	(void)state;
	write_file("base.ini", "[guest]\ncache = unsafe\nmemory = 1G\n"
			       "[sweep]\nruns = 3\n");
	assert_int_equal(load_text("[appliance]\ninclude = base.ini\n"
				   "[sweep]\nruns = 7\n", &p),
			 0);
	assert_int_equal(p.guest.cache, AXIS_BIT(CACHE_UNSAFE)); /* from base */
	assert_int_equal(p.guest.memory, 1ULL << 30);
	assert_int_equal(p.sweep.runs, 7); /* overridden */

	/* An error in the base names the base file and its line. */
	write_file("badbase.ini", "[guest]\n\ncache = fast\n");
	expect_error("[appliance]\ninclude = badbase.ini\n", "badbase.ini:3:",
		     "[guest] cache", NULL);
	expect_error("[appliance]\ninclude = missing.ini\n", "t.ini:2:",
		     "[appliance] include", "cannot read", NULL);

	/* Cycles: a includes b includes a. */
	write_file("cyc-a.ini", "[appliance]\ninclude = cyc-b.ini\n");
	write_file("cyc-b.ini", "[appliance]\ninclude = cyc-a.ini\n");
	expect_error("[appliance]\ninclude = cyc-a.ini\n", "include cycle", NULL);

	/* A chain 8 deep is accepted, 9 deep is not. */
	write_file("d0.ini", "[sweep]\nruns = 2\n");
	for (int i = 1; i <= 9; i++) {
		char name[16];
		snprintf(name, sizeof(name), "d%d.ini", i);
		snprintf(content, sizeof(content), "[appliance]\ninclude = d%d.ini\n",
			 i - 1);
		write_file(name, content);
	}
	assert_int_equal(load_text("[appliance]\ninclude = d7.ini\n", &p), 0);
	assert_int_equal(p.sweep.runs, 2);
	expect_error("[appliance]\ninclude = d8.ini\n", "deeper than 8", NULL);
}

static void test_buffer_and_keys_table(void **state)
{
	struct profile p;
	char buf[256];

	(void)state;
	assert_int_equal(loader_load_buffer("mem", "[sweep]\nruns=4\n", 15, &p), 0);
	assert_int_equal(p.sweep.runs, 4);
	/* Every key formats back to text that parses to the same value. */
	assert_int_equal(loader_load("profiles/full-sweep.ini", &p), 0);
	for (size_t i = 0; i < n_profile_keys; i++) {
		struct profile q = p;
		char reason[256];
		const struct key_def *k = &profile_keys[i];
		if (!keys_stored(k))
			continue;
		keys_format(&p, k, buf, sizeof(buf));
		assert_int_equal(keys_set(&q, k, buf, reason, sizeof(reason)), 0);
		assert_memory_equal((char *)&p + k->offset, (char *)&q + k->offset,
				    k->size);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shipped_profiles_load),
		cmocka_unit_test(test_headline_profile),
		cmocka_unit_test(test_defaults_and_types),
		cmocka_unit_test(test_unknown_names),
		cmocka_unit_test(test_bad_values),
		cmocka_unit_test(test_impossible_combination),
		cmocka_unit_test(test_syntax_and_junk),
		cmocka_unit_test(test_value_syntax),
		cmocka_unit_test(test_missing_file),
		cmocka_unit_test(test_includes),
		cmocka_unit_test(test_buffer_and_keys_table),
	};
	int r;

	if (!mkdtemp(tmpdir))
		return 1;
	r = cmocka_run_group_tests(tests, setup, teardown);
	char cmd[600];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	if (system(cmd) != 0)
		return 1;
	return r;
}
