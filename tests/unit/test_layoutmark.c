/* storage/layoutmark: the mark of a kit's layout, computed, checked, and
 * read back by libblkid off GPTs that sfdisk writes; one byte of the mark
 * changed, or of what it covers, and it is no mark. */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "layoutmark.h"
#include "recipe.h"

#define MiB (UINT64_C(1) << 20)

static const struct layoutmark_part kit[] = {
	{1, 1 * MiB, 68 * MiB, "buildapp-files"},
	{2, 69 * MiB, 72 * MiB, "buildapp-lvm"},
};
static const uint8_t salt[8] = {0x3c, 0x91, 0x07, 0xe2, 0x5a, 0x10, 0xff, 0x42};

static void marks_its_partitions(void **state)
{
	char guid[LAYOUTMARK_GUID_LEN], other[LAYOUTMARK_GUID_LEN];
	struct layoutmark_part p[2];

	(void)state;
	layoutmark_guid(salt, kit, 2, guid);
	assert_int_equal(strlen(guid), 36);
	/* RFC 9562's version 8 and variant 10. */
	assert_int_equal(guid[14], '8');
	assert_non_null(strchr("89ab", guid[19]));
	assert_true(layoutmark_check(guid, kit, 2));
	for (char *c = guid; *c; c++)
		if (*c >= 'a' && *c <= 'f')
			*c = (char)(*c - 'a' + 'A');
	assert_true(layoutmark_check(guid, kit, 2));
	layoutmark_guid(salt, kit, 2, guid);

	/* Anything it covers changed: no mark. */
	memcpy(p, kit, sizeof p);
	p[1].start += 512;
	assert_false(layoutmark_check(guid, p, 2));
	memcpy(p, kit, sizeof p);
	p[0].size -= MiB;
	assert_false(layoutmark_check(guid, p, 2));
	memcpy(p, kit, sizeof p);
	p[1].name[strlen(p[1].name) - 1] = 'n';
	assert_false(layoutmark_check(guid, p, 2));
	memcpy(p, kit, sizeof p);
	p[1].number = 3;
	assert_false(layoutmark_check(guid, p, 2));
	assert_false(layoutmark_check(guid, kit, 1));

	/* Each hex digit of the GUID changed: no mark. */
	for (size_t i = 0; guid[i]; i++) {
		if (guid[i] == '-')
			continue;
		memcpy(other, guid, sizeof other);
		other[i] = other[i] == '0' ? '1' : '0';
		assert_false(layoutmark_check(other, kit, 2));
	}

	/* Partitions not named as a kit's: no mark, whatever the GUID. */
	memcpy(p, kit, sizeof p);
	strcpy(p[0].name, "data");
	layoutmark_guid(salt, p, 2, other);
	assert_false(layoutmark_names(p, 2));
	assert_false(layoutmark_check(other, p, 2));
	assert_false(layoutmark_names(p, 0));

	/* A random GUID, as any other GPT has: no mark. */
	assert_false(layoutmark_check("0cf4e38b-aba2-4f4f-bced-7f6adb052b68", kit, 2));
	assert_false(layoutmark_check("not-a-guid", kit, 2));
	assert_false(layoutmark_check(NULL, kit, 2));
}

/* The partitions of a recipe's layout get a mark that checks, with a
 * new salt each time. */
static void marks_a_recipe(void **state)
{
	struct storage_spec spec = {
		.backends = STORAGE_BIT(BACKEND_EXT4_FILE) | STORAGE_BIT(BACKEND_LVM),
		.size = 64 * MiB,
		.qcow2_prealloc = 1,
		.raw_prealloc = 1,
		.cluster_size = 65536,
	};
	struct storage_target t = {STORAGE_TARGET_DISK, "/dev/sdb", "/mnt"};
	static struct recipe r;
	struct layoutmark_part p[LAYOUTMARK_MAX_PARTS];
	char a[LAYOUTMARK_GUID_LEN], b[LAYOUTMARK_GUID_LEN];
	size_t n = 0, table = 0;

	(void)state;
	assert_int_equal(recipe_build(&spec, &t, &r), 0);
	while (r.steps[table].kind != STEP_PARTITION_TABLE)
		table++;
	for (size_t i = table + 1; r.steps[i].kind == STEP_PARTITION; i++, n++) {
		p[n] = (struct layoutmark_part){r.steps[i].partnum, r.steps[i].start,
						r.steps[i].size, ""};
		strcpy(p[n].name, r.steps[i].name);
	}
	assert_int_equal(n, 2);
	assert_int_equal(layoutmark_for_recipe(&r, table, a), 0);
	assert_int_equal(layoutmark_for_recipe(&r, table, b), 0);
	assert_string_not_equal(a, b);
	assert_true(layoutmark_check(a, p, n));
	assert_true(layoutmark_check(b, p, n));
}

static char dir[] = "/tmp/test-layoutmark.XXXXXX";

static int run(const char *cmd)
{
	return system(cmd) == 0 ? 0 : -1;
}

/* A GPT written by sfdisk with the mark of its partitions, read back by
 * libblkid; then one hex digit of its disk GUID changed (sfdisk writes
 * both headers again, as a whole), and one letter of a name. */
static void reads_back_from_a_gpt(void **state)
{
	char img[PATH_MAX], cmd[2 * PATH_MAX + 256], guid[LAYOUTMARK_GUID_LEN];
	char got[LAYOUTMARK_GUID_LEN];
	struct layoutmark_part p[LAYOUTMARK_MAX_PARTS];
	size_t n = 0;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(img, sizeof img, "%s/disk.img", dir);
	layoutmark_guid(salt, kit, 2, guid);
	snprintf(cmd, sizeof cmd,
		 "truncate -s 160M '%s' && printf 'label: gpt\\nlabel-id: %s\\n"
		 "start=2048, size=139264, name=\"buildapp-files\"\\n"
		 "start=141312, size=147456, name=\"buildapp-lvm\"\\n' | sfdisk -q '%s'",
		 img, guid, img);
	assert_int_equal(run(cmd), 0);
	assert_int_equal(layoutmark_read(img, got, p, &n), 0);
	assert_int_equal(n, 2);
	assert_true(layoutmark_check(got, p, n));

	char changed[LAYOUTMARK_GUID_LEN];
	memcpy(changed, guid, sizeof changed);
	changed[35] = changed[35] == '0' ? '1' : '0';
	snprintf(cmd, sizeof cmd, "sfdisk -q --disk-id '%s' %s", img, changed);
	assert_int_equal(run(cmd), 0);
	assert_int_equal(layoutmark_read(img, got, p, &n), 0);
	assert_false(layoutmark_check(got, p, n));

	snprintf(cmd, sizeof cmd, "sfdisk -q --disk-id '%s' %s && sfdisk -q --part-label '%s' 2 "
		 "buildapp-lvn", img, guid, img);
	assert_int_equal(run(cmd), 0);
	assert_int_equal(layoutmark_read(img, got, p, &n), 0);
	assert_string_equal(got, guid);
	assert_false(layoutmark_check(got, p, n));

	/* A disk with no partition table: no GPT to read. */
	snprintf(cmd, sizeof cmd, "truncate -s 1M '%s/blank.img'", dir);
	assert_int_equal(run(cmd), 0);
	snprintf(img, sizeof img, "%s/blank.img", dir);
	assert_int_equal(layoutmark_read(img, got, p, &n), -ENODATA);
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	assert_int_equal(run(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(marks_its_partitions),
		cmocka_unit_test(marks_a_recipe),
		cmocka_unit_test(reads_back_from_a_gpt),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
