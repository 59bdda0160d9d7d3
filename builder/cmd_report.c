/* SPDX-License-Identifier: GPL-2.0-or-later */
/* buildapp report: the report of one or more result bundles (results
 * directories, used kit images, sticks) written as report.html, .csv,
 * .json and .txt.  Images are read through libguestfs, without mounting
 * on the host, into a temporary directory that is always removed. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <json.h>

#include "cleanup.h"
#include "commands.h"
#include "log.h"
#include "reference.h"
#include "model.h"
#include "report.h"
#include "tempfiles.h"

#define MAX_INPUTS 64

static void usage(FILE *f)
{
	fprintf(f, "Usage: buildapp report INPUT... [-o DIR] [--format html,csv,json,txt]\n"
		   "                       [--baseline INPUT] [--reference STUDY]\n"
		   "                       [--compare LIST]\n\n"
		   "Writes the report of the result bundles INPUT (results directories,\n"
		   "used kit images or sticks carrying a RESULTS partition, read without\n"
		   "mounting) into DIR (default: report): the answers first (each varied\n"
		   "axis's levels against its reference, ratio of geometric means with its\n"
		   "95%% CI, or for a durability workload the crashes that lost, k of n,\n"
		   "compared by an exact test; the profile's [report] compare questions\n"
		   "before the others), then every cell with its runs.  Several INPUTs\n"
		   "are several hosts; a directory of bundles (collected from a rack) is\n"
		   "each of them.\n\n"
		   "  -o, --output DIR     where to write (created if missing)\n"
		   "  --format LIST        some of html,csv,json,txt (default: all)\n"
		   "  --baseline INPUT     mark cells significantly worse than INPUT's\n"
		   "  --reference STUDY    the study's published table beside the measured\n"
		   "                       one, and the verdict on each of its claims:\n"
		   "                       kvm-perf-2011, bonnie-qcow2-vs-raw,\n"
		   "                       qcow2-l2-cache, guest-vs-host, cache-modes-lvm\n"
		   "  --compare LIST       answer these first instead of the profile's\n"
		   "                       [report] compare, e.g. 'cache:unsafe vs\n"
		   "                       writethrough, backend:lvm vs qcow2 in write_seconds'\n"
		   "  -h, --help           this text\n");
	commands_help_exit(f, NULL, "a bundle that cannot be read; nothing is written", true);
}

static int parse_formats(const char *list, unsigned *ret)
{
	static const struct {
		const char *name;
		unsigned bit;
	} names[] = {{"html", REPORT_HTML}, {"csv", REPORT_CSV},
		     {"json", REPORT_JSON}, {"txt", REPORT_TXT}};
	_cleanup_free_ char *copy = strdup(list);
	char *save = NULL;
	unsigned f = 0;

	if (!copy)
		return -ENOMEM;
	for (char *w = strtok_r(copy, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		size_t i;
		for (i = 0; i < sizeof names / sizeof names[0]; i++)
			if (strcmp(w, names[i].name) == 0)
				break;
		if (i == sizeof names / sizeof names[0])
			return log_error_code(-EINVAL, "report: --format: unknown format '%s' (html, csv, json, txt)",
					      w);
		f |= names[i].bit;
	}
	if (!f)
		return log_error_code(-EINVAL, "report: --format: no format given");
	*ret = f;
	return 0;
}

/* The results directory of INPUT into RET (PATH_MAX): INPUT itself, or a
 * temporary copy of an image's RESULTS partition. */
