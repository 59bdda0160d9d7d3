/* The kit as LAVA jobs (docs/lab.md): NAME.netboot/lava-x86.yaml, a job
 * for LAVA's x86 device type (the netboot kernel and initrd deployed by
 * TFTP, booted by iPXE, the kit's settings as extra kernel arguments) and
 * NAME.netboot/lava-qemu.yaml for its qemu device type, a virtual server
 * to try the kit on, with NAME.netboot/lava-disk.qcow2, the blank disk
 * under test it deploys.  Both watch the console with LAVA's monitors for
 * the sweep's result lines (runner/sweeplines.h).
 *
 * The jobs are JSON, written by json-c (JSON is YAML, which LAVA reads),
 * after a YAML comment saying what they are: no value can break them. */
#ifndef BUILDAPP_LAVAJOB_H
#define BUILDAPP_LAVAJOB_H

#include <stddef.h>

#include "profile.h"

/* Where LAVA finds the kit when the build is not told (--lava-url): the
 * netboot directory's own path as a file:// URL, which a dispatcher on the
 * build host reads as it is. */
#define LAVAJOB_FILE_SCHEME "file://"

/* Whether URL can be where the jobs fetch the netboot files from: http://,
 * https:// or file:// with something after it, no white space, control
 * character or quote.  Returns 0, or -EINVAL with the reason in WHY. */
int lavajob_check_url(const char *url, char *why, size_t len);

struct lavajob_spec {
	const struct profile *profile;
	const char *cmdline;    /* the kit's kernel command line (kit_cmdline) */
	const char *netboot;    /* the netboot directory being built: the jobs go there */
	/* Where the netboot directory is served (lavajob_check_url), or
	 * NULL: OUTDIR/NAME.netboot/ as a file:// URL. */
	const char *url;
	const char *outdir;
};

/* Writes the two jobs and the blank disk into S->netboot; the files'
 * URLs are the directory's URL followed by their names.  Reports errors;
 * returns 0 or a negative errno. */
int lavajob_write(const struct lavajob_spec *s);

#endif
