/* buildapp image: the disk image alone, from a kernel and an initramfs.
 * The low-level step of `buildapp PROFILE.ini`, for tests and for kits
 * whose root is built elsewhere. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "image.h"
#include "log.h"
#include "parse.h"
#include "repro.h"

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: buildapp image --kernel FILE --initrd FILE -o IMAGE\n"
		"                      [--cmdline TEXT] [--name NAME]\n"
		"                      [--format raw|qcow2] [--size SIZE]\n"
		"                      [--results-size SIZE] [--iso]\n\n"
		"Writes a GPT disk image that boots FILE and the initramfs under\n"
		"BIOS (SYSLINUX) and UEFI (shim and GRUB, Secure Boot), with an empty ext4\n"
		"partition labelled RESULTS.  --iso writes a hybrid ISO image\n"
		"(a CD, or a stick it is written to) that boots the same way,\n"
		"without RESULTS.  SOURCE_DATE_EPOCH makes it reproducible.\n\n"
		"  --kernel FILE        the kernel it boots\n"
		"  --initrd FILE        the initramfs it boots\n"
		"  -o, --output IMAGE   where to write it\n"
		"  --cmdline TEXT       the kernel command line (default console=ttyS0)\n"
		"  --name NAME          its boot menu entry, the seed of its UUIDs\n"
		"                       (default buildapp)\n"
		"  --format FMT         raw (default) or qcow2\n"
		"  --size SIZE          the image's size (default: as small as fits)\n"
		"  --results-size SIZE  RESULTS' size (default 256M, grown to fill\n"
		"                       --size)\n"
		"  --iso                a hybrid ISO image instead\n"
		"  -h, --help           this text\n");
	commands_help_exit(f, NULL, "a bad option or SOURCE_DATE_EPOCH", false);
}

int cmd_image(int argc, char **argv)
{
	static const struct option opts[] = {
		{"kernel", required_argument, NULL, 'k'},
		{"initrd", required_argument, NULL, 'i'},
		{"output", required_argument, NULL, 'o'},
		{"cmdline", required_argument, NULL, 'c'},
		{"name", required_argument, NULL, 'n'},
		{"format", required_argument, NULL, 'f'},
		{"size", required_argument, NULL, 's'},
		{"results-size", required_argument, NULL, 'r'},
		{"iso", no_argument, NULL, 'I'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	struct image_spec spec = {
		.name = "buildapp",
		.cmdline = "console=ttyS0",
		.format = IMAGE_FORMAT_RAW,
	};
	int c, r, iso = 0;

	optind = 1;
	while ((c = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
		switch (c) {
		case 'k': spec.kernel = optarg; break;
		case 'i': spec.initrd = optarg; break;
		case 'o': spec.output = optarg; break;
		case 'c': spec.cmdline = optarg; break;
		case 'n': spec.name = optarg; break;
		case 'f':
			r = name_table_lookup(&image_format_names, optarg);
			if (r < 0) {
				log_error("image: --format '%s': raw or qcow2",
					  optarg);
				return EXIT_BAD_INPUT;
			}
			spec.format = (enum image_format)r;
			break;
		case 's':
		case 'r':
			if (parse_size(optarg, c == 's' ? &spec.size
							: &spec.results_size) < 0) {
				log_error("image: --%s '%s': not a size",
					  c == 's' ? "size" : "results-size",
					  optarg);
				return EXIT_BAD_INPUT;
			}
			break;
		case 'I': iso = 1; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return EXIT_BAD_INPUT;
		}
	}
	if (optind != argc || !spec.kernel || !spec.initrd || !spec.output) {
		usage(stderr);
		return EXIT_BAD_INPUT;
	}
	if (repro_epoch(&spec.epoch) < 0)
		return EXIT_BAD_INPUT;
	r = iso ? image_build_iso(&spec) : image_build(&spec);
	if (r < 0)
		return 1;
	log_info("wrote %s", spec.output);
	return 0;
}
