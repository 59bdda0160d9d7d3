/* buildapp provision: create the profile's storage backends on an image
 * file or a disk, after the safety checks, and say what was made. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <json-c/json.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cleanup.h"
#include "commands.h"
#include "gfsexec.h"
#include "loader.h"
#include "log.h"
#include "native.h"
#include "parse.h"
#include "recipe.h"
#include "volumes.h"

#define DEFAULT_MOUNT "/run/buildapp/volumes"

struct options {
	const char *profile;
	const char *target;
	const char *mount;
	bool dry_run, json, native;
};

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: buildapp provision PROFILE.ini --target FILE.img|/dev/DISK|DIR\n"
		"                          [--dry-run] [--json] [--executor guestfs|native]\n"
		"                          [--mount DIR]\n\n"
		"Creates the profile's [storage] backends on the target: an image file\n"
		"(created with the size the backends need when it does not exist), a\n"
		"whole disk, or (native executor, file backends only) a directory.\n"
		"A disk or file carrying signatures is only written with [host] wipe = yes,\n"
		"a disk only when [host] disk names it; the boot disk and mounted disks\n"
		"never.  Prints the volumes made, their sizes and allocation.\n\n"
		"  -t, --target PATH  image file, block device or directory\n"
		"  -n, --dry-run      print every step, touch nothing (the image\n"
		"                     file's size too: what `buildapp plan` says the\n"
		"                     disk under test must have)\n"
		"  -j, --json         machine-readable output\n"
		"  --executor E       guestfs (default: one libguestfs launch) or native\n"
		"                     (this host's tools; the filesystem stays mounted)\n"
		"  --mount DIR        native: where the filesystem is mounted (default\n"
		"                     " DEFAULT_MOUNT ")\n"
		"  -h, --help         this text\n");
	commands_help_exit(f, NULL, "an invalid profile, a target the safety rules refuse",
			   false);
}

static int parse_args(int argc, char **argv, struct options *o)
{
	static const struct option longopts[] = {
		{"target", required_argument, NULL, 't'},
		{"dry-run", no_argument, NULL, 'n'},
		{"json", no_argument, NULL, 'j'},
		{"executor", required_argument, NULL, 'e'},
		{"mount", required_argument, NULL, 'm'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	int c;

	memset(o, 0, sizeof(*o));
	o->mount = DEFAULT_MOUNT;
	optind = 1;
	while ((c = getopt_long(argc, argv, "t:njh", longopts, NULL)) != -1)
		switch (c) {
		case 't': o->target = optarg; break;
		case 'n': o->dry_run = true; break;
		case 'j': o->json = true; break;
		case 'm': o->mount = optarg; break;
		case 'e':
			if (strcmp(optarg, "native") == 0)
				o->native = true;
			else if (strcmp(optarg, "guestfs") != 0) {
				log_error("provision: --executor must be guestfs or native");
				return -EINVAL;
			}
			break;
		case 'h': usage(stdout); return 1;
		default: usage(stderr); return -EINVAL;
		}
	if (optind != argc - 1 || !o->target) {
		usage(stderr);
		return -EINVAL;
	}
	o->profile = argv[optind];
	return 0;
}

static void print_text(const struct recipe *r, const struct storage_alloc *a, FILE *f)
{
	char label[64], size[32], alloc[32], extents[32];

	fprintf(f, "%-16s %-8s %10s %10s %8s  %s\n", "VOLUME", "FORMAT", "SIZE",
		"ALLOCATED", "EXTENTS", "PATH");
	for (size_t i = 0; i < r->n_volumes; i++) {
		const struct storage_volume *v = &r->volumes[i];

		format_size(v->size, size, sizeof(size));
		if (a && a[i].allocated >= 0)
			format_size((uint64_t)a[i].allocated, alloc, sizeof(alloc));
		else
			snprintf(alloc, sizeof(alloc), "-");
		if (a && a[i].extents >= 0)
			snprintf(extents, sizeof(extents), "%" PRId64, a[i].extents);
		else
			snprintf(extents, sizeof(extents), "-");
		fprintf(f, "%-16s %-8s %10s %10s %8s  %s\n",
			storage_volume_label(v, label, sizeof(label)),
			image_format_name(v->format), size, alloc, extents, v->path);
	}
}

static void print_json(const struct recipe *r, const struct storage_alloc *a,
		       const char *target, bool dry_run, bool native, bool new_file,
		       FILE *f)
{
	struct json_object *o = json_object_new_object(), *vols = json_object_new_array();
	char line[2 * STORAGE_PATH_MAX + 128];

	json_object_object_add(o, "target", json_object_new_string(target));
	json_object_object_add(o, "executor", json_object_new_string(native ? "native" : "guestfs"));
	json_object_object_add(o, "dry_run", json_object_new_boolean(dry_run));
	json_object_object_add(o, "disk_size", json_object_new_int64((int64_t)r->disk_size));
	json_object_object_add(o, "creates_image_file", json_object_new_boolean(new_file));
	if (dry_run) {
		struct json_object *steps = json_object_new_array();

		for (size_t i = 0; i < r->n_steps; i++)
			json_object_array_add(steps, json_object_new_string(
				recipe_step_describe(&r->steps[i], line, sizeof(line))));
		json_object_object_add(o, "steps", steps);
	}
	for (size_t i = 0; i < r->n_volumes; i++)
		json_object_array_add(vols, storage_volume_to_json(&r->volumes[i],
								   a ? &a[i] : NULL));
	json_object_object_add(o, "volumes", vols);
	fprintf(f, "%s\n", json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY |
						   JSON_C_TO_STRING_SPACED |
						   JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(o);
}

static int make_target(const struct options *o, const struct profile *p,
		       struct storage_target *ret, bool *ret_file)
{
	struct stat st;
	bool exists = stat(o->target, &st) == 0;
	char real[PATH_MAX];

	*ret_file = false;
	memset(ret, 0, sizeof(*ret));
	if (exists && S_ISDIR(st.st_mode)) {
		if (!o->native) {
			log_error("provision: a directory target needs --executor native");
			return -EINVAL;
		}
		ret->kind = STORAGE_TARGET_DIRECTORY;
		snprintf(ret->mountpoint, sizeof(ret->mountpoint), "%s", o->target);
		return 0;
	}
	/* Safety first: refusals are bad input (exit 2). */
	if (volumes_check_target(p, o->target, NULL) < 0)
		return -EPERM;
	*ret_file = !exists || S_ISREG(st.st_mode);
	if (o->native && *ret_file) {
		log_error("provision: the native executor needs a block device or a "
			  "directory; image files use the guestfs executor");
		return -EINVAL;
	}
	if (!o->native) {
		gfsexec_target(ret);
		return 0;
	}
	ret->kind = STORAGE_TARGET_DISK;
	/* Partitions are named after the kernel's name (/dev/sda1), not a
	 * by-id link's. */
	if (!realpath(o->target, real))
		return log_error_errno(-errno, "'%s'", o->target);
	if (strlen(real) >= sizeof(ret->device)) {
		log_error("provision: device path '%s' is too long", real);
		return -ENAMETOOLONG;
	}
	memcpy(ret->device, real, strlen(real) + 1);
	snprintf(ret->mountpoint, sizeof(ret->mountpoint), "%s", o->mount);
	return 0;
}

