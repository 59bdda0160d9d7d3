/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "gfshandle.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "kvmboot.h"
#include "log.h"
#include "signals.h"

static int (*tmpdir_source)(char *buf, size_t len);

void gfshandle_set_tmpdir_source(int (*source)(char *buf, size_t len))
{
	tmpdir_source = source;
}

guestfs_h *gfshandle_new(void)
{
	guestfs_h *g = guestfs_create();
	char dir[PATH_MAX];

	if (!g) {
		log_error("libguestfs: cannot create a handle");
		return NULL;
	}
	guestfs_set_error_handler(g, NULL, NULL);
	if (tmpdir_source && tmpdir_source(dir, sizeof(dir)) == 0 &&
	    guestfs_set_tmpdir(g, dir) < 0)
		log_warning("libguestfs: cannot use '%s' for temporary files: %s",
			    dir, guestfs_last_error(g));
	if (!getenv("LIBGUESTFS_BACKEND") && guestfs_set_backend(g, "direct") < 0)
		log_warning("libguestfs: cannot select the direct backend: %s",
			    guestfs_last_error(g));
	int kvm = getenv("LIBGUESTFS_BACKEND_SETTINGS") ? 1 : kvmboot_host_usable();
	if (kvm < 0 || (!kvm && guestfs_set_backend_setting(g, "force_tcg", "1") < 0)) {
		if (kvm == 0)
			log_error("libguestfs: cannot force TCG: %s", guestfs_last_error(g));
		guestfs_close(g);
		return NULL;
	}
	return g;
}

/* Its QEMU was reaped (shutdown, close): the pid is nobody's to kill. */
static void on_quit(guestfs_h *g, void *opaque, uint64_t event,
		    int event_handle, int flags, const char *buf,
		    size_t buf_len, const uint64_t *array, size_t array_len)
{
	(void)g, (void)event, (void)event_handle, (void)flags;
	(void)buf, (void)buf_len, (void)array, (void)array_len;
	signals_forget_child((pid_t)(intptr_t)opaque);
}

int gfshandle_launch(guestfs_h *g)
{
	int r = guestfs_launch(g);
	int pid = r < 0 ? 0 : guestfs_get_pid(g);

	if (pid > 0 && signals_add_child(pid, false) == 0 &&
	    guestfs_set_event_callback(g, on_quit,
				       GUESTFS_EVENT_SUBPROCESS_QUIT | GUESTFS_EVENT_CLOSE,
				       0, (void *)(intptr_t)pid) < 0) {
		/* Never a stale pid for the handler or the exit to kill. */
		signals_forget_child(pid);
		log_warning("libguestfs: no quit events: a signal will not stop its QEMU");
	}
	return r;
}

int gfshandle_error(guestfs_h *g, const char *fmt, ...)
{
	const char *msg = guestfs_last_error(g);
	char what[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	return log_error_code(-EIO, "%s: %s", what, msg ? msg : "unknown error");
}
