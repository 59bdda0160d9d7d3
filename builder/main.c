/* buildapp: build a bootable storage-benchmark appliance from a profile. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "gfshandle.h"
#include "kvmboot.h"
#include "log.h"
#include "tempfiles.h"

struct command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
};

static const struct command commands[] = {
	{"build", cmd_build, "build the kit of a profile (the default)"},
	{"plan", cmd_plan, "print the resolved profile and the sweep matrix"},
	{"keys", cmd_keys, "print the reference of every profile key"},
	{"provision", cmd_provision, "create the storage backends on an image file or disk"},
	{"kit", cmd_kit, "build the benchmark guest: kernel, initramfs, disk image"},
	{"run", cmd_run, "run a profile's sweep on this host and print the table"},
	{"verify", cmd_verify, "check a kit against its manifest (and its signature, a rebuild)"},
	{"results", cmd_results, "copy the RESULTS partition of a used image or disk out"},
	{"report", cmd_report, "report of result bundles: answers with confidence, several hosts"},
	{"hostroot", cmd_hostroot, "write the appliance root as an initramfs"},
	{"image", cmd_image, "write a bootable disk image from a kernel and initramfs"},
	{"kernel", cmd_kernel, "print the kernel a build takes (path, version)"},
};

static void usage(FILE *f)
{
	fprintf(f, "Usage: buildapp [build] PROFILE.ini [OPTION...]\n"
		   "       buildapp COMMAND [ARGS...]\n"
		   "       buildapp [--help|--version]\n\n"
		   "Commands:\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
	fprintf(f, "\n  -h, --help   this text\n"
		   "  --version    the version, as \"buildapp VERSION\"\n"
		   "\n'buildapp COMMAND --help' describes a command, buildapp(1) all of\n"
		   "them, 'buildapp keys' every profile key.\n");
	commands_help_exit(f, NULL, NULL, true);
}

/* libguestfs initializes libvirt as it is loaded, before main, and
 * libvirt reads LIBVIRT_LOG_OUTPUTS then and never again: the runner's
 * own setting (vm_host_open) would come too late, and libvirt would log
 * at its default level, warnings of conditions a sweep expects ("tainted:
 * high-privileges", the embedded driver's "security driver none") on the
 * console of a run that is going well, and errors it recovers from (no
 * access manager, dmidecode without /dev/mem).  So the program starts
 * once more with libvirt's log going nowhere: its real errors reach their
 * callers (virGetLastErrorMessage), which report them once with their
 * cause, and the state directory the appliance logs into does not exist
 * yet.  A LIBVIRT_LOG_OUTPUTS of the user's own is kept. */
static void set_libvirt_logging(char **argv)
{
	if (getenv("LIBVIRT_LOG_OUTPUTS"))
		return;
	setenv("LIBVIRT_LOG_OUTPUTS", "3:file:/dev/null", 1);
	execv("/proc/self/exe", argv);
	/* Not re-executed (no /proc): libvirt's default level, as before. */
}

int main(int argc, char **argv)
{
	set_libvirt_logging(argv);
	log_set_program("buildapp");
	/* Bad input like any other, before anything is built with it. */
	if (kvmboot_env_accel() < 0)
		return EXIT_BAD_INPUT;
	/* libguestfs' temporary directory inside this process' own, which
	 * signals and the next build (after a SIGKILL) remove. */
	gfshandle_set_tmpdir_source(tempfiles_scratch);
	if (argc < 2) {
		usage(stderr);
		return EXIT_BAD_INPUT;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		usage(stdout);
		return 0;
	}
	if (strcmp(argv[1], "--version") == 0) {
		printf("buildapp %s\n", BUILDAPP_VERSION);
		return 0;
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (strcmp(argv[1], commands[i].name) == 0)
			return commands[i].run(argc - 1, argv + 1);

	/* Not a command: a profile, `buildapp PROFILE.ini [options]`. */
	if (argv[1][0] != '-')
		return cmd_build(argc, argv);
	log_error("unknown option '%s' (see 'buildapp --help')", argv[1]);
	return EXIT_BAD_INPUT;
}
