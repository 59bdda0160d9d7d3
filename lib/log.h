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

/* "PROGRAM: error: MESSAGE".  Returns -abs(err), or -EIO if err is 0, so
 * callers can write `return log_error_errno(r, "...")`.  %m is not
 * interpreted: pass strerror(-r) yourself. */
int log_error_errno(int err, const char *fmt, ...)
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
