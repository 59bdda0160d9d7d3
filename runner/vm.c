#include "vm.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include <json.h>
#include <libvirt/libvirt-qemu.h>
#include <libvirt/libvirt.h>
#include <libvirt/virterror.h>

#include "acklog.h"
#include "cleanup.h"
#include "command.h"
#include "dirtymap.h"
#include "guestproto.h"
#include "jsonget.h"
#include "kvmboot.h"
#include "log.h"
#include "names.h"
#include "qcow2cache.h"
#include "signals.h"
#include "watchdog.h"

NAME_TABLE(vm_status, "ok", "timeout", "crashed", "failed")

/* How long a destroyed domain may take to report STOPPED. */
#define STOP_GRACE_SECONDS 15
/* QEMU's command line is a few KB; more is not libvirt's. */
#define CMDLINE_READ_MAX (1 << 20)
/* How often the waiting thread looks at the signal flag. */
#define POLL_NS 100000000L
/* ... and at the console of a guest that halts (its END line is its
 * shutdown time, so this is the timing's resolution). */
#define WATCH_POLL_NS 5000000L
/* What ends a halting guest's run: the agent's last line, or the kernel's
 * when that line was garbled by kernel messages around it. */
#define END_MARK "\n" GUESTPROTO_TAG GUESTPROTO_END " "
#define HALT_MARK "reboot: System halted"

struct vm_host {
	virConnectPtr conn;
	bool kvm;
	bool kvm_chosen; /* by the probe (VM_ACCEL_AUTO), not asked for */
	char *statedir;  /* the embedded driver's root; NULL for another URI */
	pthread_t loop;
	bool loop_started;
	volatile bool quit;
	int callback_id;

	/* The run in progress, shared with the event loop thread. */
	pthread_mutex_t lock;
	pthread_cond_t cond;
	virDomainPtr dom;
	char run_name[128];
	struct timespec started_at, shutdown_at, stopped_at;
	bool started, shut_down, stopped, crashed;
	bool interrupted; /* a signal came and the domain was destroyed */
	int stop_detail;
};

/* One host at a time is enough for the appliance; the exit hook finds
 * its running domain here (a signal is the waiting loop's to handle). */
static struct vm_host *current_host;

static double seconds_between(const struct timespec *a,
			      const struct timespec *b)
{
	return (double)(b->tv_sec - a->tv_sec) +
	       (double)(b->tv_nsec - a->tv_nsec) / 1e9;
}

static void quiet_libvirt_errors(void *opaque, virErrorPtr err)
{
	/* Errors are reported once, by the caller, with context. */
	(void)opaque;
	(void)err;
}

static void destroy_running(struct vm_host *h)
{
	if (h && h->dom)
		virDomainDestroy(h->dom);
}

static void on_exit_destroy(void)
{
	destroy_running(current_host);
}

static void lifecycle_cb(virConnectPtr conn, virDomainPtr dom, int event,
			 int detail, void *opaque)
{
	struct vm_host *h = opaque;
	struct timespec now;

	(void)conn;
	clock_gettime(CLOCK_MONOTONIC, &now);
	pthread_mutex_lock(&h->lock);
	const char *name = virDomainGetName(dom);
	if (h->run_name[0] && name && strcmp(name, h->run_name) == 0) {
		switch (event) {
		case VIR_DOMAIN_EVENT_STARTED:
			if (!h->started) {
				h->started_at = now;
				h->started = true;
			}
			break;
		case VIR_DOMAIN_EVENT_CRASHED:
			h->crashed = true;
			break;
		case VIR_DOMAIN_EVENT_SHUTDOWN:
			/* The guest powered off; QEMU's teardown (closing
			 * the disk can write back a lot of a host's dirty
			 * pages) is not the guest's time. */
			if (!h->shut_down) {
				h->shutdown_at = now;
				h->shut_down = true;
			}
			break;
		case VIR_DOMAIN_EVENT_STOPPED:
			h->stopped_at = now;
			h->stopped = true;
			h->stop_detail = detail;
			pthread_cond_broadcast(&h->cond);
			break;
		default:
			break;
		}
	}
	pthread_mutex_unlock(&h->lock);
}

