/* SPDX-License-Identifier: GPL-2.0-or-later */
/* buildapp run PROFILE.ini --target DIR [--results DIR] ...
 *
 * The appliance's side of the work on this host, without building an
 * image: build (or find) the guest kit and image, provision the backends
 * with the native tools, run the sweep through libvirt, print the table. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench.h"
#include "cas.h"
#include "cleanup.h"
#include "commands.h"
#include "guestimage.h"
#include "guestkit.h"
#include "hostinfo.h"
#include "loader.h"
#include "log.h"
#include "signals.h"
#include "parse.h"
#include "planner.h"
#include "reaper.h"
#include "recipe.h"
#include "precision.h"
#include "report.h"
#include "runstate.h"
#include "safety.h"
#include "tempfiles.h"
#include "tools.h"
#include "tool.h"
#include "volumes.h"

struct run_options {
	const char *profile;
	const char *target;
	const char *results;
	const char *uri;
	enum vm_accel accel;
	bool accel_given; /* else the profile's [guest] accel */
	const char *cache; /* --cache, else NULL: the default */
	char target_buf[PATH_MAX], results_buf[PATH_MAX];
};

/* Makes *PATH absolute (against the current directory) in BUF. */
static int absolute(const char **path, char *buf)
{
	char cwd[PATH_MAX];

	if ((*path)[0] == '/')
		return 0;
	if (!getcwd(cwd, sizeof(cwd)) ||
	    (size_t)snprintf(buf, PATH_MAX, "%s/%s", cwd, *path) >= PATH_MAX)
		return -ENAMETOOLONG;
	*path = buf;
	return 0;
}

static int absolute_in_place(char *path)
{
	char buf[PATH_MAX];
	const char *p = path;

	if (absolute(&p, buf) < 0)
		return -ENAMETOOLONG;
	if (p != path)
		snprintf(path, PATH_MAX, "%s", p);
	return 0;
}

static void run_usage(FILE *f)
{
	fprintf(f,
		"Usage: buildapp run PROFILE.ini --target DIR|FILE.img|/dev/DISK\n"
		"                    [--results DIR]\n"
		"                    [--cache DIR] [--connect URI] [--accel auto|kvm|tcg]\n\n"
		"Runs the profile's sweep on this host: builds (or finds in the\n"
		"cache) the benchmark guest, provisions the backends on the target\n"
		"(a directory holds the file backends ext4-file, qcow2 and raw; an\n"
		"image file, attached to a loop device, or a disk holds all four,\n"
		"lvm included, and must pass the safety rules of 'buildapp\n"
		"provision'), boots one guest per run through\n"
		"libvirt, and writes RESULTS/runs.jsonl (one line per finished run),\n"
		"RESULTS/summary.json and RESULTS/summary.txt.  Runs already in the\n"
		"journal are skipped: run the same command again to resume.\n\n"
		"  --target PATH    where the backends' volumes are created\n"
		"  --results DIR    results directory (default: results)\n"
		"  --cache DIR      build cache (default $XDG_CACHE_HOME/buildapp\n"
		"                   or ~/.cache/buildapp)\n"
		"  --connect URI    libvirt URI (default qemu:///embed, no daemon)\n"
		"  --accel MODE     auto (KVM when it boots a guest), kvm or tcg;\n"
		"                   default: the profile's [guest] accel\n"
		"  -h, --help       this text\n");
	commands_help_exit(f, "failure, or a run of the sweep that failed (recorded, and "
			      "the sweep went on)",
			   "an invalid profile, a target the safety rules refuse, crash = host "
			   "or power, which only a booted kit makes",
			   false);
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
			o->cache = optarg;
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
			o->accel_given = true;
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
	/* QEMU runs elsewhere: every path handed to it must be absolute. */
	if (absolute(&o->target, o->target_buf) < 0 ||
	    absolute(&o->results, o->results_buf) < 0)
		return log_error_code(-ENAMETOOLONG, "run: path too long");
	return 0;
}

