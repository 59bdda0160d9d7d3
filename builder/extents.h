/* The data extents of a sparse file (lseek SEEK_DATA / SEEK_HOLE), for
 * the steps that must not pay for its holes: hashing a kit image, copying
 * filesystem images into it. */
#ifndef BUILDAPP_EXTENTS_H
#define BUILDAPP_EXTENTS_H

#include <sys/types.h>

/* Calls FN(START, END, OPAQUE) for each data extent of FD, SIZE bytes
 * long, in order.  A file system that cannot tell its holes gives one
 * extent, the whole file.  Stops at FN's first negative return and
 * returns it; else 0, or a negative errno of lseek. */
int extents_for_each(int fd, off_t size,
		     int (*fn)(off_t start, off_t end, void *opaque),
		     void *opaque);

/* The sha256 of the file PATH in HEX; its holes (most of a kit image)
 * are hashed as zeros without being read.  Returns 0 or a negative errno
 * (reported). */
int extents_sha256(const char *path, char hex[65]);

#endif
