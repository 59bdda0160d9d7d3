/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "coldplug.h"

#include <ftw.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "command.h"
#include "log.h"
#include "sysfs.h"

#define ALIASES_MAX 2048
static char *aliases[ALIASES_MAX];
static size_t n_aliases, n_new;

static int collect_alias(const char *path, const struct stat *st, int type,
			 struct FTW *ftw)
{
	char buf[512];

	(void)st;
	if (type != FTW_F || strcmp(path + ftw->base, "modalias") != 0)
		return 0;
	if (sysfs_read(path, buf, sizeof(buf)) < 0 || !buf[0])
		return 0;
	for (size_t i = 0; i < n_aliases; i++)
		if (strcmp(aliases[i], buf) == 0)
			return 0;
	if (n_aliases < ALIASES_MAX) {
		aliases[n_aliases] = strdup(buf);
		if (aliases[n_aliases]) {
			n_aliases++;
			n_new++;
		}
	}
	return 0;
}

void coldplug_run(void)
{
	for (int round = 0; round < 4; round++) {
		size_t first = n_aliases;

		n_new = 0;
		nftw("/sys/devices", collect_alias, 32, FTW_PHYS);
		if (n_new == 0)
			break;
		log_debug("coldplug: %zu new device aliases", n_new);
		/* One modprobe per alias: kmod's `modprobe -a` stops at the
		 * first alias without a module, and most have none. */
		for (size_t i = first; i < n_aliases; i++)
			command_run((char *[]){"modprobe", "-q", "-b", aliases[i],
					       NULL},
				    NULL, 1);
		usleep(300 * 1000);
	}
}

size_t coldplug_aliases(void)
{
	return n_aliases;
}
