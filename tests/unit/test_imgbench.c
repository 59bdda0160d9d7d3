/* SPDX-License-Identifier: GPL-2.0-or-later */
/* qemu-img bench, the host-side workload: run for real on a small qcow2
 * image (a fraction of a second), its time checked against the wall
 * clock; and through a stand-in qemu-img that records its arguments and
 * prints a known time, so the command line (the L2 cache size, a comma in
 * a file name) and the metrics are checked exactly. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "imgbench.h"
#include "log.h"

static char dir[] = "/tmp/test-imgbench-XXXXXX";
static char image[128], stub[128], args[128];

static void write_file(const char *path, const char *text, mode_t mode)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	chmod(path, mode);
}

static char *read_file(const char *path)
{
	static char buf[4096];
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	return buf;
}

static int setup(void **state)
{
	char cmd[512];

	(void)state;
	if (!mkdtemp(dir))
		return -1;
	/* A comma in the name: --image-opts must write it twice. */
	snprintf(image, sizeof(image), "%s/a,b.qcow2", dir);
	snprintf(stub, sizeof(stub), "%s/qemu-img", dir);
	snprintf(args, sizeof(args), "%s/args", dir);
	snprintf(cmd, sizeof(cmd), "qemu-img create -q -f qcow2 '%s' 1G", image);
	return system(cmd) == 0 ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	unlink(image);
	unlink(stub);
	unlink(args);
	rmdir(dir);
	return 0;
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double metric(const struct results *r, const char *name)
{
	const struct result_metric *m = results_find(r, name);
	assert_non_null(m);
	return m->value;
}

/* The real qemu-img: 20000 reads take tens of milliseconds here, enough
 * for its millisecond clock; the time it prints lies within the call's. */
static void test_real(void **state)
{
	(void)state;
	struct imgbench_opts o = {.count = 20000, .step = 512u << 10,
				  .format = "qcow2"};
	struct results r;
	for (int with_cache = 0; with_cache < 2; with_cache++) {
		o.cache_size = with_cache ? (1u << 20) + (256u << 10) : 0;
		double t0 = now();
		assert_int_equal(imgbench_run(image, &o, &r), 0);
		double wall = now() - t0;
		assert_true(r.begun && r.ended);
		double secs = metric(&r, "bench_seconds");
		assert_true(secs > 0);
		assert_true(secs <= wall + 0.001);
		assert_true(fabs(metric(&r, "bench_iops") - o.count / secs) < 1e-6 * o.count / secs);
	}
	assert_int_equal(imgbench_run("/nonexistent.qcow2", &o, &r), -EIO);
}

static void test_command_line(void **state)
{
	char want[512];

	(void)state;
	write_file(stub,
		   "#!/bin/sh\n"
		   "for a in \"$@\"; do echo \"$a\"; done > \"${0%/*}/args\"\n"
		   "echo 'Sending 4000 read requests'\n"
		   "echo 'Run completed in 2.500 seconds.'\n",
		   0755);
	struct imgbench_opts o = {.count = 4000, .step = 65536, .format = "qcow2",
				  .cache = "none", .cache_size = 3u << 20,
				  .qemu_img = stub};
	struct results r;
	assert_int_equal(imgbench_run(image, &o, &r), 0);
	assert_true(metric(&r, "bench_seconds") == 2.5);
	assert_true(metric(&r, "bench_iops") == 1600);
	snprintf(want, sizeof(want),
		 "bench\n-c\n4000\n-S\n65536\n-t\nnone\n--image-opts\n"
		 "driver=qcow2,file.filename=%s/a,,b.qcow2,cache-size=3145728\n", dir);
	assert_string_equal(read_file(args), want);

	/* Without a cache size: -f and the plain file name. */
	o.cache_size = 0;
	o.cache = NULL;
	assert_int_equal(imgbench_run(image, &o, &r), 0);
	snprintf(want, sizeof(want), "bench\n-c\n4000\n-S\n65536\n-f\nqcow2\n%s\n", image);
	assert_string_equal(read_file(args), want);

	/* Writes, a flush after every 8 of them. */
	o.write = true;
	o.flush_interval = 8;
	o.depth = 8;
	o.cache = "writethrough";
	assert_int_equal(imgbench_run(image, &o, &r), 0);
	snprintf(want, sizeof(want),
		 "bench\n-c\n4000\n-S\n65536\n-t\nwritethrough\n-d\n8\n-w\n"
		 "--flush-interval=8\n-f\nqcow2\n%s\n", image);
	assert_string_equal(read_file(args), want);
	o.write = false;
	o.flush_interval = 0;
	o.depth = 0;

	/* No run time printed; a failed run. */
	write_file(stub, "#!/bin/sh\necho 'Sending 4000 read requests'\n", 0755);
	assert_int_equal(imgbench_run(image, &o, &r), -EBADMSG);
	write_file(stub, "#!/bin/sh\necho 'Run completed in 1.000 seconds.'\nexit 1\n", 0755);
	assert_int_equal(imgbench_run(image, &o, &r), -EIO);

	/* Its stderr into the run's log, and the last line of it into the
	 * error: what a disk that fails says. */
	char log[PATH_MAX];
	snprintf(log, sizeof(log), "%s/run.log", dir);
	o.log = log;
	write_file(stub, "#!/bin/sh\necho 'Sending 4000 read requests'\n"
			 "echo 'qemu-img: Failed request: Input/output error' >&2\necho >&2\nexit 1\n",
		   0755);
	assert_int_equal(imgbench_run(image, &o, &r), -EIO);
	assert_string_equal(log_last_error(), "qemu-img bench failed: qemu-img: Failed request: "
					      "Input/output error");
	assert_non_null(strstr(read_file(log), "Input/output error"));
	unlink(log);
}

int main(void)
{
	if (system("qemu-img --version >/dev/null 2>&1") != 0) {
		printf("qemu-img not installed\n");
		return 77;
	}
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_real),
		cmocka_unit_test(test_command_line),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