/* An image file as the disk under test: created with the size the
 * backends need (or checked to be large enough) and attached to a loop
 * device, whose name goes to RET_DEV. */
static int attach_image(const struct profile *p, const char *path,
			const char *results, char *ret_dev, size_t len)
{
	/* The layout a run with these RESULTS made on this file before. */
	char own_buf[SAFETY_ITEM_MAX];
	const char *own = volumes_layout_read(results, own_buf, sizeof(own_buf)) == 0
				  ? own_buf : NULL;
	_cleanup_free_ char *out = NULL;
	char *argv[] = {"losetup", "--find", "--show", "--partscan", (char *)path, NULL};
	struct stat st;
	uint64_t disk_size;
	int k;

	if ((k = volumes_disk_size(p, &disk_size)) < 0) {
		if (k == -ENOMEM)
			return k;
		log_error("profile '%s': [storage] cannot be laid out on a disk",
			  p->path);
		return -EINVAL;
	}
	if (stat(path, &st) < 0) {
		_cleanup_close_ int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
		if (fd < 0 || ftruncate(fd, (off_t)disk_size) < 0)
			return log_error_errno(-errno, "creating '%s'", path);
	} else if ((k = volumes_check_target(p, path, own)) < 0) {
		return k;
	} else if ((uint64_t)st.st_size < disk_size) {
		log_error("target '%s' is %llu bytes; the backends need %llu", path,
			  (unsigned long long)st.st_size,
			  (unsigned long long)disk_size);
		return -EINVAL;
	}
	k = tool_run(argv, NULL, &out);
	if (k < 0)
		return k;
	snprintf(ret_dev, len, "%s", parse_strip(out));
	return 0;
}

/* DIR's summary.txt to standard output. */
static void print_summary(const char *dir)
{
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s/summary.txt", dir);
	_cleanup_fclose_ FILE *f = fopen(path, "re");
	char buf[4096];
	size_t n;
	while (f && (n = fread(buf, 1, sizeof(buf), f)) > 0)
		fwrite(buf, 1, n, stdout);
}

static void detach_image(const char *dev)
{
	char *argv[] = {"losetup", "-d", (char *)dev, NULL};

	if (*dev)
		tool_run(argv, NULL, NULL);
}

/* Builds the guest kit, attaches an image file target to a loop device,
 * and runs the sweep.  Returns 0, 1 when a run of it failed, or a
 * negative errno. */
