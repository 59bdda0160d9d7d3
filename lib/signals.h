/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The one signal and child policy of every program of the project.
 *
 * SIGINT, SIGTERM and SIGHUP are caught here and only here.  The handler
 * records the signal, runs the cleanups registered for it, kills the
 * registered children (the tool command.h is waiting for, leading its own
 * process group, and any process a library started for us, like
 * libguestfs' QEMU) and then either dies of the signal at once (the
 * default: a build removes its temporaries and goes) or, after
 * signals_defer(), returns so that the caller (a sweep destroying its
 * domain, unmounting its volumes) can stop, clean up, and then call
 * signals_reraise().  Children still registered at exit are killed too.
 *
 * The registries are fixed arrays, written with the signals blocked, so
 * the handler walks them with async-signal-safe calls only. */
#ifndef BUILDAPP_SIGNALS_H
#define BUILDAPP_SIGNALS_H

#include <stdbool.h>
#include <pthread.h>
#include <signal.h>
#include <sys/types.h>

#define SIGNALS_CHILDREN_MAX 16
#define SIGNALS_CLEANUPS_MAX 8

/* Installs the handlers (and the exit hook) once; every other function
 * here calls it. */
void signals_install(void);

/* From now on a signal does not kill the process: it is recorded, the
 * children are killed, and callers poll signals_pending().  For the
 * sweep, whose caller must destroy its domain and unmount first. */
void signals_defer(void);
/* The first signal that came since signals_install, or 0. */
int signals_pending(void);
/* When a signal came: runs the cleanups not yet run, then dies of that
 * signal (exit status 128 + signal), naming it.  Else returns. */
void signals_reraise(void);
/* Dies of SIG with its default action (exit status 128 + SIG), even
 * where SIG is blocked or caught; nothing else is run first. */
void signals_die(int sig) __attribute__((noreturn));

/* PID is to be killed (SIGKILL) on a signal and at exit, with its whole
 * process group when GROUP (it leads one).  Returns 0 or -ENOSPC. */
int signals_add_child(pid_t pid, bool group);
/* Forgets PID (it was reaped, or someone else reaps it).  0 is ignored. */
void signals_forget_child(pid_t pid);

/* When a cleanup runs. */
enum signals_when {
	SIGNALS_BEFORE_KILL, /* the children still live (their /proc is readable) */
	SIGNALS_AFTER_KILL,  /* they are dead: nothing refills what is removed */
};
/* FN runs from the handler (async-signal-safe calls only) when a signal
 * comes, at WHEN; after signals_defer, the AFTER_KILL ones run in
 * signals_reraise instead.  A function registered twice runs once.
 * Returns 0 or -ENOSPC. */
int signals_on_signal(void (*fn)(void), enum signals_when when);

/* Starts FN(ARG) on a thread of its own with every signal blocked there:
 * signals stay with the threads that handle them.  The thread's id in
 * *RET (NULL: detached).  Returns 0 or a negative errno. */
int signals_thread_start(pthread_t *ret, void *(*fn)(void *), void *arg);

/* Blocks SIGINT, SIGTERM and SIGHUP in this thread, the previous mask in
 * *OLD, for a change the handler must not see half made. */
void signals_block(sigset_t *old);
void signals_unblock(const sigset_t *old);

#endif
