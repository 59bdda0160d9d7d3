/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "records.h"

#include <stdbool.h>
#include <string.h>

static const char magic[8] = {'B', 'A', 'R', 'E', 'C', '0', '0', '1'};
#define HEADER 32
#define TRAILER 8

static void put64(unsigned char *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static uint64_t get64(const unsigned char *p)
{
	uint64_t v = 0;
	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static uint64_t fnv1a64(const unsigned char *p, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	for (size_t i = 0; i < n; i++)
		h = (h ^ p[i]) * 0x100000001b3ULL;
	return h;
}

uint64_t records_mix(uint64_t a, uint64_t b)
{
	uint64_t z = a + 0x9e3779b97f4a7c15ULL * (b + 1);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void records_fill(void *buf, size_t size, uint64_t seq, uint64_t run)
{
	unsigned char *p = buf;
	uint64_t x = records_mix(seq, run) | 1;

	memcpy(p, magic, sizeof(magic));
	put64(p + 8, seq);
	put64(p + 16, run);
	put64(p + 24, size);
	for (size_t i = HEADER; i < size - TRAILER; i += 8) {
		x ^= x >> 12;
		x ^= x << 25;
		x ^= x >> 27;
		unsigned char w[8];
		put64(w, x * 0x2545f4914f6cdd1dULL);
		size_t n = size - TRAILER - i < 8 ? size - TRAILER - i : 8;
		memcpy(p + i, w, n);
	}
	put64(p + size - TRAILER, fnv1a64(p, size - TRAILER));
}

void records_blank(void *buf, size_t size)
{
	static const char word[16] = "buildapp-blank.\n";
	unsigned char *p = buf;

	for (size_t i = 0; i < size; i++)
		p[i] = (unsigned char)word[i % sizeof(word)];
}

/* A sector of nothing written: the blank file's, or zeros. */
static bool sector_empty(const unsigned char *p)
{
	unsigned char blank[RECORDS_SECTOR], zero[RECORDS_SECTOR] = {0};

	records_blank(blank, sizeof(blank));
	return memcmp(p, blank, RECORDS_SECTOR) == 0 ||
	       memcmp(p, zero, RECORDS_SECTOR) == 0;
}

enum record_state records_classify(const void *buf, size_t size,
				   uint64_t seq, uint64_t run, void *scratch)
{
	const unsigned char *p = buf;
	unsigned char *want = scratch;
	size_t same = 0, empty = 0, sectors = size / RECORDS_SECTOR;

	if (size < RECORDS_SIZE_MIN || size % RECORDS_SECTOR)
		return RECORD_CORRUPT;
	if (get64(p + size - TRAILER) == fnv1a64(p, size - TRAILER) &&
	    memcmp(p, magic, sizeof(magic)) == 0 && get64(p + 24) == size)
		return get64(p + 8) == seq && get64(p + 16) == run
			       ? RECORD_OK
			       : RECORD_STALE;
	/* A sector is the unit a disk writes whole: a record cut between
	 * sectors has some of the expected ones and nothing written in the
	 * others; a sector that is neither is corrupt. */
	records_fill(want, size, seq, run);
	for (size_t i = 0; i < size; i += RECORDS_SECTOR) {
		if (memcmp(p + i, want + i, RECORDS_SECTOR) == 0)
			same++;
		else if (sector_empty(p + i))
			empty++;
	}
	if (empty == sectors)
		return RECORD_MISSING;
	return same > 0 && same + empty == sectors ? RECORD_TORN : RECORD_CORRUPT;
}

const char *records_state_name(enum record_state s)
{
	static const char *const names[] = {"ok", "missing", "stale", "torn",
					    "corrupt"};
	return (unsigned)s < _RECORD_STATE_MAX ? names[s] : "?";
}
