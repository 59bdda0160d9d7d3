/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "signals.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "log.h"

struct child {
	volatile pid_t pid; /* 0: free slot */
	volatile sig_atomic_t group;
	/* Who registered it: a forked process inherits the registry, not
	 * the children. */
	volatile pid_t parent;
};

struct cleanup {
	void (*volatile fn)(void);
	volatile sig_atomic_t when;
	volatile sig_atomic_t done;
};

static struct child children[SIGNALS_CHILDREN_MAX];
static struct cleanup cleanups[SIGNALS_CLEANUPS_MAX];
static volatile sig_atomic_t pending;
static volatile sig_atomic_t deferred;

static const int caught[] = {SIGINT, SIGTERM, SIGHUP};

int signals_thread_start(pthread_t *ret, void *(*fn)(void *), void *arg)
{
	pthread_t thread;
	sigset_t all, old;
	int r;

	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	r = -pthread_create(&thread, NULL, fn, arg);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (r < 0)
		return r;
	if (ret)
		*ret = thread;
	else
		pthread_detach(thread);
	return 0;
}

void signals_block(sigset_t *old)
{
	sigset_t set;

	sigemptyset(&set);
	for (size_t i = 0; i < sizeof caught / sizeof caught[0]; i++)
		sigaddset(&set, caught[i]);
	pthread_sigmask(SIG_BLOCK, &set, old);
}

void signals_unblock(const sigset_t *old)
{
	pthread_sigmask(SIG_SETMASK, old, NULL);
}

/* Async-signal-safe.  REAP waits for each, so that a tool writing into a
 * temporary directory cannot refill it once the cleanups run. */
static void kill_children(bool reap)
{
	pid_t self = getpid();

	for (int i = 0; i < SIGNALS_CHILDREN_MAX; i++) {
		pid_t pid = children[i].pid;
		if (pid <= 0 || children[i].parent != self)
			continue;
		kill(children[i].group ? -pid : pid, SIGKILL);
		if (reap) {
			while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
				;
			children[i].pid = 0;
		}
	}
}

static void run_cleanups(enum signals_when when)
{
	for (int i = 0; i < SIGNALS_CLEANUPS_MAX; i++) {
		struct cleanup *c = &cleanups[i];
		if (c->fn && (enum signals_when)c->when == when && !c->done) {
			c->done = 1;
			c->fn();
		}
	}
}

void signals_die(int sig)
{
	sigset_t set;

	signal(sig, SIG_DFL);
	/* Blocked in a handler and after signals_block: delivered now. */
	sigemptyset(&set);
	sigaddset(&set, sig);
	pthread_sigmask(SIG_UNBLOCK, &set, NULL);
	raise(sig);
	_exit(128 + sig);
}

static void on_signal(int sig)
{
	int saved = errno;

	if (!pending)
		pending = sig;
	run_cleanups(SIGNALS_BEFORE_KILL);
	kill_children(!deferred);
	if (deferred) {
		errno = saved;
		return;
	}
	run_cleanups(SIGNALS_AFTER_KILL);
	signals_die(sig);
}

static void on_exit_kill(void)
{
	kill_children(true);
}

void signals_install(void)
{
	static bool installed;
	struct sigaction sa;

	if (installed)
		return;
	installed = true;
	atexit(on_exit_kill);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	/* One signal's cleanups at a time. */
	for (size_t i = 0; i < sizeof caught / sizeof caught[0]; i++)
		sigaddset(&sa.sa_mask, caught[i]);
	for (size_t i = 0; i < sizeof caught / sizeof caught[0]; i++)
		sigaction(caught[i], &sa, NULL);
}

void signals_defer(void)
{
	signals_install();
	deferred = 1;
}

int signals_pending(void)
{
	return pending;
}

void signals_reraise(void)
{
	int sig = pending;

	if (!sig)
		return;
	log_info("stopped by %s", strsignal(sig));
	sigset_t old;
	signals_block(&old);
	kill_children(true);
	run_cleanups(SIGNALS_AFTER_KILL);
	signals_die(sig);
}

int signals_add_child(pid_t pid, bool group)
{
	sigset_t old;
	int r = -ENOSPC;

	signals_install();
	signals_block(&old);
	for (int i = 0; i < SIGNALS_CHILDREN_MAX; i++)
		if (children[i].pid == 0) {
			children[i].group = group;
			children[i].parent = getpid();
			children[i].pid = pid; /* last: the slot is whole */
			r = 0;
			break;
		}
	signals_unblock(&old);
	return r;
}

void signals_forget_child(pid_t pid)
{
	sigset_t old;

	if (pid <= 0)
		return;
	signals_block(&old);
	for (int i = 0; i < SIGNALS_CHILDREN_MAX; i++)
		if (children[i].pid == pid)
			children[i].pid = 0;
	signals_unblock(&old);
}

int signals_on_signal(void (*fn)(void), enum signals_when when)
{
	sigset_t old;
	int r = -ENOSPC;

	signals_install();
	signals_block(&old);
	for (int i = 0; i < SIGNALS_CLEANUPS_MAX; i++) {
		if (cleanups[i].fn == fn && (enum signals_when)cleanups[i].when == when) {
			r = 0;
			break;
		}
		if (!cleanups[i].fn) {
			cleanups[i].when = when;
			cleanups[i].done = 0;
			cleanups[i].fn = fn;
			r = 0;
			break;
		}
	}
	signals_unblock(&old);
	return r;
}
