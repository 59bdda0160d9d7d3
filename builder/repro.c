/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "repro.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "log.h"
#include "parse.h"
#include "sha256.h"

int repro_epoch(uint64_t *ret)
{
	const char *s = getenv("SOURCE_DATE_EPOCH");
	uint64_t v;

	if (!s || !*s) {
		*ret = (uint64_t)time(NULL);
		return 0;
	}
	/* FAT dates end in 2107, ext4's 32-bit ones in 2106. */
	if (parse_uint64(s, &v) < 0 || v > 4102444800ULL)
		return log_error_code(-EINVAL,
				      "SOURCE_DATE_EPOCH '%s': not a number "
				      "of seconds before 2100",
				      s);
	*ret = v;
	return 0;
}

static void digest(const char *name, uint64_t epoch, const char *purpose,
		   unsigned char out[SHA256_LEN])
{
	char buf[512];
	int n = snprintf(buf, sizeof(buf), "buildapp\n%s\n%llu\n%s", name,
			 (unsigned long long)epoch, purpose);

	if (n < 0)
		n = 0;
	if ((size_t)n >= sizeof(buf))
		n = sizeof(buf) - 1;
	if (sha256_digest(buf, (size_t)n, out) < 0)
		abort(); /* sha256 does not fail short of memory corruption */
}

void repro_uuid(const char *name, uint64_t epoch, const char *purpose,
		char out[REPRO_UUID_LEN])
{
	unsigned char h[32];

	digest(name, epoch, purpose, h);
	h[6] = (h[6] & 0x0f) | 0x40;
	h[8] = (h[8] & 0x3f) | 0x80;
	snprintf(out, REPRO_UUID_LEN,
		 "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-"
		 "%02x%02x%02x%02x%02x%02x",
		 h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7], h[8], h[9],
		 h[10], h[11], h[12], h[13], h[14], h[15]);
}

uint32_t repro_u32(const char *name, uint64_t epoch, const char *purpose)
{
	unsigned char h[32];

	digest(name, epoch, purpose, h);
	return (uint32_t)h[0] << 24 | (uint32_t)h[1] << 16 |
	       (uint32_t)h[2] << 8 | h[3];
}
