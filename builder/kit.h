/* The kit: everything `buildapp PROFILE.ini` writes for one profile.
 *   OUT/NAME.img            the bootable disk image (builder/image.h)
 *   OUT/NAME.iso            the same kit as a hybrid CD image (a BMC's
 *                           virtual media), booting the netboot initrd
 *   OUT/NAME.netboot/       vmlinuz, initrd, boot.ipxe (same kit over PXE),
 *                           and the kit as LAVA jobs (lavajob.h)
 *   OUT/NAME.manifest.json  sha256 of every embedded file, Debian package
 *                           versions, the resolved settings, builder
 *                           version, image sha256
 *   OUT/NAME.manifest.json.sig  with a signing key: OpenSSH's signature
 *                           of the manifest (namespace buildapp-kit) */
#ifndef BUILDAPP_KIT_H
#define BUILDAPP_KIT_H

#include <stdbool.h>
#include <stddef.h>

#include "lavajob.h"
#include "profile.h"

struct kit_options {
	const char *outdir;     /* created if missing */
	int format;             /* enum image_format, or -1: the profile's */
	const char *cache_dir;  /* NULL: the default (tools_cache_dir) */
	const char *sign_key;   /* ssh-keygen -Y sign key, or NULL */
	/* Where NAME.netboot/ is served, for its LAVA jobs (lavajob.h), or
	 * NULL: its own path. */
	const char *lava_url;
	/* The servers that get an x86 LAVA job of their own. */
	const struct lavajob_server *lava_servers;
	size_t n_lava_servers;
};

/* The system CAs a kit trusts for its upload when the profile names none. */
#define KIT_SYSTEM_CAS "/etc/ssl/certs/ca-certificates.crt"

/* The namespace of a manifest's signature (ssh-keygen -Y ... -n). */
#define KIT_SIGNATURE_NAMESPACE "buildapp-kit"

/* Builds the kit of PROFILE.  Outputs appear only when complete; on
 * failure or a signal the temporaries are removed.  Reports its errors;
 * returns 0 or a negative errno. */
int kit_build(const struct profile *profile, const struct kit_options *opts);

/* Whether PROFILE's host crashes come back by kexec (durability runs,
 * crash = host, crash_reboot = kexec). */
bool kit_crashes_by_kexec(const struct profile *profile);

/* For such a profile, that its kernel has kexec_file_load, where the
 * kernel's config beside it (/boot/config-VERSION) tells.  Returns 0, or
 * -EINVAL after naming the file, section and key: bad input. */
int kit_check_crash_reboot(const struct profile *profile);

/* The kernel command line that carries PROFILE's host settings to the
 * appliance init (buildapp.disk=..., see appliance/init.c) into BUF.
 * Returns 0 or -ENAMETOOLONG. */
int kit_cmdline(const struct profile *profile, char *buf, size_t len);

/* NAME.netboot/boot.ipxe for the kernel command line CMDLINE, into BUF. */
void kit_ipxe_script(const char *cmdline, char *buf, size_t len);

/* This host's versions of the packages a kit is built from (the
 * manifest's "packages"): a new json-c object, {} when dpkg-query fails. */
struct json_object;
struct json_object *kit_packages_json(void);

#endif
