/* The buildapp subcommands.  Each takes the arguments after its name
 * (argv[0] is the subcommand) and returns the process exit status: 0
 * success, 1 failure, or one of these: the one list, which docs/buildapp.1
 * gives under EXIT STATUS and each command's --help ends with
 * (commands_help_exit); tests/integration/readme.sh and docs-drift.sh hold
 * them to it, and a command returns no other number. */
#ifndef BUILDAPP_COMMANDS_H
#define BUILDAPP_COMMANDS_H

#include <stdbool.h>
#include <stdio.h>

/* Bad usage or bad input (an invalid profile, an unreadable manifest). */
#define EXIT_BAD_INPUT 2
/* buildapp report --baseline: a cell is significantly worse (the report
 * is written). */
#define EXIT_WORSE 3

/* The end of a command's --help: "Exit status: 0 success, 1 ONE, 2 bad
 * usage or bad input (BAD)", and with WORSE report's EXIT_WORSE; ONE
 * NULL is "failure", BAD NULL says nothing more. */
void commands_help_exit(FILE *f, const char *one, const char *bad, bool worse);

int cmd_plan(int argc, char **argv);
int cmd_keys(int argc, char **argv);
int cmd_provision(int argc, char **argv);
int cmd_kit(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_image(int argc, char **argv);
int cmd_results(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_kernel(int argc, char **argv);

/* Copies the RESULTS partition of IMAGE (a used kit image or a device)
 * into DIR, read-only through libguestfs.  Reports errors; returns 0,
 * -ENOENT when IMAGE has no RESULTS partition, or another negative errno. */
int results_copy_out(const char *image, const char *dir);
int cmd_hostroot(int argc, char **argv);
/* Also the default: `buildapp PROFILE.ini` runs cmd_build. */
int cmd_build(int argc, char **argv);

#endif
