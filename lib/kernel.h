/* The build host's kernel, as the appliance, the guests and the KVM probe
 * boot it. */
#ifndef BUILDAPP_KERNEL_H
#define BUILDAPP_KERNEL_H

#include <stddef.h>

/* The kernel booted with `kernel = auto`: the newest /boot/vmlinuz-VERSION
 * that has /lib/modules/VERSION.  Fills PATH and VERSION; returns 0 or
 * -ENOENT (reported). */
int kernel_default(char *path, size_t path_len, char *version,
		   size_t version_len);

#endif
