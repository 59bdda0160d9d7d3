/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "sweep.h"
#include "sweep_parts.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include "atomicfile.h"
#include "cleanup.h"
#include "dirs.h"
#include "durability.h"
#include "eta.h"
#include "guestproto.h"
#include "guestcmdline.h"
#include "hostcrash.h"
#include "journal.h"
#include "log.h"
#include "parse.h"
#include "signals.h"
#include "qcow2cache.h"
#include "results.h"
#include "summary.h"
#include "sweeplines.h"
#include "timings.h"
#include "volreset.h"
#include "monotonic.h"
#include "watchdog.h"

/* Console logs larger than this are not the agent's: read only the start. */
#define CONSOLE_READ_MAX (8 << 20)
/* What one run may need on RESULTS: its console log (CONSOLE_READ_MAX at
 * most is read back), its journal line, the summary rewritten after it. */
#define RESULTS_FREE_MIN ((uint64_t)16 << 20)

const struct storage_volume *sweep_find_volume(const struct sweep_env *env,
					       const struct plan_cell *cell)
{
	for (size_t i = 0; i < env->n_volumes; i++)
		if (env->volumes[i].backend == cell->backend &&
		    env->volumes[i].prealloc == cell->prealloc)
			return &env->volumes[i];
	return NULL;
}

/* What a run of CELL may take beyond the watchdog's limit: its guest's
 * timeout, and a full reset of its volume. */
static unsigned run_extra_seconds(const struct sweep_env *env, const struct plan_cell *cell)
{
	const struct storage_volume *vol = sweep_find_volume(env, cell);

	return env->plan->profile.guest.timeout +
	       (vol ? watchdog_extra_for_bytes(vol->size) : 0);
}

/* sync + drop_caches, so no run reads what the previous one left in the
 * host page cache.  Needs root; without it the runs are still made and
 * the warning says so once. */
static void drop_page_cache(void)
{
	static bool warned;
	_cleanup_close_ int fd = -1;

	sync();
	fd = open("/proc/sys/vm/drop_caches", O_WRONLY | O_CLOEXEC);
	if (fd < 0 || write(fd, "3", 1) != 1) {
		if (!warned)
			log_warning("cannot drop the host page cache (%s): runs "
				    "may read cached data",
				    strerror(errno));
		warned = true;
	}
}

/* RESULTS_DIR/console/run-NNNN.EXT, NNNN the run's position: its
 * console log (log), its acknowledgements (acks). */
void sweep_run_file(const char *results_dir, unsigned position, const char *ext,
		     char *buf, size_t len)
{
	snprintf(buf, len, "%s/console/run-%04u.%s", results_dir, position, ext);
}

static int read_console(const char *path, char **ret, size_t *ret_len)
{
	_cleanup_fclose_ FILE *f = fopen(path, "re");
	_cleanup_free_ char *buf = NULL;
	size_t n;

	if (!f)
		return -errno;
	buf = malloc(CONSOLE_READ_MAX + 1);
	if (!buf)
		return -ENOMEM;
	n = fread(buf, 1, CONSOLE_READ_MAX, f);
	buf[n] = '\0';
	*ret = TAKE_PTR(buf);
	*ret_len = n;
	return 0;
}

void sweep_set_status(struct journal_run *jr, const char *status,
		       const char *message)
{
	snprintf(jr->status, sizeof(jr->status), "%s", status);
	/* Long messages (a guest's error line) are cut to the journal's size. */
	snprintf(jr->message, sizeof(jr->message), "%.*s",
		 (int)sizeof(jr->message) - 1, message);
}

int sweep_check_durability(const struct storage_volume *vol, uint64_t acks,
			   double ack_seconds, uint64_t run_id, const char *text, size_t len,
			   struct journal_run *jr, struct results *res)
{
	static const char *const lost_as[_RECORD_STATE_MAX] = {
		[RECORD_MISSING] = "lost_missing", [RECORD_STALE] = "lost_stale",
		[RECORD_TORN] = "lost_torn", [RECORD_CORRUPT] = "lost_corrupt"};
	struct durability_layout layout;
	struct durability_count count;
	int r;

