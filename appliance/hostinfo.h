/* host.json: what a bundle says about the host its sweep ran on (CPU,
 * memory, the disk under test and its write cache, kernel, QEMU and
 * libvirt versions, KVM or TCG, the kit and the plan), documented in
 * docs/report.md.  Written into the results directory when a sweep
 * starts, read back by the report. */
#ifndef BUILDAPP_HOSTINFO_H
#define BUILDAPP_HOSTINFO_H

#include <stdbool.h>
#include <stddef.h>

struct hosttune;
struct json_object;
struct plan;

struct hostinfo_inputs {
	const struct plan *plan;
	const char *target;          /* block device or directory under test */
	const struct hosttune *tune; /* NULL without host tuning (buildapp run) */
	const char *kit_dir;         /* the kit baked in the root; NULL: none */
	bool kvm;
	const char *qemu_version, *libvirt_version; /* NULL: unknown */
};

/* What host.json holds for IN, read from this host now (a new reference
 * in *ret).  Whatever cannot be found is null.  Returns 0 or -ENOMEM. */
int hostinfo_collect(const struct hostinfo_inputs *in, struct json_object **ret);

/* Writes INFO as DIR/host.json through a temporary file and rename.
 * Returns 0 or a negative errno (reported). */
int hostinfo_write(const char *dir, struct json_object *info);

/* The CPU model and count of a /proc/cpuinfo text (model name lines):
 * copies the first model into MODEL (LEN bytes, "" when none) and
 * returns the number of processors listed. */
unsigned hostinfo_parse_cpuinfo(const char *text, char *model, size_t len);

/* The kit's identity: the sha256 of `sha256sum` output for the kit's
 * files in DIR (plan.json vmlinuz initrd.img disk.qcow2, in that order),
 * as 64 hex digits into HEX.  Returns 0 or a negative errno. */
int hostinfo_kit_sha256(const char *dir, char hex[65]);

/* Reads DIR/host.json into *ret (a new reference; NULL when the file does
 * not exist).  Returns 0, or -EBADMSG for a file that is not a host.json
 * (reported). */
int hostinfo_read(const char *dir, struct json_object **ret);

#endif
