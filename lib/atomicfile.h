/* Files written whole or not at all: through a temporary file beside the
 * target, fsync'd, then renamed, and the directory fsync'd, so a reader
 * never sees half of one and a crash after the call leaves the new one. */
#ifndef BUILDAPP_ATOMICFILE_H
#define BUILDAPP_ATOMICFILE_H

#include <stdio.h>

/* The writer of a file's content: returns 0 or a negative errno. */
typedef int atomicfile_writer(const void *ctx, FILE *f);

/* Writes TMP with WRITE(CTX, f) and fsyncs it; removes it on failure.
 * Returns 0 or a negative errno (not reported: the caller names the
 * file it was for). */
int atomicfile_write_tmp(const char *tmp, atomicfile_writer *write, const void *ctx);

/* Writes DIR/NAME through DIR/.NAME.tmp, then fsyncs DIR: the new file
 * is on the disk when this returns.  Reports errors; returns 0 or a
 * negative errno. */
int atomicfile_write(const char *dir, const char *name, atomicfile_writer *write,
		     const void *ctx);

#endif
