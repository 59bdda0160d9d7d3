/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "icustub.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "elfdeps.h"
#include "files.h"
#include "log.h"
#include "tools.h"

#define LIBDIR "usr/lib/x86_64-linux-gnu"

/* The stub in place of DATA, the root's libicudata.so.MAJOR.MINOR (the
 * file its libicudata.so.MAJOR links to). */
static int swap(const char *data, unsigned major)
{
	char stub[PATH_MAX], entry[32];
	struct stat st;
	int r;

	r = tools_find("icudata-stub.so", "BUILDAPP_ICUDATA_STUB", NULL, stub,
		       sizeof(stub));
	if (r < 0)
		return r;
	snprintf(entry, sizeof(entry), "icudt%u_dat", major);
	r = elfdeps_defines(stub, entry);
	if (r < 0)
		return log_error_errno(r, "'%s'", stub);
	if (r == 0) {
		log_warning("host root: %s has no %s, the entry point of the root's ICU "
			    "%u (it was built for another ICU): the root keeps ICU's "
			    "whole data (rebuild buildapp)",
			    stub, entry, major);
		return 0;
	}
	off_t before = stat(data, &st) == 0 ? st.st_size : 0;
	r = files_copy(stub, data, 0644, 0);
	if (r < 0)
		return log_error_errno(r, "host root: replacing '%s' with '%s'", data,
				       stub);
	log_info("host root: ICU %u's data library replaced by an empty one "
		 "(%.1f MiB less)",
		 major, (double)before / (1 << 20));
	return 0;
}

int icustub_apply(const char *root)
{
	char dir[PATH_MAX], path[PATH_MAX + 256];
	struct dirent *d;
	struct stat st;
	int r = 0;

	if ((size_t)snprintf(dir, sizeof(dir), "%s/" LIBDIR, root) >= sizeof(dir))
		return log_error_code(-ENAMETOOLONG, "'%s': path too long", root);
	DIR *dp = opendir(dir);
	if (!dp)
		return errno == ENOENT ? 0 : log_error_errno(-errno, "'%s'", dir);
	while (r == 0 && (d = readdir(dp))) {
		unsigned major, minor;
		int end = 0;
		/* The regular file, not the libicudata.so.MAJOR symlink. */
		if (sscanf(d->d_name, "libicudata.so.%u.%u%n", &major, &minor, &end) != 2 ||
		    d->d_name[end] != '\0')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, d->d_name);
		if (lstat(path, &st) == 0 && S_ISREG(st.st_mode))
			r = swap(path, major);
	}
	closedir(dp);
	return r;
}
