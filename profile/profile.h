/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The resolved profile: every setting of a benchmark kit, typed, with
 * defaults applied.  The builder fills it from an INI file
 * (profile/loader.h); the appliance gets it back from the plan's JSON
 * (profile/plan.h) and never sees the INI. */
#ifndef BUILDAPP_PROFILE_H
#define BUILDAPP_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "backend.h"
#include "fioargs.h"

#define PROFILE_NAME_MAX 64
#define PROFILE_STR_MAX 256

enum after_action { AFTER_POWEROFF, AFTER_REBOOT, AFTER_SHELL, _AFTER_MAX };
enum write_cache_setting {
	WRITE_CACHE_KEEP,
	WRITE_CACHE_ON,
	WRITE_CACHE_OFF,
	_WRITE_CACHE_MAX
};
enum page_cache_setting { PAGE_CACHE_DROP, PAGE_CACHE_KEEP, _PAGE_CACHE_MAX };
enum io_scheduler {
	SCHEDULER_KEEP,
	SCHEDULER_NONE,
	SCHEDULER_MQ_DEADLINE,
	SCHEDULER_BFQ,
	SCHEDULER_KYBER,
	_SCHEDULER_MAX
};

/* [guest] accel: the benchmark guests' accelerator (domain type). */
enum vm_accel { VM_ACCEL_AUTO, VM_ACCEL_KVM, VM_ACCEL_TCG, _VM_ACCEL_MAX };

enum cache_mode {
	CACHE_NONE,
	CACHE_WRITETHROUGH,
	CACHE_WRITEBACK,
	CACHE_DIRECTSYNC,
	CACHE_UNSAFE,
	_CACHE_MAX
};
enum aio_mode { AIO_THREADS, AIO_NATIVE, AIO_IO_URING, _AIO_MAX };
enum disk_bus { BUS_VIRTIO, BUS_IDE, BUS_SCSI, BUS_SATA, _BUS_MAX };

enum workload_kind {
	WORKLOAD_TARBALL_WRITE,
	WORKLOAD_TARBALL_READ,
	WORKLOAD_BONNIE,
	WORKLOAD_FIO,
	WORKLOAD_DD,
	WORKLOAD_QEMU_IMG_BENCH,
	WORKLOAD_DURABILITY,
	_WORKLOAD_MAX
};
/* [workload] durability_flush: what follows each record's write. */
enum durability_flush {
	FLUSH_FDATASYNC,
	FLUSH_FSYNC,
	FLUSH_DSYNC, /* the file opened O_DSYNC: each write is its own flush */
	_FLUSH_MAX
};
/* qemu-img bench's requests in flight when -d is not given. */
#define IMGBENCH_DEFAULT_DEPTH 64

/* [workload] crash: how a durability run ends (docs/results.md). */
enum crash_kind { CRASH_GUEST, CRASH_HOST, CRASH_POWER, _CRASH_MAX };
/* Whether a durability run that ends in crash C takes the lab server
 * down (host: its kernel; power: its BMC cuts the power), so that the
 * next boot finishes the run. */
static inline bool crash_takes_server_down(enum crash_kind c)
{
	return c == CRASH_HOST || c == CRASH_POWER;
}
/* [workload] crash_reboot: how a host crashed by a durability run comes
 * back (runner/hostcrash.h). */
enum crash_reboot { CRASH_REBOOT_KEXEC, CRASH_REBOOT_FIRMWARE, _CRASH_REBOOT_MAX };
enum fio_rw {
	FIO_RW_READ,
	FIO_RW_WRITE,
	FIO_RW_RANDREAD,
	FIO_RW_RANDWRITE,
	FIO_RW_RW,
	FIO_RW_RANDRW,
	_FIO_RW_MAX
};
/* [workload] fio_target: a file on the guest's filesystem, or the
 * guest's disk itself (the disk under test, as the qcow2 L2 cache study
 * ran fio). */
