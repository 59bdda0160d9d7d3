/* The runs of a sweep that boot no guest (sweep.h): a qemu-img bench
 * on the volume, and a host-native cell's workload on the guest's
 * filesystem mounted on this host, its writes traced for the reset
 * after it. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#include "blocktrace.h"
#include "cleanup.h"
#include "guestcmdline.h"
#include "guestproto.h"
#include "imgbench.h"
#include "log.h"
#include "monotonic.h"
#include "parse.h"
#include "qcow2cache.h"
#include "sweep_parts.h"
#include "tool.h"
#include "volreset.h"

int sweep_run_host_bench(const struct sweep_env *env, const struct plan_run *pr,
			 const struct storage_volume *vol, struct journal_run *jr,
			 struct results *res)
{
	const struct profile *p = &env->plan->profile;
	const struct plan_cell *cell = &env->plan->cells[pr->cell];
	char log_path[PATH_MAX];
	struct imgbench_opts opts = {
		.count = p->workload.bench_count,
		.step = p->workload.bench_step,
		.cache_size = vol->format == IMAGE_FORMAT_QCOW2
				      ? qcow2cache_size(cell->l2_cache, vol->cluster_size)
				      : 0,
		.format = image_format_name(vol->format),
		.cache = cache_mode_name(cell->cache),
		.depth = p->workload.bench_depth,
		.write = p->workload.bench_write,
		.flush_interval = p->workload.bench_flush_interval,
		.log = log_path,
	};

	sweep_run_file(env->results_dir, pr->position, "log", log_path, sizeof(log_path));
	log_clear_last_error();
	if (imgbench_run(vol->path, &opts, res) < 0)
		sweep_set_status(jr, "failed", *log_last_error() ? log_last_error()
							   : "qemu-img bench failed");
	/* qemu-img bench without -w opens the volume read-only (O_RDONLY,
	 * whether it ends well or not): the volume is still what the reset
	 * before made it, and the next run's reset is none.  Its writes
	 * (-w) are not tracked: the next reset is full. */
	if (opts.write)
		volreset_note(vol, NULL);
	else
		volreset_note_pristine(vol);
	jr->boot_seconds = NAN; /* no guest */
	if (vol->format == IMAGE_FORMAT_QCOW2) {
		jr->qcow2_cache_known = true;
		jr->qcow2_cache_size = opts.cache_size;
		snprintf(jr->qcow2_cache_source, sizeof(jr->qcow2_cache_source),
			 "qemu-img arguments");
	}
	return 0;
}

/* Whether loop device DEV (/dev/loopN) does direct I/O on its file. */
static bool loop_direct(const char *dev)
{
	char path[PATH_MAX];
	_cleanup_fclose_ FILE *f = NULL;
	int c;

	snprintf(path, sizeof(path), "/sys/block/%s/loop/dio", strrchr(dev, '/') + 1);
	f = fopen(path, "re");
	return f && (c = fgetc(f)) == '1';
}

/* The guest's filesystem on VOL, mounted at DIR on the host: the LV
 * itself, or an image file through a loop device, with direct I/O when
 * DIRECT (losetup --direct-io=on: the image is then read and written
 * past the host's page cache, as QEMU's cache.direct does).  *RET_IO says
 * which it is ("direct", "buffered").  With TRACK, what is written to the
 * device from before the mount on is traced (*RET_TRACE; NULL when it
 * cannot be: the run goes on, its reset is the full one). */
static int mount_volume(const struct storage_volume *vol, const char *dir, bool direct,
			bool track, struct blocktrace **ret_trace, char *ret_io, size_t io_len)
{
	char *modprobe[] = {"modprobe", "-q", "loop", NULL};
	char *losetup[] = {"losetup", "--find", "--show", direct ? "--direct-io=on" : "--direct-io=off",
			   (char *)vol->path, NULL};
	_cleanup_free_ char *out = NULL;
	char dev[PATH_MAX];
	int r;

	*ret_trace = NULL;
	/* An LV has no page cache of the host's below the filesystem on it. */
	snprintf(ret_io, io_len, "direct");
	if (vol->format != IMAGE_FORMAT_RAW)
		return log_error_code(-EINVAL, "%s: no host-native view of a %s image",
				      vol->path, image_format_name(vol->format));
	if (vol->block_device) {
		snprintf(dev, sizeof(dev), "%s", vol->path);
	} else {
		/* The appliance loads drivers by modalias only: nothing asks
		 * for loop before the first host cell on a file does. */
		if (access("/dev/loop-control", F_OK) < 0)
			tool_run(modprobe, NULL, NULL);
		r = tool_run(losetup, NULL, &out);
		if (r < 0)
			return r;
		snprintf(dev, sizeof(dev), "%s", parse_strip(out));
		snprintf(ret_io, io_len, "%s", loop_direct(dev) ? "direct" : "buffered");
	}
	if (track && blocktrace_start(dev, ret_trace) < 0)
		*ret_trace = NULL;
	char *mount[] = {"mount", "-t", "ext4", dev, (char *)dir, NULL};
	r = tool_run(mount, NULL, NULL);
	/* Detached now, the loop device goes at the unmount (the kernel's
	 * autoclear, as mount -o loop sets it). */
	if (!vol->block_device) {
		char *detach[] = {"losetup", "--detach", dev, NULL};
		tool_run(detach, NULL, NULL);
	}
	if (r < 0 && *ret_trace) {
		blocktrace_stop(*ret_trace, NULL);
		*ret_trace = NULL;
	}
	return r;
}

