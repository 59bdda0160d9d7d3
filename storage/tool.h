/* Running the storage tools (qemu-img, lvm, mkfs.ext4, sfdisk) without a
 * shell.  This is the layer that wraps them, so it reports their failures. */
#ifndef BUILDAPP_TOOL_H
#define BUILDAPP_TOOL_H

#include <stddef.h>

/* Runs ARGV (NULL-terminated; argv[0] searched in PATH) with posix_spawn,
 * stdin from STDIN_PATH (NULL: /dev/null), stderr inherited.  Its stdout
 * is returned in *ret_out (malloc'd, NUL-terminated, caller frees) when
 * ret_out is not NULL, else discarded.  Returns 0 when the command exits
 * 0; otherwise reports the command line and status and returns -EIO (or
 * the errno of a failed spawn). */
int tool_run(char *const argv[], const char *stdin_path, char **ret_out);

/* The command line of ARGV, words joined by spaces, into BUF. */
const char *tool_cmdline(char *const argv[], char *buf, size_t len);

#endif
