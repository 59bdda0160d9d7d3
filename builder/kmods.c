#include "kmods.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cleanup.h"
#include "log.h"

/* Module name of a modules.dep path: basename without .ko[.xz|.zst|.gz],
 * '-' folded to '_'. */
static void mod_name(const char *path, size_t len, char *ret, size_t rlen)
{
	const char *b = memrchr(path, '/', len);
	b = b ? b + 1 : path;
	size_t n = path + len - b;
	const char *ko = memmem(b, n, ".ko", 3);
	if (ko)
		n = ko - b;
	snprintf(ret, rlen, "%.*s", (int)n, b);
	for (char *p = ret; *p; p++)
		if (*p == '-')
			*p = '_';
}

static bool same_name(const char *a, const char *b)
{
	for (; *a && *b; a++, b++)
		if (*a != *b && !((*a == '-' || *a == '_') &&
				  (*b == '-' || *b == '_')))
			return false;
	return *a == *b;
}

static int push(struct elfdeps *d, const char *path, size_t len)
{
	for (size_t i = 0; i < d->n; i++)
		if (strlen(d->paths[i]) == len &&
		    strncmp(d->paths[i], path, len) == 0)
			return 0;
	if (d->n == ELFDEPS_MAX)
		return -E2BIG;
	if (!(d->paths[d->n] = strndup(path, len)))
		return -ENOMEM;
	d->n++;
	return 0;
}

static bool is_builtin(const char *moddir, const char *name)
{
	char path[4096], line[4096], n[256];
	snprintf(path, sizeof(path), "%s/modules.builtin", moddir);
	_cleanup_fclose_ FILE *f = fopen(path, "re");
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		mod_name(line, strlen(line), n, sizeof(n));
		if (same_name(n, name))
			return true;
	}
	return false;
}

/* modules.dep lists every dependency, transitively, in the order
 * modprobe unloads them: loading goes from the end of the list. */
static int add_line(struct elfdeps *ret, char *line)
{
	char *colon = strchr(line, ':');
	if (!colon)
		return -EINVAL;
	char *deps[128];
	int n = 0;
	char *save = NULL;
	for (char *w = strtok_r(colon + 1, " \t\n", &save); w && n < 128;
	     w = strtok_r(NULL, " \t\n", &save))
		deps[n++] = w;
	for (int i = n - 1; i >= 0; i--) {
		int r = push(ret, deps[i], strlen(deps[i]));
		if (r < 0)
			return r;
	}
	return push(ret, line, colon - line);
}

int kmods_resolve(const char *moddir, const char *const *names,
		  bool optional, struct elfdeps *ret)
{
	char path[4096], n[256];
	snprintf(path, sizeof(path), "%s/modules.dep", moddir);
	_cleanup_fclose_ FILE *f = fopen(path, "re");
	if (!f)
		return log_error_errno(-errno, "cannot open '%s'", path);
	_cleanup_free_ char *line = NULL;
	size_t cap = 0;

	for (const char *const *name = names; *name; name++) {
		bool found = false;
		rewind(f);
		while (!found && getline(&line, &cap, f) > 0) {
			char *colon = strchr(line, ':');
			if (!colon)
				continue;
			mod_name(line, colon - line, n, sizeof(n));
			if (!same_name(n, *name))
				continue;
			found = true;
			int r = add_line(ret, line);
			if (r < 0)
				return log_error_errno(r, "'%s': bad line for "
							  "module '%s'",
						       path, *name);
		}
		if (!found && !optional && !is_builtin(moddir, *name))
			return log_error_code(-ENOENT, "kernel module '%s' is "
							"not in '%s'",
					      *name, moddir);
	}
	return 0;
}