static int run_sweep(const struct run_options *o, const struct plan *plan)
{
	const struct profile *p = &plan->profile;
	char loopdev[64] = "", agent[PATH_MAX] = "", job[PATH_MAX] = "";
	struct guestkit kit;
	struct guestimage img;
	struct sweep_outcome out;
	struct stat st;
	struct timings tm;
	char caps[PATH_MAX + 32], cache[PATH_MAX];
	int r;

	/* The sweep's wall time starts here: the kit is part of it. */
	timings_init(&tm);
	/* Made here, not when the arguments are read: a bad profile leaves
	 * nothing behind. */
	if (tools_cache_dir(o->cache, cache, sizeof(cache)) < 0)
		return -ENOENT;
	if (absolute_in_place(cache) < 0)
		return log_error_code(-ENAMETOOLONG, "run: path too long");
	/* libvirt's QEMU probe, kept with the builds (see bench_inputs). */
	snprintf(caps, sizeof(caps), "%s/libvirt-qemu-capabilities", cache);
	r = guestkit_build(p, cache, NULL, &kit);
	/* Host-native cells run the guest agent here. */
	if (r >= 0 && p->workload.host_baseline)
		r = guestkit_find_agent(NULL, agent, sizeof(agent));
	/* The agent on the host runs in a directory of its own. */
	if (r >= 0 && p->workload.host_baseline && p->workload.fio_job[0] &&
	    !realpath(p->workload.fio_job, job))
		r = log_error_errno(-errno, "[workload] fio_job '%s'", p->workload.fio_job);
	if (r >= 0 && p->guest.memory < kit.min_memory) {
		char have[32], need[32];
		log_warning("[guest] memory = %s is less than the %s this guest kit "
			    "needs: guests may not boot",
			    format_size(p->guest.memory, have, sizeof(have)),
			    format_size(kit.min_memory, need, sizeof(need)));
	}
	if (r >= 0)
		r = guestimage_build(p, cache, &img);
	timings_add_since(&tm, TIMING_KIT, tm.start);
	/* A killed sweep's QEMU and loop device would hold the image. */
	runstate_reap();
	if (r >= 0 && (stat(o->target, &st) < 0 || S_ISREG(st.st_mode)))
		r = attach_image(p, o->target, o->results, loopdev, sizeof(loopdev));
	if (r >= 0) {
		struct hostinfo_inputs host = {
			.plan = plan,
			.target = loopdev[0] ? loopdev : o->target,
		};
		bool summarized = false;
		struct bench_inputs in = {
			.plan = plan,
			.kernel = kit.boot_kernel,
			.initrd = kit.initrd,
			.pristine = img.path,
			.agent = agent[0] ? agent : NULL,
			.job_file = job[0] ? job : NULL,
			.target = loopdev[0] ? loopdev : o->target,
			.results_dir = o->results,
			.uri = o->uri,
			.accel = o->accel_given ? o->accel : p->guest.accel,
			.caps_dir = caps,
			.image = loopdev[0] ? o->target : NULL,
			.timings = &tm,
			.record_host = hostinfo_record_sweep,
			.host_data = &host,
			.summarized = &summarized,
			.precision = precision_cells_wanting_runs,
		};
		r = bench_run(&in, &out);
		/* The console's summary: the table, then the report's answers. */
		if (summarized) {
			print_summary(o->results);
			report_after_sweep(o->results, stdout, NULL);
		}
	}
	detach_image(loopdev);
	/* Cleaned up: now die of the signal that stopped the sweep (after
	 * the signal policy's cleanups: this process' temporaries). */
	signals_reraise();
	if (r < 0)
		return r;
	return out.failed || out.not_made ? 1 : 0;
}

int cmd_run(int argc, char **argv)
{
	struct run_options o;
	struct profile profile;
	struct plan plan;
	int r;

	r = parse_run_args(argc, argv, &o);
	if (r != 0)
		return r > 0 ? 0 : EXIT_BAD_INPUT;
	if (loader_load(o.profile, &profile) < 0)
		return EXIT_BAD_INPUT;
	if ((profile.workload.kinds & AXIS_BIT(WORKLOAD_DURABILITY)) &&
	    crash_takes_server_down(profile.workload.crash)) {
		log_error("%s: [workload] crash = %s %s the machine the sweep runs on: only a "
			  "booted kit does it (here, crash = guest)", o.profile,
			  crash_kind_name(profile.workload.crash),
			  profile.workload.crash == CRASH_HOST ? "reboots"
							       : "has the BMC cut the power of");
		return EXIT_BAD_INPUT;
	}
	r = planner_build(&profile, &plan);
	if (r < 0) {
		log_error_errno(r, "profile '%s': cannot make a plan", o.profile);
		return 1;
	}
	/* A sweep killed with SIGKILL leaves no QEMU behind for long. */
	runstate_guard();
	/* QEMU, libvirt's daemon, ends under the reaper, which reaps it at
	 * once: libvirt's destroy waits until it has (reaper.h). */
	reaper_fork_worker(REAPER_SUBREAPER);
	r = run_sweep(&o, &plan);
	plan_release(&plan);
	if (r == -EINVAL || r == -EPERM)
		return EXIT_BAD_INPUT;
	if (r < 0)
		return 1;
	return r > 0 ? 1 : 0;
}
