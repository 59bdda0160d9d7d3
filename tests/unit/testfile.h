/* A file the unit tests write as their fixture. */
#ifndef BUILDAPP_TESTFILE_H
#define BUILDAPP_TESTFILE_H

#include <limits.h>
#include <stdio.h>
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

#endif
