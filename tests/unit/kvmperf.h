/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The kvm-perf 2011 study's raw runs (tests/unit/data/), parsed for the
 * unit tests that use them as golden data.  Header-only: each test
 * program includes it once. */
#ifndef BUILDAPP_TEST_KVMPERF_H
#define BUILDAPP_TEST_KVMPERF_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_CELLS 128
#define MAX_RUNS 16

enum { READS, WRITES };

struct study_cell {
	char type[16], cache[16], aio[16], iface[16], prealloc[8];
	double runs[2][MAX_RUNS];
	size_t n[2];
	char interval[2][64]; /* "70.062400 +/- 1.439401" as printed */
};

static struct study_cell cells[MAX_CELLS];
static size_t n_cells;

static void parse_list(const char *s, double *v, size_t *n)
{
	const char *p = strchr(s, '[');
	assert_non_null(p);
	p++;
	*n = 0;
	while (*p && *p != ']') {
		char *end;
		assert_true(*n < MAX_RUNS);
		v[(*n)++] = strtod(p, &end);
		assert_true(end != p);
		p = end;
		while (*p == ',' || *p == ' ')
			p++;
	}
}

static int load_study(void **state)
{
	(void)state;
	const char *top = getenv("TOP");
	char path[4096];
	snprintf(path, sizeof path, "%s/tests/unit/data/kvm-perf-2011-ext4.txt",
		 top ? top : ".");
	FILE *f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "cannot open %s\n", path);
		return -1;
	}
	char line[4096];
	struct study_cell *c = NULL;
	n_cells = 0;
	while (fgets(line, sizeof line, f)) {
		line[strcspn(line, "\n")] = 0;
		if (strncmp(line, "type ", 5) == 0) {
			if (n_cells == MAX_CELLS)
				break;
			c = &cells[n_cells++];
			memset(c, 0, sizeof *c);
			if (sscanf(line,
				   "type %15s cache %15s aio %15s if %15s prealloc %7s",
				   c->type, c->cache, c->aio, c->iface,
				   c->prealloc) != 5)
				return -1;
		} else if (c && strncmp(line, "reads: ", 7) == 0) {
			parse_list(line, c->runs[READS], &c->n[READS]);
		} else if (c && strncmp(line, "writes: ", 8) == 0) {
			parse_list(line, c->runs[WRITES], &c->n[WRITES]);
		} else if (c && strncmp(line, "readinterval: ", 14) == 0) {
			snprintf(c->interval[READS], 64, "%.63s", line + 14);
		} else if (c && strncmp(line, "writeinterval: ", 15) == 0) {
			snprintf(c->interval[WRITES], 64, "%.63s", line + 15);
		}
	}
	fclose(f);
	return n_cells == 82 ? 0 : -1;
}

#endif