static void *event_loop(void *arg)
{
	struct vm_host *h = arg;
	while (!h->quit)
		if (virEventRunDefaultImpl() < 0)
			log_warning("libvirt event loop: %s",
				    virGetLastErrorMessage());
	return NULL;
}

static void wake_loop(int timer, void *opaque)
{
	(void)opaque;
	virEventRemoveTimeout(timer);
}

/* A qemu.conf for running as root without virtlogd, user accounts for
 * QEMU, relabelling or namespaces (DESIGN.md: measured facts). */
static int write_embed_config(const char *statedir)
{
	_cleanup_free_ char *etc = NULL, *conf = NULL;
	if (asprintf(&etc, "%s/etc", statedir) < 0 ||
	    asprintf(&conf, "%s/qemu.conf", etc) < 0)
		return -ENOMEM;
	if (mkdir(statedir, 0700) < 0 && errno != EEXIST)
		return log_error_errno(-errno, "cannot create '%s'",
				       statedir);
	if (mkdir(etc, 0700) < 0 && errno != EEXIST)
		return log_error_errno(-errno, "cannot create '%s'", etc);
	if (access(conf, F_OK) == 0)
		return 0;
	_cleanup_fclose_ FILE *f = fopen(conf, "we");
	if (!f)
		return log_error_errno(-errno, "cannot create '%s'", conf);
	fputs("# Written by buildapp for the embedded QEMU driver.\n"
	      "stdio_handler = \"file\"\n"
	      "user = \"root\"\n"
	      "group = \"root\"\n"
	      "dynamic_ownership = 0\n"
	      "remember_owner = 0\n"
	      "security_driver = \"none\"\n"
	      "namespaces = [ ]\n",
	      f);
	if (fflush(f) != 0)
		return log_error_errno(-errno, "cannot write '%s'", conf);
	return 0;
}

/* The profile's or the command line's accel, else the one rule
 * (kvmboot_decide): *RET_PROBED when KVM still has to boot a kernel
 * (vm_host_check_boot). */
static int resolve_accel(enum vm_accel accel, bool *ret_kvm, bool *ret_probed)
{
	*ret_probed = false;
	if (accel != VM_ACCEL_AUTO) {
		*ret_kvm = accel == VM_ACCEL_KVM;
		return 0;
	}
	int r = kvmboot_decide();
	if (r < 0)
		return r;
	*ret_kvm = r != KVMBOOT_TCG;
	*ret_probed = r == KVMBOOT_KVM_UNCHECKED;
	return 0;
}

int vm_host_open(const char *uri, const char *statedir, enum vm_accel accel,
		 struct vm_host **ret)
{
	static bool event_impl_registered;
	_cleanup_free_ char *embed_uri = NULL;
	bool kvm = false, probed = false;
	int r;

	/* libvirt logs, at error level, conditions it expects and recovers
	 * from (no access manager, no /dev/mem for dmidecode, a lookup of a
	 * domain that is not there yet, a QEMU binary it cannot probe): on
	 * the console of a sweep that is going well they read as failures.
	 * Its log goes to a file in the state directory; an error that
	 * matters reaches the caller, which logs it once with its cause
	 * (virGetLastErrorMessage).  A LIBVIRT_LOG_OUTPUTS of the user's
	 * own wins.  Set before anything initializes libvirt: a program
	 * linking libguestfs, which initializes it as it is loaded, sets
	 * its own before that (builder/main.c). */
	if (!uri && statedir && statedir[0] == '/') {
		_cleanup_free_ char *out = NULL;
		if (asprintf(&out, "3:file:%s/libvirt.log", statedir) < 0)
			return -ENOMEM;
		setenv("LIBVIRT_LOG_OUTPUTS", out, 0);
	} else {
		setenv("LIBVIRT_LOG_OUTPUTS", "4:stderr", 0);
	}
	r = resolve_accel(accel, &kvm, &probed);
	if (r < 0)
		return r;
	if (!uri) {
		if (!statedir || statedir[0] != '/')
			return log_error_code(-EINVAL,
					      "the embedded libvirt driver needs an absolute state directory");
		r = write_embed_config(statedir);
		if (r < 0)
			return r;
		if (asprintf(&embed_uri, "qemu:///embed?root=%s", statedir) < 0)
			return -ENOMEM;
		uri = embed_uri;
	}
	if (current_host)
		return log_error_code(-EBUSY, "a libvirt connection is already open");

