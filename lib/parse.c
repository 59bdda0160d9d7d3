/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "parse.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int parse_uint64(const char *s, uint64_t *ret)
{
	char *end;
	unsigned long long v;

	if (!s || !isdigit((unsigned char)s[0]))
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno == ERANGE)
		return -ERANGE;
	if (*end != '\0')
		return -EINVAL;
	*ret = v;
	return 0;
}

static int suffix_shift(const char *suf, unsigned *ret)
{
	static const char units[] = "KMGTPE";
	const char *u;

	if (*suf == '\0') {
		*ret = 0;
		return 0;
	}
	u = strchr(units, toupper((unsigned char)*suf));
	if (!u)
		return -EINVAL;
	suf++;
	if (strcasecmp(suf, "") != 0 && strcasecmp(suf, "B") != 0 &&
	    strcasecmp(suf, "iB") != 0)
		return -EINVAL;
	*ret = 10 * (unsigned)(u - units + 1);
	return 0;
}

int parse_size(const char *s, uint64_t *ret)
{
	char *end;
	unsigned long long whole;
	unsigned shift;
	uint64_t frac_num = 0, frac_den = 1, v;
	int r;

	if (!s || !isdigit((unsigned char)s[0]))
		return -EINVAL;
	errno = 0;
	whole = strtoull(s, &end, 10);
	if (errno == ERANGE)
		return -ERANGE;
	if (*end == '.') {
		end++;
		if (!isdigit((unsigned char)*end))
			return -EINVAL;
		/* At most 6 fractional digits: enough for "1.5G", bounded. */
		for (int i = 0; isdigit((unsigned char)*end); i++, end++) {
			if (i >= 6)
				return -EINVAL;
			frac_num = frac_num * 10 + (uint64_t)(*end - '0');
			frac_den *= 10;
		}
	}
	if (*end == 'B' && end[1] == '\0') /* plain bytes: "512B" */
		end++;
	r = suffix_shift(end, &shift);
	if (r < 0)
		return r;
	if (frac_den > 1 && shift == 0)
		return -EINVAL;
	if (shift >= 64 || whole > (UINT64_MAX >> shift))
		return -ERANGE;
	v = (uint64_t)whole << shift;
	if (frac_num) {
		/* frac_num < frac_den <= 1e6 and shift <= 40 keep this exact
		 * enough and free of overflow for sizes we accept. */
		if (shift > 40)
			return -ERANGE;
		uint64_t add = (frac_num << shift) / frac_den;
		if (v > UINT64_MAX - add)
			return -ERANGE;
		v += add;
	}
	*ret = v;
	return 0;
}

int parse_bool(const char *s, bool *ret)
{
	static const char *const yes[] = {"yes", "on", "true", "1"};
	static const char *const no[] = {"no", "off", "false", "0"};

	if (!s)
		return -EINVAL;
	for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		if (strcasecmp(s, yes[i]) == 0) {
			*ret = true;
			return 0;
		}
		if (strcasecmp(s, no[i]) == 0) {
			*ret = false;
			return 0;
		}
	}
	return -EINVAL;
}

const char *format_size(uint64_t bytes, char *buf, size_t len)
{
	static const char units[] = "KMGTPE";
	int i = -1;
	uint64_t div = 1;

	while (i < 5 && bytes / div >= 1024) {
		div *= 1024;
		i++;
	}
	if (i < 0)
		snprintf(buf, len, "%" PRIu64, bytes);
	else if (bytes % div == 0)
		snprintf(buf, len, "%" PRIu64 "%c", bytes / div, units[i]);
	else
		snprintf(buf, len, "%.1f%c", (double)bytes / (double)div,
			 units[i]);
	return buf;
}

char *parse_strip(char *s)
{
	char *end;

	while (isspace((unsigned char)*s))
		s++;
	end = s + strlen(s);
	while (end > s && isspace((unsigned char)end[-1]))
		*--end = '\0';
	return s;
}
