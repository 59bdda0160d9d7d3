/* A file the unit tests write as their fixture. */
#ifndef BUILDAPP_TESTFILE_H
#define BUILDAPP_TESTFILE_H

#include <limits.h>
#include <stdio.h>

/* DIR/NAME holding TEXT (created or truncated); fails the test if not. */
static inline void write_file(const char *dir, const char *name, const char *text)
{
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

#endif