	if (virInitialize() < 0)
		return log_error_code(-EIO, "cannot initialize libvirt: %s",
				      virGetLastErrorMessage());
	virSetErrorFunc(NULL, quiet_libvirt_errors);
	if (!event_impl_registered) {
		if (virEventRegisterDefaultImpl() < 0)
			return log_error_code(-EIO, "libvirt event loop: %s",
					      virGetLastErrorMessage());
		event_impl_registered = true;
	}

	struct vm_host *h = calloc(1, sizeof *h);
	if (!h)
		return -ENOMEM;
	pthread_mutex_init(&h->lock, NULL);
	pthread_condattr_t ca;
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&h->cond, &ca);
	pthread_condattr_destroy(&ca);
	h->callback_id = -1;
	h->kvm = kvm;
	h->kvm_chosen = probed;
	if (embed_uri && !(h->statedir = strdup(statedir))) {
		vm_host_close(h);
		return -ENOMEM;
	}

	if (pthread_create(&h->loop, NULL, event_loop, h) != 0) {
		vm_host_close(h);
		return log_error_code(-EAGAIN, "cannot start the libvirt event loop");
	}
	h->loop_started = true;

	h->conn = virConnectOpen(uri);
	if (!h->conn) {
		log_error("cannot connect to libvirt at '%s': %s", uri,
			  virGetLastErrorMessage());
		vm_host_close(h);
		return -EIO;
	}
	h->callback_id = virConnectDomainEventRegisterAny(
		h->conn, NULL, VIR_DOMAIN_EVENT_ID_LIFECYCLE,
		VIR_DOMAIN_EVENT_CALLBACK(lifecycle_cb), h, NULL);
	if (h->callback_id < 0) {
		log_error("cannot watch libvirt domain events: %s",
			  virGetLastErrorMessage());
		vm_host_close(h);
		return -EIO;
	}
	current_host = h;
	static bool at_exit;
	if (!at_exit)
		at_exit = atexit(on_exit_destroy) == 0;
	/* A signal is recorded, not fatal: the waiting loop destroys the
	 * domain and the sweep's caller cleans up, then dies of it. */
	signals_defer();
	*ret = h;
	return 0;
}

void vm_host_close(struct vm_host *h)
{
	if (!h)
		return;
	destroy_running(h);
	if (h->conn) {
		if (h->callback_id >= 0)
			virConnectDomainEventDeregisterAny(h->conn,
							   h->callback_id);
		virConnectClose(h->conn);
	}
	if (h->loop_started) {
		h->quit = true;
		/* An immediate timer makes the loop return and see quit. */
		virEventAddTimeout(0, wake_loop, NULL, NULL);
		pthread_join(h->loop, NULL);
	}
	if (current_host == h)
		current_host = NULL;
	pthread_cond_destroy(&h->cond);
	pthread_mutex_destroy(&h->lock);
	free(h->statedir);
	free(h);
}

bool vm_host_kvm(const struct vm_host *h)
{
	return h->kvm;
}

