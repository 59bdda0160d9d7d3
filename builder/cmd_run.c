/* buildapp run PROFILE.ini --target DIR [--results DIR] ...
 *
 * The appliance's side of the work on this host, without building an
 * image: build (or find) the guest kit and image, provision the backends
 * with the native tools, run the sweep through libvirt, print the table. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cas.h"
#include "cleanup.h"
#include "commands.h"
#include "guestimage.h"
#include "guestkit.h"
#include "loader.h"
#include "log.h"
#include "native.h"
#include "planner.h"
#include "recipe.h"
#include "storage_spec.h"
#include "sweep.h"

struct run_options {
	const char *profile;
	const char *target;
	const char *results;
	const char *uri;
	enum vm_accel accel;
	char cache[PATH_MAX];
};

static void run_usage(FILE *f)
{
	fprintf(f,
		"Usage: buildapp run PROFILE.ini --target DIR [--results DIR]\n"
		"                    [--cache DIR] [--connect URI] [--accel auto|kvm|tcg]\n\n"
		"Runs the profile's sweep on this host: builds (or finds in the\n"
		"cache) the benchmark guest, provisions the file backends\n"
		"(ext4-file, qcow2, raw) in DIR, boots one guest per run through\n"
		"libvirt, and writes RESULTS/runs.jsonl (one line per finished run),\n"
		"RESULTS/summary.json and RESULTS/summary.txt.  Runs already in the\n"
		"journal are skipped: run the same command again to resume.\n\n"
		"  --target DIR     where the backends' volumes are created\n"
		"  --results DIR    results directory (default: results)\n"
		"  --cache DIR      build cache (default ~/.cache/buildapp)\n"
		"  --connect URI    libvirt URI (default qemu:///embed, no daemon)\n"
		"  --accel MODE     auto (KVM when it boots a guest), kvm or tcg\n"
		"  --help           this text\n");
}

static int parse_run_args(int argc, char **argv, struct run_options *o)
{
	static const struct option options[] = {
		{"target", required_argument, NULL, 't'},
		{"results", required_argument, NULL, 'r'},
		{"cache", required_argument, NULL, 'c'},
		{"connect", required_argument, NULL, 'u'},
		{"accel", required_argument, NULL, 'a'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	int c, idx;

	memset(o, 0, sizeof(*o));
	o->results = "results";
	o->accel = VM_ACCEL_AUTO;
	cas_default_dir(o->cache, sizeof(o->cache));
	optind = 1;
	while ((c = getopt_long(argc, argv, "h", options, NULL)) != -1) {
		switch (c) {
		case 't':
			o->target = optarg;
			break;
		case 'r':
			o->results = optarg;
			break;
		case 'c':
			snprintf(o->cache, sizeof(o->cache), "%s", optarg);
			break;
		case 'u':
			o->uri = optarg;
			break;
		case 'a':
			idx = name_table_lookup(&vm_accel_names, optarg);
			if (idx < 0) {
				log_error("run: --accel: '%s' is not auto, kvm or tcg", optarg);
				return -EINVAL;
			}
			o->accel = idx;
			break;
		case 'h':
			run_usage(stdout);
			return 1;
		default:
			run_usage(stderr);
			return -EINVAL;
		}
	}
	if (optind != argc - 1 || !o->target) {
		run_usage(stderr);
		return -EINVAL;
	}
	o->profile = argv[optind];
	return 0;
}

/* The file backends in directory TARGET, made with the native tools. */
static int provision_directory(const struct profile *p, const char *target,
			       struct recipe *ret)
{
	struct storage_spec spec;
	struct storage_target t = {.kind = STORAGE_TARGET_DIRECTORY};
	struct stat st;
	const char *why;
	char abs[PATH_MAX];

	if (stat(target, &st) < 0 || !S_ISDIR(st.st_mode)) {
		log_error("run: --target '%s' is not a directory", target);
		return -EINVAL;
	}
	/* The recipe wants an absolute mount point, and libvirt absolute
	 * disk paths: a relative --target is resolved here. */
	if (!realpath(target, abs))
		return log_error_errno(-errno, "run: --target '%s': %s", target,
				       strerror(errno));
	storage_spec_from_profile(p, &spec);
	why = storage_spec_check(&spec);
	if (why) {
		log_error("profile '%s': [storage] %s", p->path, why);
		return -EINVAL;
	}
	if (strlen(abs) >= sizeof(t.mountpoint)) {
		log_error("run: --target '%s': path too long", abs);
		return -EINVAL;
	}
	memcpy(t.mountpoint, abs, strlen(abs) + 1);
	if (recipe_build(&spec, &t, ret) < 0) {
		log_error("profile '%s': [storage] backends: a directory target "
			  "holds the file backends only (ext4-file, qcow2, raw); "
			  "lvm needs a disk",
			  p->path);
		return -EINVAL;
	}
	log_info("provisioning %zu volumes in %s", ret->n_volumes, abs);
	return native_execute(ret) < 0 ? -EIO : 0;
}

