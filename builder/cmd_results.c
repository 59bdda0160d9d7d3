/* buildapp results: copies what the appliance left on RESULTS out of a
 * used image or the stick/disk it was written to (read-only, one
 * libguestfs launch). */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "commands.h"
#include "dirs.h"
#include "gfs.h"
#include "image.h"
#include "log.h"
#include "progress.h"

static void usage(FILE *f)
{
	fprintf(f, "Usage: buildapp results IMAGE|DEVICE -o DIR\n\n"
		   "Copies the content of the RESULTS partition of a used kit\n"
		   "image, stick or disk into DIR (created if missing).  The\n"
		   "image is opened read-only.\n\n"
		   "  -o, --output DIR  where to copy it (created if missing)\n"
		   "  -h, --help        this text\n");
	commands_help_exit(f, NULL, "IMAGE unreadable or without a RESULTS partition", false);
}

int results_copy_out(const char *image, const char *dir)
{
	_cleanup_guestfs_ guestfs_h *g = gfs_open();
	struct stat st;
	int r;

	if (!g)
		return -ENOMEM;
	/* A block device is raw; for a file qemu probes the format, which
	 * is safe read-only. */
	if (stat(image, &st) == 0 && S_ISBLK(st.st_mode))
		r = guestfs_add_drive_opts(g, image, GUESTFS_ADD_DRIVE_OPTS_READONLY,
					   1, GUESTFS_ADD_DRIVE_OPTS_FORMAT,
					   "raw", -1);
	else
		r = guestfs_add_drive_opts(g, image, GUESTFS_ADD_DRIVE_OPTS_READONLY,
					   1, -1);
	if (r < 0)
		return gfshandle_error(g, "%s", image);
	r = gfs_launch(g);
	if (r < 0)
		return r;
	_cleanup_free_ char *dev = guestfs_findfs_label(g, IMAGE_RESULTS_LABEL);
	if (!dev)
		return log_error_code(-ENOENT, "'%s': no RESULTS partition (not a used kit image or stick)",
				      image);
	if (guestfs_mount_ro(g, dev, "/") < 0)
		return gfshandle_error(g, "mounting RESULTS");
	_cleanup_strv_free_ char **names = guestfs_ls(g, "/");
	if (!names)
		return gfshandle_error(g, "listing RESULTS");
	progress_step("copying the results out");
	unsigned n = 0;
	for (char **p = names; *p; p++) {
		char path[4096];
		if (strcmp(*p, "lost+found") == 0)
			continue;
		snprintf(path, sizeof(path), "/%s", *p);
		if (guestfs_copy_out(g, path, dir) < 0)
			return gfshandle_error(g, "%s", path);
		n++;
	}
	if (guestfs_shutdown(g) < 0)
		return gfshandle_error(g, "libguestfs shutdown");
	log_info("copied %u entr%s from %s to %s", n, n == 1 ? "y" : "ies", dev,
		 dir);
	return 0;
}

int cmd_results(int argc, char **argv)
{
	static const struct option opts[] = {
		{"output", required_argument, NULL, 'o'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	const char *dir = NULL;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
		switch (c) {
		case 'o': dir = optarg; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return EXIT_BAD_INPUT;
		}
	}
	if (!dir || optind + 1 != argc) {
		usage(stderr);
		return EXIT_BAD_INPUT;
	}
	if (access(argv[optind], R_OK) < 0) {
		log_error("results: '%s': %s", argv[optind], strerror(errno));
		return EXIT_BAD_INPUT;
	}
	int r = dirs_make(dir, 0755);
	if (r < 0) {
		log_error("results: cannot create '%s': %s", dir, strerror(-r));
		return 1;
	}
	r = results_copy_out(argv[optind], dir);
	return r == -ENOENT ? EXIT_BAD_INPUT : r < 0 ? 1 : 0;
}