	memset(res, 0, sizeof(*res));
	res->status = -1;
	if (durability_layout_parse(text, len, &layout) < 0) {
		sweep_set_status(jr, "bad-output", "no RECORDS line from the guest");
		return 0;
	}
	r = durability_check(vol->path, vol->format, &layout, run_id, acks, &count);
	if (r < 0) {
		sweep_set_status(jr, "failed", *log_last_error() ? log_last_error()
							   : "cannot read the records back");
		return 0;
	}
	/* The speed first (the cell's headline), then what was lost of
	 * what was acknowledged. */
	r = !isnan(ack_seconds) && ack_seconds > 0
		    ? results_add(res, "acks_per_second", (double)(acks - 1) / ack_seconds,
				  "1/s")
		    : 0;
	if (r >= 0)
		r = results_add(res, "lost", (double)count.lost, "records lost");
	if (r >= 0)
		r = results_add(res, "acknowledged", (double)count.acknowledged, "records");
	for (int s = RECORD_MISSING; r >= 0 && s < _RECORD_STATE_MAX; s++)
		r = results_add(res, lost_as[s], (double)count.state[s], "records lost");
	return r;
}

/* The console's RECORDS line, without its line end, in *RET. */
static int records_line(const char *console, char **ret)
{
	_cleanup_free_ char *text = NULL;
	size_t len = 0;
	int r = read_console(console, &text, &len);
	if (r < 0)
		return r;
	size_t n;
	const char *mark = durability_records_line(text, len, &n);
	if (!mark)
		return -ENODATA;
	*ret = strndup(mark, n);
	return *ret ? 0 : -ENOMEM;
}

/* A crash = host or power run at its crash point (vm_spec.crash_host). */
struct crash_point {
	const char *results_dir;
	const char *console_log;
	const struct journal_run *jr; /* the run's phases before its guest */
	double guest_started;         /* monotonic seconds */
	struct hostcrash crash; /* cell, index, position and reset filled */
	/* crash = power: the BMC that cuts it; NULL: a host crash */
	const struct hostcrash_power *power;
};

double sweep_realtime_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Keeps what the next boot needs (hostcrash.h) and crashes the host, or
 * has its BMC cut the power, QEMU stopped first.  Returns only on
 * failure. */
static int crash_the_host(void *data, uint64_t acks, double ack_seconds, pid_t qemu)
{
	struct crash_point *cp = data;
	int r;

	cp->crash.acks = acks;
	cp->crash.ack_seconds = ack_seconds;
	cp->crash.run_seconds = cp->jr->phases.reset + cp->jr->phases.page_cache +
				monotonic_seconds() - cp->guest_started;
	cp->crash.crashed_at = sweep_realtime_seconds();
	r = records_line(cp->console_log, &cp->crash.records);
	if (r < 0)
		return log_error_errno(r, "no RECORDS line on '%s' at the crash point",
				       cp->console_log);
	if (cp->power)
		return hostcrash_power_cut(cp->results_dir, &cp->crash, qemu, cp->power);
	return hostcrash_reboot(cp->results_dir, &cp->crash, qemu);
}

/* Whether the cell's guest only reads its disk: fio reading the device
 * itself (fio_target = device), which mounts nothing.  Its disk is then
 * read-only, on a bus that can have one, and needs no reset after. */
static bool guest_reads_only(const struct profile *p, const struct plan_cell *cell)
{
	struct fio_knobs k;

	plan_cell_fio(p, cell, &k);
	/* A job file's jobs are not known here: they may write. */
	return cell->workload == WORKLOAD_FIO && !p->workload.fio_job[0] &&
	       p->workload.fio_target == FIO_TARGET_DEVICE &&
	       (k.rw == FIO_RW_READ || k.rw == FIO_RW_RANDREAD) &&
	       domain_read_only_bus((enum disk_bus)cell->bus);
}

