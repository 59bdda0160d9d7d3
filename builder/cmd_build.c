/* buildapp PROFILE.ini: the kit of a profile (builder/kit.h). */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "backend.h"
#include "commands.h"
#include "kit.h"
#include "lavajob.h"
#include "loader.h"
#include "log.h"

static void usage(FILE *f)
{
	fprintf(f, "Usage: buildapp [build] PROFILE.ini [-o OUTDIR] [--format raw|qcow2]\n"
		   "                           [--cache DIR] [--sign KEY] [--lava-url URL]\n"
		   "                           [--lava-server TAGS[=DISK]]...\n\n"
		   "Writes the kit of the profile into OUTDIR: NAME.img (a disk\n"
		   "image that boots under BIOS and UEFI, Secure Boot included,\n"
		   "with a RESULTS partition), NAME.iso (the same kit for a CD or a\n"
		   "BMC's virtual media), NAME.netboot/ (kernel, initrd, iPXE\n"
		   "script, and the kit as LAVA jobs: lava-x86.yaml, lava-qemu.yaml)\n"
		   "and NAME.manifest.json.  SOURCE_DATE_EPOCH makes the kit\n"
		   "reproducible.\n\n"
		   "  -o, --output DIR  where the kit goes (default out)\n"
		   "  --format FMT      the image's format, raw or qcow2 (default:\n"
		   "                    the profile's [appliance] format)\n"
		   "  --cache DIR       build cache (default $XDG_CACHE_HOME/buildapp\n"
		   "                    or ~/.cache/buildapp)\n"
		   "  --sign KEY        also write NAME.manifest.json.sig, the manifest\n"
		   "                    signed with this OpenSSH key, which `buildapp\n"
		   "                    verify --key` and `ssh-keygen -Y verify -n\n"
		   "                    buildapp-kit` check\n"
		   "  --lava-url URL    where a LAVA lab fetches NAME.netboot/ from\n"
		   "                    (http://, https:// or file://; default: its own\n"
		   "                    path as a file:// URL)\n"
		   "  --lava-server TAGS[=DISK]  also write lava-x86-TAG.yaml, the x86\n"
		   "                    job for the server of these LAVA device tags\n"
		   "                    (comma-separated, the first naming the job) and,\n"
		   "                    with DISK, that disk under test (by-id name,\n"
		   "                    serial or WWN); may be given again\n"
		   "  -h, --help        this text\n");
	commands_help_exit(f, "failure (nothing is left at the output path)",
			   "an invalid profile, a bad option", false);
}

int cmd_build(int argc, char **argv)
{
	static const struct option opts[] = {
		{"output", required_argument, NULL, 'o'},
		{"format", required_argument, NULL, 'f'},
		{"cache", required_argument, NULL, 'c'},
		{"sign", required_argument, NULL, 's'},
		{"lava-url", required_argument, NULL, 'l'},
		{"lava-server", required_argument, NULL, 'S'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	struct kit_options o = {.outdir = "out", .format = -1};
	static struct lavajob_server servers[LAVAJOB_SERVERS_MAX];
	struct profile profile;
	char why[256];
	int c, r;

	optind = 1;
	while ((c = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
		switch (c) {
		case 'o': o.outdir = optarg; break;
		case 'c': o.cache_dir = optarg; break;
		case 's': o.sign_key = optarg; break;
		case 'l': o.lava_url = optarg; break;
		case 'S':
			if (o.n_lava_servers == LAVAJOB_SERVERS_MAX) {
				log_error("--lava-server: at most %d", LAVAJOB_SERVERS_MAX);
				return EXIT_BAD_INPUT;
			}
			if (lavajob_parse_server(optarg, &servers[o.n_lava_servers], why,
						 sizeof why) < 0) {
				log_error("--lava-server '%s': %s", optarg, why);
				return EXIT_BAD_INPUT;
			}
			for (size_t i = 0; i < o.n_lava_servers; i++)
				if (strcmp(servers[i].tags[0], servers[o.n_lava_servers].tags[0]) == 0) {
					log_error("--lava-server '%s': a job named by tag '%s' is "
						  "given already", optarg, servers[i].tags[0]);
					return EXIT_BAD_INPUT;
				}
			o.lava_servers = servers;
			o.n_lava_servers++;
			break;
		case 'f':
			o.format = name_table_lookup(&image_format_names, optarg);
			if (o.format < 0) {
				log_error("--format '%s': raw or qcow2", optarg);
				return EXIT_BAD_INPUT;
			}
			break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return EXIT_BAD_INPUT;
		}
	}
	if (optind + 1 != argc) {
		usage(stderr);
		return EXIT_BAD_INPUT;
	}
	if (o.sign_key && access(o.sign_key, R_OK) < 0) {
		log_error("--sign '%s': %s", o.sign_key, strerror(errno));
		return EXIT_BAD_INPUT;
	}
	if (o.lava_url && lavajob_check_url(o.lava_url, why, sizeof why) < 0) {
		log_error("--lava-url '%s': %s", o.lava_url, why);
		return EXIT_BAD_INPUT;
	}
	memset(&profile, 0, sizeof(profile));
	r = loader_load(argv[optind], &profile);
	if (r < 0 || kit_check_crash_reboot(&profile) < 0)
		return EXIT_BAD_INPUT;
	return kit_build(&profile, &o) < 0 ? 1 : 0;
}
