/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A crash of the host, by whatever takes it down: the steps before the
 * trigger, then the trigger.
 *
 * A host crash is meant to lose what the host's page cache held at the
 * trigger, and the same by every way of taking the host down.  Without
 * these steps it does not: the kexec jump (and reboot(2)'s restart) go
 * through kernel_restart_prepare(), reboot notifiers and
 * device_shutdown(), during which the guest's QEMU keeps writing and the
 * flusher threads keep writing back, while sysrq b resets at once.  So,
 * in this order (Linux 6.1 sources cited in docs/results.md):
 *
 * 1. stop the guest's QEMU: SIGSTOP, then wait until every one of its
 *    threads is stopped.  Not a kill: the last close of a block device
 *    writes its page cache back (blkdev_put, blkdev_flush_mapping), and
 *    QEMU holds the LV open.
 * 2. stop the host's writeback: vm.dirty_writeback_centisecs = 0 (no
 *    periodic pass starts; writing 0, unlike another non-zero value,
 *    wakes no flusher), vm.dirty_expire_centisecs a day (a periodic pass
 *    under way queues no more inodes), vm.dirty_bytes and
 *    dirty_background_bytes the largest the kernel takes (no background
 *    pass: wb_over_bg_thresh() false globally), and the min_ratio of the
 *    disk under test's bdi and of each device on it (an LV's dm device),
 *    so that no per-device threshold is near zero either.
 * 3. sync RESULTS alone (syncfs of its filesystem): the crashed run's
 *    console log and everything else it holds, which a global sync()
 *    would have written together with the disk under test's pages.
 * 4. read the facts (/proc/meminfo's Dirty and Writeback, folded first
 *    through vm.stat_refresh, and the disk's write cache): after the
 *    sync, Dirty is the disk under test's pages (and other
 *    filesystems'), not RESULTS'.
 * 5. disarm the server's hardware watchdog (lib/hwwatchdog.h), which
 *    neither a kexec nor a BMC's power cycle need stop (the BMC's own
 *    watchdog counts on through it): armed, it would reset the server
 *    during the boot the crash starts, and that boot would read the reset
 *    as the watchdog's.
 * 6. the trigger (hostcrash.h's kexec or reset; a power cut).
 *
 * When the trigger returns, the host is still up: the hardware watchdog
 * is armed again, the writeback settings are put back and the caller
 * kills the stopped QEMU. */
#ifndef BUILDAPP_CRASHSTEPS_H
#define BUILDAPP_CRASHSTEPS_H

#include <sys/types.h>

#include "crashfacts.h"

/* Where the steps and the triggers act: this host, or in a test files
 * that stand for its knobs and a function for reboot(2). */
struct crashsteps_host {
	const char *vm;        /* the vm sysctls: "/proc/sys/vm" */
	const char *meminfo;   /* "/proc/meminfo" */
	const char *sys_block; /* "/sys/block" */
	const char *sysrq;     /* "/proc/sysrq-trigger" */
	const char *kexec_loaded; /* "/sys/kernel/kexec_loaded" */
	int (*reboot)(int how); /* reboot(2) */
};

/* The host crashes act on: this one, unless crashsteps_set_host said. */
const struct crashsteps_host *crashsteps_host(void);
/* For tests: H from now on (it must outlive its use); NULL: this host. */
void crashsteps_set_host(const struct crashsteps_host *h);

/* A trigger: takes the host down, and returns only when the host is
 * still up (a negative errno, reported).  FACTS holds the steps' record;
 * the trigger adds its mechanism and keeps the record where the next boot
 * finds it before it acts. */
typedef int crashsteps_trigger(void *data, struct crashfacts *facts);

/* Crashes the host: the steps above, in order, with QEMU (its pid),
 * RESULTS_DIR (its filesystem is synced) and DISK (the disk under test,
 * "sda"; "" or NULL: none known), each step's end into FACTS (seconds
 * from this call), then TRIGGER(DATA, FACTS).  Returns only when the host
 * is still up, with the writeback settings put back (QEMU stays stopped:
 * the caller kills it): a negative errno, reported. */
int crashsteps_crash(pid_t qemu, const char *results_dir, const char *disk,
		     struct crashfacts *facts, crashsteps_trigger *trigger, void *data);

#endif
