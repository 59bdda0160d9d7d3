/* Parser of the guest's console output, on outputs captured from real
 * runs of fio 3.33 and bonnie++ 2.00a (tests/unit/data/) and the
 * published bonnie++ 1.03/1.96 lines of the reference studies. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cleanup.h"
#include "guestcmdline.h"
#include "imgbench.h"
#include "results.h"
#include "testfile.h"

/* Frames TEXT as the agent does, with kernel junk between lines. */
static char *console_log(const char *tool, const char *text, bool junk)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	unsigned lines = 0;
	for (const char *p = text; *p; p++)
		if (*p == '\n')
			lines++;
	fprintf(f, "[    0.000000] Linux version 6.1.0\r\n"
		   "BUILDAPP:BEGIN workload=%s kernel=6.1.0-57-amd64\r\n"
		   "BUILDAPP:INFO disk=/dev/vda\r\n"
		   "BUILDAPP:RAW-BEGIN %s lines=%u\r\n",
		tool, tool, lines);
	unsigned i = 0;
	for (const char *p = text; *p;) {
		size_t n = strcspn(p, "\n");
		fprintf(f, "BUILDAPP:RAW %.*s\r\n", (int)n, p);
		if (junk && ++i % 7 == 0)
			fprintf(f, "[   12.3] random: crng init done\r\n");
		p += n + (p[n] ? 1 : 0);
	}
	fprintf(f, "BUILDAPP:RAW-END %s\r\n"
		   "[   13.0] reboot: Power down\r\n"
		   "BUILDAPP:METRIC name=workload_seconds value=2.5 unit=s\r\n"
		   "BUILDAPP:END status=0\r\n",
		tool);
	fclose(f);
	return out;
}

static void fio_randwrite(void **state)
{
	(void)state;
	_cleanup_free_ char *json = read_data("fio-randwrite.json");
	_cleanup_free_ char *log = console_log("fio", json, true);
	struct results r;
	assert_int_equal(results_parse(log, strlen(log), WORKLOAD_FIO, &r), 0);
	assert_true(r.ended);
	assert_int_equal(r.status, 0);
	assert_string_equal(r.kernel, "6.1.0-57-amd64");
	const struct result_metric *m = results_find(&r, "fio_write_iops");
	assert_non_null(m);
	assert_true(m->value > 0);
	assert_string_equal(m->unit, "IOPS");
	assert_non_null(results_find(&r, "fio_write_bw"));
	assert_non_null(results_find(&r, "fio_write_clat_mean"));
	assert_non_null(results_find(&r, "fio_write_clat_p50"));
	assert_non_null(results_find(&r, "fio_write_clat_p99"));
	assert_non_null(results_find(&r, "fio_write_clat_p99_9"));
	assert_null(results_find(&r, "fio_read_iops")); /* no reads done */
	const struct result_metric *w = results_find(&r, "workload_seconds");
	assert_non_null(w);
	assert_true(w->value == 2.5);
	/* p50 <= p99 <= p99.9, in microseconds */
	assert_true(results_find(&r, "fio_write_clat_p50")->value <=
		    results_find(&r, "fio_write_clat_p99")->value);
}

static void fio_randrw_both_directions(void **state)
{
	(void)state;
	_cleanup_free_ char *json = read_data("fio-randrw.json");
	struct results r = {0};
	assert_int_equal(results_parse_fio_json(json, &r), 0);
	assert_non_null(results_find(&r, "fio_read_iops"));
	assert_non_null(results_find(&r, "fio_write_iops"));
	/* Captured without lat_percentiles: total latency has its mean, and
	 * no percentile fio did not compute. */
	assert_non_null(results_find(&r, "fio_read_lat_mean"));
	assert_null(results_find(&r, "fio_read_lat_p99"));
	assert_int_equal(r.n_metrics, 14);
}

static void bonnie_2(void **state)
{
	(void)state;
	_cleanup_free_ char *csv = read_data("bonnie-2.00a.csv");
	_cleanup_free_ char *log = console_log("bonnie", csv, false);
	struct results r;
	assert_int_equal(results_parse(log, strlen(log), WORKLOAD_BONNIE, &r),
			 0);
	/* 1.98,2.00a,vm,1,...,64M,,8192,5,2574,98,+++++,... */
	assert_true(results_find(&r, "bonnie_putc")->value == 2574);
	assert_true(results_find(&r, "bonnie_getc")->value == 4397);
	assert_null(results_find(&r, "bonnie_block_write")); /* +++++ */
}

