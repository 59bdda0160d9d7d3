/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Every key of the profile language, in the order `buildapp keys` and the
 * plan list them: expanded by profile/keys.c into the table (without
 * the doc strings) and by profile/keyref.c into the doc strings, so the
 * appliance carries no documentation and the two cannot disagree.
 *   KEYS_ENTRY(TYPE, section, key, default, min, max, profile field, doc)
 *   KEYS_NAMED(ENUM or LIST, section, key, default, name table, field, doc)
 *   KEYS_UNSTORED(section, key, doc)
 * The sizes use K, M, G and T: an includer that uses them defines them.
 * No include guard: it is meant to be expanded more than once. */
/* clang-format off */
KEYS_ENTRY(STRING, "appliance", "name", "", 0, 0, appliance.name,
	"Kit name: output file names and the report title. Default: the profile's file name without .ini. Letters, digits, '-', '_', '.'.")
KEYS_NAMED(ENUM, "appliance", "format", "raw", image_format, appliance.format,
	"Image file format.")
KEYS_ENTRY(SIZE, "appliance", "size", "2G", 256 * M, 64 * T, appliance.size,
	"Size of the appliance image (boot partition + RESULTS).")
KEYS_ENTRY(STRING, "appliance", "console", "ttyS0,115200", 0, 0, appliance.console,
	"Kernel console= of the appliance.")
KEYS_ENTRY(STRING, "appliance", "kernel", "auto", 0, 0, appliance.kernel,
	"Kernel for the appliance and the guests: 'auto' (the build host's newest /boot/vmlinuz-VERSION with /lib/modules/VERSION; `buildapp kernel` prints it) or a path.")
KEYS_NAMED(ENUM, "appliance", "after", "poweroff", after_action, appliance.after,
	"What the appliance does when the sweep is over.")
KEYS_ENTRY(STRING, "appliance", "upload", "", 0, 0, appliance.upload,
	"WebDAV collection (http:// or https:// URL, no credentials) the appliance sends its finished bundle to; buildapp.upload= on the kernel command line overrides it (and may carry user:password@). Empty: no upload.")
KEYS_ENTRY(STRING, "appliance", "upload_ca", "", 0, 0, appliance.upload_ca,
	"PEM file of the certificate authorities an https:// upload trusts (a lab's own CA), embedded in the kit; a path relative to the current directory. Empty: the build host's system CAs (/etc/ssl/certs/ca-certificates.crt), embedded too. A server whose certificate these do not verify is refused with the reason and the bundle stays on RESULTS.")
KEYS_ENTRY(UINT, "appliance", "upload_retry", "1800", 0, 604800, appliance.upload_retry,
	"With no RESULTS partition (netbooted: the bundle only in RAM), how long in seconds a failed upload is tried again, with backoff, before the server stays up holding the bundle and says on its console how to get it (a stick with an ext4 partition labelled RESULTS plugged in gets it; the upload is tried every 5 minutes). A refusal no retry changes (an HTTP 4xx) is said at once and not retried. buildapp.upload_retry= on the kernel command line overrides it.")
KEYS_ENTRY(UINT, "appliance", "stall_timeout", "600", 30, 86400, appliance.stall_timeout,
	"Seconds a step of the booted kit (a tool, libvirt's start, the write of a file) may go on before its watchdog gives up on it: half-way the console says what it waits for; at the limit the reason goes to RESULTS (appliance.txt) and the server does what `after` says. A run may take its [guest] timeout plus this, a volume's fill or full reset this plus a second per 10 MiB. buildapp.stall_timeout= on the kernel command line overrides it.")
KEYS_ENTRY(UINT, "appliance", "hardware_watchdog", "300", 0, 3600, appliance.hardware_watchdog,
	"Timeout in seconds of the server's hardware watchdog (/dev/watchdog: the chipset's, or the BMC's through ipmi_watchdog), armed for the booted kit's work and fed while it makes progress (no step past its stall_timeout limit): a wedged kernel or a step past its limit stops the feeding and the watchdog resets the server; the boot after says so (appliance.txt, the journal of the run it cut short, the console's result lines) and goes on with the sweep with after = reboot, else stops there and does `after`. Disarmed before every power-off, reboot and crash the kit makes itself. A driver that takes no such timeout gets its nearest. 0: not armed. buildapp.hardware_watchdog= on the kernel command line overrides it.")
