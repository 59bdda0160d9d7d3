/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One sweep on this host, from inputs that are ready: provision the
 * backends on the target, open libvirt, check that guests boot, run the
 * sweep, and undo the setup.  Shared by `buildapp run` (which builds the
 * guest kit first) and the appliance's init (which finds it baked in). */
#ifndef BUILDAPP_BENCH_H
#define BUILDAPP_BENCH_H

#include <stdbool.h>

#include "plan.h"
#include "sweep.h"
#include "vm.h"

/* Where the appliance's root holds the sweep's inputs (written by the
 * builder's kit): plan.json, vmlinuz and initrd.img (the benchmark
 * guest), disk.qcow2 (the pristine guest image). */
#define BENCH_KIT_DIR "/usr/lib/buildapp/kit"
/* The guest agent, there only when the plan has host-native cells. */
#define BENCH_KIT_AGENT BENCH_KIT_DIR "/buildapp-agent"
/* [workload] fio_job, there only when the profile names one. */
#define BENCH_KIT_JOB BENCH_KIT_DIR "/job.fio"
/* The CAs an https:// upload trusts ([appliance] upload_ca, builder/kit.c). */
#define BENCH_KIT_UPLOAD_CA BENCH_KIT_DIR "/upload-ca.pem"
/* A Redfish BMC's account and the CAs its https is verified against
 * ([host] bmc_credentials, bmc_ca); there only with a Redfish bmc.  The
 * account is in the root alone: the manifest does not list it. */
#define BENCH_KIT_BMC_CREDENTIALS BENCH_KIT_DIR "/bmc-credentials"
#define BENCH_KIT_BMC_CA BENCH_KIT_DIR "/bmc-ca.pem"

struct bench_inputs {
	const struct plan *plan;
	const char *kernel;   /* guest kernel */
	const char *initrd;   /* guest initramfs */
	const char *pristine; /* pristine guest image (raw or qcow2) */
	const char *agent;    /* guest agent, for host-native cells; or NULL */
	const char *job_file; /* the fio job file, for host-native cells; or NULL */
	const char *target;   /* directory or block device (safety-checked) */
	const char *results_dir;
	const char *uri;      /* libvirt URI; NULL: qemu:///embed */
	enum vm_accel accel;
	/* Where libvirt's QEMU capabilities are kept between sweeps (created
	 * when missing); NULL: probed again by every sweep. */
	const char *caps_dir;
	/* Writes host.json into RESULTS_DIR once the boot check has told
	 * KVM from TCG: what the host is, which only the sweep's caller
	 * knows all of (hostinfo_record_sweep in appliance/hostinfo.h, with
	 * HOST_DATA its struct hostinfo_inputs).  Returns 0 or a negative
	 * errno (reported). */
	int (*record_host)(void *host_data, const char *results_dir, bool kvm,
			   const char *qemu_version, const char *libvirt_version);
	void *host_data;
	/* The image file behind a loop device TARGET, or NULL: recorded so
	 * a sweep killed with SIGKILL has it detached by the next one. */
	const char *image;
	/* Where the command's wall time went so far (the kit's build...),
	 * continued here; NULL: counted from bench_run's start. */
	struct timings *timings;
	/* As sweep_env's: set true once the sweep has written its summary. */
	bool *summarized;
	/* The cells that the profile's questions ([report] compare) still
	 * need runs of to reach [sweep] target_ci (report/precision.h's
	 * precision_cells_wanting_runs, which the runner does not link);
	 * NULL: target_ci applies to each cell instead. */
	int (*precision)(const struct plan *plan, const char *dir, bool *want);
	/* As sweep_env's: RESULTS_DIR does not survive a reboot. */
	bool results_in_ram;
	/* As sweep_env's: where the runs' result lines go, or NULL. */
	FILE *result_lines;
	/* As sweep_env's: the disk's write cache set for a cell's runs. */
	int (*set_write_cache)(void *data, enum write_cache_setting setting, int *ret_on,
			       char *why, size_t len);
	void *write_cache_data;
	/* As sweep_env's: the BMC for crash = power's power cuts. */
	const struct hostcrash_power *power;
};

/* Runs IN's sweep, after undoing what killed sweeps left (runstate_reap),
 * with host.json written into the results directory once the boot check
 * has told KVM from TCG.  Returns 0 with *ret filled, -EINVAL or -EPERM for a
 * target that cannot be used (reported), or another negative errno. */
int bench_run(const struct bench_inputs *in, struct sweep_outcome *ret);

#endif
