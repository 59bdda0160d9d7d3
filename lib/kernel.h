/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The build host's kernel, as the appliance, the guests and the KVM probe
 * boot it. */
#ifndef BUILDAPP_KERNEL_H
#define BUILDAPP_KERNEL_H

#include <stdbool.h>
#include <stddef.h>

/* Why kernel_default found none. */
#define KERNEL_NONE_WHY                                                        \
	"no /boot/vmlinuz-VERSION with /lib/modules/VERSION (package "        \
	"linux-image-amd64)"

/* The kernel booted with `kernel = auto`, the one rule everywhere (the
 * appliance, the benchmark guest, the KVM probe; the tests ask
 * `buildapp kernel`): the newest /boot/vmlinuz-VERSION (version order)
 * that has /lib/modules/VERSION.  Not the running kernel: the same
 * packages give the same kit whatever the build host booted.  Fills PATH
 * and VERSION; returns 0 or -ENOENT (not reported: KERNEL_NONE_WHY). */
int kernel_default(char *path, size_t path_len, char *version,
		   size_t version_len);

/* True when the kernel SETTING is "auto", "" or NULL: kernel_default. */
bool kernel_is_auto(const char *setting);

/* A kernel SETTING ([appliance] kernel in a profile): kernel_default when
 * kernel_is_auto, else a readable .../vmlinuz-VERSION file.  Fills PATH
 * and VERSION; returns 0 or a negative errno, not reported: WHY (WHY_LEN
 * bytes) says why, KERNEL_NONE_WHY for auto (-ENOENT), else what is
 * wrong with the file (-EINVAL: a name without a version, -ENAMETOOLONG,
 * or access(2)'s errno and its text). */
int kernel_find(const char *setting, char *path, size_t path_len,
		char *version, size_t version_len, char *why, size_t why_len);

#endif