KEYS_UNSTORED("appliance", "include",
	"A base profile, relative to this file; this file's keys override it. At most 8 deep, no cycles.")

KEYS_ENTRY(STRING, "host", "disk", "auto", 0, 0, host.disk,
	"Disk under test: 'auto' (the only disk that is neither the boot disk nor RESULTS; with two or more the kit stops before writing and names each), a /dev/disk/by-id name, a serial or a WWN.")
KEYS_ENTRY(BOOL, "host", "wipe", "no", 0, 0, host.wipe,
	"Allow writing over a disk that carries a partition table, filesystem, LVM or RAID signature (needs a stable identity in disk).")
KEYS_NAMED(LIST, "host", "write_cache", "keep", write_cache_setting, host.write_cache,
	"Physical write cache of the disk under test (hdparm -W, sdparm WCE, NVMe feature 6), read back, and restored at the end; keep leaves it as the kit found it. A list is an axis (on, off, keep: each cell's runs with that setting, set and read back before each run), so one kit answers what the cache costs in speed and, with crash = power, what a power cut loses with it.")
KEYS_NAMED(ENUM, "host", "page_cache", "drop", page_cache_setting, host.page_cache,
	"drop: sync and drop the host page cache before each run.")
KEYS_ENTRY(KEEP_UINT, "host", "dirty_ratio", "keep", 1, 100, host.dirty_ratio,
	"vm.dirty_ratio during the sweep (percent) or keep.")
KEYS_ENTRY(KEEP_UINT, "host", "dirty_background_ratio", "keep", 0, 100, host.dirty_background_ratio,
	"vm.dirty_background_ratio during the sweep (percent) or keep; below dirty_ratio.")
KEYS_ENTRY(KEEP_UINT, "host", "dirty_expire_centisecs", "keep", 0, 8640000, host.dirty_expire_centisecs,
	"vm.dirty_expire_centisecs during the sweep or keep: how old dirty page-cache data must be before the host writes it back (a durability run with crash = host measures what the page cache held).")
KEYS_ENTRY(KEEP_UINT, "host", "dirty_writeback_centisecs", "keep", 0, 8640000, host.dirty_writeback_centisecs,
	"vm.dirty_writeback_centisecs during the sweep or keep: how often the host's flusher threads wake to write dirty page-cache data back; 0 turns the periodic writeback off.")
KEYS_NAMED(ENUM, "host", "scheduler", "keep", io_scheduler, host.scheduler,
	"I/O scheduler of the disk under test.")
KEYS_ENTRY(KEEP_UINT, "host", "read_ahead_kb", "keep", 0, 65536, host.read_ahead_kb,
	"Read-ahead of the disk under test in KiB, or keep.")
KEYS_ENTRY(BOOL, "host", "strict", "yes", 0, 0, host.strict,
	"A host setting the device refuses is an error (yes) or a recorded warning (no).")
KEYS_ENTRY(STRING, "host", "bmc", "ipmi", 0, 0, host.bmc,
	"The server's BMC, which cuts and restores its power for crash = power. ipmi: in-band, through the kernel's IPMI driver (/dev/ipmi0, ipmitool chassis power cycle), no network and no password. Else a Redfish endpoint: https://HOST[:PORT] (the service's one ComputerSystem) or https://HOST[:PORT]/redfish/v1/Systems/ID, no credentials in it; the kit reaches it over the network DHCP gives and asks ComputerSystem.Reset with ResetType PowerCycle, which the system must list among its allowable values.")
KEYS_ENTRY(STRING, "host", "bmc_credentials", "", 0, 0, host.bmc_credentials,
	"With a Redfish bmc: a file holding USER:PASSWORD on one line (a path relative to the current directory), the BMC account the kit signs in with (HTTP Basic authentication; an account that may only reset the system will do). It is carried in the kit's root and nowhere else: not in its plan, manifest, journal or console.")
