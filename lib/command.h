/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Running programs without a shell: the one runner of the project.
 *
 * Used on both sides and in the guest: the builder runs mtools, mke2fs,
 * supermin, qemu-img; the appliance hdparm, sdparm, nvme, modprobe, lvm;
 * storage/ qemu-img, mkfs, sfdisk; the guest agent fio and bonnie++.
 * Every child runs in a process group of its own and is registered with
 * the signal policy (signals.h) while it runs, so SIGINT, SIGTERM and
 * SIGHUP, and the exit of this process, kill it and whatever it started. */
#ifndef BUILDAPP_COMMAND_H
#define BUILDAPP_COMMAND_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

enum command_out {
	COMMAND_OUT_INHERIT, /* stdout is ours */
	COMMAND_OUT_STDERR,  /* stdout goes to our stderr (quiet tools) */
	COMMAND_OUT_CAPTURE, /* stdout is read into the result */
	COMMAND_OUT_DISCARD, /* stdout goes to /dev/null */
};

struct command_opts {
	char *const *env_extra; /* "NAME=value" added to ours, NULL-terminated */
	char *const *env;       /* else, when set, the whole environment */
	const char *stdin_path; /* stdin; NULL: /dev/null */
	const char *stderr_path; /* stderr into this file (created or
				  * truncated); NULL: ours */
	enum command_out out;
	size_t max;             /* capture at most MAX bytes (0: no limit); the rest is read and dropped */
	bool any_status;        /* command_check: a non-zero exit status is not a failure */
	unsigned timeout;       /* seconds; then its process group is killed (0: none) */
};

struct command_result {
	int exit_status;  /* 0..255 when it exited */
	int signal;       /* the signal that killed it, else 0 */
	char *out;        /* COMMAND_OUT_CAPTURE: NUL-terminated, caller frees */
	size_t len;
	bool cut;         /* more than MAX bytes came */
	bool timed_out;   /* killed at O's timeout */
};

/* Runs ARGV (argv[0] looked up in PATH) as O says (NULL: stdin from
 * /dev/null, stdout inherited, our environment) and waits for it.
 * Returns the exit status (0..255), or a negative errno when it could
 * not be started, -EINTR when a signal killed it, -ETIME when it was
 * killed at O's timeout.  *RET (may be NULL)
 * is filled whenever the program ran.  Reports nothing. */
int command_spawn(char *const argv[], const struct command_opts *o,
		  struct command_result *ret);

/* command_spawn with ENV_EXTRA, stdout inherited, or sent to stderr when
 * QUIET.  Returns as command_spawn. */
int command_run(char *const argv[], char *const env_extra[], int quiet);

/* command_spawn capturing at most MAX bytes of stdout into *ret_out (the
 * caller frees it; set whenever the program ran).  Returns as
 * command_spawn. */
int command_capture(char *const argv[], char *const env_extra[], size_t max,
		    char **ret_out);

/* The layer that wraps the tools: runs ARGV as O says and reports a
 * failure with the command line (cannot run, exit status, signal).
 * Returns 0, or -EIO (the errno of a failed start), after reporting.
 * *RET_OUT gets the captured stdout when not NULL (O's out is then
 * COMMAND_OUT_CAPTURE whatever O says). */
int command_check(char *const argv[], const struct command_opts *o,
		  char **ret_out);

/* "prog arg1 arg2" for messages, in BUF of LEN bytes (truncated). */
const char *command_describe(char *const argv[], char *buf, size_t len);

/* Runs PATH with ARGV and no environment through fork and execve, and
 * waits: the only way to run a program from a signal handler (the
 * cleanups of signals.h).  Async-signal-safe; returns nothing. */
void command_run_from_handler(const char *path, char *const argv[]);

#endif
