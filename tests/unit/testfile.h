/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A file the unit tests write as their fixture. */
#ifndef BUILDAPP_TESTFILE_H
#define BUILDAPP_TESTFILE_H

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* DIR/NAME holding the LEN bytes of DATA (created or truncated); fails
 * the test if not. */
static inline void write_data(const char *dir, const char *name,
			      const void *data, size_t len)
{
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
}

/* DIR/NAME holding TEXT. */
static inline void write_file(const char *dir, const char *name, const char *text)
{
	write_data(dir, name, text, strlen(text));
}

/* The file PATH, whole and NUL-terminated, at most 1 MiB (caller
 * frees); fails the test if it cannot be read. */
static inline char *read_path(const char *path)
{
	FILE *f = fopen(path, "re");
	assert_non_null(f);
	char *buf = calloc(1, 1 << 20);
	assert_non_null(buf);
	size_t n = fread(buf, 1, (1 << 20) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

/* The fixture tests/unit/data/NAME (under $TOP, else .), as read_path. */
static inline char *read_data(const char *name)
{
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s/tests/unit/data/%s",
		 getenv("TOP") ? getenv("TOP") : ".", name);
	return read_path(path);
}

#endif
