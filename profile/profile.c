/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "profile.h"

#include <stdio.h>

#include "names.h"

NAME_TABLE(after_action, "poweroff", "reboot", "shell")
NAME_TABLE(write_cache_setting, "keep", "on", "off")
NAME_TABLE(page_cache_setting, "drop", "keep")
NAME_TABLE(io_scheduler, "keep", "none", "mq-deadline", "bfq", "kyber")
NAME_TABLE(cache_mode, "none", "writethrough", "writeback", "directsync",
	   "unsafe")
NAME_TABLE(aio_mode, "threads", "native", "io_uring")
NAME_TABLE(disk_bus, "virtio", "ide", "scsi", "sata")
NAME_TABLE(workload_kind, "tarball-write", "tarball-read", "bonnie", "fio",
	   "dd", "qemu-img-bench", "durability")
NAME_TABLE(fio_rw, "read", "write", "randread", "randwrite", "rw", "randrw")
NAME_TABLE(fio_target, "file", "device")
NAME_TABLE(fio_ioengine, "auto", "psync", "libaio", "io_uring")
NAME_TABLE(durability_flush, "fdatasync", "fsync", "dsync")
NAME_TABLE(crash_kind, "guest", "host", "power")
NAME_TABLE(crash_reboot, "kexec", "firmware")
NAME_TABLE(sweep_order, "interleaved", "blocked")
NAME_TABLE(vm_accel, "auto", "kvm", "tcg")
NAME_TABLE(report_reference, "none", "kvm-perf-2011", "bonnie-qcow2-vs-raw",
	   "qcow2-l2-cache", "guest-vs-host", "cache-modes-lvm")

struct cache_flags cache_mode_flags(enum cache_mode mode)
{
	static const struct cache_flags table[_CACHE_MAX] = {
		[CACHE_WRITEBACK] = {true, false, false},
		[CACHE_NONE] = {true, true, false},
		[CACHE_WRITETHROUGH] = {false, false, false},
		[CACHE_DIRECTSYNC] = {false, true, false},
		[CACHE_UNSAFE] = {true, false, true},
	};
	/* A host-native cell has no cache mode (-1): no flags. */
	if ((unsigned)mode >= _CACHE_MAX)
		return (struct cache_flags){false, false, false};
	return table[mode];
}

bool cache_mode_allows_native_aio(enum cache_mode mode)
{
	return cache_mode_flags(mode).direct;
}

bool profile_sweep_adds_runs(const struct profile_sweep *s)
{
	return s->target_ci > 0 && s->max_runs > s->runs;
}

bool fio_rw_mixed(enum fio_rw rw)
{
	return rw == FIO_RW_RW || rw == FIO_RW_RANDRW;
}

enum fio_ioengine fio_ioengine_resolve(enum fio_ioengine engine, uint64_t iodepth)
{
	if (engine != FIO_IOENGINE_AUTO)
		return engine;
	return iodepth > 1 ? FIO_IOENGINE_LIBAIO : FIO_IOENGINE_PSYNC;
}

unsigned profile_cell_runs(const struct profile_sweep *s, enum workload_kind w)
{
	return w == WORKLOAD_DURABILITY && s->durability_runs ? s->durability_runs : s->runs;
}

void profile_fioargs(const struct profile *p, struct fioargs *ret)
{
	const struct profile_workload *w = &p->workload;

	*ret = (struct fioargs){.direct = w->fio_direct, .fsync = w->fio_fsync,
				.runtime = w->fio_runtime, .ramp = w->fio_ramp,
				.ss_dur = w->fio_ss_duration, .ss_ramp = w->fio_ss_ramp};
	snprintf(ret->ss, sizeof(ret->ss), "%s", w->fio_steadystate);
}

bool profile_host_cells_direct(const struct profile *p)
{
	for (int m = 0; m < _CACHE_MAX; m++)
		if ((p->guest.cache & AXIS_BIT(m)) && cache_mode_flags(m).direct)
			return true;
	return false;
}

size_t axis_listed(axis_mask m, const struct axis_order *order, int *out)
{
	axis_mask done = 0;
	size_t n = 0;

	for (unsigned i = 0; i < order->n && i < AXIS_MASK_BITS; i++) {
		axis_mask bit = AXIS_BIT(order->v[i] % AXIS_MASK_BITS);
		if ((m & bit) && !(done & bit)) {
			out[n++] = order->v[i];
			done |= bit;
		}
	}
	for (int v = 0; v < AXIS_MASK_BITS; v++)
		if ((m & AXIS_BIT(v)) && !(done & AXIS_BIT(v)))
			out[n++] = v;
	return n;
}

int axis_first(axis_mask m, const struct axis_order *order, int def)
{
	int values[AXIS_MASK_BITS];

	return axis_listed(m, order, values) ? values[0] : def;
}