/* The guest side of one run: boot it, time it, parse what it printed. */
static int run_guest(const struct sweep_env *env, const struct plan_run *pr,
		     const struct storage_volume *vol, struct journal_run *jr,
		     struct results *res)
{
	const struct profile *p = &env->plan->profile;
	const struct plan_cell *cell = &env->plan->cells[pr->cell];
	_cleanup_free_ char *cmdline = NULL, *text = NULL;
	char name[64], log_path[PATH_MAX], ack_path[PATH_MAX];
	struct vm_result vr;
	size_t len = 0;
	int r;

	bool durable = cell->workload == WORKLOAD_DURABILITY;
	bool read_only = guest_reads_only(p, cell);
	uint64_t run_id = durability_run_id(p->sweep.seed, pr->position);
	r = guestcmdline_build_cell(p, cell, &cmdline);
	if (r >= 0) {
		/* The cell's bus, whose drivers alone the agent loads; a
		 * durability run's own identity, which its records carry. */
		char *with_cell = NULL, run[48] = "";
		if (durable)
			snprintf(run, sizeof(run), " " GUESTPROTO_PARAM_PREFIX "run=%" PRIu64,
				 run_id);
		r = asprintf(&with_cell, "%s " GUESTPROTO_PARAM_PREFIX "bus=%s%s", cmdline,
			     disk_bus_name((enum disk_bus)cell->bus), run) < 0
			    ? -ENOMEM
			    : 0;
		free(cmdline);
		cmdline = r < 0 ? NULL : with_cell;
	}
	if (r < 0)
		return log_error_errno(r, "cannot build the guest command line");
	snprintf(name, sizeof(name), "buildapp-r%u", pr->position);
	sweep_run_file(env->results_dir, pr->position, "log", log_path, sizeof(log_path));
	sweep_run_file(env->results_dir, pr->position, "acks", ack_path, sizeof(ack_path));
	struct vm_spec spec = {
		.name = name,
		.kernel = env->kernel,
		.firmware = domain_guest_firmware(),
		.initrd = env->initrd,
		.cmdline = cmdline,
		.memory = p->guest.memory,
		.vcpus = p->guest.vcpus,
		.disk = vol->path,
		.format = vol->format,
		.cache = cell->cache,
		.aio = cell->aio,
		.bus = (enum disk_bus)cell->bus,
		.metadata_cache = qcow2cache_size(cell->l2_cache, vol->cluster_size),
		.console_log = log_path,
		.timeout = p->guest.timeout,
		.read_only = read_only,
		/* Killed, a durability guest leaves no bitmap to read. */
		.track_writes = !durable && !read_only && volreset_wants_tracking(vol),
		.ack_log = durable ? ack_path : NULL,
		.crash_after = durable ? durability_crash_point(p->sweep.seed, pr->position,
								p->workload.durability_records)
				       : 0,
	};
	struct crash_point crash = {
		.results_dir = env->results_dir,
		.console_log = log_path,
		.jr = jr,
		.crash = {.index = pr->index, .position = pr->position},
	};
	if (durable && crash_takes_server_down(p->workload.crash)) {
		snprintf(crash.crash.cell, sizeof(crash.crash.cell), "%s", cell->id);
		snprintf(crash.crash.reset, sizeof(crash.crash.reset), "%s", jr->reset);
		crash.power = p->workload.crash == CRASH_POWER ? env->power : NULL;
		spec.crash_host = crash_the_host;
		spec.crash_data = &crash;
	}
	if (durable)
		snprintf(jr->crash, sizeof(jr->crash), "%s", crash_kind_name(p->workload.crash));
	crash.guest_started = monotonic_seconds();
	r = vm_run(env->host, &spec, &vr);
	hostcrash_release(&crash.crash);
	if (r < 0)
		return r;
	/* A read-only disk is still what the reset before made it: the
	 * next run's reset is none. */
	if (read_only)
		volreset_note_pristine(vol);
	else
		volreset_note(vol, &vr);
	vm_result_release(&vr);
	jr->boot_seconds = vr.seconds;
	jr->phases.guest_start = vr.start_seconds;
	jr->phases.guest_stop = vr.stop_seconds;
	jr->applied_known = vr.applied_known;
	jr->applied = vr.applied;
	jr->kvm = vr.kvm;
	if (vol->format == IMAGE_FORMAT_QCOW2) {
		jr->qcow2_cache_known = true;
		jr->qcow2_cache_size = vr.qcow2_cache_known ? vr.qcow2_cache_size
							    : spec.metadata_cache;
		snprintf(jr->qcow2_cache_source, sizeof(jr->qcow2_cache_source), "%s",
			 vr.qcow2_cache_known ? "qemu command line" : "asked");
	}
	if (vr.status != VM_OK) {
		sweep_set_status(jr, vm_status_name(vr.status), vr.message);
		/* Whatever the guest printed before it died is still parsed. */
	}
	if (read_console(log_path, &text, &len) < 0) {
		if (vr.status == VM_OK)
			sweep_set_status(jr, "failed", "no console log");
		return 0;
	}
	r = results_parse(text, len, cell->workload, res);
	snprintf(jr->guest_kernel, sizeof(jr->guest_kernel), "%s", res->kernel);
	if (durable)
		return vr.status == VM_OK ? sweep_check_durability(vol, vr.acks, vr.ack_seconds,
							     run_id, text, len, jr, res)
					  : 0;
	if (r < 0 && vr.status == VM_OK)
		sweep_set_status(jr, r == -EIO ? "guest-error" : "bad-output",
			   res->error[0] ? res->error : "no results from the guest");
	return 0;
}