enum fio_target { FIO_TARGET_FILE, FIO_TARGET_DEVICE, _FIO_TARGET_MAX };
/* [workload] fio_ioengine.  auto is what the built-in job always did:
 * psync at iodepth 1, libaio above (an iodepth needs an asynchronous
 * engine to mean anything). */
enum fio_ioengine {
	FIO_IOENGINE_AUTO,
	FIO_IOENGINE_PSYNC,
	FIO_IOENGINE_LIBAIO,
	FIO_IOENGINE_IO_URING,
	_FIO_IOENGINE_MAX
};
enum sweep_order { ORDER_INTERLEAVED, ORDER_BLOCKED, _ORDER_MAX };

/* An axis of the sweep matrix: a set of enum values, as a bit mask.  A
 * single value is an axis of one. */
typedef uint32_t axis_mask;
#define AXIS_BIT(v) ((axis_mask)1u << (v))
#define AXIS_MASK_BITS 32

/* The order a profile lists an axis's values in, kept beside its mask
 * (member NAME_order of member NAME): the first listed is the reference
 * level of the report's comparisons, and the planner makes the cells in
 * this order.  profile/keys.c sets both from the profile's text. */
struct axis_order {
	unsigned n;
	uint8_t v[AXIS_MASK_BITS];
};

/* [guest] l2_cache: an axis of sizes, in the order given.  0 stands for
 * QEMU's own default ("default" in a profile). */
#define L2_CACHE_MAX_VALUES 8
struct l2_cache_axis {
	unsigned n;
	uint64_t bytes[L2_CACHE_MAX_VALUES];
};

/* An axis of numbers (fio's bs, iodepth, numjobs, rwmixread), in the
 * order the profile lists them: the first is the reference level of the
 * report's comparisons. */
#define NUM_AXIS_MAX 8
struct num_axis {
	unsigned n;
	uint64_t v[NUM_AXIS_MAX];
};

/* [report] reference: the published study a profile reproduces. */
enum report_reference {
	REFERENCE_NONE,
	REFERENCE_KVM_PERF_2011,
	REFERENCE_BONNIE_QCOW2_VS_RAW,
	REFERENCE_QCOW2_L2_CACHE,
	REFERENCE_GUEST_VS_HOST,
	REFERENCE_CACHE_MODES_LVM,
	_REFERENCE_MAX
};

struct profile_appliance {
	char name[PROFILE_NAME_MAX];
	enum image_format format;
	uint64_t size;
	char console[PROFILE_STR_MAX];
	char kernel[PROFILE_STR_MAX]; /* "auto" or a path */
	enum after_action after;
	char upload[PROFILE_STR_MAX]; /* WebDAV collection URL; "": none */
	char upload_ca[PROFILE_STR_MAX]; /* PEM CAs for https; "": the system's */
	unsigned upload_retry; /* seconds a failed upload from RAM is retried */
	unsigned stall_timeout; /* seconds a step of the booted kit may take (watchdog.h) */
	unsigned hardware_watchdog; /* the server's watchdog's timeout, seconds; 0: off */
};

struct profile_host {
	char disk[PROFILE_STR_MAX]; /* "auto", a by-id name, serial or WWN */
	bool wipe;
	axis_mask write_cache; /* of enum write_cache_setting (axis) */
	struct axis_order write_cache_order;
	enum page_cache_setting page_cache;
	int dirty_ratio;            /* -1: keep */
	int dirty_background_ratio; /* -1: keep */
	int dirty_expire_centisecs; /* -1: keep */
	int dirty_writeback_centisecs; /* -1: keep */
	enum io_scheduler scheduler;
	int read_ahead_kb;     /* -1: keep */
	bool strict;           /* a refused setting is an error, not a warning */
	/* The BMC that cuts the power for crash = power: "ipmi" (in-band),
	 * or a Redfish endpoint's https:// URL (profile/bmcspec.h) */
	char bmc[PROFILE_STR_MAX];
	char bmc_credentials[PROFILE_STR_MAX]; /* Redfish USER:PASSWORD file; "": none */
	char bmc_ca[PROFILE_STR_MAX]; /* PEM CAs for the Redfish https; "": the system's */
};