KEYS_ENTRY(STRING, "host", "bmc_ca", "", 0, 0, host.bmc_ca,
	"With a Redfish bmc: PEM file of the certificate (or its authority) the BMC's https is verified against, embedded in the kit; a BMC's own certificate is usually self-signed, and its name or IP address must match the URL's host. Empty: the build host's system CAs.")

KEYS_NAMED(LIST, "storage", "backends", "lvm", backend, storage.backends,
	"Backends holding the guest disk (axis).")
KEYS_ENTRY(SIZE, "storage", "size", "4G", 16 * M, 16 * T, storage.size,
	"Size of each guest disk.")
KEYS_NAMED(LIST, "storage", "qcow2_preallocation", "off", qcow2_prealloc, storage.qcow2_prealloc,
	"Preallocation of the qcow2 backend (axis).")
KEYS_NAMED(LIST, "storage", "raw_preallocation", "sparse", raw_prealloc, storage.raw_prealloc,
	"Preallocation of the raw backend (axis).")
KEYS_ENTRY(SIZE, "storage", "cluster_size", "64K", 512, 2 * M, storage.cluster_size,
	"qcow2 cluster size, a power of two.")
KEYS_ENTRY(BOOL, "storage", "fill", "no", 0, 0, storage.fill,
	"Write each volume whole once after provisioning, so reads never hit unallocated space.")

KEYS_ENTRY(SIZE, "guest", "memory", "512M", 64 * M, 64 * G, guest.memory,
	"Guest memory.")
KEYS_ENTRY(UINT, "guest", "vcpus", "1", 1, 64, guest.vcpus,
	"Guest virtual CPUs.")
KEYS_NAMED(LIST, "guest", "bus", "virtio", disk_bus, guest.bus,
	"Bus of the disk under test in the guest (axis).")
KEYS_NAMED(LIST, "guest", "cache", "none", cache_mode, guest.cache,
	"QEMU cache mode (axis); see the cache-mode table.")
KEYS_NAMED(LIST, "guest", "aio", "threads", aio_mode, guest.aio,
	"QEMU aio mode (axis); native needs cache none or directsync.")
KEYS_ENTRY(SIZE_LIST, "guest", "l2_cache", "default", 4 * K, 4 * G, guest.l2_cache,
	"qcow2 L2 cache sizes (axis); default keeps QEMU's own. Applied to qcow2 guests and qemu-img bench alike as QEMU's cache-size = this + 4 clusters of refcount cache (so the L2 cache is exactly this); cells of other formats have none.")
KEYS_ENTRY(UINT, "guest", "timeout", "600", 10, 86400, guest.timeout,
	"Seconds a run may take before its guest is destroyed and the run recorded as failed.")
KEYS_NAMED(ENUM, "guest", "accel", "auto", vm_accel, guest.accel,
	"Accelerator of the guests: auto (KVM when /dev/kvm boots a guest, else TCG), kvm or tcg. tcg skips the boot check where KVM is known not to work (nested TCG).")

KEYS_NAMED(LIST, "workload", "kinds", "fio", workload_kind, workload.kinds,
	"Workloads (axis).")
KEYS_ENTRY(STRING, "workload", "tarball", "auto", 0, 0, workload.tarball,
	"Tarball for tarball-write/-read: auto (linux-source when installed, else generated), generated, or a path.")
KEYS_ENTRY(SIZE, "workload", "tarball_size", "64M", 1 * M, 16 * G, workload.tarball_size,
	"Size of a generated tarball.")
KEYS_NAMED(LIST, "workload", "fio_rw", "randwrite", fio_rw,
	workload.fio_rw,
	"fio rw= (axis). With fio_job, the job file's ${BUILDAPP_RW}.")
KEYS_NAMED(ENUM, "workload", "fio_target", "file", fio_target, workload.fio_target,
	"What fio reads and writes: file (a file on the guest's filesystem) or device (the guest's disk itself, as the qcow2 L2 cache study ran it: fio_size of it from its start, the filesystem on it overwritten by writes and undone by the reset).")
KEYS_ENTRY(SIZES, "workload", "fio_bs", "4K", 512, 16 * M, workload.fio_bs,
	"fio bs= (axis), each a multiple of 512. With fio_job, ${BUILDAPP_BS} (bytes).")
