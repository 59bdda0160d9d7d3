/* buildapp hostroot: the appliance's root as an initramfs, alone (the
 * step `buildapp PROFILE.ini` runs before assembling the image). */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "hostroot.h"
#include "log.h"
#include "repro.h"
#include "tempfiles.h"
#include "tools.h"

static void usage(FILE *f)
{
	fprintf(f, "Usage: buildapp hostroot -o INITRD [--cache DIR] [--kernel-version V]\n\n"
		   "Writes the appliance root (installed Debian packages via\n"
		   "supermin, kernel modules, the appliance init) as a\n"
		   "zstd-compressed initramfs: the first half of a kit build.\n\n"
		   "  -o, --output INITRD    where to write it\n"
		   "  --cache DIR            build cache, which keeps the package part\n"
		   "                         (default $XDG_CACHE_HOME/buildapp or\n"
		   "                         ~/.cache/buildapp)\n"
		   "  --kernel-version V     whose modules it carries (default: the\n"
		   "                         kernel a build takes, `buildapp kernel`)\n"
		   "  -h, --help             this text\n");
	commands_help_exit(f, NULL, NULL, false);
}

int cmd_hostroot(int argc, char **argv)
{
	static const struct option opts[] = {
		{"output", required_argument, NULL, 'o'},
		{"cache", required_argument, NULL, 'c'},
		{"kernel-version", required_argument, NULL, 'k'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	char cache[4096], init[4096], tmp[4200], kpath[4096], kver[256];
	struct hostroot_spec spec = {0};
	int c, r, cached = 0;

	optind = 1;
	while ((c = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
		switch (c) {
		case 'o': spec.output = optarg; break;
		case 'c': spec.cache_dir = optarg; break;
		case 'k': spec.kernel_version = optarg; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return EXIT_BAD_INPUT;
		}
	}
	if (!spec.output || optind != argc) {
		usage(stderr);
		return EXIT_BAD_INPUT;
	}
	if (!spec.kernel_version) {
		if (tools_find_kernel(NULL, kpath, sizeof(kpath), kver, sizeof(kver)) < 0)
			return 1;
		spec.kernel_version = kver;
	}
	if (tools_cache_dir(spec.cache_dir, cache, sizeof(cache)) < 0)
		return 1;
	spec.cache_dir = cache;
	if (tools_find_init(init, sizeof(init)) < 0 || repro_epoch(&spec.epoch) < 0)
		return 1;
	spec.init = init;
	tempfiles_remove_on_signal();
	snprintf(tmp, sizeof(tmp), "%s.tmp", spec.output);
	struct hostroot_spec s2 = spec;
	s2.output = tmp;
	tempfiles_add(tmp, 0);
	r = hostroot_build(&s2, &cached);
	if (r == 0 && rename(tmp, spec.output) < 0)
		r = log_error_errno(-errno, "'%s'", spec.output);
	if (r < 0) {
		tempfiles_remove_all();
		return 1;
	}
	tempfiles_forget(tmp);
	log_info("wrote %s (package root %s)", spec.output, cached ? "cached" : "built");
	return 0;
}
