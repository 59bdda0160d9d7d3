/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The one place that decides whether KVM is used: BUILDAPP_ACCEL, the
 * device probe, the answer kept until the host reboots, and the boot
 * check that looks for the kernel's panic on a real qemu's console (here
 * a stand-in qemu on PATH, so the check runs on any host). */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "unitskip.h"
#include "kvmboot.h"

static void test_environment_decides(void **state)
{
	(void)state;
	setenv("BUILDAPP_ACCEL", "kvm", 1);
	assert_int_equal(kvmboot_env_accel(), KVMBOOT_ACCEL_KVM);
	assert_int_equal(kvmboot_decide(), KVMBOOT_KVM);
	assert_int_equal(kvmboot_host_usable(), 1);
	setenv("BUILDAPP_ACCEL", "tcg", 1);
	assert_int_equal(kvmboot_decide(), KVMBOOT_TCG);
	assert_int_equal(kvmboot_host_usable(), 0);
	setenv("BUILDAPP_ACCEL", "auto", 1);
	assert_int_equal(kvmboot_env_accel(), KVMBOOT_ACCEL_AUTO);
	setenv("BUILDAPP_ACCEL", "", 1);
	assert_int_equal(kvmboot_env_accel(), KVMBOOT_ACCEL_AUTO);
	unsetenv("BUILDAPP_ACCEL");
	assert_int_equal(kvmboot_env_accel(), KVMBOOT_ACCEL_AUTO);
}

/* Junk is refused by every caller, not taken for auto. */
static void test_environment_junk(void **state)
{
	(void)state;
	const char *junk[] = {"KVM", "tcg ", "fast", "kvm,tcg"};
	for (size_t i = 0; i < sizeof junk / sizeof junk[0]; i++) {
		setenv("BUILDAPP_ACCEL", junk[i], 1);
		assert_int_equal(kvmboot_env_accel(), -EINVAL);
		assert_int_equal(kvmboot_decide(), -EINVAL);
		assert_int_equal(kvmboot_host_usable(), -EINVAL);
	}
	unsetenv("BUILDAPP_ACCEL");
}

/* The device probe says no where there is no KVM to use, on a host
 * with a working /dev/kvm, one whose /dev/kvm hangs guests, or one with
 * none: a child in a mount namespace of its own puts an empty tmpfs over
 * /dev and asks with no node at all, then with /dev/kvm a character
 * device that is not KVM (/dev/null's numbers), then a regular file.
 * The node existing and opening is not KVM, and nothing is left to
 * chance: each condition is made, not found.  Exit status: the first
 * case that answered yes, 0 when none did, 77 without namespaces. */
static int probe_without_kvm(void)
{
	if (unshare(CLONE_NEWNS) < 0 ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0 ||
	    mount("tmpfs", "/dev", "tmpfs", MS_NOSUID, "mode=0755") < 0)
		return 77;
	unsetenv("BUILDAPP_ACCEL");
	if (kvmboot_dev_usable() || kvmboot_decide() != KVMBOOT_TCG)
		return 1;
	if (mknod("/dev/kvm", S_IFCHR | 0666, makedev(1, 3)) < 0)
		return 77;
	if (kvmboot_dev_usable() || kvmboot_decide() != KVMBOOT_TCG)
		return 2;
	if (unlink("/dev/kvm") < 0 || close(open("/dev/kvm", O_CREAT | O_WRONLY, 0666)) < 0)
		return 77;
	if (kvmboot_dev_usable() || kvmboot_decide() != KVMBOOT_TCG)
		return 3;
	return 0;
}

static void test_device_probe(void **state)
{
	(void)state;
	/* Where the probe says yes, a VM can really be made. */
	if (kvmboot_dev_usable()) {
		int fd = open("/dev/kvm", O_RDWR | O_CLOEXEC);
		assert_true(fd >= 0);
		close(fd);
	}
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0)
		_exit(probe_without_kvm());
	int status;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	if (WEXITSTATUS(status) == 77)
		UNIT_SKIP("no mount namespace with a tmpfs over /dev here (not root)");
	/* 1: no node, 2: a node that is not KVM, 3: a regular file. */
	assert_int_equal(WEXITSTATUS(status), 0);
}

static char bindir[] = "/tmp/kvmboot-qemu-XXXXXX";
static char *saved_path;

