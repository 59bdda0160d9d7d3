/* Small jobs on files that both sides do: copying one, removing a tree.
 * Reports nothing: the caller names what it was doing. */
#ifndef BUILDAPP_FILES_H
#define BUILDAPP_FILES_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* Copies FROM to TO (created or truncated, mode MODE) with
 * copy_file_range (the kernel copies, reflinks where it can), falling
 * back to read/write across filesystems that refuse it.  With HARDLINK,
 * a hard link is tried first: exporting a cached build then costs
 * nothing on the same filesystem.  Returns 0 or a negative errno. */
int files_copy(const char *from, const char *to, mode_t mode, int hardlink);

/* cp -r FROM TO: TO (made if missing) gets FROM's directories, regular
 * files (files_copy) and symlinks, with their permissions; not their
 * owners or times.  Other file types are left out.  Returns 0 or the
 * negative errno of the first failure, where it stops. */
int files_copy_tree(const char *from, const char *to);

/* rm -rf PATH, not crossing into other filesystems (a mount left under
 * it stays, and so does the directory holding it).  A missing PATH is
 * success.  Returns 0 or the negative errno of the first failure. */
int files_remove_tree(const char *path);

/* The whole of PATH, a regular file (not a pipe or device, whose reading
 * could block or never end) of at most MAX bytes, NUL-terminated, in *RET
 * (the caller frees it) and its length in *RET_LEN (may be NULL).
 * Returns 0, -EISDIR, -EINVAL (not a regular file), -EFBIG (larger than
 * MAX) or another negative errno. */
int files_read_regular(const char *path, size_t max, char **ret, size_t *ret_len);

/* The last line of PATH with something in it but white space, without
 * its line end, into BUF of SIZE bytes (lines longer than 255 bytes are
 * read in pieces): what a failed tool said last on its stderr.  Returns
 * true when there was one. */
bool files_last_line(const char *path, char *buf, size_t size);

/* fsync of the directory DIR: what was created, renamed or removed in it
 * is then on its disk too (fsync of a file does not make its name
 * durable).  Returns 0 or a negative errno. */
int files_fsync_dir(const char *dir);

#endif