/* A full RESULTS found before a run costs nothing; found by the journal
 * write after it, it costs the run. */
static int check_results_space(const char *dir)
{
	struct statvfs st;
	char have[32], need[32];

	if (statvfs(dir, &st) < 0)
		return log_error_errno(-errno, "results directory '%s'", dir);
	uint64_t avail = (uint64_t)st.f_bavail * st.f_frsize;
	if (avail >= RESULTS_FREE_MIN)
		return 0;
	return log_error_code(-ENOSPC, "results directory '%s' has %s free, "
			      "less than the %s a run needs: make room there "
			      "(or give a larger one) and start again to resume",
			      dir, format_size(avail, have, sizeof(have)),
			      format_size(RESULTS_FREE_MIN, need, sizeof(need)));
}

/* The disk's write cache of CELL, when the sweep varies it ([host]
 * write_cache a list): set before each of its runs and read back into JR.
 * Returns 0 or a negative errno (reported: the run fails with it). */
static int set_cell_write_cache(const struct sweep_env *env, const struct plan_cell *cell,
				struct journal_run *jr)
{
	const char *want = write_cache_setting_name((enum write_cache_setting)cell->write_cache);
	char why[256];
	int on, r;

	if (cell->write_cache < 0)
		return 0;
	if (!env->set_write_cache)
		return log_error_code(-EOPNOTSUPP, "write_cache = %s: the disk under test's write "
				      "cache is an axis of this plan, which only a booted kit "
				      "sets", want);
	r = env->set_write_cache(env->write_cache_data, (enum write_cache_setting)cell->write_cache,
				 &on, why, sizeof(why));
	if (r < 0)
		return log_error_code(r, "write_cache = %s: %s", want, why);
	snprintf(jr->disk_write_cache, sizeof(jr->disk_write_cache), "%s", on ? "on" : "off");
	return 0;
}

/* Everything a run needs before it can measure: its volume reset to the
 * pristine image, the page cache dropped; each one's wall time into PH. */
static int prepare_run(const struct sweep_env *env, const struct plan_cell *cell,
		       const struct storage_volume *vol, double *ret_reset_seconds,
		       struct journal_run *jr)
{
	struct journal_phases *ph = &jr->phases;
	const char *kind = "full";
	double t = monotonic_seconds();
	int r;

