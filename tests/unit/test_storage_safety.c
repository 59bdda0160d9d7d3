/* Safety decisions: which targets may be written. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "safety.h"

static struct safety_facts disk_with(const char *sig)
{
	struct safety_facts f;

	memset(&f, 0, sizeof(f));
	f.exists = true;
	f.block_device = true;
	strcpy(f.disk, "sdb");
	strcpy(f.identities[f.n_identities++], "ata-WDC_WD40_WX11");
	strcpy(f.identities[f.n_identities++], "WX11");
	strcpy(f.identities[f.n_identities++], "wwn-0x50014ee2b1");
	if (sig)
		strcpy(f.signatures[f.n_signatures++], sig);
	return f;
}

static int decide(const struct safety_facts *f, bool wipe, const char *id,
		  char *reason)
{
	struct safety_policy p = {wipe, id, NULL};

	reason[0] = '\0';
	return safety_decide(f, &p, reason, SAFETY_REASON_MAX);
}

static void test_blank_disk(void **state)
{
	struct safety_facts f = disk_with(NULL);
	char r[SAFETY_REASON_MAX];

	(void)state;
	assert_int_equal(decide(&f, false, "auto", r), 0);
	assert_int_equal(decide(&f, false, "WX11", r), 0);
	assert_int_equal(decide(&f, false, NULL, r), 0);
}

static void test_signatures_need_wipe_and_identity(void **state)
{
	static const char *const sigs[] = {"gpt", "dos", "ext4", "LVM2_member",
					   "linux_raid_member"};
	char r[SAFETY_REASON_MAX];
	(void)state;

	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		struct safety_facts f = disk_with(sigs[i]);

		/* no wipe */
		assert_int_equal(decide(&f, false, "WX11", r), -EPERM);
		assert_non_null(strstr(r, sigs[i]));
		assert_non_null(strstr(r, "wipe"));
		/* wipe but no identity */
		assert_int_equal(decide(&f, true, "auto", r), -EPERM);
		assert_non_null(strstr(r, "stable identity"));
		assert_non_null(strstr(r, sigs[i]));
		assert_int_equal(decide(&f, true, "", r), -EPERM);
		/* wipe and the wrong identity */
		assert_int_equal(decide(&f, true, "ata-OTHER_DISK", r), -EPERM);
		assert_non_null(strstr(r, "is not 'ata-OTHER_DISK'"));
		assert_non_null(strstr(r, sigs[i]));
		/* wipe and a matching by-id name, serial or WWN */
		assert_int_equal(decide(&f, true, "/dev/disk/by-id/ata-WDC_WD40_WX11", r), 0);
		assert_int_equal(decide(&f, true, "wx11", r), 0);
		assert_int_equal(decide(&f, true, "wwn-0x50014ee2b1", r), 0);
	}
}

static void test_wrong_identity_on_blank_disk(void **state)
{
	struct safety_facts f = disk_with(NULL);
	char r[SAFETY_REASON_MAX];

	(void)state;
	assert_int_equal(decide(&f, false, "SERIAL9", r), -EPERM);
	assert_non_null(strstr(r, "WX11"));
	f.n_identities = 0;
	assert_int_equal(decide(&f, true, "SERIAL9", r), -EPERM);
	assert_non_null(strstr(r, "identities: none"));
}

static void test_boot_and_mounted(void **state)
{
	struct safety_facts f = disk_with("gpt");
	char r[SAFETY_REASON_MAX];

	(void)state;
	f.boot = true;
	f.mounted = true;
	strcpy(f.mounted_on, "/");
	/* Nothing overrides these. */
	assert_int_equal(decide(&f, true, "WX11", r), -EPERM);
	assert_non_null(strstr(r, "boot device"));
	assert_non_null(strstr(r, "gpt"));
	f.boot = false;
	assert_int_equal(decide(&f, true, "WX11", r), -EPERM);
	assert_non_null(strstr(r, "mounted on /"));
	f.n_signatures = 0;
	assert_int_equal(decide(&f, false, "auto", r), -EPERM);
}

static void test_partition(void **state)
{
	struct safety_facts f = disk_with(NULL);
	char r[SAFETY_REASON_MAX];

	(void)state;
	f.partition = true;
	assert_int_equal(decide(&f, true, "WX11", r), -EPERM);
	assert_non_null(strstr(r, "whole disk"));
}

