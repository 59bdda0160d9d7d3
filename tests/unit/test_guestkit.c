/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The guest kit's dependency resolution: shared libraries from ELF
 * dynamic sections (checked against ld.so's own answer) and kernel module
 * load order from modules.dep. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <cmocka.h>

#include "unitskip.h"
#include "elfdeps.h"
#include "guestkit.h"
#include "kernel.h"
#include "kmods.h"

static bool resolved(const struct elfdeps *d, const char *real)
{
	char buf[4096];
	for (size_t i = 0; i < d->n; i++)
		if (realpath(d->paths[i], buf) && strcmp(buf, real) == 0)
			return true;
	return false;
}

/* Every library `ldd` lists (ld.so --list: what the loader really maps)
 * must be in our closure, and nothing more. */
static void check_program(const char *prog)
{
	struct elfdeps d = {0};
	char cmd[512], line[4096], real[4096];
	size_t n = 0;

	assert_int_equal(elfdeps_add(&d, prog), 0);
	snprintf(cmd, sizeof(cmd), "ldd %s", prog);
	FILE *p = popen(cmd, "r");
	assert_non_null(p);
	while (fgets(line, sizeof(line), p)) {
		char *path = strstr(line, "=> /");
		path = path ? path + 3 : strchr(line, '/');
		if (!path)
			continue; /* linux-vdso */
		path[strcspn(path, " (\n")] = '\0';
		assert_non_null(realpath(path, real));
		if (!resolved(&d, real))
			fail_msg("%s: %s not resolved", prog, path);
		n++;
	}
	pclose(p);
	assert_int_equal(n, d.n);
	elfdeps_release(&d);
}

static void libraries_match_ldd(void **state)
{
	(void)state;
	if (access("/usr/sbin/bonnie++", X_OK) != 0 ||
	    access("/usr/bin/fio", X_OK) != 0)
		UNIT_SKIP("bonnie++ or fio is not installed");
	check_program("/usr/sbin/bonnie++");
	check_program("/usr/bin/fio"); /* ceph libs via DT_RUNPATH */
}

static void not_elf(void **state)
{
	(void)state;
	struct elfdeps d = {0};
	assert_int_equal(elfdeps_add(&d, "/etc/passwd"), -ENOEXEC);
	elfdeps_release(&d);
}

static ssize_t position(const struct elfdeps *d, const char *base)
{
	for (size_t i = 0; i < d->n; i++) {
		const char *b = strrchr(d->paths[i], '/');
		if (strcmp(b ? b + 1 : d->paths[i], base) == 0)
			return (ssize_t)i;
	}
	return -1;
}

static void module_order(void **state)
{
	(void)state;
	char kernel[4096], version[128], moddir[4300];
	if (kernel_default(kernel, sizeof(kernel), version, sizeof(version)) < 0)
		UNIT_SKIP("no kernel in /boot with modules");
	snprintf(moddir, sizeof(moddir), "/lib/modules/%s", version);
	const char *const names[] = {"virtio-blk", "ext4", "ahci", NULL};
	struct elfdeps d = {0};
	assert_int_equal(kmods_resolve(moddir, names, false, &d), 0);
	ssize_t ring = position(&d, "virtio_ring.ko"),
		virtio = position(&d, "virtio.ko"),
		blk = position(&d, "virtio_blk.ko"),
		jbd2 = position(&d, "jbd2.ko"), ext4 = position(&d, "ext4.ko"),
		libata = position(&d, "libata.ko"),
		ahci = position(&d, "ahci.ko");
	if (blk < 0)
		UNIT_SKIP("virtio_blk is built into this kernel: no module order to check");
	assert_true(ring >= 0 && ring < virtio && virtio < blk);
	assert_true(jbd2 >= 0 && jbd2 < ext4);
	assert_true(libata >= 0 && libata < ahci);
	/* No duplicates: virtio_ring is needed by all virtio modules. */
	for (size_t i = 0; i < d.n; i++)
		for (size_t j = i + 1; j < d.n; j++)
			assert_string_not_equal(d.paths[i], d.paths[j]);
	elfdeps_release(&d);

	/* ext4's softdep (pre: crc32c, an alias) comes before it, with
	 * every module of the alias, though nobody named crc32c. */
	const char *const ext4_only[] = {"ext4", NULL};
	assert_int_equal(kmods_resolve(moddir, ext4_only, false, &d), 0);
	ssize_t crc = position(&d, "crc32c_generic.ko");
	ext4 = position(&d, "ext4.ko");
	assert_true(ext4 >= 0);
	assert_true(crc >= 0 && crc < ext4);
	elfdeps_release(&d);

	const char *const bad[] = {"no_such_module_xyz", NULL};
	assert_int_equal(kmods_resolve(moddir, bad, false, &d), -ENOENT);
	assert_int_equal(kmods_resolve(moddir, bad, true, &d), 0);
	assert_int_equal(d.n, 0);
	elfdeps_release(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(libraries_match_ldd),
		cmocka_unit_test(not_elf),
		cmocka_unit_test(module_order),
	};
	return unit_result(cmocka_run_group_tests(tests, NULL, NULL));
}
