/* The kit as LAVA jobs (docs/lab.md): NAME.netboot/lava-x86.yaml, a job
 * for LAVA's x86 device type (the netboot kernel and initrd deployed by
 * TFTP, booted by iPXE with a few kernel arguments: the kit's settings
 * are in its plan), one lava-x86-TAG.yaml per server named at build time
 * (its device tags, its disk under test), and NAME.netboot/lava-qemu.yaml
 * for LAVA's qemu device type, a virtual server to try the kit on, with
 * NAME.netboot/lava-disk.qcow2, the blank disk under test it deploys.
 * All watch the console with LAVA's monitors for the sweep's result
 * lines (runner/sweeplines.h).
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

/* LAVA's device tags are slugs of at most 50 characters. */
#define LAVAJOB_TAG_MAX 51
#define LAVAJOB_TAGS_MAX 4
#define LAVAJOB_SERVERS_MAX 256
/* The x86 job's kernel arguments, which iPXE gets typed in one line with
 * LAVA's ip= arguments after them (lavajob_x86_args). */
#define LAVAJOB_X86_ARGS_MAX 160

/* A server that gets an x86 job of its own (--lava-server): the device
 * tags the job asks for, the first naming the job, and the identity of
 * its disk under test ("": the profile's [host] disk). */
struct lavajob_server {
	char tags[LAVAJOB_TAGS_MAX][LAVAJOB_TAG_MAX];
	size_t n_tags;
	char disk[PROFILE_STR_MAX];
};

/* ARG, "TAG[,TAG...][=DISK]", into *RET.  Returns 0, or -EINVAL with the
 * reason in WHY: a tag that is no LAVA tag, a disk identity that cannot
 * ride on the kernel command line, or kernel arguments longer than the
 * line iPXE is typed leaves room for. */
int lavajob_parse_server(const char *arg, struct lavajob_server *ret, char *why, size_t len);

/* The x86 job's kernel arguments for the disk under test DISK ("": the
 * plan's), into BUF: initrd=initrd (UEFI iPXE hands the kernel its initrd
 * only when the line names it), buildapp.disk=DISK, then CMDLINE_END.
 * Returns their length. */
size_t lavajob_x86_args(const char *disk, char *buf, size_t len);

struct lavajob_spec {
	const struct profile *profile;
	const char *cmdline;    /* the kit's kernel command line (kit_cmdline) */
	const char *netboot;    /* the netboot directory being built: the jobs go there */
	/* Where the netboot directory is served (lavajob_check_url), or
	 * NULL: OUTDIR/NAME.netboot/ as a file:// URL. */
	const char *url;
	const char *outdir;
	const char *manifest_sha256; /* the kit's NAME.manifest.json's */
	const struct lavajob_server *servers; /* each gets an x86 job too */
	size_t n_servers;
};

/* Writes the two jobs and the blank disk into S->netboot; the files'
 * URLs are the directory's URL followed by their names.  Reports errors;
 * returns 0 or a negative errno. */
int lavajob_write(const struct lavajob_spec *s);

#endif
