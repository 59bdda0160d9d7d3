/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Messages to the user, on stderr.
 *
 * Library-like code returns a negative errno and leaves reporting to its
 * caller; the layer that wraps an external library (guestfs, libvirt,
 * libarchive, iniparser, json-c) reports that library's message once. */
#ifndef BUILDAPP_LOG_H
#define BUILDAPP_LOG_H

#include <stdarg.h>
#include <stdio.h>

enum log_level {
	LOG_LEVEL_ERROR,
	LOG_LEVEL_WARNING,
	LOG_LEVEL_INFO,
	LOG_LEVEL_DEBUG,
};

/* Program name printed in front of every message ("buildapp"). */
void log_set_program(const char *name);
/* Messages above this level are dropped: LOG_LEVEL_INFO. */
enum log_level log_get_level(void);
/* Where messages go; NULL restores stderr.  Tests capture messages this way. */
void log_set_stream(FILE *f);

/* "PROGRAM: error: MESSAGE: CAUSE", CAUSE being strerror(-ERR): for a
 * failure whose cause is an errno (a system call's, or a negative errno a
 * function returned).  ERR is a negative errno; returns it (-EIO for 0),
 * so callers write `return log_error_errno(r, "cannot write '%s'", path)`.
 * The message does not name the cause itself: this prints it, once. */
int log_error_errno(int err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* "PROGRAM: error: MESSAGE" for a failure MESSAGE explains by itself (a
 * value refused, a library's own message, a tool's exit status); returns
 * ERR, a negative errno (-EIO for 0), whose text is not printed. */
int log_error_code(int err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The text of the last error reported (without the prefix), "" when none
 * since log_clear_last_error(): what a caller that goes on records as the
 * reason (a journal line, a report), in the words the console showed. */
const char *log_last_error(void);
void log_clear_last_error(void);

void log_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_debug(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
