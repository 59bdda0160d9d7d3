/* The KVM boot check that decides whether libguestfs launches use KVM. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <cmocka.h>

#include "kvmboot.h"

static void test_environment_decides(void **state)
{
	(void)state;
	setenv("BUILDAPP_ACCEL", "kvm", 1);
	assert_true(kvmboot_host_usable());
	setenv("BUILDAPP_ACCEL", "tcg", 1);
	assert_false(kvmboot_host_usable());
	unsetenv("BUILDAPP_ACCEL");
}

static void test_kernel_that_does_not_boot(void **state)
{
	(void)state;
	/* qemu cannot load it: no panic line, so no KVM. */
	assert_false(kvmboot_probe("/nonexistent/vmlinuz", 5));
}

/* What is remembered is read back; without a file the answer is unknown. */
static void test_remember(void **state)
{
	char dir[] = "/tmp/kvmboot-test-XXXXXX", path[64];

	(void)state;
	assert_non_null(mkdtemp(dir));
	setenv("XDG_RUNTIME_DIR", dir, 1);
	assert_int_equal(kvmboot_cached(), -1);
	kvmboot_remember(false);
	assert_int_equal(kvmboot_cached(), 0);
	kvmboot_remember(true);
	assert_int_equal(kvmboot_cached(), 1);
	snprintf(path, sizeof(path), "%s/buildapp-kvm", dir);
	unlink(path);
	/* A runtime directory not made yet is made. */
	snprintf(path, sizeof(path), "%s/run", dir);
	setenv("XDG_RUNTIME_DIR", path, 1);
	kvmboot_remember(true);
	assert_int_equal(kvmboot_cached(), 1);
	snprintf(path, sizeof(path), "%s/run/buildapp-kvm", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/run", dir);
	rmdir(path);
	rmdir(dir);
	unsetenv("XDG_RUNTIME_DIR");
}

/* The answer kept for this host boot is used without booting anything. */
static void test_answer_kept_until_reboot(void **state)
{
	char dir[] = "/tmp/kvmboot-test-XXXXXX", path[64];

	(void)state;
	if (access("/dev/kvm", R_OK | W_OK) < 0)
		skip(); /* without /dev/kvm the answer is no before any cache */
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/buildapp-kvm", dir);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs("kvm\n", f);
	fclose(f);
	setenv("XDG_RUNTIME_DIR", dir, 1);
	unsetenv("BUILDAPP_ACCEL");
	assert_true(kvmboot_host_usable());
	unlink(path);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_environment_decides),
		cmocka_unit_test(test_kernel_that_does_not_boot),
		cmocka_unit_test(test_remember),
		cmocka_unit_test(test_answer_kept_until_reboot),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