static int resolve(const char *input, char *ret, size_t size)
{
	struct stat st;

	if (stat(input, &st) < 0)
		return log_error_code(-EINVAL, "report: '%s': %s", input, strerror(errno));
	if (S_ISDIR(st.st_mode)) {
		snprintf(ret, size, "%s", input);
		return 0;
	}
	if (!S_ISREG(st.st_mode) && !S_ISBLK(st.st_mode))
		return log_error_code(-EINVAL, "report: '%s': not a results directory, image or device",
				      input);
	const char *tmp = getenv("TMPDIR");
	snprintf(ret, size, "%s/buildapp-report.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(ret))
		return log_error_errno(-errno, "report: cannot create '%s'", ret);
	int r = tempfiles_add(ret, TEMPFILE_TREE);
	if (r < 0)
		return r;
	r = results_copy_out(input, ret);
	return r == -ENOENT ? -EINVAL : r;
}

static int report(const char *const *inputs, size_t n, const char *baseline,
		  const char *study, const char *compare, unsigned formats, const char *out)
{
	char dirs[MAX_INPUTS][4096], base[4096];
	const char *dirp[MAX_INPUTS];
	_cleanup_(model_freep) struct model *model = NULL;
	int r;

	size_t n_dirs = 0;
	for (size_t i = 0; i < n; i++) {
		char **rack = NULL;
		size_t k = 0;
		/* A rack's directory is its bundles, each one host. */
		if ((r = report_rack_expand(inputs[i], &rack, &k)) < 0)
			return r;
		for (size_t x = 0; x < k; x++) {
			if (n_dirs < MAX_INPUTS)
				snprintf(dirs[n_dirs++], sizeof dirs[0], "%s", rack[x]);
			free(rack[x]);
		}
		free(rack);
		if (k && n_dirs == MAX_INPUTS)
			return log_error_code(-EINVAL, "report: at most %d bundles", MAX_INPUTS);
		if (k)
			continue;
		if (n_dirs == MAX_INPUTS)
			return log_error_code(-EINVAL, "report: at most %d bundles", MAX_INPUTS);
		if ((r = resolve(inputs[i], dirs[n_dirs], sizeof dirs[0])) < 0)
			return r;
		n_dirs++;
	}
	for (size_t i = 0; i < n_dirs; i++)
		dirp[i] = dirs[i];
	if (baseline && (r = resolve(baseline, base, sizeof base)) < 0)
		return r;
	struct report_options o = {
		.dirs = dirp,
		.n_dirs = n_dirs,
		.baseline_dir = baseline ? base : NULL,
		.reference = study,
		.compare = compare,
	};
	if ((r = report_build(&o, &model)) < 0)
		return r;
	if ((r = report_write(model, formats, out)) < 0)
		return r;
	log_info("report of %zu bundle%s written to %s", n_dirs, n_dirs == 1 ? "" : "s", out);
	return report_baseline_worse(model) ? 1 : 0;
}

int cmd_report(int argc, char **argv)
{
	static const struct option opts[] = {
		{"output", required_argument, NULL, 'o'},
		{"format", required_argument, NULL, 'f'},
		{"baseline", required_argument, NULL, 'b'},
		{"reference", required_argument, NULL, 'r'},
		{"compare", required_argument, NULL, 'c'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	const char *out = "report", *baseline = NULL, *study = NULL, *compare = NULL;
	unsigned formats = REPORT_ALL_FORMATS;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
		switch (c) {
		case 'o': out = optarg; break;
		case 'f':
			if (parse_formats(optarg, &formats) < 0)
				return EXIT_BAD_INPUT;
			break;
		case 'b': baseline = optarg; break;
		case 'r': study = optarg; break;
		case 'c': compare = optarg; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return EXIT_BAD_INPUT;
		}
	}
	size_t n = (size_t)(argc - optind);
	if (n == 0 || n > MAX_INPUTS) {
		if (n)
			log_error("report: at most %d inputs", MAX_INPUTS);
		usage(stderr);
		return EXIT_BAD_INPUT;
	}
	if (study && !reference_known(study)) {
		log_error("report: --reference: unknown study '%s' (kvm-perf-2011, bonnie-qcow2-vs-raw, qcow2-l2-cache, guest-vs-host, cache-modes-lvm)",
			  study);
		return EXIT_BAD_INPUT;
	}
	tempfiles_remove_on_signal();
	unsigned long mark = tempfiles_mark();
	int r = report((const char *const *)argv + optind, n, baseline, study, compare, formats,
		       out);
	tempfiles_remove_since(mark);
	if (r == 1)
		return EXIT_WORSE;
	return r == -EINVAL ? EXIT_BAD_INPUT : r < 0 ? 1 : 0;
}
