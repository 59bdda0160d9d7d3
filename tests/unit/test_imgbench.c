/* qemu-img bench on a small qcow2 image: the host-side workload, run for
 * real (it takes a fraction of a second), with and without an L2 cache
 * size. */
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

#include "imgbench.h"

static char image[] = "/tmp/test-imgbench-XXXXXX";

static int setup(void **state)
{
	(void)state;
	char cmd[256];
	int fd = mkstemp(image);
	if (fd < 0)
		return -1;
	close(fd);
	snprintf(cmd, sizeof(cmd),
		 "qemu-img create -q -f qcow2 '%s' 1G >/dev/null 2>&1", image);
	return system(cmd) == 0 ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	unlink(image);
	return 0;
}

static void bench(void **state)
{
	(void)state;
	struct imgbench_opts o = {.count = 2000, .step = 512u << 10,
				  .format = "qcow2"};
	struct results r;
	assert_int_equal(imgbench_run(image, &o, &r), 0);
	assert_true(r.ended);
	assert_non_null(results_find(&r, "bench_seconds"));
	assert_true(results_find(&r, "bench_seconds")->value >= 0);

	o.cache_size = (1u << 20) + (256u << 10);
	assert_int_equal(imgbench_run(image, &o, &r), 0);
	assert_non_null(results_find(&r, "bench_seconds"));

	assert_int_not_equal(imgbench_run("/nonexistent.qcow2", &o, &r), 0);
}

int main(void)
{
	if (system("qemu-img --version >/dev/null 2>&1") != 0) {
		printf("qemu-img not installed\n");
		return 0;
	}
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(bench),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
