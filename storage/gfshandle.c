#include "gfshandle.h"

#include <limits.h>
#include <stdlib.h>

#include "kvmboot.h"
#include "log.h"

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
