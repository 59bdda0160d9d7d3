#include "guestcmdline.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "cleanup.h"
#include "guestproto.h"

#define P GUESTPROTO_PARAM_PREFIX

/* quiet + loglevel=1 keep kernel messages off the console the results
 * travel on, but not a panic: panic() makes the console verbose only when
 * its level is not 0, and the runner tells a crash from its "Kernel
 * panic" line (a panic reboots, which ends the domain like a poweroff);
 * panic=-1 turns a guest crash into an immediate reboot, which
 * the runner's domain (on_reboot=destroy, or qemu -no-reboot) ends;
 * rootfstype=ramfs unpacks the initramfs into ramfs, not a tmpfs capped
 * at half the RAM (the fio kit is ~90 MB: 256M guests boot with ramfs,
 * not with tmpfs); no_timer_check, as for any virtual machine: a guest
 * whose vCPU is descheduled during the kernel's IO-APIC timer check at
 * boot (a loaded host, TCG) panics with "IO-APIC + timer doesn't work",
 * which made a run of a loaded test machine crash now and then.
 * The last three skip boot work a guest without network or keys has no
 * use for, measured with initcall_debug under TCG (docs/guest-protocol.md):
 * the 800-108 KDF's self-test (crypto_kdf108_init, 1.6 s: it is built in,
 * not governed by cryptomgr.notests), the crypto self-tests of every
 * algorithm registered (crc32c's for ext4 among them: a test, not the
 * code that runs) and IPv6's set-up (0.35 s).  Nothing on the storage
 * path changes: the drivers, ext4, the page cache and flushes are the
 * same. */
const char guestcmdline_base[] = "console=ttyS0 quiet loglevel=1 panic=-1 "
				"no_timer_check rootfstype=ramfs rdinit=/init "
				"initcall_blacklist=crypto_kdf108_init "
				"cryptomgr.notests=1 ipv6.disable=1";

/* fio's words.  Each added knob only when it is not what the agent does
 * without it, so the command lines of kits before them stay the same. */
static void fio_words(FILE *f, const struct profile *p, const struct plan_cell *cell)
{
	const struct profile_workload *w = &p->workload;
	struct fio_knobs k;

	plan_cell_fio(p, cell, &k);
	fprintf(f,
		" " P "fio_rw=%s " P "fio_bs=%" PRIu64 " " P "fio_iodepth=%" PRIu64
		" " P "fio_size=%" PRIu64 " " P "fio_direct=%d " P "fio_fsync=%u " P
		"fio_runtime=%u",
		fio_rw_name(k.rw), k.bs, k.iodepth, w->fio_size, w->fio_direct ? 1 : 0,
		w->fio_fsync, w->fio_runtime);
	if (w->fio_target == FIO_TARGET_DEVICE)
		fprintf(f, " " P "fio_target=device");
	if (k.numjobs != 1)
		fprintf(f, " " P "fio_numjobs=%" PRIu64, k.numjobs);
	if (k.ioengine != fio_ioengine_resolve(FIO_IOENGINE_AUTO, k.iodepth))
		fprintf(f, " " P "fio_ioengine=%s", fio_ioengine_name(k.ioengine));
	if (w->fio_job[0] || fio_rw_mixed(k.rw))
		fprintf(f, " " P "fio_rwmixread=%" PRIu64, k.rwmixread);
	if (w->fio_ramp)
		fprintf(f, " " P "fio_ramp=%u", w->fio_ramp);
	if (w->fio_steadystate[0])
		fprintf(f, " " P "fio_steadystate=%s " P "fio_ss_duration=%u " P
			"fio_ss_ramp=%u",
			w->fio_steadystate, w->fio_ss_duration, w->fio_ss_ramp);
	if (w->fio_job[0])
		fprintf(f, " " P "fio_job=" GUESTPROTO_JOB_FILE);
}

int guestcmdline_build(const struct profile *p, enum workload_kind kind,
		       char **ret)
{
	struct plan_cell cell = {.workload = kind, PLAN_CELL_NO_FIO};

	return guestcmdline_build_cell(p, &cell, ret);
}

int guestcmdline_build_cell(const struct profile *p, const struct plan_cell *cell,
			    char **ret)
{
	const struct profile_workload *w = &p->workload;
	enum workload_kind kind = cell->workload;
	_cleanup_free_ char *buf = NULL;
	size_t len = 0;

	if (kind == WORKLOAD_QEMU_IMG_BENCH || (int)kind < 0 ||
	    kind >= _WORKLOAD_MAX)
		return -EINVAL;

	FILE *f = open_memstream(&buf, &len);
	if (!f)
		return -ENOMEM;
	fprintf(f, "%s " P "workload=%s", guestcmdline_base, workload_kind_name(kind));
	switch (kind) {
	case WORKLOAD_TARBALL_WRITE:
	case WORKLOAD_TARBALL_READ:
		fprintf(f, " " P "tarball=%s", GUESTPROTO_TARBALL);
		break;
	case WORKLOAD_BONNIE:
		fprintf(f, " " P "bonnie_size=%" PRIu64, w->bonnie_size);
		/* Only when asked for: other kits' command lines unchanged. */
		if (w->bonnie_fast)
			fprintf(f, " " P "bonnie_fast=1");
		break;
	case WORKLOAD_FIO:
		fio_words(f, p, cell);
		break;
	case WORKLOAD_DD:
		fprintf(f,
			" " P "dd_bs=%" PRIu64 " " P "dd_count=%" PRIu64 " " P
			"dd_sync=fsync",
			w->dd_bs, w->dd_count);
		break;
	case WORKLOAD_DURABILITY:
		/* The run's identity (buildapp.run=) is the sweep's to add. */
		fprintf(f,
			" " P "records=%" PRIu64 " " P "record_size=%" PRIu64
			" " P "flush=%s",
			w->durability_records, w->durability_record_size,
			durability_flush_name(w->durability_flush));
		break;
	default:
		break;
	}
	if (fclose(f) != 0)
		return -ENOMEM;
	*ret = TAKE_PTR(buf);
	return 0;
}