static void test_files(void **state)
{
	struct safety_facts f;
	char r[SAFETY_REASON_MAX];

	(void)state;
	memset(&f, 0, sizeof(f));
	/* A new file. */
	assert_int_equal(decide(&f, false, "auto", r), 0);
	f.exists = true;
	assert_int_equal(decide(&f, false, "auto", r), 0);
	strcpy(f.signatures[f.n_signatures++], "gpt");
	assert_int_equal(decide(&f, false, "auto", r), -EPERM);
	assert_non_null(strstr(r, "gpt"));
	/* Files have no identity: wipe alone allows them. */
	assert_int_equal(decide(&f, true, "auto", r), 0);
}

/* The layout buildapp recorded as its own (its partition table UUID)
 * needs no wipe; any other table, or a disk that fails the other rules,
 * is refused as before. */
static void test_own_layout(void **state)
{
	struct safety_facts f = disk_with("gpt");
	struct safety_policy own = {false, "auto", "5b7a4c2e-own"};
	char r[SAFETY_REASON_MAX];

	(void)state;
	strcpy(f.ptuuid, "5b7a4c2e-own");
	assert_int_equal(safety_decide(&f, &own, r, sizeof(r)), 0);
	own.identity = "WX11";
	assert_int_equal(safety_decide(&f, &own, r, sizeof(r)), 0);
	own.identity = "OTHER";
	assert_int_equal(safety_decide(&f, &own, r, sizeof(r)), -EPERM);
	own.identity = "auto";
	f.mounted = true;
	assert_int_equal(safety_decide(&f, &own, r, sizeof(r)), -EPERM);
	f.mounted = false;
	strcpy(f.ptuuid, "0d1e2f3a-foreign");
	assert_int_equal(safety_decide(&f, &own, r, sizeof(r)), -EPERM);
	assert_non_null(strstr(r, "wipe is not set"));
	f.ptuuid[0] = '\0';
	assert_int_equal(safety_decide(&f, &own, r, sizeof(r)), -EPERM);
	/* An image file likewise. */
	struct safety_facts file = {.exists = true};
	strcpy(file.signatures[file.n_signatures++], "gpt");
	strcpy(file.ptuuid, "5b7a4c2e-own");
	assert_int_equal(safety_decide(&file, &own, r, sizeof(r)), 0);
	strcpy(file.ptuuid, "0d1e2f3a-foreign");
	assert_int_equal(safety_decide(&file, &own, r, sizeof(r)), -EPERM);
}

/* A GPT with a kit's layout mark and no other signature is laid out
 * again without wipe, identity or no; the mark alone does not pass a
 * disk named otherwise, in use or carrying more than the GPT. */
static void test_kit_layout_mark(void **state)
{
	struct safety_facts f = disk_with("gpt");
	char r[SAFETY_REASON_MAX];

	(void)state;
	f.kit_names = f.kit_mark = true;
	assert_true(safety_kit_layout(&f));
	assert_int_equal(decide(&f, false, "auto", r), 0);
	assert_int_equal(decide(&f, false, "WX11", r), 0);
	assert_int_equal(decide(&f, false, "OTHER", r), -EPERM);
	f.mounted = true;
	assert_int_equal(decide(&f, false, "auto", r), -EPERM);
	f.mounted = false;
	strcpy(f.signatures[f.n_signatures++], "ext4");
	assert_false(safety_kit_layout(&f));
	assert_int_equal(decide(&f, false, "auto", r), -EPERM);
	/* Named as a kit's, not marked: refused, and said. */
	f = disk_with("gpt");
	f.kit_names = true;
	assert_false(safety_kit_layout(&f));
	assert_int_equal(decide(&f, false, "auto", r), -EPERM);
	assert_non_null(strstr(r, "carries signatures (gpt) and wipe is not set; its partitions "
				  "are named as a kit's layout, but its disk GUID is not that "
				  "layout's mark"));
	/* No kit's names: the plain refusal. */
	f.kit_names = false;
	assert_int_equal(decide(&f, false, "auto", r), -EPERM);
	assert_null(strstr(r, "kit's layout"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_blank_disk),
		cmocka_unit_test(test_signatures_need_wipe_and_identity),
		cmocka_unit_test(test_wrong_identity_on_blank_disk),
		cmocka_unit_test(test_boot_and_mounted),
		cmocka_unit_test(test_partition),
		cmocka_unit_test(test_files),
		cmocka_unit_test(test_own_layout),
		cmocka_unit_test(test_kit_layout_mark),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
