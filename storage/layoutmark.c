#include "layoutmark.h"

#include <blkid/blkid.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/random.h>

#include "sha256.h"

/* What the hash starts with: a new text is a new kind of mark, which
 * the kits that know only this one do not take for theirs. */
#define MARK_TEXT "buildapp-layout-mark-1\n"

/* The hash half of the mark: SHA-256 of the text, the salt in hex, then a
 * line per partition. */
static void mark_hash(const uint8_t salt[8], const struct layoutmark_part *parts, size_t n,
		      uint8_t ret[8])
{
	_cleanup_(sha256_freep) struct sha256 *h = sha256_new();
	unsigned char md[SHA256_LEN];
	char line[RECIPE_NAME_MAX + 80];

	memset(ret, 0, 8);
	if (!h)
		return;
	sha256_update(h, MARK_TEXT, strlen(MARK_TEXT));
	for (int i = 0; i < 8; i++) {
		snprintf(line, sizeof line, "%02x", salt[i]);
		sha256_update(h, line, 2);
	}
	sha256_update(h, "\n", 1);
	for (size_t i = 0; i < n; i++) {
		int k = snprintf(line, sizeof line, "%u %" PRIu64 " %" PRIu64 " %s\n",
				 parts[i].number, parts[i].start, parts[i].size, parts[i].name);
		sha256_update(h, line, (size_t)k < sizeof line ? (size_t)k : sizeof line - 1);
	}
	if (sha256_final(h, md) == 0)
		memcpy(ret, md, 8);
}

void layoutmark_guid(const uint8_t salt[8], const struct layoutmark_part *parts, size_t n,
		     char guid[LAYOUTMARK_GUID_LEN])
{
	uint8_t b[16];

	/* RFC 9562: version 8, whose bits replace some of the salt's before
	 * it is hashed (so the GUID's first half is what was hashed), and
	 * variant 10, whose replace some of the hash's. */
	memcpy(b, salt, 8);
	b[6] = (uint8_t)(0x80 | (b[6] & 0x0f));
	mark_hash(b, parts, n, b + 8);
	b[8] = (uint8_t)(0x80 | (b[8] & 0x3f));
	snprintf(guid, LAYOUTMARK_GUID_LEN,
		 "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0],
		 b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13],
		 b[14], b[15]);
}

static int hex_digit(char c)
{
	return c >= '0' && c <= '9' ? c - '0'
	       : c >= 'a' && c <= 'f' ? c - 'a' + 10
	       : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* The 16 bytes of a GUID's text (32 hex digits, dashes anywhere), or
 * -EINVAL. */
static int guid_bytes(const char *guid, uint8_t ret[16])
{
	size_t k = 0;

	for (const char *p = guid; *p; p++) {
		int v = hex_digit(*p);
		if (*p == '-')
			continue;
		if (v < 0 || k == 32)
			return -EINVAL;
		ret[k / 2] = (uint8_t)(k % 2 ? ret[k / 2] << 4 | v : v);
		k++;
	}
	return k == 32 ? 0 : -EINVAL;
}

bool layoutmark_names(const struct layoutmark_part *parts, size_t n)
{
	size_t prefix = strlen(LAYOUTMARK_NAME_PREFIX);

	if (n == 0)
		return false;
	for (size_t i = 0; i < n; i++)
		if (strncmp(parts[i].name, LAYOUTMARK_NAME_PREFIX, prefix) != 0)
			return false;
	return true;
}

bool layoutmark_check(const char *guid, const struct layoutmark_part *parts, size_t n)
{
	uint8_t b[16];
	char want[LAYOUTMARK_GUID_LEN];

	if (!guid || !layoutmark_names(parts, n) || guid_bytes(guid, b) < 0)
		return false;
	layoutmark_guid(b, parts, n, want);
	return strcasecmp(want, guid) == 0;
}

int layoutmark_for_recipe(const struct recipe *r, size_t table, char guid[LAYOUTMARK_GUID_LEN])
{
	struct layoutmark_part parts[LAYOUTMARK_MAX_PARTS];
	uint8_t salt[8];
	size_t n = 0;

	for (size_t i = table + 1;
	     i < r->n_steps && r->steps[i].kind == STEP_PARTITION && n < LAYOUTMARK_MAX_PARTS;
	     i++) {
		const struct recipe_step *s = &r->steps[i];
		parts[n] = (struct layoutmark_part){s->partnum, s->start, s->size, ""};
		snprintf(parts[n].name, sizeof parts[n].name, "%s", s->name);
		n++;
	}
	if (getrandom(salt, sizeof salt, 0) != (ssize_t)sizeof salt)
		return -errno;
	layoutmark_guid(salt, parts, n, guid);
	return 0;
}

int layoutmark_read(const char *path, char guid[LAYOUTMARK_GUID_LEN],
		    struct layoutmark_part parts[LAYOUTMARK_MAX_PARTS], size_t *ret_n)
{
	blkid_probe pr = blkid_new_probe_from_filename(path);
	int r = -ENODATA;

	if (!pr)
		return errno ? -errno : -EIO;
	blkid_probe_enable_superblocks(pr, 0);
	blkid_probe_enable_partitions(pr, 1);
	blkid_partlist ls = blkid_probe_get_partitions(pr);
	blkid_parttable tab = ls ? blkid_partlist_get_table(ls) : NULL;
	const char *type = tab ? blkid_parttable_get_type(tab) : NULL;
	const char *id = tab ? blkid_parttable_get_id(tab) : NULL;
	if (type && id && strcmp(type, "gpt") == 0) {
		int count = blkid_partlist_numof_partitions(ls);
		size_t n = 0;
		for (int i = 0; i < count && n < LAYOUTMARK_MAX_PARTS; i++) {
			blkid_partition p = blkid_partlist_get_partition(ls, i);
			const char *name = p ? blkid_partition_get_name(p) : NULL;
			if (!p)
				continue;
			parts[n] = (struct layoutmark_part){
				(unsigned)blkid_partition_get_partno(p),
				(uint64_t)blkid_partition_get_start(p) * 512,
				(uint64_t)blkid_partition_get_size(p) * 512, ""};
			snprintf(parts[n].name, sizeof parts[n].name, "%s", name ? name : "");
			n++;
		}
		snprintf(guid, LAYOUTMARK_GUID_LEN, "%s", id);
		*ret_n = n;
		r = 0;
	}
	blkid_free_probe(pr);
	return r;
}