struct profile_storage {
	axis_mask backends;      /* of enum backend */
	struct axis_order backends_order;
	uint64_t size;           /* per guest disk */
	axis_mask qcow2_prealloc; /* of enum qcow2_prealloc */
	struct axis_order qcow2_prealloc_order;
	axis_mask raw_prealloc;  /* of enum raw_prealloc */
	struct axis_order raw_prealloc_order;
	uint64_t cluster_size;
	bool fill;
};

struct profile_guest {
	uint64_t memory;
	unsigned vcpus;
	axis_mask bus;   /* of enum disk_bus */
	struct axis_order bus_order;
	axis_mask cache; /* of enum cache_mode */
	struct axis_order cache_order;
	axis_mask aio;   /* of enum aio_mode */
	struct axis_order aio_order;
	struct l2_cache_axis l2_cache; /* qcow2 L2 cache sizes (axis) */
	unsigned timeout;  /* seconds per run */
	enum vm_accel accel;
};

struct profile_workload {
	axis_mask kinds; /* of enum workload_kind */
	struct axis_order kinds_order;
	char tarball[PROFILE_STR_MAX]; /* "auto", "generated" or a path */
	uint64_t tarball_size;
	axis_mask fio_rw; /* of enum fio_rw */
	struct axis_order fio_rw_order;
	enum fio_target fio_target;
	struct num_axis fio_bs;      /* bytes */
	struct num_axis fio_iodepth;
	struct num_axis fio_numjobs;
	axis_mask fio_ioengine;      /* of enum fio_ioengine */
	struct axis_order fio_ioengine_order;
	struct num_axis fio_rwmixread; /* percent of reads in rw, randrw */
	/* A fio job file (as resolved by the loader: relative to the
	 * profile's directory), run instead of the built-in job; "": none */
	char fio_job[PROFILE_STR_MAX];
	uint64_t fio_size;
	bool fio_direct;
	unsigned fio_fsync; /* fsync every N writes; 0: never */
	unsigned fio_runtime; /* seconds, time_based; 0: until fio_size is done */
	unsigned fio_ramp;    /* fio's ramp_time, seconds; 0: none */
	char fio_steadystate[FIOARGS_SS_MAX]; /* fio's steadystate= spec; "": none */
	unsigned fio_ss_duration; /* ss_dur, seconds */
	unsigned fio_ss_ramp;     /* ss_ramp, seconds */
	uint64_t bonnie_size;
	bool bonnie_fast;    /* -f: no per-character tests */
	uint64_t dd_bs;
	uint64_t dd_count;
	uint64_t bench_count; /* qemu-img bench -c */
	uint64_t bench_step;  /* qemu-img bench -S */
	bool bench_write;     /* qemu-img bench -w */
	uint64_t bench_flush_interval; /* with -w: --flush-interval; 0 none */
	unsigned bench_depth; /* qemu-img bench -d; 0: its default */
	bool host_baseline;   /* add host-native cells (no guest) */
	uint64_t durability_records;     /* records a durability run writes */
	uint64_t durability_record_size; /* bytes, a multiple of 512 */
	enum durability_flush durability_flush;
	enum crash_kind crash;
	enum crash_reboot crash_reboot;
};

struct profile_sweep {
	unsigned runs;
	unsigned durability_runs; /* crashes per durability cell; 0: runs */
	enum sweep_order order;
	uint64_t seed;
	double target_ci; /* relative 95% CI half-width in %, 0: off */
	unsigned max_runs;
	bool verify_reset; /* every fast reset checked against a full one */
};

struct profile_report {
	char baseline[PROFILE_STR_MAX]; /* "axis:level", or "" */
	char compare[PROFILE_STR_MAX];  /* questions.h's list, or "" */
	enum report_reference reference; /* the study it reproduces */
	double equivalence; /* bound of a claim of closeness in %, 0: none */
};