	if (!vol)
		return log_error_code(-ENOENT, "no volume provisioned for %s",
				      cell->id);
	r = volreset_run(vol, env->pristine, ret_reset_seconds, &kind,
			 env->plan->profile.sweep.verify_reset ? &jr->reset_check : NULL);
	/* A reset a host crash undoes would read as the loss of the cache
	 * mode of the run after it: with host crashes planned, every reset
	 * is on the disk before its run starts. */
	if (r >= 0 && hostcrash_planned(env->plan))
		r = volreset_sync(vol);
	ph->reset = monotonic_seconds() - t;
	if (r < 0) {
		char cause[256];
		snprintf(cause, sizeof(cause), "%s",
			 *log_last_error() ? log_last_error() : strerror(-r));
		/* The cell is named by the progress line above. */
		return log_error_code(r, "cannot reset the volume '%s': %s",
				      vol->path, cause);
	}
	snprintf(jr->reset, sizeof(jr->reset), "%s", kind);
	t = monotonic_seconds();
	if (env->plan->profile.host.page_cache == PAGE_CACHE_DROP)
		drop_page_cache();
	ph->page_cache = monotonic_seconds() - t;
	return 0;
}

/* Whether PR is the last planned run on VOL: with [sweep] verify_reset
 * its writes get a checked reset too, as no later run's reset checks
 * them.  (Extra runs for target_ci are not planned: theirs do not.) */
static bool last_planned_on(const struct sweep_env *env, const struct plan_run *pr,
			    const struct storage_volume *vol)
{
	const struct plan *plan = env->plan;

	for (size_t i = plan->n_runs; i-- > 0;) {
		const struct plan_run *o = &plan->runs[i];

		if (sweep_find_volume(env, &plan->cells[o->cell]) == vol)
			return o->cell == pr->cell && o->index == pr->index;
	}
	return false;
}

/* The rest of the sweep's estimate, for the progress lines. */
struct progress {
	struct eta eta;
	struct timings *timings;
};

static int make_run(const struct sweep_env *env, const struct plan_run *pr,
		    const char *journal_path, struct progress *pg, bool *ret_ok,
		    bool *ret_not_made)
{
	const struct plan_cell *cell = &env->plan->cells[pr->cell];
	const struct storage_volume *vol = sweep_find_volume(env, cell);
	struct journal_run jr;
	struct results res = {.status = -1};
	double reset_seconds = NAN, started = monotonic_seconds(), t;
	char eta[256];
	int r;

	r = check_results_space(env->results_dir);
	if (r < 0)
		return r;
	journal_run_init(&jr);
	jr.cell = *cell;
	jr.index = pr->index;
	jr.position = pr->position;
	sweep_set_status(&jr, "ok", "");
	log_clear_last_error();
	bool not_made = sweep_crash_not_made(env, cell, &jr);
	*ret_not_made = not_made;
	r = not_made ? 0 : set_cell_write_cache(env, cell, &jr);
	if (r >= 0 && !not_made)
		r = prepare_run(env, cell, vol, &reset_seconds, &jr);
	t = monotonic_seconds();
	if (not_made)
		;
	else if (r >= 0 && cell->host)
		r = sweep_run_host_native(env, pr, vol, &jr, &res);
	else if (r >= 0 && cell->workload == WORKLOAD_QEMU_IMG_BENCH)
		r = sweep_run_host_bench(env, pr, vol, &jr, &res);
	else if (r >= 0)
		r = run_guest(env, pr, vol, &jr, &res);
	if (r >= 0)
		jr.phases.workload = monotonic_seconds() - t;
	if (r >= 0 && vol && env->plan->profile.sweep.verify_reset &&
	    last_planned_on(env, pr, vol))
		r = volreset_check_last(vol, env->pristine, &jr.reset_check_after);
	/* A run that cannot start (its volume, its domain refused...) is a
	 * result of its cell: journaled as failed with the reason, and the
	 * sweep goes on.  A signal is not. */
	if (r < 0 && r != -EINTR && !signals_pending()) {
		const char *why = log_last_error();
		sweep_set_status(&jr, "failed", *why ? why : strerror(-r));
		r = 0;
	}
	for (size_t i = 0; r >= 0 && i < res.n_metrics; i++)
		r = journal_run_add_metric(&jr, res.metrics[i].name,
					   res.metrics[i].value, res.metrics[i].unit);
	journal_run_add_notes(&jr, &res);
	if (r >= 0 && !isnan(reset_seconds))
		r = journal_run_add_metric(&jr, "reset_seconds", reset_seconds, "s");
	/* A run cut short by a signal is not a result: not journaled, made
	 * again on resume. */
	if (r >= 0 && signals_pending())
		r = -EINTR;
	jr.phases.total = monotonic_seconds() - started;
	if (r >= 0)
		r = journal_append(journal_path, &jr);
	if (r >= 0 && env->result_lines)
		sweeplines_run(env->result_lines, &jr);
	*ret_ok = strcmp(jr.status, "ok") == 0;
	if (r >= 0) {
		timings_add_run(pg->timings, &jr);
		eta_add_done(&pg->eta, cell, jr.phases.total);
		eta_format(&pg->eta, eta, sizeof(eta));
	}
	if (r >= 0 && isnan(jr.boot_seconds))
		log_info("  %s%s%s (%.1f s with reset; ETA %s)", jr.status,
			 jr.message[0] ? ": " : "", jr.message, jr.phases.total, eta);
	else if (r >= 0)
		log_info("  %s%s%s (%.1f s boot to shutdown, %.1f s with reset and "
			 "setup; ETA %s)",
			 jr.status, jr.message[0] ? ": " : "", jr.message,
			 jr.boot_seconds, jr.phases.total, eta);
	journal_run_release(&jr);
	return r;
}