/* libvirt's versions are major * 1000000 + minor * 1000 + release. */
static void version_text(int r, unsigned long v, char buf[32])
{
	if (r < 0 || v == 0)
		buf[0] = '\0';
	else
		snprintf(buf, 32, "%lu.%lu.%lu", v / 1000000, v / 1000 % 1000, v % 1000);
}

void vm_host_versions(const struct vm_host *h, char qemu[32], char libvirt[32])
{
	unsigned long hv = 0, lib = 0;

	int r = virConnectGetVersion(h->conn, &hv);
	version_text(r, hv, qemu);
	r = virConnectGetLibVersion(h->conn, &lib);
	version_text(r, lib, libvirt);
}

/* True when the console log at PATH has the guest agent's BEGIN line. */
static bool console_has_begin(const char *path)
{
	_cleanup_(fclosep) FILE *f = fopen(path, "re");
	_cleanup_free_ char *line = NULL;
	size_t cap = 0;

	while (f && getline(&line, &cap, f) >= 0)
		if (strstr(line, GUESTPROTO_TAG " " GUESTPROTO_BEGIN " "))
			return true;
	return false;
}

int vm_host_check_boot(struct vm_host *h, const struct vm_spec *spec,
		       unsigned timeout)
{
	if (!h->kvm || !h->kvm_chosen)
		return 0;
	/* A kernel that reaches a panic under KVM is not a guest that runs
	 * a workload (a nested KVM has done the first and hung in the
	 * second): the check is a guest like the runs', its agent printing
	 * its first line and powering off. */
	_cleanup_free_ char *name = NULL, *log = NULL;
	watchdog_step(timeout, "checking that a guest boots under KVM here (at most %u s)",
		      timeout);
	if (asprintf(&name, "%s-kvm-check", spec->name) < 0 ||
	    asprintf(&log, "%s.kvm-check", spec->console_log) < 0)
		return -ENOMEM;
	struct vm_spec check = *spec;
	check.name = name;
	check.console_log = log;
	check.timeout = timeout;
	check.track_writes = false;
	check.quiet_failure = true;
	struct vm_result res;
	int r = vm_run(h, &check, &res);
	if (r < 0)
		return r;
	vm_result_release(&res);
	if (res.status == VM_OK && console_has_begin(log)) {
		kvmboot_remember(true);
		return 0;
	}
	log_warning("KVM is available, but a guest did not boot under it to its agent and power off within %u s (%s): using TCG",
		    timeout, res.status != VM_OK ? vm_status_name(res.status)
						 : "no agent line");
	kvmboot_remember(false);
	h->kvm = false;
	return 0;
}

bool vm_host_has_domain(struct vm_host *h, const char *name)
{
	virDomainPtr dom = virDomainLookupByName(h->conn, name);
	if (!dom)
		return false;
	virDomainFree(dom);
	return true;
}

int vm_parse_query_block(const char *reply, struct cache_flags *ret)
{
	_cleanup_(json_object_putp) json_object *root =
		json_tokener_parse(reply);
	json_object *list, *inserted, *cache;

	if (!root || !json_object_object_get_ex(root, "return", &list) ||
	    !json_object_is_type(list, json_type_array))
		return -EINVAL;
	for (size_t i = 0; i < json_object_array_length(list); i++) {
		json_object *dev = json_object_array_get_idx(list, i);
		struct cache_flags f;
		if (!json_object_object_get_ex(dev, "inserted", &inserted) ||
		    !json_object_object_get_ex(inserted, "cache", &cache))
			continue;
		if (!jsonget_bool(cache, "writeback", &f.writeback) ||
		    !jsonget_bool(cache, "direct", &f.direct) ||
		    !jsonget_bool(cache, "no-flush", &f.no_flush))
			return -EINVAL;
		*ret = f;
		return 0;
	}
	return -EINVAL;
}

