/* SPDX-License-Identifier: GPL-2.0-or-later */
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
	const char *dmi_dir;  /* the server's DMI identity; NULL: /sys/class/dmi/id */
	const char *proc_dir; /* stat's btime, the boot time; NULL: /proc */
};

#define HOSTINFO_ID_MAX 128
#define HOSTINFO_BUNDLE_MAX 192

/* The server's system identity from its firmware's DMI table. */
struct hostinfo_server {
	char serial[HOSTINFO_ID_MAX], uuid[HOSTINFO_ID_MAX];
	char vendor[HOSTINFO_ID_MAX], product[HOSTINFO_ID_MAX];
};

/* Reads product_serial, product_uuid, sys_vendor and product_name of
 * DIR (/sys/class/dmi/id) into RET; what is missing, unreadable or a
 * vendor's placeholder ("To Be Filled By O.E.M.", "Not Specified", all
 * zeros or all ones) is "". */
void hostinfo_read_dmi(const char *dir, struct hostinfo_server *ret);

/* The boot time, the btime line of a /proc/stat text; 0 when none. */
long long hostinfo_parse_btime(const char *text);

/* The bundle's name, PROFILE_SERVER_DISK_BOOT (BOOT as 20261201T142500Z),
 * into BUF (LEN bytes): the same on every server only when the server,
 * its disk under test and its boot time are, so bundles collected from a
 * rack into one directory never collide.  SERVER is the DMI serial, else
 * its UUID, else HOSTNAME, else "unknown"; DISK the disk's serial, else
 * its WWID, else its name, else "nodisk".  Each part keeps letters,
 * digits, '.' and '-' (anything else becomes '-'), so '_' separates them.
 * Returns 0, or -ENAMETOOLONG when LEN is too small (BUF is then "").
 */
int hostinfo_bundle_name(const char *profile, const struct hostinfo_server *server,
			 const char *hostname, const char *disk_serial,
			 const char *disk_wwid, const char *disk_name, long long boot,
			 char *buf, size_t len);

/* What host.json holds for IN, read from this host now (a new reference
 * in *ret).  Whatever cannot be found is null.  Returns 0 or -ENOMEM. */
int hostinfo_collect(const struct hostinfo_inputs *in, struct json_object **ret);

/* bench_inputs' record_host: INPUTS (a struct hostinfo_inputs, its kvm
 * and versions left out) completed with KVM, QEMU_VERSION and
 * LIBVIRT_VERSION, collected and written as DIR/host.json.  Returns 0 or
 * a negative errno (reported). */
int hostinfo_record_sweep(void *inputs, const char *dir, bool kvm, const char *qemu_version,
			  const char *libvirt_version);

/* Writes INFO as DIR/host.json (atomicfile_write: through
 * DIR/.host.json.tmp, fsync'd, renamed).  Returns 0 or a negative errno
 * (reported). */
int hostinfo_write(const char *dir, struct json_object *info);

/* The CPU model and count of a /proc/cpuinfo text (model name lines):
 * copies the first model into MODEL (LEN bytes, "" when none) and
 * returns the number of processors listed. */
unsigned hostinfo_parse_cpuinfo(const char *text, char *model, size_t len);

/* The kit's identity: the sha256 of `sha256sum` output for the kit's
 * files in DIR (plan.json vmlinuz initrd.img disk.qcow2, in that order),
 * as 64 hex digits into HEX.  Returns 0 or a negative errno. */
int hostinfo_kit_sha256(const char *dir, char hex[65]);

/* The boot time of this host (btime of PROC_DIR/stat; NULL: /proc), 0
 * when unknown. */
long long hostinfo_boot_time(const char *proc_dir);

/* Secure Boot as the firmware says it (the SecureBoot EFI variable,
 * efivarfs mounted): 1 enforcing, 0 not (or BIOS), -ENOENT unreadable. */
int hostinfo_secure_boot(void);
/* The kernel's lockdown mode ("none", "integrity", "confidentiality":
 * the bracketed word of securityfs's lockdown file) into BUF.  Returns 0
 * or -ENOENT. */
int hostinfo_lockdown(char *buf, size_t len);

#endif