KEYS_ENTRY(UINT_LIST, "workload", "fio_iodepth", "1", 1, 1024, workload.fio_iodepth,
	"fio iodepth= (axis). With fio_job, ${BUILDAPP_IODEPTH}.")
KEYS_ENTRY(UINT_LIST, "workload", "fio_numjobs", "1", 1, 64, workload.fio_numjobs,
	"fio numjobs= (axis): that many clones of the job, reported together (group_reporting). With fio_job, ${BUILDAPP_NUMJOBS}.")
KEYS_NAMED(LIST, "workload", "fio_ioengine", "auto", fio_ioengine, workload.fio_ioengine,
	"fio ioengine= (axis): auto (psync at iodepth 1, libaio above), psync, libaio, io_uring. psync is synchronous: its cells with an iodepth above 1 are left out. With fio_job, ${BUILDAPP_IOENGINE} (auto resolved).")
KEYS_ENTRY(UINT_LIST, "workload", "fio_rwmixread", "50", 0, 100, workload.fio_rwmixread,
	"fio rwmixread= (axis): percent of reads, for fio_rw rw and randrw (other cells are there once, without it). With fio_job, ${BUILDAPP_RWMIXREAD}, in every cell.")
KEYS_ENTRY(STRING, "workload", "fio_job", "", 0, 0, workload.fio_job,
	"A fio job file, relative to the profile, run instead of the built-in job, in the guests and on the host baseline alike; at most 64 KiB and 8 jobs, each with only the options that shape its I/O (docs/plan.md lists them). Its target is ${BUILDAPP_TARGET} (filename=: a file in the work directory, or the disk with fio_target = device) or ${BUILDAPP_DIR} (directory=); the fio_ keys reach it as ${BUILDAPP_BS}, ${BUILDAPP_IODEPTH}, ${BUILDAPP_NUMJOBS}, ${BUILDAPP_IOENGINE}, ${BUILDAPP_RW}, ${BUILDAPP_RWMIXREAD}, ${BUILDAPP_SIZE}, ${BUILDAPP_RUNTIME}, ${BUILDAPP_DIRECT}, ${BUILDAPP_FSYNC}, ${BUILDAPP_RAMP}, and fio_direct, fio_fsync, fio_runtime, fio_ramp and fio_steadystate are every job's unless it sets its own (buildapp plan says what each job does). Checked with fio --parse-only when the profile is loaded; embedded in the kit. Each job's metrics are named fio_JOB_read_iops and so on. Empty: the built-in job.")
KEYS_ENTRY(SIZE, "workload", "fio_size", "64M", 1 * M, 1 * T, workload.fio_size,
	"fio size=")
KEYS_ENTRY(BOOL, "workload", "fio_direct", "yes", 0, 0, workload.fio_direct,
	"fio direct=: O_DIRECT, past the page cache of the machine fio runs on. With fio_job: every job's that does not set direct itself (${BUILDAPP_DIRECT}).")
KEYS_ENTRY(UINT, "workload", "fio_fsync", "0", 0, 1000000, workload.fio_fsync,
	"fio fsync= (fsync every N writes; 0 never). With fio_job: every job's that does not set fsync itself (${BUILDAPP_FSYNC}).")
KEYS_ENTRY(UINT, "workload", "fio_runtime", "0", 0, 86400, workload.fio_runtime,
	"Seconds each fio job runs, time_based (fio goes over its fio_size again until then); 0 runs until fio_size is done. With fio_job: every job's that does not set runtime itself (${BUILDAPP_RUNTIME}).")
KEYS_ENTRY(UINT, "workload", "fio_ramp", "0", 0, 3600, workload.fio_ramp,
	"fio ramp_time= in seconds: fio runs this long before it measures (pbench-fio uses 5). With fio_job: every job's that does not set ramp_time itself (${BUILDAPP_RAMP}).")