static void read_applied_cache(virDomainPtr dom, struct vm_result *res)
{
	_cleanup_free_ char *reply = NULL;

	if (virDomainQemuMonitorCommand(dom, "{\"execute\":\"query-block\"}",
					&reply, 0) < 0) {
		log_warning("cannot read the applied cache mode: %s",
			    virGetLastErrorMessage());
		return;
	}
	if (vm_parse_query_block(reply, &res->applied) < 0) {
		log_warning("unexpected query-block reply: %.200s", reply);
		return;
	}
	res->applied_known = true;
}

/* The pid of the QEMU of domain NAME: the embedded driver keeps it in
 * ROOT/run/qemu/NAME.pid.  0 when it cannot be read (warned about). */
static long qemu_pid(const struct vm_host *h, const char *name)
{
	_cleanup_free_ char *pidfile = NULL;
	_cleanup_fclose_ FILE *f = NULL;
	long pid = 0;

	if (!h->statedir ||
	    asprintf(&pidfile, "%s/run/qemu/%s.pid", h->statedir, name) < 0)
		return 0;
	f = fopen(pidfile, "re");
	if (!f || fscanf(f, "%ld", &pid) != 1 || pid <= 0) {
		log_warning("cannot read QEMU's pid from %s", pidfile);
		return 0;
	}
	return pid;
}

/* Reads the qcow2 cache-size QEMU really got from its command line. */
static void read_applied_qcow2_cache(struct vm_host *h, const char *name,
				     struct vm_result *res)
{
	_cleanup_free_ char *cmdpath = NULL, *args = NULL;
	_cleanup_fclose_ FILE *f = NULL;
	long pid = qemu_pid(h, name);
	size_t len;

	if (pid <= 0 || asprintf(&cmdpath, "/proc/%ld/cmdline", pid) < 0)
		return;
	f = fopen(cmdpath, "re");
	args = calloc(1, CMDLINE_READ_MAX + 1);
	if (!f || !args)
		return;
	len = fread(args, 1, CMDLINE_READ_MAX, f);
	if (qcow2cache_from_cmdline(args, len, &res->qcow2_cache_size) < 0)
		return;
	res->qcow2_cache_known = true;
}

/* The console shows a kernel panic (the guest rebooted out of it with
 * panic=-1, which on_reboot=destroy turns into an ordinary stop). */
static bool console_shows_panic(const char *path)
{
	_cleanup_fclose_ FILE *f = fopen(path, "re");
	char line[1024];

	if (!f)
		return false;
	while (fgets(line, sizeof line, f))
		if (strstr(line, "Kernel panic - not syncing"))
			return true;
	return false;
}

void vm_result_release(struct vm_result *r)
{
	written_release(&r->written);
	r->written_known = false;
}

/* The console of a guest that halts, read as it grows. */
struct console_watch {
	const char *path;
	off_t seen;  /* bytes looked at */
	bool found;  /* END_MARK or HALT_MARK seen */
};

static void watch_console(struct console_watch *w)
{
	enum { BACK = 64, MAX = 1 << 20 };
	_cleanup_fclose_ FILE *f = NULL;
	_cleanup_free_ char *buf = NULL;
	struct stat st;
	off_t from;
	size_t n;

	if (!w || w->found || stat(w->path, &st) < 0 || st.st_size <= w->seen)
		return;
	/* BACK bytes again: a mark split across two reads is still found;
	 * the first line of the file is preceded by a virtual newline. */
	from = w->seen > BACK ? w->seen - BACK : 0;
	f = fopen(w->path, "re");
	buf = malloc(BACK + MAX + 1);
	if (!f || !buf || fseeko(f, from, SEEK_SET) < 0)
		return;
	buf[0] = '\n';
	n = fread(buf + 1, 1, BACK + MAX - 1, f);
	buf[n + 1] = '\0';
	w->seen = from + (off_t)n;
	if (memmem(buf, n + 1, END_MARK, strlen(END_MARK)) ||
	    memmem(buf, n + 1, HALT_MARK, strlen(HALT_MARK)))
		w->found = true;
}

