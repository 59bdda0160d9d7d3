/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "progress.h"

#include <stdio.h>
#include <unistd.h>

#include "log.h"

static const char *step = "";
static int last_percent = -1;

void progress_step(const char *what)
{
	step = what;
	last_percent = -1;
	log_info("%s", what);
}

void progress_update(uint64_t done, uint64_t total)
{
	if (total == 0)
		return;
	int percent = (int)(done * 100 / total);
	if (percent == last_percent || log_get_level() < LOG_LEVEL_INFO)
		return;
	if (isatty(2)) {
		fprintf(stderr, "\r  %-40s %3d%%%s", step, percent,
			percent == 100 ? "\n" : "");
	} else if (percent / 25 != last_percent / 25 || last_percent < 0) {
		fprintf(stderr, "  %s: %d%%\n", step, percent);
	}
	last_percent = percent;
}
