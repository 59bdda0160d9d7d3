/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "dirs.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

int dirs_make(const char *path, mode_t mode)
{
	char buf[PATH_MAX];
	struct stat st;

	if (!*path)
		return -ENOENT;
	if ((size_t)snprintf(buf, sizeof(buf), "%s", path) >= sizeof(buf))
		return -ENAMETOOLONG;
	/* Each prefix in turn: a fresh machine may lack ~/.cache itself. */
	for (char *p = buf + 1;; p++) {
		bool end = *p == '\0';

		if (*p != '/' && !end)
			continue;
		*p = '\0';
		if (mkdir(buf, mode) < 0 && errno != EEXIST)
			return -errno;
		if (end)
			break;
		*p = '/';
	}
	/* EEXIST also means a file of that name: only a directory will do. */
	if (stat(path, &st) < 0)
		return -errno;
	return S_ISDIR(st.st_mode) ? 0 : -ENOTDIR;
}
