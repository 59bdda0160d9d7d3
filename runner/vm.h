/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Running one benchmark guest to completion through libvirt.
 *
 * A vm_host is a libvirt connection with its event loop thread: the
 * embedded QEMU driver (qemu:///embed?root=STATEDIR, no daemon) unless
 * another URI is given.  vm_run creates a transient domain from a struct
 * vm_spec, times it from the STARTED to the SHUTDOWN (else STOPPED)
 * lifecycle event, enforces the timeout and reads back the cache mode
 * QEMU applied.  A guest whose writes are tracked (spec->track_writes)
 * halts instead of powering off: its run ends at its END line (or the
 * kernel's "System halted"), when the runner pauses it, reads what it
 * wrote and destroys it.  A durability guest (spec->ack_log) ends with
 * the crash vm_run causes: its QEMU killed with SIGKILL once the host
 * has made spec->crash_after of its acknowledgements durable.
 *
 * Every domain started here is destroyed when the process exits normally
 * (atexit), when the host is closed, or on SIGINT/SIGTERM/SIGHUP: the
 * host defers signals (signals_defer, signals.h), a signal during a run
 * destroys the domain and vm_run returns -EINTR; the caller cleans up and
 * then dies of it (signals_reraise). */
#ifndef BUILDAPP_VM_H
#define BUILDAPP_VM_H

#include <limits.h>
#include <stdbool.h>

#include "domain.h"
#include "profile.h"
#include "written.h"

enum vm_status {
	VM_OK,      /* the guest powered off by itself */
	VM_TIMEOUT, /* still running at the timeout: destroyed */
	VM_CRASHED, /* guest panic (pvpanic, or a panic on its console) */
	VM_FAILED,  /* could not start, or QEMU died */
	_VM_STATUS_MAX
};
/* "ok", "timeout", "crashed", "failed". */
const char *vm_status_name(enum vm_status v);
extern const struct name_table vm_status_names;

struct vm_result {
	enum vm_status status;
	double seconds;        /* STARTED to SHUTDOWN (else STOPPED) event, or to the halted guest's END line; monotonic */
	/* Around it, for the sweep's timings: vm_run's start to the STARTED
	 * event (domain creation: QEMU started paused), and SHUTDOWN (else
	 * STOPPED, or the halted guest's END line) to vm_run's return (QEMU's
	 * exit, libvirt's cleanup, reading the written ranges); NAN when the
	 * guest never ran. */
	double start_seconds, stop_seconds;
	bool applied_known;    /* false when query-block could not be read */
	struct cache_flags applied; /* what QEMU reports for the disk */
	bool kvm;              /* domain type kvm (else qemu, TCG) */
	/* The qcow2 node's cache-size on QEMU's command line as libvirt
	 * built it (0: none, QEMU's defaults); known only for a qcow2 disk
	 * on the embedded driver, whose QEMU's pid file is in its root. */
	bool qcow2_cache_known;
	uint64_t qcow2_cache_size;
	char console_log[PATH_MAX];
	char message[256];     /* why, when status is not VM_OK */
	/* With spec->track_writes: what the guest wrote (guest-visible
	 * ranges, owned by the result: vm_result_release), when QEMU could
	 * tell, and how long reading it took. */
	bool written_known;
	struct written written;
	double written_seconds;
	/* With spec->ack_log: the acknowledgements made durable, the time
	 * from the first to the last, and whether QEMU was killed at
	 * spec->crash_after (status VM_OK then). */
	uint64_t acks;
	double ack_seconds;
	bool killed;
};

/* Frees what R owns (its written ranges).  Accepts a zeroed R. */
void vm_result_release(struct vm_result *r);

/* Domain type (enum vm_accel, profile.h): kvm, qemu (TCG), or with
 * VM_ACCEL_AUTO what kvmboot_decide() (kvmboot.h) says: BUILDAPP_ACCEL
 * first, for machines whose KVM passes the probe yet cannot boot a kernel
 * (seen on nested setups), then the device probe and the kept answer. */

struct vm_host;

/* Opens URI, or qemu:///embed?root=STATEDIR when URI is NULL (STATEDIR is
 * created, and given a qemu.conf fit for a daemonless root run when it
 * has none), and starts the event loop.  Returns -EINVAL for an unknown
 * BUILDAPP_ACCEL.  Installs the exit hook on first use and defers
 * signals (signals_defer).  Reports libvirt's message; returns 0 and sets
 * *ret (free with vm_host_close), or a negative errno. */
int vm_host_open(const char *uri, const char *statedir, enum vm_accel accel,
		 struct vm_host **ret);
/* Destroys any domain still running, closes the connection, stops the
 * event loop and frees H.  Accepts NULL. */
void vm_host_close(struct vm_host *h);
/* True when H's domains are of type kvm (see kvmboot_decide). */
bool vm_host_kvm(const struct vm_host *h);
/* The versions of H's hypervisor (QEMU) and of libvirt, "7.2.19", each
 * "" when libvirt cannot tell. */
void vm_host_versions(const struct vm_host *h, char qemu[32], char libvirt[32]);
/* When H chose KVM by itself (VM_ACCEL_AUTO), boots SPEC (a guest kit
 * and a command line without a workload: guestcmdline_base) under it:
 * KVM is kept when the guest agent's BEGIN line is on the console and
 * the guest powered off within TIMEOUT seconds; otherwise H falls back
 * to TCG with one warning: some nested KVMs boot a kernel to a panic and
 * still hang a guest.
 * The answer is kept until the host reboots and read first (kvmboot.h).
 * SPEC's disk is attached but not written; the console goes to
 * SPEC's console_log + ".kvm-check".  Returns 0 or as vm_run. */
int vm_host_check_boot(struct vm_host *h, const struct vm_spec *spec,
		       unsigned timeout);
/* True when a domain called NAME exists on H's connection. */
bool vm_host_has_domain(struct vm_host *h, const char *name);

/* Runs SPEC's guest to completion.  Returns 0 when the run was made,
 * whatever its outcome (see ret->status and ret->message, which is also
 * logged when the run did not succeed); -EINVAL for a spec that cannot
 * be written as a domain; -EBUSY when another run is in progress on H;
 * -EINTR when SIGINT, SIGTERM or SIGHUP came (the domain is destroyed). */
int vm_run(struct vm_host *h, const struct vm_spec *spec,
	   struct vm_result *ret);

/* Reads the cache flags of the first disk with a medium from a QEMU
 * query-block reply (JSON text).  Returns 0 or -EINVAL. */
int vm_parse_query_block(const char *reply, struct cache_flags *ret);

#endif
