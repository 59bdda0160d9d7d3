#include "tools.h"

#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dirs.h"
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
		return log_error_code(-ENOENT, "BUILDAPP_INIT '%s': not an "
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
	return log_error_code(-ENOENT, "buildapp-init not found (next to "
			      "buildapp or in %s)", BUILDAPP_LIBEXECDIR);
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
