/* buildapp plan PROFILE.ini [--json] */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "keyref.h"
#include "loader.h"
#include "log.h"
#include "planner.h"
#include "plantext.h"

static void plan_usage(FILE *f)
{
	fprintf(f, "Usage: buildapp plan PROFILE.ini [--json]\n\n"
		   "Prints the resolved profile (after includes and defaults), the\n"
		   "cache-mode table of the modes it sweeps, the matrix cells, the\n"
		   "cells left out and why, each compared axis's reference level (the\n"
		   "first it lists), the questions of [report] compare, what the lab\n"
		   "server must give (the disk under test's size, memory, boots, what\n"
		   "is known of the time) and the run order.\n\n"
		   "  --json       the plan as JSON (format in docs/plan.md)\n"
		   "  -h, --help   this text\n");
	commands_help_exit(f, NULL, "an invalid profile: one message names its file, line, "
			   "section and key", false);
}

int cmd_plan(int argc, char **argv)
{
	static const struct option options[] = {
		{"json", no_argument, NULL, 'j'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	struct profile profile;
	struct plan plan;
	bool json = false;
	int c, r;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", options, NULL)) != -1) {
		switch (c) {
		case 'j':
			json = true;
			break;
		case 'h':
			plan_usage(stdout);
			return 0;
		default:
			plan_usage(stderr);
			return EXIT_BAD_INPUT;
		}
	}
	if (optind != argc - 1) {
		plan_usage(stderr);
		return EXIT_BAD_INPUT;
	}
	if (loader_load(argv[optind], &profile) < 0)
		return EXIT_BAD_INPUT;
	r = planner_build(&profile, &plan);
	if (r < 0) {
		log_error_errno(r, "profile '%s': cannot make a plan",
				argv[optind]);
		return 1;
	}
	r = json ? plan_write_json(&plan, stdout) : plantext_write(&plan, stdout);
	plan_release(&plan);
	if (r < 0 || fflush(stdout) != 0) {
		log_error("plan: cannot write the output");
		return 1;
	}
	return 0;
}

/* buildapp keys: the profile language's reference, as a Markdown table. */
int cmd_keys(int argc, char **argv)
{
	if (argc > 1) {
		bool help = argc == 2 && (strcmp(argv[1], "--help") == 0 ||
					  strcmp(argv[1], "-h") == 0);
		FILE *f = help ? stdout : stderr;
		fprintf(f, "Usage: buildapp keys\n\n"
			   "Prints every profile key with its type, range, default and\n"
			   "meaning, as a Markdown table (docs/profile-keys.md holds it).\n\n"
			   "  -h, --help   this text\n");
		commands_help_exit(f, NULL, NULL, false);
		return help ? 0 : EXIT_BAD_INPUT;
	}
	keyref_write_markdown(stdout);
	return 0;
}
