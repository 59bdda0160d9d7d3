/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The bootable disk image: GPT with
 *   1  ESP (FAT32, "legacy BIOS bootable"): kernel, initramfs, SYSLINUX
 *      for BIOS (gptmbr.bin in the MBR); for UEFI shim and GRUB as Debian
 *      signs them, so the kit boots under Secure Boot (docs/kit.md);
 *   2  RESULTS (ext4, label RESULTS): written by the appliance.
 * All of it is made on the host, without a libguestfs launch: the
 * filesystem images by mtools, syslinux and mke2fs (builder/fsimage.h),
 * the partition table by one sfdisk run on the disk file, and the
 * filesystems' data extents are then copied into their partitions. */
#ifndef BUILDAPP_IMAGE_H
#define BUILDAPP_IMAGE_H

#include <stdint.h>

#include "backend.h"
#include "fsimage.h"

#define IMAGE_RESULTS_LABEL "RESULTS"
#define IMAGE_ESP_LABEL "BUILDAPP"
#define IMAGE_DEFAULT_RESULTS_SIZE (256ULL << 20)

/* Files the image needs from the build host. */
#define IMAGE_GPTMBR "/usr/lib/syslinux/mbr/gptmbr.bin"
/* UEFI: shim (signed by Microsoft's UEFI CA) loads GRUB from its own
 * directory (signed by Debian), which reads /EFI/debian/grub.cfg (its
 * built-in prefix) and boots the kernel only when Debian signed it. */
#define IMAGE_SHIM "/usr/lib/shim/shimx64.efi.signed"
#define IMAGE_GRUB "/usr/lib/grub/x86_64-efi-signed/grubx64.efi.signed"
#define IMAGE_GRUB_CFG "/EFI/debian/grub.cfg"
/* The CD's: ISOLINUX for BIOS; for UEFI an El Torito FAT image holding
 * shim and Debian's CD GRUB, which finds the ISO by /.disk/info and reads
 * /boot/grub/grub.cfg there. */
#define IMAGE_ISOLINUX "/usr/lib/ISOLINUX/isolinux.bin"
#define IMAGE_ISOHYBRID_MBR "/usr/lib/ISOLINUX/isohdpfx.bin"
#define IMAGE_LDLINUX_BIOS "/usr/lib/syslinux/modules/bios/ldlinux.c32"
#define IMAGE_GRUB_CD "/usr/lib/grub/x86_64-efi-signed/gcdx64.efi.signed"

struct image_spec {
	const char *name;    /* profile name: boot entry title, id seed */
	const char *output;  /* final path; its directory holds the temporaries */
	enum image_format format;
	const char *kernel;  /* host paths */
	const char *initrd;
	const char *cmdline; /* kernel command line */
	uint64_t size;       /* whole disk; 0: as small as fits */
	uint64_t results_size; /* 0: IMAGE_DEFAULT_RESULTS_SIZE; grows to fill size */
	uint64_t epoch;      /* timestamps and ids (builder/repro.h) */
	/* More files for the ESP (e.g. the plan), may be NULL/0. */
	const struct fsimage_file *extra_files;
	unsigned n_extra_files;
};

/* Builds SPEC->output.  The image is written under a temporary name in the
 * output directory and renamed into place at the end; on failure or on
 * SIGINT/SIGTERM (handlers installed here) nothing is left at the output
 * path and the temporaries are removed.  Reports its errors; returns 0 or
 * a negative errno. */
int image_build(const struct image_spec *spec);

/* The same boot entry as a hybrid ISO 9660 image SPEC->output (xorriso):
 * El Torito for BIOS (ISOLINUX) and UEFI (shim, GRUB: Secure Boot), and
 * an MBR/GPT so that written to a stick it boots too.  SPEC's format,
 * size, results_size and extra_files are not used.  Outputs and failures
 * as image_build. */
int image_build_iso(const struct image_spec *spec);

#endif