KEYS_ENTRY(STRING, "workload", "fio_steadystate", "", 0, 0, workload.fio_steadystate,
	"fio steadystate=: iops, iops_slope, bw or bw_slope, ':' and a threshold, '%' for a share of the mean (iops_slope:0.1%): each job ends once its IOPS or bandwidth has held that steady over fio_steadystate_duration, or at fio_runtime (needed); whether it did is recorded per run and job. Empty: none.")
KEYS_ENTRY(UINT, "workload", "fio_steadystate_duration", "0", 0, 86400, workload.fio_ss_duration,
	"fio ss_dur=: the seconds fio_steadystate is judged over, at least 1 with it and with fio_steadystate_ramp at most fio_runtime.")
KEYS_ENTRY(UINT, "workload", "fio_steadystate_ramp", "0", 0, 86400, workload.fio_ss_ramp,
	"fio ss_ramp=: seconds a job runs before its steady-state window starts.")
KEYS_ENTRY(SIZE, "workload", "bonnie_size", "256M", 1 * M, 1 * T, workload.bonnie_size,
	"bonnie++ file size (-s).")
KEYS_ENTRY(BOOL, "workload", "bonnie_fast", "no", 0, 0, workload.bonnie_fast,
	"bonnie++ -f: skip the per-character tests (a function call per byte, CPU-bound: the slowest part in a nested TCG guest); bonnie_putc and bonnie_getc are then not measured.")
KEYS_ENTRY(SIZE, "workload", "dd_bs", "4K", 512, 16 * M, workload.dd_bs,
	"dd block size.")
KEYS_ENTRY(UINT64, "workload", "dd_count", "4096", 1, 1000000000, workload.dd_count,
	"dd block count.")
KEYS_ENTRY(UINT64, "workload", "bench_count", "100000", 1, 1000000000, workload.bench_count,
	"qemu-img bench requests (-c).")
KEYS_ENTRY(BOOL, "workload", "bench_write", "no", 0, 0, workload.bench_write,
	"qemu-img bench writes (-w) instead of reading: through QEMU's block layer under the cell's cache mode, no guest; the volume's next reset is a full one.")
KEYS_ENTRY(UINT64, "workload", "bench_flush_interval", "0", 0, 1000000000, workload.bench_flush_interval,
	"With bench_write: a flush after every this many writes (--flush-interval, at least bench_depth), which a cache mode honours or drops; 0 none.")
KEYS_ENTRY(UINT, "workload", "bench_depth", "0", 0, 1024, workload.bench_depth,
	"qemu-img bench requests in flight (-d); 0 qemu-img's own default, 64. A flush after every write needs 1.")
KEYS_ENTRY(SIZE, "workload", "bench_step", "512M", 512, 1 * T, workload.bench_step,
	"qemu-img bench step between requests (-S).")
KEYS_ENTRY(BOOL, "workload", "host_baseline", "no", 0, 0, workload.host_baseline,
	"Add, per backend and bonnie/dd/fio workload, a cell that runs the same command on the host itself (no guest) on the guest's filesystem: the LV, or the raw/ext4-file image through a loop device (qcow2 has no host cell).")
KEYS_ENTRY(UINT64, "workload", "durability_records", "1000", 1, 1000000, workload.durability_records,
	"durability: records the guest writes, each flushed and acknowledged to the host before the next.")
KEYS_ENTRY(SIZE, "workload", "durability_record_size", "4K", 512, 1 * M, workload.durability_record_size,
	"durability: bytes per record, a multiple of 512.")
KEYS_NAMED(ENUM, "workload", "durability_flush", "fdatasync", durability_flush, workload.durability_flush,
	"durability: the flush after each record's write: fdatasync, fsync, or dsync (the file opened O_DSYNC).")
KEYS_NAMED(ENUM, "workload", "crash", "guest", crash_kind, workload.crash,
	"durability: how each run ends. guest: the guest's QEMU is killed (SIGKILL) once the host has made a number of acknowledgements durable (from the seed); the host lives. host (a booted kit only): at that point the guest's QEMU and the host's writeback are stopped and RESULTS alone synced, then the lab server goes down at once without a sync and comes back (crash_reboot), and the kit finishes the run by reading the records back. power (a booted kit only): the same steps, then the server's BMC cuts its power and restores it ([host] bmc: in-band IPMI's chassis power cycle, or Redfish's PowerCycle), so the disk's own volatile write cache goes too; each cut is a cold boot with the server's POST. The kit checks at boot that the BMC answers and controls the power; where it does not, the power-cut runs are journaled failed with the reason, unmade, and the others run.")
