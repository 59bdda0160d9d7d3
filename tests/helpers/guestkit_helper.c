/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Test driver for the guest kit (tests/integration/guest-boot.sh):
 *   guestkit-helper build CACHE KIND,...  builds the kit and the guest
 *       image for a small built-in profile with those workload kinds and
 *       prints KERNEL=, INITRD=, IMAGE=, CMDLINE_KIND= lines for the shell;
 *   guestkit-helper parse KIND LOG     parses a console log and prints the
 *       metrics, one "name value unit" a line; exit 1 on failure. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cleanup.h"
#include "guestcmdline.h"
#include "guestimage.h"
#include "guestkit.h"
#include "log.h"
#include "names.h"
#include "results.h"

static void small_profile(struct profile *p)
{
	memset(p, 0, sizeof(*p));
	snprintf(p->appliance.kernel, sizeof(p->appliance.kernel), "auto");
	snprintf(p->workload.tarball, sizeof(p->workload.tarball),
		 "generated");
	p->workload.tarball_size = 4u << 20;
	p->workload.fio_rw = AXIS_BIT(FIO_RW_RANDWRITE);
	p->workload.fio_bs = (struct num_axis){1, {4096}};
	p->workload.fio_iodepth = (struct num_axis){1, {1}};
	p->workload.fio_size = 2u << 20;
	p->workload.fio_fsync = 1;
	p->workload.bonnie_size = 16u << 20;
	p->workload.dd_bs = 4096;
	p->workload.dd_count = 1024;
}

static int build(const char *cache, const char *kinds)
{
	struct profile p;
	struct guestkit kit;
	struct guestimage img;
	_cleanup_free_ char *list = strdup(kinds);
	char *save = NULL;

	small_profile(&p);
	/* A kit with the tools of those kinds only, as for a profile. */
	for (char *k = strtok_r(list, ",", &save); k;
	     k = strtok_r(NULL, ",", &save)) {
		int kind = name_table_lookup(&workload_kind_names, k);
		if (kind < 0) {
			log_error("unknown workload '%s'", k);
			return 2;
		}
		p.workload.kinds |= AXIS_BIT(kind);
	}
	if (guestkit_build(&p, cache, NULL, &kit) < 0 ||
	    guestimage_build(&p, cache, &img) < 0)
		return 1;
	printf("KERNEL='%s'\nINITRD='%s'\nIMAGE='%s'\nKIT_CACHED=%d\n"
	       "IMAGE_CACHED=%d\nMEMORY_MB=%llu\n",
	       kit.kernel, kit.initrd, img.path, kit.cached, img.cached,
	       (unsigned long long)(kit.min_memory >> 20));
	for (int k = 0; k < _WORKLOAD_MAX; k++) {
		_cleanup_free_ char *cmdline = NULL;
		if (!(p.workload.kinds & AXIS_BIT(k)) ||
		    guestcmdline_build(&p, k, &cmdline) < 0)
			continue;
		char var[64];
		snprintf(var, sizeof(var), "CMDLINE_%s", workload_kind_name(k));
		for (char *c = var; *c; c++)
			if (*c == '-')
				*c = '_';
		printf("%s='%s'\n", var, cmdline);
	}
	return 0;
}

static int parse(const char *kind_name, const char *log)
{
	int kind = name_table_lookup(&workload_kind_names, kind_name);
	_cleanup_fclose_ FILE *f = fopen(log, "re");
	_cleanup_free_ char *buf = malloc(64u << 20);
	struct results r;
	if (kind < 0 || !f || !buf) {
		log_error("cannot read '%s' or bad kind '%s'", log, kind_name);
		return 2;
	}
	size_t n = fread(buf, 1, 64u << 20, f);
	int e = results_parse(buf, n, kind, &r);
	for (size_t i = 0; i < r.n_metrics; i++)
		printf("%s %g %s\n", r.metrics[i].name, r.metrics[i].value,
		       r.metrics[i].unit);
	if (e < 0) {
		log_error("%s", r.error);
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	log_set_program("guestkit-helper");
	if (argc == 4 && strcmp(argv[1], "build") == 0)
		return build(argv[2], argv[3]);
	if (argc == 4 && strcmp(argv[1], "parse") == 0)
		return parse(argv[2], argv[3]);
	fprintf(stderr, "usage: guestkit-helper build CACHE KIND,... | parse KIND LOG\n");
	return 2;
}
