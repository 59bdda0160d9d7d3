/* The bootable disk image: GPT with
 *   1  ESP (FAT32, "legacy BIOS bootable"): kernel, initramfs, SYSLINUX
 *      for BIOS (gptmbr.bin in the MBR), systemd-boot for UEFI;
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
#define IMAGE_SYSTEMD_BOOT "/usr/lib/systemd/boot/efi/systemd-bootx64.efi"

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

#endif
