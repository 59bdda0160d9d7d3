/* Temporary files and directories of a build, removed on failure and on
 * SIGINT/SIGTERM/SIGHUP, so an interrupted build leaves nothing behind.
 *
 * The registry is a fixed array so the signal handler can walk it with
 * only async-signal-safe calls (unlink, rmdir). */
#ifndef BUILDAPP_TEMPFILES_H
#define BUILDAPP_TEMPFILES_H

#include <sys/types.h>

#define TEMPFILES_MAX 32

/* Installs the handlers for SIGINT, SIGTERM and SIGHUP: remove every
 * registered path (files first, then directories, newest first), then die
 * of the signal.  Idempotent. */
void tempfiles_install_handlers(void);

/* Registers PATH (copied) as a temporary file, or a directory when IS_DIR
 * (removed with rmdir, so its files must be registered too).  Returns 0,
 * or -ENOSPC when the registry is full, -ENAMETOOLONG. */
int tempfiles_add(const char *path, int is_dir);
/* Forgets PATH without removing it (after it was renamed into place). */
void tempfiles_forget(const char *path);
/* Removes every registered path now and forgets them. */
void tempfiles_remove_all(void);

/* A child process (e.g. qemu) to kill with SIGKILL when a signal arrives;
 * 0 clears it. */
void tempfiles_set_child(pid_t pid);

#endif