/* make_run, counting the run in *OUT. */
static int make_counted_run(const struct sweep_env *env, const struct plan_run *pr,
			    const char *journal_path, struct progress *pg,
			    struct sweep_outcome *out)
{
	bool ok = false, not_made = false;
	int r = make_run(env, pr, journal_path, pg, &ok, &not_made);

	if (r < 0)
		return r;
	if (not_made) {
		out->not_made++;
		return 0;
	}
	out->made++;
	if (!ok)
		out->failed++;
	return 0;
}

void sweep_not_made_text(const struct sweep_outcome *o, char *buf, size_t len)
{
	if (o->not_made)
		snprintf(buf, len, ", %zu not made (each journaled failed with its reason)",
			 o->not_made);
	else if (len)
		buf[0] = '\0';
}

bool sweep_cell_wants_run(const struct profile_sweep *s,
			  const struct summary_cell *c, char *why, size_t len)
{
	/* A durability cell's runs are crashes, planned by [sweep]
	 * durability_runs: none added for an interval's width, which would
	 * pick its crashes by their speed and cost a reboot each. */
	if (s->target_ci <= 0 || c->n_runs >= s->max_runs || c->n_metrics == 0 ||
	    c->cell.workload == WORKLOAD_DURABILITY)
		return false;
	const struct summary_metric *m = &c->metrics[0];
	double rel = 100.0 * m->stats.ci95 / fabs(m->stats.mean);
	if (m->stats.n < 2 || !isfinite(rel)) {
		snprintf(why, len, "%zu ok run%s of %s: no interval yet",
			 m->stats.n, m->stats.n == 1 ? "" : "s", m->name);
		return true;
	}
	if (rel <= s->target_ci)
		return false;
	snprintf(why, len, "%s 95%% CI is +/- %.1f%% of the mean, target %g%%",
		 m->name, rel, s->target_ci);
	return true;
}

/* Whether the sweep's precision target is the questions' ([report]
 * compare with target_ci: precision.h), not each cell's. */
static bool for_questions(const struct sweep_env *env)
{
	return env->precision && *env->plan->profile.report.compare;
}

/* The cells wanting one more run now, in plan order, with each one's next
 * run index and place in the sweep (after every run journaled): those
 * of the comparisons still too wide (for_questions), else each cell
 * whose own interval is (sweep_cell_wants_run); none past max_runs.
 * Returns how many, or a negative errno. */