/* The boot check's guest: the kit's kernel on the first volume. */
static struct vm_spec check_spec(const struct profile *p,
				 const struct guestkit *kit,
				 const struct storage_volume *vol,
				 const char *console)
{
	return (struct vm_spec){
		.name = "buildapp-check",
		.kernel = kit->kernel,
		.initrd = kit->initrd,
		.cmdline = "console=ttyS0",
		.memory = p->guest.memory,
		.vcpus = 1,
		.disk = vol->path,
		.format = vol->format,
		.cache = CACHE_UNSAFE,
		.aio = AIO_THREADS,
		.bus = BUS_VIRTIO,
		.console_log = console,
	};
}

static int run_sweep(const struct run_options *o, const struct plan *plan)
{
	const struct profile *p = &plan->profile;
	struct guestkit kit;
	struct guestimage img;
	struct recipe *rec = calloc(1, sizeof(*rec));
	struct vm_host *host = NULL;
	struct sweep_outcome out;
	char statedir[] = "/var/tmp/buildapp-run-XXXXXX", console[PATH_MAX];
	bool have_statedir = false;
	int r;

	if (!rec)
		return -ENOMEM;
	r = guestkit_build(p, o->cache, NULL, &kit);
	if (r >= 0)
		r = guestimage_build(p, o->cache, &img);
	if (r >= 0)
		r = provision_directory(p, o->target, rec);
	if (r >= 0) {
		have_statedir = mkdtemp(statedir) != NULL;
		if (!have_statedir)
			r = log_error_errno(errno, "mkdtemp: %s", strerror(errno));
	}
	if (r >= 0)
		r = vm_host_open(o->uri, statedir, o->accel, &host);
	if (r >= 0) {
		snprintf(console, sizeof(console), "%s/check.log", statedir);
		struct vm_spec check = check_spec(p, &kit, &rec->volumes[0], console);
		r = vm_host_check_boot(host, &check, 60);
	}
	if (r >= 0) {
		log_info("sweep: %zu runs of %zu cells, %s guests", plan->n_runs,
			 plan->n_cells, vm_host_kvm(host) ? "KVM" : "TCG");
		struct sweep_env env = {
			.plan = plan,
			.kernel = kit.kernel,
			.initrd = kit.initrd,
			.pristine = img.path,
			.volumes = rec->volumes,
			.n_volumes = rec->n_volumes,
			.results_dir = o->results,
			.host = host,
		};
		r = sweep_run(&env, &out);
	}
	vm_host_close(host);
	free(rec);
	if (have_statedir) {
		char cmd[PATH_MAX + 16];
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", statedir);
		if (system(cmd) != 0)
			log_warning("could not remove %s", statedir);
	}
	if (r < 0)
		return r;
	log_info("sweep done: %zu runs made, %zu already there, %zu failed",
		 out.made, out.skipped, out.failed);
	return out.failed ? 3 : 0;
}

int cmd_run(int argc, char **argv)
{
	struct run_options o;
	struct profile profile;
	struct plan plan;
	char path[PATH_MAX];
	int r;

	r = parse_run_args(argc, argv, &o);
	if (r != 0)
		return r > 0 ? 0 : EXIT_BAD_INPUT;
	if (loader_load(o.profile, &profile) < 0)
		return EXIT_BAD_INPUT;
	r = planner_build(&profile, &plan);
	if (r < 0) {
		log_error_errno(r, "profile '%s': cannot make a plan: %s", o.profile,
				strerror(-r));
		return 1;
	}
	r = run_sweep(&o, &plan);
	plan_release(&plan);
	if (r == -EINVAL)
		return EXIT_BAD_INPUT;
	if (r < 0)
		return 1;
	snprintf(path, sizeof(path), "%s/summary.txt", o.results);
	_cleanup_fclose_ FILE *f = fopen(path, "re");
	if (f) {
		char buf[4096];
		size_t n;
		while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
			fwrite(buf, 1, n, stdout);
	}
	return r == 3 ? 1 : 0;
}
