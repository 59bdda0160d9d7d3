/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Temporary files and directories of a build, removed on failure and on
 * SIGINT/SIGTERM/SIGHUP (a cleanup of the signal policy, signals.h), so an
 * interrupted build leaves nothing behind.
 *
 * The registry is a fixed array so the signal handler can walk it with
 * only async-signal-safe calls (unlink, rmdir). */
#ifndef BUILDAPP_TEMPFILES_H
#define BUILDAPP_TEMPFILES_H

#include <stddef.h>
#include <sys/types.h>

#define TEMPFILES_MAX 32

/* Registers with the signal policy (signals.h) the removal, on SIGINT,
 * SIGTERM and SIGHUP, of every registered path (files first, then
 * directories, newest first) once the children are dead, and before that
 * of libguestfs' socket directories.  Idempotent. */
void tempfiles_remove_on_signal(void);

/* Values of tempfiles_add's IS_DIR beyond 0 (file) and 1 (directory). */
#define TEMPFILE_TREE 2

/* Registers PATH (copied) as a temporary file, or a directory when IS_DIR
 * is 1 (removed with rmdir, so its files must be registered too), or a
 * whole tree removed with rm -rf when TEMPFILE_TREE, removed on a signal
 * too (tempfiles_remove_on_signal).  Returns 0, or
 * -ENOSPC when the registry is full, -ENAMETOOLONG. */
int tempfiles_add(const char *path, int is_dir);
/* Forgets PATH without removing it (after it was renamed into place). */
void tempfiles_forget(const char *path);
/* Removes every registered path now and forgets them. */
void tempfiles_remove_all(void);
/* A mark for tempfiles_remove_since: nested steps (the image inside a kit
 * build) remove only what they registered. */
unsigned long tempfiles_mark(void);
/* Removes and forgets the paths registered since MARK. */
void tempfiles_remove_since(unsigned long mark);

/* What a build killed with SIGKILL leaves (no handler runs) is removed by
 * the next one, and only when its owner is dead: */

/* mkdtemp(TEMPLATE), registered as a tree, with TEMPLATE/.owner locked
 * (flock) for as long as this process lives.  Returns 0 or a negative
 * errno (reported). */
int tempfiles_mkdtemp_owned(char *template);
/* Removes the directories of DIR whose names match PATTERN (fnmatch) and
 * whose .owner lock no process holds, naming each.  A directory without
 * .owner is left alone. */
void tempfiles_reap_owned(const char *dir, const char *pattern);
/* PATH.tmpPID in BUF (LEN bytes): a temporary to rename to PATH. */
void tempfiles_tmp_name(const char *path, char *buf, size_t len);
/* Removes PATH.tmpPID files and trees whose PID is no running process,
 * naming each. */
void tempfiles_reap_tmp(const char *path);
/* A directory of this process (tempfiles_mkdtemp_owned, under /tmp) for
 * libraries' temporary files, into BUF; made on the first call and after
 * tempfiles_remove_all.  Returns 0 or a negative errno. */
int tempfiles_scratch(char *buf, size_t len);

#endif