static void bonnie_published(void **state)
{
	(void)state;
	/* bonnie-qcow2-vs-raw-2010.txt and slow-guest-disk-lp550409.txt */
	struct results r = {0};
	char v103[] = "webtest,1G,12754,17,11505,2,18583,3,65015,93,500392,53,"
		      "+++++,+++,16,+++++,+++,+++++,+++,+++++,+++,+++++,+++,"
		      "+++++,+++,+++++,+++";
	assert_int_equal(results_parse_bonnie_csv(v103, &r), 0);
	assert_true(results_find(&r, "bonnie_putc")->value == 12754);
	assert_true(results_find(&r, "bonnie_block_write")->value == 11505);
	assert_true(results_find(&r, "bonnie_rewrite")->value == 18583);
	assert_true(results_find(&r, "bonnie_getc")->value == 65015);
	assert_true(results_find(&r, "bonnie_block_read")->value == 500392);
	assert_null(results_find(&r, "bonnie_seeks"));

	struct results r2 = {0};
	char v196[] = "1.96,1.96,octillion,1,1269961838,10G,,161,97,76547,18,"
		      "42493,12,1976,96,114159,10,262.1,3,16,,,,,15145,28,"
		      "+++++,+++,22692,29,18729,30,+++++,+++,25217,30,147ms,"
		      "4926ms,16159ms,21546us,176ms,198ms";
	assert_int_equal(results_parse_bonnie_csv(v196, &r2), 0);
	assert_true(results_find(&r2, "bonnie_putc")->value == 161);
	assert_true(results_find(&r2, "bonnie_block_write")->value == 76547);
	assert_true(results_find(&r2, "bonnie_seeks")->value == 262.1);
	assert_string_equal(results_find(&r2, "bonnie_seeks")->unit, "/s");
}

static void timed_metrics_and_failures(void **state)
{
	(void)state;
	struct results r;
	const char ok[] = "junk\nxxBUILDAPP:BEGIN workload=tarball-write kernel=k\n"
			  "BUILDAPP:METRIC name=write_seconds value=12.5 unit=s\r\n"
			  "BUILDAPP:END status=0\n";
	assert_int_equal(results_parse(ok, strlen(ok), WORKLOAD_TARBALL_WRITE,
				       &r),
			 0);
	assert_true(results_find(&r, "write_seconds")->value == 12.5);

	const char failed[] = "BUILDAPP:BEGIN workload=dd kernel=k\n"
			      "BUILDAPP:ERROR no disk appeared in 30 seconds\n"
			      "BUILDAPP:END status=1\n";
	assert_int_equal(results_parse(failed, strlen(failed), WORKLOAD_DD, &r),
			 -EIO);
	assert_string_equal(r.error, "guest: no disk appeared in 30 seconds");

	const char crashed[] = "BUILDAPP:BEGIN workload=dd kernel=k\n"
			       "Kernel panic - not syncing\n";
	assert_int_equal(results_parse(crashed, strlen(crashed), WORKLOAD_DD,
				       &r),
			 -ENODATA);
	assert_int_equal(results_parse("", 0, WORKLOAD_DD, &r), -ENODATA);

	/* A RAW frame that lost a line must not be decoded. */
	const char lost[] = "BUILDAPP:BEGIN workload=fio kernel=k\n"
			    "BUILDAPP:RAW-BEGIN fio lines=3\n"
			    "BUILDAPP:RAW {\n"
			    "BUILDAPP:RAW }\n"
			    "BUILDAPP:RAW-END fio\n"
			    "BUILDAPP:END status=0\n";
	assert_int_equal(results_parse(lost, strlen(lost), WORKLOAD_FIO, &r),
			 -EBADMSG);

	/* Success without the workload's metric is not a result. */
	const char empty[] = "BUILDAPP:BEGIN workload=dd kernel=k\n"
			     "BUILDAPP:END status=0\n";
	assert_int_equal(results_parse(empty, strlen(empty), WORKLOAD_DD, &r),
			 -EBADMSG);
}

