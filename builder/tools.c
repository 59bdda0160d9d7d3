#include "tools.h"

#include <errno.h>
#include <dirent.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log.h"

int tools_find_init(char *buf, size_t len)
{
	const char *env = getenv("BUILDAPP_INIT");
	char self[PATH_MAX];
	ssize_t n;

	if (env && *env) {
		snprintf(buf, len, "%s", env);
		if (access(buf, X_OK) == 0)
			return 0;
		return log_error_errno(ENOENT, "BUILDAPP_INIT '%s': not an "
				       "executable", env);
	}
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n > 0) {
		self[n] = '\0';
		if ((size_t)snprintf(buf, len, "%s/buildapp-init", dirname(self)) < len &&
		    access(buf, X_OK) == 0)
			return 0;
	}
	snprintf(buf, len, "%s/buildapp-init", BUILDAPP_LIBEXECDIR);
	if (access(buf, X_OK) == 0)
		return 0;
	return log_error_errno(ENOENT, "buildapp-init not found (next to "
			       "buildapp or in %s)", BUILDAPP_LIBEXECDIR);
}

int tools_cache_dir(char *buf, size_t len)
{
	const char *dir = getenv("BUILDAPP_CACHE_DIR");
	const char *xdg = getenv("XDG_CACHE_HOME");
	const char *home = getenv("HOME");
	int n;

	if (dir && *dir)
		n = snprintf(buf, len, "%s", dir);
	else if (xdg && *xdg)
		n = snprintf(buf, len, "%s/buildapp", xdg);
	else if (home && *home)
		n = snprintf(buf, len, "%s/.cache/buildapp", home);
	else
		return log_error_errno(ENOENT, "no cache directory: set "
				       "BUILDAPP_CACHE_DIR or HOME");
	if (n < 0 || (size_t)n >= len)
		return log_error_errno(ENAMETOOLONG, "cache directory path too long");
	return 0;
}

int tools_default_kernel(char *path, size_t path_len, char *version,
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
	if (found < 0)
		log_error("no kernel: no /boot/vmlinuz-VERSION with "
			  "/lib/modules/VERSION (package linux-image-amd64)");
	return found;
}
