/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The state directory of a sweep (/tmp/buildapp-run-XXXXXX: libvirt's
 * embedded driver root, the volumes' mountpoint), and what a sweep killed
 * with SIGKILL leaves: its guest's QEMU (which outlives an embedded
 * driver's program), the image file's filesystem mounted there and its
 * loop device.  The next sweep removes all of it, naming each, and only
 * for directories whose owner is dead (lib/owner.h): another live sweep's
 * state is never touched. */
#ifndef BUILDAPP_RUNSTATE_H
#define BUILDAPP_RUNSTATE_H

#define RUNSTATE_TEMPLATE "/tmp/buildapp-run-XXXXXX"

/* mkdtemp(DIR), DIR a copy of RUNSTATE_TEMPLATE, owned by this process
 * and named to its guardian (runstate_guard).  Returns 0 or a negative
 * errno (reported). */
int runstate_create(char *dir);
/* Records in DIR that loop device DEV holds image file IMAGE, so the
 * next sweep detaches it if this one is killed.  Returns 0 or a negative
 * errno. */
int runstate_record_loop(const char *dir, const char *dev, const char *image);
/* Undoes what every sweep whose owner is dead left: kills its QEMU
 * processes (by their pid files, when their command line names the
 * directory), unmounts what is mounted under it, detaches its loop
 * device (when it still holds the recorded image) and removes it. */
void runstate_reap(void);
/* Forks the guardian of this sweep: a process that waits until this one
 * and every process forked from it after this call (the reaper's
 * worker) are gone, however they ended (SIGKILL included), then waits
 * (up to 10 s each) until the owners of the state directories named to
 * it have let go of their locks (a dying process may close its end of
 * the guardian's pipe first), does runstate_reap() and exits, so a killed sweep's QEMU, mounts and loop
 * device are gone within seconds rather than at the next sweep (which
 * still reaps them if the guardian was killed too).  It ignores the
 * terminal's SIGINT and SIGHUP, holds no file of this process but its
 * standard streams, and is named buildapp-guard.  Call before anything
 * is locked or opened.  Returns 0, or a negative errno (warned of: the
 * sweep goes on without one). */
int runstate_guard(void);

#endif
