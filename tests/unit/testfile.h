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

/* The text of tests/unit/data/NAME (under $TOP, else the current
 * directory), at most 64 KiB; the caller frees it.  Fails the test when
 * it cannot be read whole. */
static inline char *data_text(const char *name)
{
	const char *top = getenv("TOP");
	char path[PATH_MAX];
	snprintf(path, sizeof path, "%s/tests/unit/data/%s", top ? top : ".", name);
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	char *text = calloc(1, 1 << 16);
	assert_non_null(text);
	size_t n = fread(text, 1, (1 << 16) - 1, f);
	assert_true(n > 0 && n < (1 << 16) - 1);
	fclose(f);
	return text;
}

#endif
