/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The step a program is in, said when it starts, and a watchdog over it.
 *
 * A kit on a lab server has nobody watching its console: a step that
 * never ends (a tool that never returns, a library call waiting forever)
 * must be said with what it waits for, and end the boot's work with a
 * reason, never hang unseen.  Each step names itself and how long it may
 * take (watchdog_step); with the watchdog's thread running
 * (watchdog_start), a step past half its limit is reported on the console
 * with what this process waits for, and a step past its limit is given
 * up: the caller's GIVE_UP runs with the reason.  Without the thread,
 * steps are only said. */
#ifndef BUILDAPP_WATCHDOG_H
#define BUILDAPP_WATCHDOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* A step's name and what a process waits for fit in half this many
 * bytes each. */
#define WATCHDOG_TEXT_MAX 1024

/* Says the step WHAT (printf) on the console as it starts, and marks it
 * the step under way, allowed watchdog_start's limit plus EXTRA seconds
 * (what its own size asks for: a run's timeout, a volume's fill).
 * Marking a step is progress: the clock starts again. */
void watchdog_step(unsigned extra, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The same without the console line, for a step its caller says itself. */
void watchdog_mark(unsigned extra, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The EXTRA seconds of a step that writes BYTES: one per 10 MiB, slower
 * than any disk a kit is meant for. */
unsigned watchdog_extra_for_bytes(unsigned long long bytes);
/* No step under way: nothing to watch (a server waiting for a stick on
 * purpose, a shell). */
void watchdog_idle(void);

/* Whether this process makes progress: no step under way, or the step
 * under way within its limit (watchdog_start's plus its EXTRA).  What the
 * server's hardware watchdog is fed by (hwwatchdog.h): a step past its
 * limit, or a process that no longer runs, stops the feeding.  False
 * before watchdog_start. */
bool watchdog_progressing(void);
/* The step under way's text into BUF (LEN bytes; "" when none), and a
 * number that changes with each step marked. */
unsigned watchdog_current(char *buf, size_t len);
/* FN(WHAT, DATA) is called by each watchdog_step, watchdog_mark and
 * watchdog_idle (WHAT ""), on the marking thread, after the step is
 * marked: a record of the step under way that must be written before the
 * step goes on (hwwatchdog.h).  FN NULL: none.  One at a time. */
void watchdog_on_mark(void (*fn)(const char *what, void *data), void *data);

/* Called on the watchdog's thread with the reason a step was given up
 * ("step 'X' did not end within N s; waiting for: ..."); it should not
 * return (the appliance writes its report and does `after`).  When it
 * does, the step is not watched again. */
typedef void watchdog_give_up_fn(const char *why, void *data);

/* Starts the watchdog's thread once: LIMIT seconds for every step (plus
 * its EXTRA), GIVE_UP(why, DATA) for a step past it.  Returns 0 or a
 * negative errno. */
int watchdog_start(unsigned limit, watchdog_give_up_fn *give_up, void *data);

/* What this process waits for, in BUF of LEN bytes: each of its threads
 * but the caller's (its state and the kernel function it waits in,
 * /proc's wchan) and each process it started, its command line with the
 * same.  Returns BUF. */
const char *watchdog_describe_wait(char *buf, size_t len);

/* Everything a hang's diagnosis may need, into F: every process on the
 * system (pid, parent, state, the kernel function it waits in, command
 * line), then the kernel stack and status of each thread of this
 * process and the kernel stack of each process it started. */
void watchdog_write_detail(FILE *f);

#endif
