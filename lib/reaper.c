/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A parent that reaps (reaper.h). */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/reboot.h>
#include <sys/wait.h>
#include <unistd.h>

#include "log.h"
#include "reaper.h"
#include "signals.h"

static void parent_end(enum reaper_role role, int status)
{
	if (role == REAPER_INIT) {
		/* The worker powers off itself; here it exited or died first. */
		if (WIFSIGNALED(status))
			log_error("the worker died of signal %d (%s); poweroff",
				  WTERMSIG(status), strsignal(WTERMSIG(status)));
		else
			log_error("the worker exited with status %d; poweroff",
				  WEXITSTATUS(status));
		sync();
		reboot(RB_POWER_OFF);
		for (;;)
			pause();
	}
	if (WIFSIGNALED(status))
		signals_die(WTERMSIG(status));
	_exit(WEXITSTATUS(status));
}

/* Reaps until the worker has ended; passes kill()ed signals on. */
static void parent_loop(enum reaper_role role, pid_t worker, const sigset_t *set)
{
	for (;;) {
		siginfo_t info;
		int sig = sigwaitinfo(set, &info);

		if (sig < 0)
			continue; /* EINTR: a stop and continue */
		if (sig != SIGCHLD) {
			if (info.si_code == SI_USER || info.si_code == SI_QUEUE)
				kill(worker, sig);
			continue;
		}
		for (;;) {
			int status;
			pid_t pid = waitpid(-1, &status, WNOHANG);

			if (pid == worker)
				parent_end(role, status);
			if (pid <= 0)
				break;
		}
	}
}

int reaper_fork_worker(enum reaper_role role)
{
	sigset_t set, old;
	pid_t parent = getpid(), worker;

	if (role == REAPER_SUBREAPER && prctl(PR_SET_CHILD_SUBREAPER, 1) < 0) {
		log_warning("cannot be a child subreaper (%s): nothing reaps its orphans",
			    strerror(errno));
		return -errno;
	}
	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigprocmask(SIG_BLOCK, &set, &old);
	worker = fork();
	if (worker < 0) {
		int r = -errno;

		log_warning("cannot fork the worker (%s): nothing reaps its orphans",
			    strerror(errno));
		sigprocmask(SIG_SETMASK, &old, NULL);
		if (role == REAPER_SUBREAPER)
			prctl(PR_SET_CHILD_SUBREAPER, 0);
		return r;
	}
	if (worker > 0)
		parent_loop(role, worker, &set);
	sigprocmask(SIG_SETMASK, &old, NULL);
	/* The worker is no subreaper: fork does not pass that on. */
	if (role == REAPER_SUBREAPER) {
		if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != parent)
			_exit(1); /* the parent is already gone */
	}
	return 0;
}
