/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "kernel.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int kernel_default(char *path, size_t path_len, char *version,
		   size_t version_len)
{
	struct dirent **names = NULL;
	int n = scandir("/boot", &names, NULL, versionsort), found = -ENOENT;

	/* Newest first: versionsort orders 6.1.0-9 before 6.1.0-10. */
	for (int i = n - 1; i >= 0; i--) {
		const char *name = names[i]->d_name;
		char mods[PATH_MAX];

		if (found < 0 && strncmp(name, "vmlinuz-", 8) == 0) {
			snprintf(mods, sizeof(mods), "/lib/modules/%s", name + 8);
			if (access(mods, F_OK) == 0 &&
			    (size_t)snprintf(path, path_len, "/boot/%s", name) < path_len &&
			    (size_t)snprintf(version, version_len, "%s", name + 8) <
				    version_len)
				found = 0;
		}
		free(names[i]);
	}
	free(names);
	return found;
}

bool kernel_is_auto(const char *setting)
{
	return !setting || !*setting || strcmp(setting, "auto") == 0;
}

int kernel_find(const char *setting, char *path, size_t path_len,
		char *version, size_t version_len, char *why, size_t why_len)
{
	int r;

	if (kernel_is_auto(setting)) {
		r = kernel_default(path, path_len, version, version_len);
		if (r < 0)
			snprintf(why, why_len, "%s", KERNEL_NONE_WHY);
		return r;
	}
	const char *base = strrchr(setting, '/');
	base = base ? base + 1 : setting;
	if (strncmp(base, "vmlinuz-", 8) != 0 || !base[8]) {
		snprintf(why, why_len,
			 "name it vmlinuz-VERSION, with /lib/modules/VERSION installed");
		return -EINVAL;
	}
	if (access(setting, R_OK) < 0) {
		r = -errno;
		snprintf(why, why_len, "%s", strerror(-r));
		return r;
	}
	if ((size_t)snprintf(path, path_len, "%s", setting) >= path_len ||
	    (size_t)snprintf(version, version_len, "%s", base + 8) >= version_len) {
		snprintf(why, why_len, "name too long");
		return -ENAMETOOLONG;
	}
	return 0;
}
