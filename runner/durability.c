/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "durability.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cleanup.h"
#include "guestproto.h"
#include "log.h"
#include "written.h"

uint64_t durability_run_id(uint64_t seed, unsigned position)
{
	return records_mix(seed, position);
}

uint64_t durability_crash_point(uint64_t seed, unsigned position,
				uint64_t records)
{
	uint64_t low = records / 2 ? records / 2 : 1;
	return low + records_mix(records_mix(seed, position), 0x637261736821ULL) %
			     (records - low + 1);
}

/* Where the value of WORD ("size=") starts in the line [P, END), or NULL. */
static const char *word_at(const char *p, const char *end, const char *word)
{
	size_t n = strlen(word);
	for (const char *q = p; q + n <= end; q++)
		if ((q == p || q[-1] == ' ') && memcmp(q, word, n) == 0)
			return q + n;
	return NULL;
}

static int parse_extents(const char *p, const char *end,
			 struct durability_layout *l)
{
	while (p < end && *p != ' ') {
		unsigned long long a, b, c;
		int used = 0;
		if (l->n == DURABILITY_EXTENTS_MAX ||
		    sscanf(p, "%llu:%llu:%llu%n", &a, &b, &c, &used) != 3)
			return -EBADMSG;
		l->extent[l->n].logical = a;
		l->extent[l->n].physical = b;
		l->extent[l->n].length = c;
		l->n++;
		p += used;
		if (p < end && *p == ',')
			p++;
	}
	return l->n ? 0 : -EBADMSG;
}

const char *durability_records_line(const char *text, size_t len, size_t *ret_len)
{
	static const char mark[] = GUESTPROTO_TAG GUESTPROTO_RECORDS " ";
	const char *m = memmem(text, len, mark, strlen(mark));

	if (!m)
		return NULL;
	const char *end = memchr(m, '\n', text + len - m);
	if (!end)
		end = text + len;
	while (end > m && end[-1] == '\r')
		end--;
	*ret_len = (size_t)(end - m);
	return m;
}

int durability_layout_parse(const char *text, size_t len,
			    struct durability_layout *ret)
{
	struct durability_layout l = {0};
	size_t n;
	const char *m = durability_records_line(text, len, &n);

	if (!m)
		return -ENODATA;
	const char *end = m + n;
	const char *size = word_at(m, end, "size="),
		   *count = word_at(m, end, "count="),
		   *ext = word_at(m, end, "extents=");
	if (!size || !count || !ext)
		return -EBADMSG;
	l.size = strtoull(size, NULL, 10);
	l.count = strtoull(count, NULL, 10);
	if (l.size < RECORDS_SIZE_MIN || l.size > RECORDS_SIZE_MAX ||
	    l.size % RECORDS_SECTOR || !l.count || parse_extents(ext, end, &l) < 0)
		return -EBADMSG;
	*ret = l;
	return 0;
}

void durability_count_buffer(const void *buf, uint64_t size, uint64_t acked,
			     uint64_t run, struct durability_count *ret)
{
	_cleanup_free_ void *scratch = malloc(size);
	const char *p = buf;

	memset(ret, 0, sizeof(*ret));
	ret->acknowledged = acked;
	for (uint64_t seq = 0; seq < acked; seq++) {
		enum record_state s =
			scratch ? records_classify(p + seq * size, size, seq, run, scratch)
				: RECORD_CORRUPT;
		ret->state[s]++;
		if (s != RECORD_OK)
			ret->lost++;
	}
}

int durability_check(const char *path, enum image_format format,
		     const struct durability_layout *l, uint64_t run,
		     uint64_t acked, struct durability_count *ret)
{
	struct written_range r[DURABILITY_EXTENTS_MAX];
	uint64_t need = acked * l->size, have = 0;
	size_t n = 0;

	if (acked > l->count)
		return -EINVAL;
	/* The extents in file order, from offset 0 without a gap, as far as
	 * the acknowledged records go. */
	for (size_t i = 0; i < l->n && have < need; i++) {
		if (l->extent[i].logical != have)
			return log_error_code(-EINVAL, "the records' extents leave a gap at %" PRIu64,
					      have);
		uint64_t len = l->extent[i].length < need - have ? l->extent[i].length
								: need - have;
		r[n++] = (struct written_range){l->extent[i].physical, len};
		have += len;
	}
	if (have < need)
		return log_error_code(-EINVAL, "the records' extents hold %" PRIu64
				      " bytes, not the %" PRIu64 " acknowledged",
				      have, need);
	_cleanup_free_ char *buf = malloc(need ? need : 1);
	if (!buf)
		return -ENOMEM;
	int k = need ? written_read(path, format, r, n, buf) : 0;
	if (k < 0)
		return k;
	durability_count_buffer(buf, l->size, acked, run, ret);
	return 0;
}
