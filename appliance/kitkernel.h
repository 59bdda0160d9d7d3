/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The benchmark guest's kernel when the kit stores it once.  With
 * [appliance] kernel = auto the guest boots the appliance's own kernel,
 * byte for byte; the image then carries it only on the ESP, and the
 * root's kit directory holds KITKERNEL_REF instead: one line in
 * sha256sum's format naming it, "HEX  ESP:/vmlinuz".  The netboot initrd
 * carries the kernel in an archive of its own, unpacked into the kit
 * directory before the init starts.  docs/kit.md. */
#ifndef BUILDAPP_KITKERNEL_H
#define BUILDAPP_KITKERNEL_H

#include <stddef.h>

#define KITKERNEL_REF "vmlinuz.from"
#define KITKERNEL_ESP_PATH "/vmlinuz"
/* The appliance's initramfs on the ESP (builder/image.c). */
#define KITKERNEL_ESP_INITRD "/initrd"
/* The ESP's FAT label (builder/image.c). */
#define KITKERNEL_ESP_LABEL "BUILDAPP"

/* Puts DIR/vmlinuz in place when DIR holds KITKERNEL_REF (else nothing
 * to do): as it is when it is there already (netbooted), else copied
 * from the ESP of BOOT_DISK ("sda"; "" for none), mounted read-only on
 * MNT for the copy; either way checked against the reference's sha256.
 * Returns 0, or a negative errno with WHY the reason in one line
 * ("guest kernel: no ESP with /vmlinuz of sha256 ... on sda (...)"),
 * DIR/vmlinuz then absent.  A failure is not reported: the caller says
 * it once. */
int kitkernel_fetch(const char *dir, const char *boot_disk, const char *mnt,
		    char *why, size_t len);

/* Mounts the medium this kit booted from read-only on MNT, its
 * KITKERNEL_ESP_PATH and KITKERNEL_ESP_INITRD the kernel and initramfs a
 * host crash's kexec loads: the ESP of BOOT_DISK (an image on a disk or a
 * stick), else a CD's ISO 9660 filesystem (NAME.iso, whose RESULTS are on
 * a stick).  Returns 0, or -ENOENT with WHY the reason in one line (a
 * netbooted kit has neither).  kitkernel_umount_boot lets it go. */
int kitkernel_mount_boot(const char *boot_disk, const char *mnt, char *why, size_t len);
void kitkernel_umount_boot(const char *mnt);

#endif