static void cmdline(void **state)
{
	(void)state;
	struct profile p = {0};
	p.workload.fio_rw = AXIS_BIT(FIO_RW_RANDWRITE);
	p.workload.fio_bs = (struct num_axis){1, {4096}};
	p.workload.fio_iodepth = (struct num_axis){1, {1}};
	p.workload.fio_size = 1 << 20;
	p.workload.fio_fsync = 1;
	_cleanup_free_ char *s = NULL;
	assert_int_equal(guestcmdline_build(&p, WORKLOAD_FIO, &s), 0);
	/* The knobs that were not there before only when they change
	 * something: older kits' command lines stay as they were. */
	assert_null(strstr(s, "numjobs"));
	assert_null(strstr(s, "ioengine"));
	assert_null(strstr(s, "rwmixread"));
	assert_null(strstr(s, "fio_job"));
	assert_null(strstr(s, "fio_ramp"));
	assert_null(strstr(s, "steadystate"));
	/* The method's keys, each a word of its own. */
	_cleanup_free_ char *m = NULL;
	p.workload.fio_ramp = 5;
	snprintf(p.workload.fio_steadystate, sizeof(p.workload.fio_steadystate), "iops_slope:0.1%%");
	p.workload.fio_ss_duration = 20;
	assert_int_equal(guestcmdline_build(&p, WORKLOAD_FIO, &m), 0);
	assert_non_null(strstr(m, " buildapp.fio_ramp=5 "));
	assert_non_null(strstr(m, " buildapp.fio_steadystate=iops_slope:0.1% buildapp.fio_ss_duration=20 "
				  "buildapp.fio_ss_ramp=0"));
	p.workload.fio_ramp = 0;
	p.workload.fio_steadystate[0] = '\0';
	/* A cell's own knobs win over the profile's; auto resolved. */
	_cleanup_free_ char *c = NULL;
	struct plan_cell cell = {.workload = WORKLOAD_FIO, PLAN_CELL_NO_FIO};
	cell.fio_rw = FIO_RW_RANDRW;
	cell.fio_iodepth = 32;
	cell.fio_numjobs = 4;
	cell.fio_ioengine = FIO_IOENGINE_IO_URING;
	p.workload.fio_rwmixread = (struct num_axis){1, {70}};
	assert_int_equal(guestcmdline_build_cell(&p, &cell, &c), 0);
	assert_non_null(strstr(c, " buildapp.fio_rw=randrw "));
	assert_non_null(strstr(c, " buildapp.fio_iodepth=32 "));
	assert_non_null(strstr(c, " buildapp.fio_numjobs=4"));
	assert_non_null(strstr(c, " buildapp.fio_ioengine=io_uring"));
	assert_non_null(strstr(c, " buildapp.fio_rwmixread=70"));
	/* libaio is what auto gives at 32: not said. */
	_cleanup_free_ char *aio = NULL;
	cell.fio_ioengine = FIO_IOENGINE_LIBAIO;
	assert_int_equal(guestcmdline_build_cell(&p, &cell, &aio), 0);
	assert_null(strstr(aio, "ioengine"));
	/* A job file: its path in the kit. */
	_cleanup_free_ char *j = NULL;
	snprintf(p.workload.fio_job, sizeof(p.workload.fio_job), "profiles/x.fio");
	assert_int_equal(guestcmdline_build(&p, WORKLOAD_FIO, &j), 0);
	assert_non_null(strstr(j, " buildapp.fio_job=/etc/buildapp/job.fio"));
	p.workload.fio_job[0] = '\0';
	assert_non_null(strstr(s, "console=ttyS0 "));
	assert_non_null(strstr(s, " buildapp.workload=fio "));
	assert_non_null(strstr(s, " buildapp.fio_rw=randwrite "));
	assert_non_null(strstr(s, " buildapp.fio_fsync=1 "));
	assert_non_null(strstr(s, " buildapp.fio_size=1048576 "));
	/* fio_target only when it is the device. */
	assert_null(strstr(s, "fio_target"));
	_cleanup_free_ char *dev = NULL;
	p.workload.fio_target = FIO_TARGET_DEVICE;
	assert_int_equal(guestcmdline_build(&p, WORKLOAD_FIO, &dev), 0);
	assert_non_null(strstr(dev, " buildapp.fio_target=device"));
	/* bonnie_fast only when asked for: other kits' lines unchanged. */
	_cleanup_free_ char *b = NULL, *bf = NULL;
	p.workload.bonnie_size = 2 << 20;
	assert_int_equal(guestcmdline_build(&p, WORKLOAD_BONNIE, &b), 0);
	assert_non_null(strstr(b, " buildapp.bonnie_size=2097152"));
	assert_null(strstr(b, "bonnie_fast"));
	p.workload.bonnie_fast = true;
	assert_int_equal(guestcmdline_build(&p, WORKLOAD_BONNIE, &bf), 0);
	assert_non_null(strstr(bf, " buildapp.bonnie_size=2097152 buildapp.bonnie_fast=1"));
	char *t = NULL;
	assert_int_equal(guestcmdline_build(&p, WORKLOAD_QEMU_IMG_BENCH, &t),
			 -EINVAL);
}