static int cells_wanting_runs(const struct sweep_env *env, const char *journal_path,
			      struct plan_run *want)
{
	const struct plan *plan = env->plan;
	struct journal j = {.n_runs = 0};
	struct summary sum = {.n_cells = 0};
	_cleanup_free_ bool *asked = NULL;
	char why[160];
	int r, n = 0, open = 0;

	if (for_questions(env)) {
		asked = calloc(plan->n_cells ? plan->n_cells : 1, sizeof(*asked));
		if (!asked)
			return -ENOMEM;
		r = env->precision(plan, env->results_dir, asked);
		if (r <= 0)
			return r;
		open = r;
	}
	r = journal_read(journal_path, &j);
	if (r >= 0)
		r = summary_build(&j, &sum);
	for (size_t i = 0; r >= 0 && i < sum.n_cells; i++) {
		const struct summary_cell *c = &sum.cells[i];
		ssize_t k = plan_cell_find(plan, c->cell.id);
		if (k < 0)
			continue;
		if (asked) {
			if (!asked[k] || c->n_runs >= plan->profile.sweep.max_runs ||
			    c->cell.workload == WORKLOAD_DURABILITY)
				continue;
			snprintf(why, sizeof(why), "a question's interval is wider than %g points",
				 plan->profile.sweep.target_ci);
		} else if (!sweep_cell_wants_run(&plan->profile.sweep, c, why, sizeof(why))) {
			continue;
		}
		want[n] = (struct plan_run){.cell = (unsigned)k,
					    .index = (unsigned)c->n_runs,
					    .position = (unsigned)(j.n_runs + (size_t)n)};
		n++;
		log_info("%s: one more run (%s)", c->cell.id, why);
	}
	summary_release(&sum);
	journal_release(&j);
	if (r >= 0 && open && !n)
		log_warning("%d of the profile's comparisons stay wider than target_ci "
			    "%g points: their cells have max_runs (%u)", open,
			    plan->profile.sweep.target_ci, plan->profile.sweep.max_runs);
	return r < 0 ? r : n;
}

/* After the planned runs: rounds of one more run per cell whose interval
 * is still too wide, until none is or each has max_runs.  Resumable like
 * the planned runs: the journal says where each cell stands. */
static int run_until_target(const struct sweep_env *env, const char *journal_path,
			    struct progress *pg, struct sweep_outcome *out)
{
	const struct plan *plan = env->plan;
	const struct profile_sweep *s = &plan->profile.sweep;
	_cleanup_free_ struct plan_run *want =
		calloc(plan->n_cells ? plan->n_cells : 1, sizeof(*want));
	int r, n;

	if (!profile_sweep_adds_runs(s))
		return 0;
	if (!want)
		return -ENOMEM;
	while ((n = cells_wanting_runs(env, journal_path, want)) > 0) {
		for (int i = 0; i < n; i++)
			eta_add_left(&pg->eta, &plan->cells[want[i].cell]);
		for (int i = 0; i < n; i++) {
			char eta[256];
			if (signals_pending())
				return -EINTR;
			eta_format(&pg->eta, eta, sizeof(eta));
			watchdog_step(run_extra_seconds(env, &plan->cells[want[i].cell]),
				      "extra run: cell %u/%zu %s, run %u (at most %u; ETA "
				      "of this round %s)",
				      want[i].cell + 1, plan->n_cells,
				      plan->cells[want[i].cell].id, want[i].index + 1,
				      s->max_runs, eta);
			r = make_counted_run(env, &want[i], journal_path, pg, out);
			if (r < 0)
				return r;
		}
	}
	return n;
}

static int write_plan_file(const void *plan, FILE *f)
{
	return plan_write_json(plan, f);
}

/* A journaled run's wall time for the estimate: its phases' total, else
 * (journals older than the phases) boot to shutdown plus its reset. */
