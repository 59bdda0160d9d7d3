/* buildapp kit PROFILE.ini -o DIR [--cache DIR] [--no-image]
 *
 * Builds (or finds in the cache) the guest kit and the guest image of a
 * profile and puts them in DIR, with the kernel command line of each of
 * its guest workloads: everything needed to boot a benchmark guest by
 * hand. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cleanup.h"
#include "dirs.h"
#include "files.h"
#include "commands.h"
#include "guestcmdline.h"
#include "guestimage.h"
#include "guestkit.h"
#include "loader.h"
#include "log.h"
#include "parse.h"
#include "tools.h"

static void kit_usage(FILE *f)
{
	fprintf(f,
		"Usage: buildapp kit PROFILE.ini -o DIR [--cache DIR] "
		"[--no-image]\n\n"
		"Builds the benchmark guest of a profile into DIR: vmlinuz,\n"
		"initrd.img (the guest agent, busybox, the workload tools, the\n"
		"disk drivers), disk.img (the pristine guest disk with the\n"
		"workload data) and cmdline-KIND for each guest workload.\n"
		"Builds are cached by content: an unchanged profile and host\n"
		"take no time the second time.\n\n"
		"  -o, --output DIR  where to put the files (created)\n"
		"  --cache DIR       build cache (default $XDG_CACHE_HOME/buildapp\n"
		"                    or ~/.cache/buildapp)\n"
		"  --no-image        the kernel and initramfs only\n"
		"  -h, --help        this text\n");
	commands_help_exit(f, NULL, "an invalid profile", false);
}

static int export_file(const char *from, const char *dir, const char *name)
{
	char to[PATH_MAX];
	snprintf(to, sizeof(to), "%s/%s", dir, name);
	int r = files_copy(from, to, 0644, 1);
	if (r < 0)
		return log_error_errno(r, "cannot write '%s'", to);
	printf("%s\n", to);
	return 0;
}

static int write_cmdlines(const struct profile *p, const char *dir)
{
	for (int k = 0; k < _WORKLOAD_MAX; k++) {
		_cleanup_free_ char *line = NULL;
		char path[PATH_MAX];
		if (!(p->workload.kinds & AXIS_BIT(k)) ||
		    guestcmdline_build(p, k, &line) < 0)
			continue; /* not in the profile, or host side */
		snprintf(path, sizeof(path), "%s/cmdline-%s", dir,
			 workload_kind_name(k));
		_cleanup_fclose_ FILE *f = fopen(path, "we");
		if (!f || fprintf(f, "%s\n", line) < 0)
			return log_error_errno(-errno, "cannot write '%s'",
					       path);
		printf("%s\n", path);
	}
	return 0;
}

int cmd_kit(int argc, char **argv)
{
	static const struct option options[] = {
		{"output", required_argument, NULL, 'o'},
		{"cache", required_argument, NULL, 'c'},
		{"no-image", no_argument, NULL, 'n'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	const char *out = NULL, *given_cache = NULL;
	char cache[PATH_MAX];
	bool image = true;
	struct profile profile;
	struct guestkit kit;
	struct guestimage img;
	char size[32];
	int c, r;

	optind = 1;
	while ((c = getopt_long(argc, argv, "o:h", options, NULL)) != -1) {
		switch (c) {
		case 'o':
			out = optarg;
			break;
		case 'c':
			given_cache = optarg;
			break;
		case 'n':
			image = false;
			break;
		case 'h':
			kit_usage(stdout);
			return 0;
		default:
			kit_usage(stderr);
			return EXIT_BAD_INPUT;
		}
	}
	if (optind != argc - 1 || !out) {
		kit_usage(stderr);
		return EXIT_BAD_INPUT;
	}
	if (loader_load(argv[optind], &profile) < 0)
		return EXIT_BAD_INPUT;
	if (tools_cache_dir(given_cache, cache, sizeof(cache)) < 0)
		return 1;
	if ((r = dirs_make(out, 0755)) < 0) {
		log_error("cannot create '%s': %s", out, strerror(-r));
		return 1;
	}
	if (guestkit_build(&profile, cache, NULL, &kit) < 0)
		return 1;
	log_info("guest kit: kernel %s, needs %s of guest memory%s",
		 kit.version, format_size(kit.min_memory, size, sizeof(size)),
		 kit.cached ? " (cached)" : "");
	if (profile.guest.memory < kit.min_memory)
		log_warning("[guest] memory = %s is too small for this guest "
			    "kit: the guest cannot unpack its initramfs",
			    format_size(profile.guest.memory, size,
					sizeof(size)));
	if (export_file(kit.kernel, out, "vmlinuz") < 0 ||
	    export_file(kit.initrd, out, "initrd.img") < 0)
		return 1;
	/* What the runner boots when the kernel has a PVH entry. */
	if (strcmp(kit.boot_kernel, kit.kernel) != 0 &&
	    export_file(kit.boot_kernel, out, "vmlinux") < 0)
		return 1;
	if (image) {
		if (guestimage_build(&profile, cache, &img) < 0)
			return 1;
		log_info("guest image: %s, %s%s",
			 img.tarball[0] ? img.tarball : "no tarball",
			 format_size(img.size, size, sizeof(size)),
			 img.cached ? " (cached)" : "");
		if (export_file(img.path, out, "disk.img") < 0)
			return 1;
	}
	return write_cmdlines(&profile, out) < 0 ? 1 : 0;
}
