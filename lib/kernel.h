/* The build host's kernel, as the appliance, the guests and the KVM probe
 * boot it. */
#ifndef BUILDAPP_KERNEL_H
#define BUILDAPP_KERNEL_H

#include <stddef.h>

/* The kernel booted with `kernel = auto`, the one rule everywhere (the
 * appliance, the benchmark guest, the KVM probe; the tests ask
 * `buildapp kernel`): the newest /boot/vmlinuz-VERSION (version order)
 * that has /lib/modules/VERSION.  Not the running kernel: the same
 * packages give the same kit whatever the build host booted.  Fills PATH
 * and VERSION; returns 0 or -ENOENT (reported). */
int kernel_default(char *path, size_t path_len, char *version,
		   size_t version_len);

/* A profile's [appliance] kernel SETTING: "auto", "" or NULL is
 * kernel_default; anything else a readable .../vmlinuz-VERSION file.
 * Fills PATH and VERSION; returns 0 or a negative errno (reported:
 * -EINVAL for a name without a version). */
int kernel_find(const char *setting, char *path, size_t path_len,
		char *version, size_t version_len);

#endif
