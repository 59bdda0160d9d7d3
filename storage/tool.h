/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Running the storage tools (qemu-img, lvm, mkfs.ext4, sfdisk): the
 * storage layer's use of the one runner (lib/command.h), which reports
 * their failures and kills them on SIGINT/SIGTERM/SIGHUP (signals.h). */
#ifndef BUILDAPP_TOOL_H
#define BUILDAPP_TOOL_H

/* Runs ARGV (NULL-terminated; argv[0] searched in PATH) with stdin from
 * STDIN_PATH (NULL: /dev/null), stderr inherited.  Its stdout is returned
 * in *ret_out (malloc'd, NUL-terminated, caller frees) when ret_out is
 * not NULL, else discarded.  Returns 0 when the command exits 0;
 * otherwise reports the command line and status and returns -EIO (or the
 * errno of a failed start): command_check. */
int tool_run(char *const argv[], const char *stdin_path, char **ret_out);

#endif