static double journaled_seconds(const struct journal_run *run)
{
	const struct result_metric *reset = journal_run_metric(run, "reset_seconds");

	if (isfinite(run->phases.total))
		return run->phases.total;
	return run->boot_seconds + (reset && isfinite(reset->value) ? reset->value : 0);
}

/* The estimate's start: the journal's times of the runs already made,
 * and every planned run not yet made. */
static void progress_start(const struct plan *plan, const struct journal *done,
			   struct progress *pg)
{
	eta_init(&pg->eta);
	for (size_t i = 0; i < done->n_runs; i++)
		eta_add_done(&pg->eta, &done->runs[i].cell,
			     journaled_seconds(&done->runs[i]));
	for (size_t i = 0; i < plan->n_runs; i++) {
		const struct plan_cell *cell = &plan->cells[plan->runs[i].cell];
		if (!journal_has_run(done, cell->id, plan->runs[i].index))
			eta_add_left(&pg->eta, cell);
	}
}


int sweep_run(const struct sweep_env *env, struct sweep_outcome *ret)
{
	const struct plan *plan = env->plan;
	char journal_path[PATH_MAX], console_dir[PATH_MAX];
	struct journal done = {.n_runs = 0};
	struct sweep_outcome out = {0};
	struct timings own;
	struct progress pg = {.timings = env->timings};
	int r = 0;

	if (!pg.timings) {
		timings_init(&own);
		pg.timings = &own;
	}
	snprintf(journal_path, sizeof(journal_path), "%s/runs.jsonl", env->results_dir);
	snprintf(console_dir, sizeof(console_dir), "%s/console", env->results_dir);
	r = dirs_make(env->results_dir, 0755);
	if (r < 0)
		return log_error_errno(r, "cannot create '%s'",
				       env->results_dir);
	if (mkdir(console_dir, 0755) < 0 && errno != EEXIST)
		return log_error_errno(-errno, "cannot create '%s'", console_dir);
	r = journal_read(journal_path, &done);
	/* DIR/plan.json: the report lists the levels in the profile's order
	 * and tells bundles of different plans apart. */
	if (r == 0)
		r = atomicfile_write(env->results_dir, "plan.json", write_plan_file,
				     env->plan);
	if (r < 0)
		return r;
	progress_start(plan, &done, &pg);

	for (size_t i = 0; i < plan->n_runs; i++) {
		const struct plan_run *pr = &plan->runs[i];
		const struct plan_cell *cell = &plan->cells[pr->cell];
		char elapsed[32], eta[256];

		if (journal_has_run(&done, cell->id, pr->index)) {
			out.skipped++;
			continue;
		}
		if (signals_pending()) {
			r = -EINTR;
			break;
		}
		/* Since the command started: the kit and provisioning too. */
		eta_format_duration(monotonic_seconds() - pg.timings->start, elapsed,
				    sizeof(elapsed));
		eta_format(&pg.eta, eta, sizeof(eta));
		watchdog_step(run_extra_seconds(env, cell),
			      "run %zu/%zu: cell %u/%zu %s, run %u/%u (elapsed %s, ETA %s)",
			      i + 1, plan->n_runs, pr->cell + 1, plan->n_cells, cell->id,
			      pr->index + 1, profile_cell_runs(&plan->profile.sweep, cell->workload),
			      elapsed, eta);
		r = make_counted_run(env, pr, journal_path, &pg, &out);
		if (r < 0)
			break;
	}
	journal_release(&done);
	if (r >= 0)
		r = run_until_target(env, journal_path, &pg, &out);
	watchdog_mark(0, "writing the sweep's timings and summary");
	/* Before the report, which prints the efficiency.  The figure is
	 * not a result: a file that cannot be written is said and skipped. */
	timings_write(env->results_dir, pg.timings);
	/* The summary of whatever ran, even when the sweep stopped early:
	 * the journal and summary are the results. */
	int k = summary_write_results(env->results_dir);
	if (k >= 0 && env->summarized)
		*env->summarized = true;
	if (r < 0)
		return r;
	if (k < 0)
		return k;
	*ret = out;
	return 0;
}