/* A missing image file is created with the size the recipe needs; an
 * existing one must be large enough. */
static int prepare_file(const char *path, uint64_t size, bool dry_run, bool quiet,
			bool *ret_created)
{
	_cleanup_close_ int fd = -1;
	char buf[32];
	struct stat st;

	*ret_created = false;
	if (stat(path, &st) == 0) {
		if ((uint64_t)st.st_size >= size)
			return 0;
		log_error("provision: '%s' is %" PRIu64 " bytes; the backends need %" PRIu64,
			  path, (uint64_t)st.st_size, size);
		return -EINVAL;
	}
	*ret_created = true;
	if (dry_run) {
		if (!quiet)
			printf(" 0. create image file %s (%s)\n", path,
			       format_size(size, buf, sizeof(buf)));
		return 0;
	}
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0 || ftruncate(fd, (off_t)size) < 0)
		return log_error_errno(-errno, "creating '%s'", path);
	return 0;
}

static int provision(const struct options *o, const struct profile *p)
{
	struct storage_spec spec;
	struct storage_target target;
	struct recipe r;
	struct storage_alloc allocs[RECIPE_MAX_VOLUMES];
	const char *why;
	bool file, created = false;
	int k;

	volumes_spec_from_profile(p, &spec);
	why = storage_spec_check(&spec);
	if (why) {
		log_error("profile '%s': [storage] %s", o->profile, why);
		return EXIT_BAD_INPUT;
	}
	k = make_target(o, p, &target, &file);
	if (k < 0)
		return EXIT_BAD_INPUT;
	if (recipe_build(&spec, &target, &r) < 0) {
		log_error("provision: cannot lay out the backends on '%s'%s", o->target,
			  target.kind == STORAGE_TARGET_DIRECTORY
				  ? " (lvm needs a disk, not a directory)" : "");
		return EXIT_BAD_INPUT;
	}
	if (file && prepare_file(o->target, r.disk_size, o->dry_run, o->json, &created) < 0)
		return EXIT_BAD_INPUT;
	if (o->dry_run) {
		if (o->json)
			print_json(&r, NULL, o->target, true, o->native, created, stdout);
		else
			recipe_write_text(&r, stdout);
		return 0;
	}
	if (o->native) {
		k = native_execute(&r, NULL);
		for (size_t i = 0; k >= 0 && i < r.n_volumes; i++)
			k = storage_alloc_probe(&r.volumes[i], &allocs[i]);
	} else
		k = gfsexec_execute(&r, o->target, allocs);
	if (k < 0)
		return 1;
	if (o->json)
		print_json(&r, allocs, o->target, false, o->native, created, stdout);
	else {
		printf("%s: %s backends%s\n", o->target,
		       o->native ? "native" : "libguestfs",
		       o->native ? "" : " (paths inside the image)");
		print_text(&r, allocs, stdout);
	}
	return 0;
}

int cmd_provision(int argc, char **argv)
{
	struct options o;
	struct profile p;
	int k;

	k = parse_args(argc, argv, &o);
	if (k != 0)
		return k > 0 ? 0 : EXIT_BAD_INPUT;
	k = loader_load(o.profile, &p);
	if (k < 0)
		return k == -EINVAL ? EXIT_BAD_INPUT : 1;
	return provision(&o, &p);
}