static void fail(struct vm_result *res, enum vm_status status,
		 const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void fail(struct vm_result *res, enum vm_status status,
		 const char *fmt, ...)
{
	va_list ap;
	res->status = status;
	va_start(ap, fmt);
	vsnprintf(res->message, sizeof res->message, fmt, ap);
	va_end(ap);
}

/* A durability guest's acknowledgements, and its crash. */
struct ack_watch {
	struct acklog log;
	uint64_t crash_after;
	const struct vm_spec *spec; /* its crash_host, if any */
	long pid;     /* QEMU's */
	bool killed;  /* by us, at crash_after */
	int error;    /* the acknowledgements could not be written */
	int crash_error; /* the host could not crash itself */
};

/* Takes what the console gained; kills QEMU at the crash point. */
static void watch_acks(struct ack_watch *a)
{
	if (!a || a->killed || a->error)
		return;
	int r = acklog_poll(&a->log);
	if (r < 0) {
		a->error = r;
		return;
	}
	if (a->log.acks < a->crash_after)
		return;
	if (a->spec->crash_host && !a->crash_error) {
		double seconds = a->log.acks > 1 ? a->log.last_at - a->log.first_at : NAN;
		/* Returns only when the host could not go down. */
		a->crash_error = a->spec->crash_host(a->spec->crash_data, a->log.acks,
						     seconds, (pid_t)a->pid);
	}
	if (a->pid > 0 && kill((pid_t)a->pid, SIGKILL) == 0)
		a->killed = true;
}

/* Waits until the run's STOPPED event, or W's mark on the console, or
 * DEADLINE (false on timeout), handling a pending signal and taking A's
 * acknowledgements.  Called with h->lock held. */
static bool wait_stopped(struct vm_host *h, const struct timespec *deadline,
			 struct console_watch *w, struct ack_watch *a)
{
	while (!h->stopped) {
		watch_console(w);
		if (a && !a->killed) {
			pthread_mutex_unlock(&h->lock);
			watch_acks(a);
			pthread_mutex_lock(&h->lock);
		}
		if (w && w->found) {
			if (!h->shut_down) {
				clock_gettime(CLOCK_MONOTONIC, &h->shutdown_at);
				h->shut_down = true;
			}
			return true;
		}
		if (signals_pending() && !h->interrupted && h->dom) {
			h->interrupted = true;
			pthread_mutex_unlock(&h->lock);
			virDomainDestroy(h->dom);
			pthread_mutex_lock(&h->lock);
		}
		struct timespec now, until;
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (deadline && seconds_between(&now, deadline) <= 0)
			return false;
		until = now;
		until.tv_nsec += (w && !w->found) || (a && !a->killed) ? WATCH_POLL_NS
								      : POLL_NS;
		if (until.tv_nsec >= 1000000000L) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000L;
		}
		pthread_cond_timedwait(&h->cond, &h->lock, &until);
	}
	return true;
}

static void classify(struct vm_host *h, const struct vm_spec *spec,
		     bool timed_out, bool halted, struct vm_result *res)
{
	if (timed_out)
		fail(res, VM_TIMEOUT, "the guest was still running after %u s",
		     spec->timeout);
	else if (h->crashed ||
		 h->stop_detail == VIR_DOMAIN_EVENT_STOPPED_CRASHED)
		fail(res, VM_CRASHED, "the guest crashed");
	else if (h->stop_detail == VIR_DOMAIN_EVENT_STOPPED_FAILED)
		fail(res, VM_FAILED, "QEMU failed while the guest ran");
	else if (console_shows_panic(spec->console_log))
		fail(res, VM_CRASHED, "the guest crashed (kernel panic)");
	else if (halted)
		res->status = VM_OK; /* done; destroyed here, after it halted */
	else if (h->stop_detail != VIR_DOMAIN_EVENT_STOPPED_SHUTDOWN)
		fail(res, VM_FAILED, "the domain was stopped from outside");
	else
		res->status = VM_OK;
}

