/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "tools.h"

#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dirs.h"
#include "kernel.h"
#include "log.h"

int tools_find(const char *name, const char *env, const char *given,
	       char *buf, size_t len)
{
	const char *value = getenv(env);
	char self[PATH_MAX];
	ssize_t n;

	if (given && *given) {
		snprintf(buf, len, "%s", given);
	} else if (value && *value) {
		snprintf(buf, len, "%s", value);
	} else {
		n = readlink("/proc/self/exe", self, sizeof(self) - 1);
		if (n > 0) {
			self[n] = '\0';
			if ((size_t)snprintf(buf, len, "%s/%s", dirname(self),
					     name) < len &&
			    access(buf, X_OK) == 0)
				return 0;
		}
		snprintf(buf, len, "%s/%s", BUILDAPP_LIBEXECDIR, name);
	}
	if (access(buf, X_OK) == 0)
		return 0;
	return log_error_errno(-ENOENT, "%s '%s' not found (build it with make, "
			       "or set %s)", name, buf, env);
}

int tools_find_init(char *buf, size_t len)
{
	return tools_find("buildapp-init", "BUILDAPP_INIT", NULL, buf, len);
}

int tools_find_kernel(const char *setting, char *path, size_t path_len,
		      char *version, size_t version_len)
{
	char why[256];
	int r = kernel_find(setting, path, path_len, version, version_len, why,
			    sizeof(why));

	if (r < 0 && kernel_is_auto(setting))
		return log_error_code(r, "no kernel: %s", why);
	if (r < 0)
		return log_error_code(r, "[appliance] kernel '%s': %s", setting, why);
	return 0;
}

int tools_cache_dir(const char *given, char *buf, size_t len)
{
	const char *xdg = getenv("XDG_CACHE_HOME");
	const char *home = getenv("HOME");
	int n, r;

	if (given && *given)
		n = snprintf(buf, len, "%s", given);
	else if (xdg && *xdg)
		n = snprintf(buf, len, "%s/buildapp", xdg);
	else if (home && *home)
		n = snprintf(buf, len, "%s/.cache/buildapp", home);
	else
		n = snprintf(buf, len, "/var/tmp/buildapp-cache");
	if (n < 0 || (size_t)n >= len)
		return log_error_code(-ENAMETOOLONG, "cache directory path too long");
	r = dirs_make(buf, 0755);
	if (r < 0)
		return log_error_errno(r, "cache '%s'", buf);
	return 0;
}
