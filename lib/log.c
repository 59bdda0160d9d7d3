/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "log.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *program = "buildapp";
static const enum log_level max_level = LOG_LEVEL_INFO;
static FILE *stream;
static char last_error[512];

void log_set_program(const char *name)
{
	program = name;
}

void log_set_stream(FILE *f)
{
	stream = f;
}

enum log_level log_get_level(void)
{
	return max_level;
}

static void log_va(enum log_level level, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));

static void log_va(enum log_level level, const char *fmt, va_list ap)
{
	static const char *const prefix[] = {
		[LOG_LEVEL_ERROR] = "error: ",
		[LOG_LEVEL_WARNING] = "warning: ",
		[LOG_LEVEL_INFO] = "",
		[LOG_LEVEL_DEBUG] = "debug: ",
	};

	if (level == LOG_LEVEL_ERROR) {
		va_list copy;
		va_copy(copy, ap);
		vsnprintf(last_error, sizeof last_error, fmt, copy);
		va_end(copy);
	}
	if (level > max_level)
		return;
	FILE *out = stream ? stream : stderr;

	fprintf(out, "%s: %s", program, prefix[level]);
	vfprintf(out, fmt, ap);
	fputc('\n', out);
	fflush(out);
}

const char *log_last_error(void)
{
	return last_error;
}

void log_clear_last_error(void)
{
	last_error[0] = '\0';
}

/* A negative errno, whatever the caller passed: -EIO for 0. */
static int negative(int err)
{
	if (err == 0)
		return -EIO;
	return err < 0 ? err : -err;
}

int log_error_errno(int err, const char *fmt, ...)
{
	char msg[sizeof last_error];
	va_list ap;

	err = negative(err);
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	log_error("%s: %s", msg, strerror(-err));
	return err;
}

int log_error_code(int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_va(LOG_LEVEL_ERROR, fmt, ap);
	va_end(ap);
	return negative(err);
}

#define DEFINE_LOG_FUNC(name, level)                                           \
	void name(const char *fmt, ...)                                        \
	{                                                                      \
		va_list ap;                                                    \
		va_start(ap, fmt);                                             \
		log_va(level, fmt, ap);                                        \
		va_end(ap);                                                    \
	}

DEFINE_LOG_FUNC(log_error, LOG_LEVEL_ERROR)
DEFINE_LOG_FUNC(log_warning, LOG_LEVEL_WARNING)
DEFINE_LOG_FUNC(log_info, LOG_LEVEL_INFO)
DEFINE_LOG_FUNC(log_debug, LOG_LEVEL_DEBUG)
