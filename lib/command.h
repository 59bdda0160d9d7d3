/* Running programs without a shell (posix_spawnp).
 *
 * Used on both sides: the builder runs mtools, mke2fs, syslinux, supermin;
 * the appliance runs hdparm, sdparm, nvme, modprobe. */
#ifndef BUILDAPP_COMMAND_H
#define BUILDAPP_COMMAND_H

#include <stddef.h>
#include <sys/types.h>

/* Runs ARGV (argv[0] looked up in PATH) with the current environment plus
 * ENV_EXTRA ("NAME=value" strings, NULL-terminated, may be NULL), stdin
 * from /dev/null, stdout and stderr inherited, or stdout sent to stderr
 * when QUIET, in a process group of its own.  Returns the exit status (0..255), or a negative errno when
 * the program could not be started or was killed by a signal (-EINTR).
 * Reports nothing: the caller names the step that failed. */
int command_run(char *const argv[], char *const env_extra[], int quiet);

/* Like command_run, and captures stdout (at most MAX bytes, the rest is
 * read and dropped) into *ret_out, a NUL-terminated string the caller
 * frees.  stderr is inherited.  *ret_out is set whenever the program ran. */
int command_capture(char *const argv[], char *const env_extra[], size_t max,
		  char **ret_out);

/* The process command_run or command_capture is waiting for, or 0.  It
 * leads its own process group (kill(-pid, ...) reaches its children too).
 * Safe to read from a signal handler, to kill it before cleaning up. */
pid_t command_current_child(void);

/* "prog arg1 arg2" for messages, in BUF of LEN bytes (truncated). */
const char *command_describe(char *const argv[], char *buf, size_t len);

#endif
