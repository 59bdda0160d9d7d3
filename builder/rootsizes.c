/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "rootsizes.h"

#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <json-c/json.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cleanup.h"
#include "jsonget.h"
#include "log.h"

#define DPKG_INFO "/var/lib/dpkg/info"

/* nftw has no opaque pointer. */
static int64_t walk_total, walk_modules;
static size_t walk_root_len;

static int add_file(const char *path, const struct stat *st, int type,
		    struct FTW *ftw)
{
	(void)ftw;
	if (type != FTW_F || !S_ISREG(st->st_mode))
		return 0;
	walk_total += st->st_size;
	if (strncmp(path + walk_root_len, "/lib/modules/", 13) == 0 ||
	    strncmp(path + walk_root_len, "/usr/lib/modules/", 17) == 0)
		walk_modules += st->st_size;
	return 0;
}

/* A regular file of ROOT at the packaged PATH, not counted before: its
 * size (a file listed by two packages, or under both sides of the /usr
 * merge, counts for the first).  The modules are not a package's here. */
static int64_t packaged_size(const char *root, const char *path,
			     json_object *seen)
{
	char full[PATH_MAX], real[PATH_MAX];
	struct stat st;

	if (strncmp(path, "/lib/modules/", 13) == 0 ||
	    (size_t)snprintf(full, sizeof(full), "%s%s", root, path) >= sizeof(full) ||
	    lstat(full, &st) < 0 || !S_ISREG(st.st_mode))
		return 0;
	/* Identity by device and inode: one file under two names. */
	snprintf(real, sizeof(real), "%ju:%ju", (uintmax_t)st.st_dev,
		 (uintmax_t)st.st_ino);
	if (json_object_object_get_ex(seen, real, NULL))
		return 0;
	json_object_object_add(seen, real, NULL);
	return st.st_size;
}

/* Sums each installed package's files present in ROOT into PACKAGES. */
static int add_packages(const char *root, json_object *packages, int64_t *sum)
{
	_cleanup_(closedirp) DIR *d = opendir(DPKG_INFO);
	_cleanup_(json_object_putp) json_object *seen = json_object_new_object();
	struct dirent *e;
	char path[PATH_MAX], line[PATH_MAX];

	if (!d)
		return log_error_errno(-errno, "'%s'", DPKG_INFO);
	while ((e = readdir(d))) {
		size_t n = strlen(e->d_name);
		if (n < 6 || strcmp(e->d_name + n - 5, ".list") != 0)
			continue;
		snprintf(path, sizeof(path), DPKG_INFO "/%s", e->d_name);
		_cleanup_fclose_ FILE *f = fopen(path, "re");
		if (!f)
			continue;
		int64_t bytes = 0;
		while (fgets(line, sizeof(line), f)) {
			line[strcspn(line, "\n")] = '\0';
			bytes += packaged_size(root, line, seen);
		}
		if (bytes == 0)
			continue;
		char name[256];
		snprintf(name, sizeof(name), "%.*s", (int)(n - 5), e->d_name);
		char *colon = strchr(name, ':'); /* name:arch */
		if (colon)
			*colon = '\0';
		json_object_object_add(packages, name, json_object_new_int64(bytes));
		*sum += bytes;
	}
	return 0;
}

int rootsizes_measure(const char *root, const char *output)
{
	_cleanup_(json_object_putp) json_object *o = json_object_new_object();
	json_object *packages = json_object_new_object();
	int64_t packaged = 0;
	int r;

	json_object_object_add(o, "packages", packages);
	walk_total = walk_modules = 0;
	walk_root_len = strlen(root);
	if (nftw(root, add_file, 32, FTW_PHYS) != 0)
		return log_error_errno(errno ? -errno : -EIO, "'%s'", root);
	r = add_packages(root, packages, &packaged);
	if (r < 0)
		return r;
	json_object_object_add(o, "total", json_object_new_int64(walk_total));
	json_object_object_add(o, "modules", json_object_new_int64(walk_modules));
	json_object_object_add(o, "unpackaged",
			       json_object_new_int64(walk_total - walk_modules - packaged));
	if (json_object_to_file_ext(output, o, JSON_C_TO_STRING_PRETTY) < 0)
		return log_error_code(-EIO, "writing '%s': %s", output,
				      json_util_get_last_err());
	return 0;
}