/* A stand-in qemu-system-x86_64 first in PATH: it prints a panic when it
 * is given -accel ACCEL and -kernel K where K's first line says "panics",
 * hangs when it says "hangs", and prints the boot of a kernel that never
 * panics otherwise. */
static int stub_setup(void **state)
{
	char path[128], *p;

	(void)state;
	if (!mkdtemp(bindir))
		return -1;
	snprintf(path, sizeof(path), "%s/qemu-system-x86_64", bindir);
	FILE *f = fopen(path, "w");
	if (!f)
		return -1;
	fputs("#!/bin/sh\n"
	      "accel= kernel=\n"
	      "while [ $# -gt 0 ]; do\n"
	      "  case $1 in -accel) accel=$2 ;; -kernel) kernel=$2 ;; esac; shift\n"
	      "done\n"
	      "case $accel:$(head -n 1 \"$kernel\" 2>/dev/null) in\n"
	      "kvm:panics) echo 'Linux version 6.1'; echo 'Kernel panic - not syncing: VFS' ;;\n"
	      "*:hangs) exec sleep 60 ;;\n"
	      "*) echo 'Linux version 6.1'; echo 'Run /init as init process' ;;\n"
	      "esac\n",
	      f);
	fclose(f);
	chmod(path, 0755);
	saved_path = strdup(getenv("PATH"));
	if (!saved_path || asprintf(&p, "%s:%s", bindir, saved_path) < 0)
		return -1;
	setenv("PATH", p, 1);
	free(p);
	return 0;
}

static int stub_teardown(void **state)
{
	char path[128];

	(void)state;
	setenv("PATH", saved_path, 1);
	free(saved_path);
	for (const char *const *n = (const char *const[]){"qemu-system-x86_64", "panics", "hangs", "quiet", NULL}; *n; n++) {
		snprintf(path, sizeof(path), "%s/%s", bindir, *n);
		unlink(path);
	}
	rmdir(bindir);
	return 0;
}

static const char *kernel(const char *word)
{
	static char path[128];
	snprintf(path, sizeof(path), "%s/%s", bindir, word);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "%s\n", word);
	fclose(f);
	return path;
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void test_boot_check(void **state)
{
	(void)state;
	/* The panic line is what says a kernel booted, under the accel asked
	 * for. */
	assert_true(kvmboot_boots(kernel("panics"), "kvm", 10));
	assert_false(kvmboot_boots(kernel("panics"), "tcg", 10));
	/* A kernel that boots but never panics, or a qemu that cannot load
	 * the file: no. */
	assert_false(kvmboot_boots(kernel("quiet"), "kvm", 10));
	assert_false(kvmboot_boots("/nonexistent/vmlinuz", "kvm", 10));
	/* A kernel that hangs is given up at the timeout. */
	double t0 = now();
	assert_false(kvmboot_boots(kernel("hangs"), "kvm", 1));
	assert_true(now() - t0 < 10);
	/* kvmboot_probe is the same check behind the device probe. */
	assert_int_equal(kvmboot_probe(kernel("panics"), 10), kvmboot_dev_usable());
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

/* The answer kept for this host boot is used without booting anything;
 * without a usable device it is not even read. */
static void test_answer_kept_until_reboot(void **state)
{
	char dir[] = "/tmp/kvmboot-test-XXXXXX", path[64];

	(void)state;
	unsetenv("BUILDAPP_ACCEL");
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/buildapp-kvm", dir);
	setenv("XDG_RUNTIME_DIR", dir, 1);
	for (int kvm = 0; kvm < 2; kvm++) {
		FILE *f = fopen(path, "w");
		assert_non_null(f);
		fputs(kvm ? "kvm\n" : "tcg\n", f);
		fclose(f);
		int want = kvmboot_dev_usable() ? kvm : 0;
		assert_int_equal(kvmboot_decide(), want ? KVMBOOT_KVM : KVMBOOT_TCG);
		assert_int_equal(kvmboot_host_usable(), want);
	}
	unlink(path);
	rmdir(dir);
	unsetenv("XDG_RUNTIME_DIR");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_environment_decides),
		cmocka_unit_test(test_environment_junk),
		cmocka_unit_test(test_device_probe),
		cmocka_unit_test_setup_teardown(test_boot_check, stub_setup, stub_teardown),
		cmocka_unit_test(test_remember),
		cmocka_unit_test(test_answer_kept_until_reboot),
	};
	return unit_result(cmocka_run_group_tests(tests, NULL, NULL));
}