/* What a host cell's agent printed, kept where a guest's console log
 * would be.  Best effort: the journal has the results. */
static void save_output(const struct sweep_env *env, const struct plan_run *pr,
			const char *out)
{
	char path[PATH_MAX];
	_cleanup_fclose_ FILE *f = NULL;

	sweep_run_file(env->results_dir, pr->position, "log", path, sizeof(path));
	f = fopen(path, "we");
	if (!f || fputs(out, f) < 0)
		log_warning("cannot write %s: %s", path, strerror(errno));
}

/* A host-native cell: the guest agent's workload, with the guest's
 * command line, run on this host on the guest's filesystem mounted here
 * (so the tool, its parameters and its output are the guest's). */
int sweep_run_host_native(const struct sweep_env *env, const struct plan_run *pr,
			  const struct storage_volume *vol, struct journal_run *jr,
			  struct results *res)
{
	const struct plan_cell *cell = &env->plan->cells[pr->cell];
	_cleanup_free_ char *cmdline = NULL, *out = NULL;
	char dir[] = "/tmp/buildapp-host-XXXXXX";
	struct blocktrace *trace = NULL;
	char *argv[80];
	size_t n = 0;
	int r;

	jr->boot_seconds = NAN; /* no guest */
	if (!env->agent) {
		sweep_set_status(jr, "failed", "no guest agent to run on the host");
		return 0;
	}
	r = guestcmdline_build_cell(&env->plan->profile, cell, &cmdline);
	if (r < 0)
		return log_error_errno(r, "cannot build the workload's command line");
	if (!mkdtemp(dir))
		return log_error_errno(-errno, "mkdtemp");
	argv[n++] = (char *)env->agent;
	argv[n++] = "--host";
	argv[n++] = dir;
	static const char job_word[] = GUESTPROTO_PARAM_PREFIX "fio_job=";
	_cleanup_free_ char *job = NULL;
	for (char *save = NULL, *w = strtok_r(cmdline, " ", &save);
	     w && n < sizeof(argv) / sizeof(argv[0]) - 1; w = strtok_r(NULL, " ", &save)) {
		/* The job file in the guest's kit is the host's copy here. */
		if (strncmp(w, job_word, sizeof(job_word) - 1) == 0) {
			if (!env->job_file) {
				sweep_set_status(jr, "failed", "no fio job file to run on the host");
				rmdir(dir);
				return 0;
			}
			if (asprintf(&job, "%s%s", job_word, env->job_file) < 0)
				return -ENOMEM;
			w = job;
		}
		argv[n++] = w;
	}
	argv[n] = NULL;
	bool direct = profile_host_cells_direct(&env->plan->profile);
	if (mount_volume(vol, dir, direct, volreset_wants_tracking(vol), &trace, jr->host_io,
			 sizeof(jr->host_io)) < 0) {
		sweep_set_status(jr, "failed", "cannot mount the volume on the host");
		rmdir(dir);
		return 0;
	}
	/* A failing workload prints its ERROR line and END status=1 and
	 * the agent exits 0: the parser reports it like a guest's. */
	tool_run(argv, NULL, &out);
	bool unmounted = umount2(dir, 0) == 0;
	if (!unmounted)
		log_warning("cannot unmount %s: %s", dir, strerror(errno));
	/* Still mounted, the volume may be written yet: not known. */
	if (trace && !unmounted) {
		blocktrace_stop(trace, NULL);
	} else if (trace) {
		double t = monotonic_seconds();
		struct written w = {NULL, 0, 0, 0};

		if (blocktrace_stop(trace, &w) >= 0)
			volreset_note_written(vol, &w, monotonic_seconds() - t);
	}
	rmdir(dir);
	if (!out) {
		sweep_set_status(jr, "failed", "the workload printed nothing");
		return 0;
	}
	save_output(env, pr, out);
	r = results_parse(out, strlen(out), cell->workload, res);
	/* The loop driver falls back to buffered I/O where the file's
	 * filesystem has no direct I/O (tmpfs): said, not hidden. */
	if (direct && strcmp(jr->host_io, "direct") != 0) {
		char note[RESULTS_NOTE_MAX];
		snprintf(note, sizeof(note), "the loop device refused direct I/O on %.100s: "
					     "the image went through the host's page cache",
			 vol->path);
		log_warning("%s", note);
		results_add_note(res, note);
	}
	if (r < 0)
		sweep_set_status(jr, r == -EIO ? "guest-error" : "bad-output",
			   res->error[0] ? res->error : "no results from the workload");
	return 0;
}
