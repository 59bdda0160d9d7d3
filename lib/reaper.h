/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A parent that reaps, for programs whose descendants become orphans.
 *
 * libvirt starts QEMU as a daemon, so QEMU is an orphan: it ends under the
 * nearest child subreaper or PID 1, and is gone only once that one has
 * reaped it.  Until then libvirt's domain destroy, which polls
 * kill(pid, 0), still finds it.  An appliance's PID 1 that did not reap
 * made each destroy wait about 40 s; this machine's PID 1 reaps every 1-2
 * s, which was most of a run's "guest_stop".
 *
 * reaper_fork_worker() forks: the child, the worker, returns 0 and does the
 * program's work; the parent only reaps everything that ends under it
 * (the worker and every orphan) until the worker has ended.  The parent
 * catches no signal: it waits for SIGCHLD, SIGINT, SIGTERM and SIGHUP
 * with them blocked, passes on to the worker those sent with kill() (a
 * terminal's ^C reaches the worker itself, its process group's), and the
 * worker's own handlers (signals.h) do the rest. */
#ifndef BUILDAPP_REAPER_H
#define BUILDAPP_REAPER_H

enum reaper_role {
	/* PID 1: when the worker ends (it powers off itself; here it died
	 * or exited first) the machine powers off: PID 1 must not end. */
	REAPER_INIT,
	/* A child subreaper (prctl PR_SET_CHILD_SUBREAPER): ends as the
	 * worker did (its exit status, or dies of its signal); the worker
	 * is killed if this parent is (PR_SET_PDEATHSIG), as the one
	 * process was before. */
	REAPER_SUBREAPER,
};

/* Returns 0 in the worker.  The parent does not return, except when it
 * cannot set up (fork or prctl failed): then it returns a negative errno
 * in the one process, which goes on without a reaper.  Call before any
 * thread starts. */
int reaper_fork_worker(enum reaper_role role);

#endif