static void imgbench_output(void **state)
{
	(void)state;
	double s;
	assert_int_equal(imgbench_parse_output(
				 "Sending 1000 read requests, 4096 bytes each, "
				 "64 in parallel (starting at offset 0, step "
				 "size 536870912)\nRun completed in 2.345 "
				 "seconds.\n",
				 &s),
			 0);
	assert_true(s == 2.345);
	assert_int_equal(imgbench_parse_output("qemu-img: error\n", &s),
			 -EBADMSG);
}

/* Console logs of real guest boots (qemu TCG, the kit's 6.1 kernel). */
static void real_console_logs(void **state)
{
	(void)state;
	static const struct {
		const char *file;
		enum workload_kind kind;
		const char *metric;
	} logs[] = {
		{"console-fio.log", WORKLOAD_FIO, "fio_write_clat_p99_9"},
		{"console-bonnie.log", WORKLOAD_BONNIE, "bonnie_putc"},
		{"console-dd.log", WORKLOAD_DD, "dd_mbps"},
		{"console-tarball-write.log", WORKLOAD_TARBALL_WRITE,
		 "write_seconds"},
		{"console-tarball-read.log", WORKLOAD_TARBALL_READ,
		 "read_seconds"},
	};
	for (size_t i = 0; i < sizeof(logs) / sizeof(logs[0]); i++) {
		_cleanup_free_ char *log = read_data(logs[i].file);
		struct results r;
		assert_int_equal(results_parse(log, strlen(log), logs[i].kind,
					       &r),
				 0);
		assert_string_equal(r.kernel, "6.1.0-57-amd64");
		const struct result_metric *m =
			results_find(&r, logs[i].metric);
		assert_non_null(m);
		assert_true(m->value > 0);
		/* The same log read as another kind lacks its metrics. */
		enum workload_kind other = logs[i].kind == WORKLOAD_DD
						   ? WORKLOAD_FIO
						   : WORKLOAD_DD;
		assert_int_equal(results_parse(log, strlen(log), other, &r),
				 -EBADMSG);
	}
}

/* Every prefix of a real log, and the log with a byte changed here and
 * there, parses without crashing (check-asan runs this too): a guest
 * killed mid-line or a noisy serial line must give an error, not UB. */
static void truncated_and_damaged(void **state)
{
	(void)state;
	_cleanup_free_ char *log = read_data("console-fio.log");
	size_t len = strlen(log);
	struct results r;
	for (size_t n = 0; n < len; n += 13) {
		int e = results_parse(log, n, WORKLOAD_FIO, &r);
		bool whole = memmem(log, n, "BUILDAPP:END status=0", 21);
		assert_true(e == -ENODATA || e == -EBADMSG || e == -EIO ||
			    (e == 0 && whole));
	}
	assert_int_equal(results_parse(log, len, WORKLOAD_FIO, &r), 0);
	uint64_t seed = 42;
	for (int i = 0; i < 200; i++) {
		_cleanup_free_ char *copy = strdup(log);
		for (int j = 0; j < 8; j++) {
			seed = seed * 6364136223846793005ull + 1;
			copy[(seed >> 33) % len] = (char)(seed >> 17);
		}
		results_parse(copy, len, WORKLOAD_FIO, &r);
		assert_true(r.n_metrics <= RESULTS_MAX_METRICS);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(fio_randwrite),
		cmocka_unit_test(fio_randrw_both_directions),
		cmocka_unit_test(bonnie_2),
		cmocka_unit_test(bonnie_published),
		cmocka_unit_test(timed_metrics_and_failures),
		cmocka_unit_test(cmdline),
		cmocka_unit_test(imgbench_output),
		cmocka_unit_test(real_console_logs),
		cmocka_unit_test(truncated_and_damaged),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