struct profile {
	char path[PROFILE_STR_MAX]; /* the file it came from, for messages */
	struct profile_appliance appliance;
	struct profile_host host;
	struct profile_storage storage;
	struct profile_guest guest;
	struct profile_workload workload;
	struct profile_sweep sweep;
	struct profile_report report;
};

/* Names of enum values as written in profiles, plans and results, and
 * back.  *_from_name returns the value or -1. */
const char *after_action_name(enum after_action v);
const char *write_cache_setting_name(enum write_cache_setting v);
const char *page_cache_setting_name(enum page_cache_setting v);
const char *io_scheduler_name(enum io_scheduler v);
const char *cache_mode_name(enum cache_mode v);
const char *aio_mode_name(enum aio_mode v);
const char *disk_bus_name(enum disk_bus v);
const char *workload_kind_name(enum workload_kind v);
const char *fio_rw_name(enum fio_rw v);
const char *fio_target_name(enum fio_target v);
const char *fio_ioengine_name(enum fio_ioengine v);
const char *durability_flush_name(enum durability_flush v);
const char *crash_kind_name(enum crash_kind v);
const char *crash_reboot_name(enum crash_reboot v);
const char *sweep_order_name(enum sweep_order v);
const char *vm_accel_name(enum vm_accel v);
const char *report_reference_name(enum report_reference v);


extern const struct name_table after_action_names,
	write_cache_setting_names, page_cache_setting_names, io_scheduler_names,
	cache_mode_names, aio_mode_names, disk_bus_names, workload_kind_names,
	fio_rw_names, fio_target_names, fio_ioengine_names, durability_flush_names,
	crash_kind_names, crash_reboot_names, sweep_order_names, vm_accel_names,
	report_reference_names;

/* The cache-mode table (DESIGN.md): QEMU's three cache flags per mode. */
struct cache_flags {
	bool writeback; /* guest sees a volatile write cache */
	bool direct;    /* O_DIRECT: bypasses the host page cache */
	bool no_flush;  /* guest flushes are ignored */
};
struct cache_flags cache_mode_flags(enum cache_mode mode);
/* True when aio=native can be used with MODE (it needs cache.direct). */
bool cache_mode_allows_native_aio(enum cache_mode mode);
/* True for rw and randrw: fio_rwmixread means something only there. */
bool fio_rw_mixed(enum fio_rw rw);
/* Whether P's host-native cells open image files with direct I/O: when
 * a cache mode of its guests bypasses the host's page cache (none,
 * directsync), the host cells they are compared with do too. */
bool profile_host_cells_direct(const struct profile *p);
/* The fio settings of P every job gets unless it sets them itself
 * (lib/fioargs.h). */
void profile_fioargs(const struct profile *p, struct fioargs *ret);
/* fio's engine for ENGINE at IODEPTH: auto is psync at 1, libaio above. */
enum fio_ioengine fio_ioengine_resolve(enum fio_ioengine engine, uint64_t iodepth);
/* The values of axis mask M in the order ORDER lists them, then any
 * value of M that ORDER lacks (a mask set without its order) in enum
 * order, into OUT (room for AXIS_MASK_BITS); returns how many. */
size_t axis_listed(axis_mask m, const struct axis_order *order, int *out);
/* axis_listed of member FIELD of a profile (p->guest.cache) and of the
 * order kept beside it (p->guest.cache_order). */
#define AXIS_LISTED(field, out) axis_listed((field), &(field##_order), (out))
/* The first value of axis FIELD as the profile lists it, or DEF when it
 * has none. */
#define AXIS_FIRST(field, def) axis_first((field), &(field##_order), (def))
int axis_first(axis_mask m, const struct axis_order *order, int def);
/* Whether the sweep adds runs after the planned ones: [sweep] target_ci
 * set and max_runs above runs. */
bool profile_sweep_adds_runs(const struct profile_sweep *s);
/* The planned runs of a cell of workload W: [sweep] durability_runs for
 * durability cells (each run is a crash; 0 there means runs), runs for
 * the others. */
unsigned profile_cell_runs(const struct profile_sweep *s, enum workload_kind w);

#endif
