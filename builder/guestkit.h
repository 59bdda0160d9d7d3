/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The guest kit: the kernel and initramfs every benchmark guest boots
 * (direct kernel boot).  The initramfs holds the guest agent as /init,
 * busybox, fio and bonnie++ (those the profile's workload kinds use) with
 * the libraries they need, and the disk drivers as modules with their
 * load order. */
#ifndef BUILDAPP_GUESTKIT_H
#define BUILDAPP_GUESTKIT_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include "profile.h"

struct guestkit {
	char kernel[PATH_MAX]; /* CACHE/kit-HASH/vmlinuz */
	/* What the guests boot: CACHE/kit-HASH/vmlinux, the kernel's ELF
	 * with its PVH entry (runner/pvhkernel.h), else the same as kernel */
	char boot_kernel[PATH_MAX];
	char initrd[PATH_MAX]; /* CACHE/kit-HASH/initrd.img (cpio newc, zstd) */
	char version[128];     /* kernel release, e.g. 6.1.0-57-amd64 */
	int cached;            /* 1: found in the cache, nothing built */
	uint64_t min_memory;   /* bytes of guest RAM the kit needs to boot */
};

/* Builds the kit for P (appliance.kernel: "auto" = this host's kernel,
 * or a /boot/vmlinuz-VERSION path) into CACHE_DIR, or finds it there.
 * AGENT is the static guest agent binary; NULL looks for
 * $BUILDAPP_AGENT, then buildapp-agent next to the running program,
 * then in BUILDAPP_LIBEXECDIR.  Returns 0 and fills *ret, or a negative
 * errno after reporting the cause. */
int guestkit_build(const struct profile *p, const char *cache_dir,
		   const char *agent, struct guestkit *ret);

/* The guest agent binary: AGENT, else as guestkit_build looks for it.
 * Returns 0, or -ENOENT after reporting. */
int guestkit_find_agent(const char *agent, char *ret, size_t len);


#endif
