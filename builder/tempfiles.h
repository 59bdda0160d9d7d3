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

/* Values of tempfiles_add's IS_DIR beyond 0 (file) and 1 (directory). */
#define TEMPFILE_TREE 2

/* Registers PATH (copied) as a temporary file, or a directory when IS_DIR
 * is 1 (removed with rmdir, so its files must be registered too), or a
 * whole tree removed with rm -rf when TEMPFILE_TREE.  Returns 0, or
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

/* A child process (e.g. qemu) to kill with SIGKILL when a signal arrives;
 * 0 clears it. */
void tempfiles_set_child(pid_t pid);

#endif