/* The outcome of a durability guest: the acknowledgements it printed
 * before QEMU died are all counted (the last ones may have come after
 * the crash point, before the kill took effect); a guest that stopped
 * short of the crash point failed. */
static void end_acks(struct ack_watch *a, bool timed_out, struct vm_result *res)
{
	if (!a->error)
		a->error = acklog_poll(&a->log);
	res->acks = a->log.acks;
	res->ack_seconds = a->log.acks > 1 ? a->log.last_at - a->log.first_at : NAN;
	res->killed = a->killed;
	if (a->error)
		fail(res, VM_FAILED, "cannot write the acknowledgements: %s",
		     strerror(-a->error));
	else if (a->crash_error)
		fail(res, VM_FAILED, "the host could not crash itself after %" PRIu64
		     " acknowledgements: %s", a->log.acks, strerror(-a->crash_error));
	else if (a->log.out_of_order)
		fail(res, VM_FAILED, "an acknowledgement out of order after %" PRIu64,
		     a->log.acks);
	else if (!a->killed && !timed_out)
		fail(res, VM_FAILED, "the guest stopped after %" PRIu64 " of the %" PRIu64
		     " acknowledgements its crash waits for", a->log.acks,
		     a->crash_after);
}

/* After the halted guest's END line: QEMU is still there, the guest no
 * longer writes.  Paused first (QEMU drains its queues), then its writes
 * read back; the caller destroys it. */
static void collect_written(virDomainPtr dom, const char *node,
			    struct vm_result *res)
{
	struct timespec a, b;

	clock_gettime(CLOCK_MONOTONIC, &a);
	if (virDomainSuspend(dom) < 0) {
		log_warning("cannot pause the halted guest: %s",
			    virGetLastErrorMessage());
		return;
	}
	if (dirtymap_collect(dom, node, &res->written) < 0)
		return;
	clock_gettime(CLOCK_MONOTONIC, &b);
	res->written_known = true;
	res->written_seconds = seconds_between(&a, &b);
}

int vm_run(struct vm_host *h, const struct vm_spec *spec,
	   struct vm_result *ret)
{
	_cleanup_free_ char *xml = NULL, *cmdline = NULL;
	struct vm_result res = {.kvm = h->kvm, .start_seconds = NAN, .stop_seconds = NAN};
	struct timespec begin, deadline, end;
	struct vm_spec run = *spec;
	struct console_watch watch = {.path = spec->console_log};
	struct ack_watch acks = {.log.fd = -1, .crash_after = spec->crash_after, .spec = spec};
	char node[128] = "";
	bool tracking = false;
	int r;

	/* A guest whose writes are read after it is done must not power
	 * off: libvirt ends QEMU at once then, bitmap and all. */
	if (spec->track_writes) {
		if (asprintf(&cmdline, "%s " GUESTPROTO_PARAM_PREFIX "end=halt",
			     spec->cmdline ? spec->cmdline : "") < 0)
			return -ENOMEM;
		run.cmdline = cmdline;
	}
	r = domain_xml(&run, h->kvm, &xml);
	if (r < 0)
		return log_error_errno(r, "run '%s': no domain XML for its guest settings",
				       spec->name ? spec->name : "?");
	snprintf(res.console_log, sizeof res.console_log, "%s",
		 spec->console_log);

	pthread_mutex_lock(&h->lock);
	if (h->run_name[0]) {
		pthread_mutex_unlock(&h->lock);
		return -EBUSY;
	}
	snprintf(h->run_name, sizeof h->run_name, "%s", spec->name);
	h->started = h->shut_down = h->stopped = h->crashed = h->interrupted = false;
	h->stop_detail = -1;
	pthread_mutex_unlock(&h->lock);

