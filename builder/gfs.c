/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "gfs.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "gfshandle.h"
#include "log.h"
#include "progress.h"

static void on_progress(guestfs_h *g, void *opaque, uint64_t event,
			int event_handle, int flags, const char *buf,
			size_t buf_len, const uint64_t *array, size_t array_len)
{
	(void)g, (void)opaque, (void)event, (void)event_handle, (void)flags;
	(void)buf, (void)buf_len;
	if (array_len >= 4)
		progress_update(array[2], array[3]);
}

guestfs_h *gfs_open(void)
{
	guestfs_h *g = gfshandle_new();

	if (!g)
		return NULL;
	if (guestfs_set_event_callback(g, on_progress, GUESTFS_EVENT_PROGRESS, 0,
				       NULL) < 0)
		log_warning("libguestfs: no progress events");
	return g;
}

int gfs_launch(guestfs_h *g)
{
	progress_step("starting the libguestfs appliance");
	if (gfshandle_launch(g) < 0)
		return gfshandle_error(g, "libguestfs launch");
	return 0;
}