KEYS_NAMED(ENUM, "workload", "crash_reboot", "kexec", crash_reboot, workload.crash_reboot,
	"crash = host: how the lab server comes back. kexec: straight into the kit's own kernel and initramfs, read from its ESP (kexec_file_load, which Secure Boot's lockdown allows), no sync and no firmware POST; firmware: a reset through the firmware (sysrq b), its POST each time, and a one-time boot override is spent by the first crash. kexec falls back to firmware, the reason recorded, where it cannot be loaded (a netbooted kit has no copy of its kernel and initramfs to load), and the firmware to reboot(2)'s restart where sysrq cannot be used. Neither cuts power: the disk's own volatile cache survives both (docs/results.md). buildapp.crash_reboot= on the kernel command line overrides it.")

KEYS_ENTRY(UINT, "sweep", "runs", "5", 1, 1000, sweep.runs,
	"Runs per cell.")
KEYS_ENTRY(UINT, "sweep", "durability_runs", "0", 0, 1000, sweep.durability_runs,
	"Runs per durability cell, each a crash (with crash = host, a reboot of the server; with crash = power, a power cut and a cold boot), apart from the speed cells' runs: enough for the loss comparisons to resolve (docs/results.md, \"Loss by crash\"); target_ci adds none to them. 0 means runs.")
KEYS_NAMED(ENUM, "sweep", "order", "interleaved", sweep_order, sweep.order,
	"interleaved: runs of all cells shuffled together (seeded); blocked: each cell's runs together.")
KEYS_ENTRY(UINT64, "sweep", "seed", "1", 0, UINT64_MAX, sweep.seed,
	"Seed of the interleaved order; the plan records it.")
KEYS_ENTRY(PERCENT, "sweep", "target_ci", "0", 0, 100, sweep.target_ci,
	"Precision target: after the planned runs, add runs to a cell until its 95% CI half-width is below this percent of the mean; with [report] compare, to the cells of each asked comparison until its interval's half-width is below this many percentage points (stopped on width, never on significance: docs/results.md); 0 off.")
KEYS_ENTRY(UINT, "sweep", "max_runs", "0", 0, 1000, sweep.max_runs,
	"With target_ci: most runs per cell (at least runs); 0 means runs.")
KEYS_ENTRY(BOOL, "sweep", "verify_reset", "no", 0, 0, sweep.verify_reset,
	"Check every fast reset: after it, and once more after each volume's last planned run, the whole volume's sha256, then the full reset and its sha256 again, both in the journal's reset_check (a difference is warned about). Slow: each check reads the volume twice and writes it once.")

KEYS_ENTRY(STRING, "report", "baseline", "", 0, 0, report.baseline,
	"Reference level of the report's comparisons, as axis:level (e.g. cache:writethrough): a level the sweep runs. Default: each axis's first listed level.")
KEYS_ENTRY(STRING, "report", "compare", "", 0, 0, report.compare,
	"The comparisons the profile exists for, answered first by the report, the console and report.html: AXIS:LEVEL vs REFERENCE [in METRIC], comma-separated (e.g. cache:unsafe vs writethrough, backend:lvm vs qcow2 in write_seconds); both levels must be swept. Default metric: each workload's primary one.")
KEYS_NAMED(ENUM, "report", "reference", "none", report_reference, report.reference,
	"The published study this profile reproduces: the report prints its table beside the measured one, and its verdict on each of the study's claims (docs/results.md, \"Verdicts\").")
KEYS_ENTRY(PERCENT, "report", "equivalence", "0", 0, 100, report.equivalence,
	"Equivalence bound of the study's claims of closeness (\"close to\"), in percent: such a claim is reproduced when the 90% interval of the ratio (two one-sided tests at 5%) lies within +-this of no change, and not reproduced when it lies wholly outside. State it before the sweep. 0: none, and such a claim cannot be judged.")
/* clang-format on */