	clock_gettime(CLOCK_MONOTONIC, &begin);
	/* Paused first, so the applied cache mode is read back even from a
	 * guest that would finish in less time than a monitor round trip,
	 * and the write tracking starts before the guest's first write.
	 * (AUTODESTROY would be the natural safety net, but the embedded
	 * driver refuses it: hence the exit and signal handlers.) */
	virDomainPtr dom =
		virDomainCreateXML(h->conn, xml, VIR_DOMAIN_START_PAUSED);
	if (!dom) {
		fail(&res, VM_FAILED, "cannot start the guest: %s",
		     virGetLastErrorMessage());
		goto out;
	}
	pthread_mutex_lock(&h->lock);
	h->dom = dom;
	pthread_mutex_unlock(&h->lock);

	read_applied_cache(dom, &res);
	if (spec->format == IMAGE_FORMAT_QCOW2)
		read_applied_qcow2_cache(h, spec->name, &res);
	if (spec->track_writes)
		tracking = dirtymap_start(dom, node, sizeof node) == 0;
	if (spec->ack_log) {
		acks.pid = qemu_pid(h, spec->name);
		if (acks.pid <= 0)
			fail(&res, VM_FAILED, "cannot find the QEMU its crash kills");
		else if (acklog_open(&acks.log, spec->console_log, spec->ack_log) < 0)
			fail(&res, VM_FAILED, "cannot create %s", spec->ack_log);
		if (res.status != VM_OK)
			virDomainDestroy(dom);
	}
	if (res.status == VM_OK && virDomainResume(dom) < 0) {
		fail(&res, VM_FAILED, "cannot resume the guest: %s",
		     virGetLastErrorMessage());
		virDomainDestroy(dom);
	}

	deadline = begin;
	deadline.tv_sec += spec->timeout;
	pthread_mutex_lock(&h->lock);
	bool timed_out = !wait_stopped(h, spec->timeout ? &deadline : NULL,
				       spec->track_writes ? &watch : NULL,
				       spec->ack_log ? &acks : NULL);
	bool halted = watch.found && !h->stopped;
	if (timed_out || halted) {
		pthread_mutex_unlock(&h->lock);
		if (halted && tracking)
			collect_written(dom, node, &res);
		virDomainDestroy(dom);
		pthread_mutex_lock(&h->lock);
		struct timespec grace;
		clock_gettime(CLOCK_MONOTONIC, &grace);
		grace.tv_sec += STOP_GRACE_SECONDS;
		if (!wait_stopped(h, &grace, NULL, NULL))
			log_warning("run '%s': no stop event after destroy",
				    spec->name);
	}
	if (spec->ack_log && res.status == VM_OK)
		end_acks(&acks, timed_out, &res);
	if (res.status == VM_OK && !acks.killed)
		classify(h, spec, timed_out, halted, &res);
	clock_gettime(CLOCK_MONOTONIC, &end);
	if (h->started && h->stopped) {
		const struct timespec *off = h->shut_down ? &h->shutdown_at : &h->stopped_at;
		res.seconds = seconds_between(&h->started_at, off);
		res.start_seconds = seconds_between(&begin, &h->started_at);
		res.stop_seconds = seconds_between(off, &end);
	}
	h->dom = NULL;
	pthread_mutex_unlock(&h->lock);
	virDomainFree(dom);
	acklog_close(&acks.log);

out:
	pthread_mutex_lock(&h->lock);
	h->run_name[0] = '\0';
	pthread_mutex_unlock(&h->lock);
	if (signals_pending()) {
		/* Not a result of the guest's: the run is not made. */
		log_info("run '%s': interrupted by %s", spec->name,
			 strsignal(signals_pending()));
		vm_result_release(&res);
		return -EINTR;
	}
	if (res.status != VM_OK && !spec->quiet_failure) {
		log_warning("run '%s': %s: %s", spec->name,
			    vm_status_name(res.status), res.message);
		/* A run that failed may have written past what was read. */
		vm_result_release(&res);
	}
	*ret = res;
	return 0;
}
