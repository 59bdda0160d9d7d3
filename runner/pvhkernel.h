/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The guest kernel as an ELF that QEMU boots through its PVH entry point
 * (-kernel, as libvirt's <os><kernel> passes it): the bzImage's own
 * payload, unpacked once on the host, so that no guest spends its boot
 * decompressing the kernel (under TCG about half the time from domain
 * start to the agent's first line).  The bytes are the XZ payload's,
 * decompressed: the same bzImage always gives the same file. */
#ifndef BUILDAPP_PVHKERNEL_H
#define BUILDAPP_PVHKERNEL_H

/* Writes the uncompressed kernel of the bzImage BZIMAGE to DEST (through
 * DEST.tmp, renamed into place).  Returns 0; -ENOEXEC, reporting nothing,
 * when BZIMAGE is no bzImage with an XZ payload or the ELF in it has no
 * PVH entry (CONFIG_PVH): boot the bzImage then; another negative errno
 * after reporting. */
int pvhkernel_write(const char *bzimage, const char *dest);

#endif
