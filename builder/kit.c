/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "kit.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench.h"
#include "bmcspec.h"
#include "cleanup.h"
#include "cmdline.h"
#include "command.h"
#include "dirs.h"
#include "guestimage.h"
#include "guestkit.h"
#include "hostroot.h"
#include "image.h"
#include "initramfs.h"
#include "kitkernel.h"
#include "kitmanifest.h"
#include "lavajob.h"
#include "elfdeps.h"
#include "extents.h"
#include "files.h"
#include "kernel.h"
#include "keys.h"
#include "log.h"
#include "progress.h"
#include "planner.h"
#include "repro.h"
#include "tempfiles.h"
#include "tools.h"

bool kit_crashes_by_kexec(const struct profile *p)
{
	return p->workload.crash == CRASH_HOST &&
	       p->workload.crash_reboot == CRASH_REBOOT_KEXEC &&
	       (p->workload.kinds & AXIS_BIT(WORKLOAD_DURABILITY));
}

int kit_check_crash_reboot(const struct profile *p)
{
	char kernel[PATH_MAX], kver[256], config[PATH_MAX + 300], line[256], *slash;

	if (!kit_crashes_by_kexec(p) ||
	    kernel_find(p->appliance.kernel, kernel, sizeof(kernel), kver, sizeof(kver),
			line, sizeof(line)) < 0)
		return 0; /* no kernel: the build says so */
	/* Beside the kernel, as /boot has it. */
	slash = strrchr(kernel, '/');
	snprintf(config, sizeof(config), "%.*s/config-%s", slash ? (int)(slash - kernel) : 1,
		 slash ? kernel : ".", kver);
	_cleanup_fclose_ FILE *f = fopen(config, "re");
	if (!f)
		return 0; /* not known here: the kit finds out, and says so */
	while (fgets(line, sizeof(line), f))
		if (strcmp(line, "CONFIG_KEXEC_FILE=y\n") == 0)
			return 0;
	return log_error_code(-EINVAL,
			      "profile '%s': [workload] crash_reboot = kexec: the kernel %s has "
			      "no kexec_file_load (CONFIG_KEXEC_FILE is not set in %s), the one "
			      "kexec Secure Boot's lockdown allows; set crash_reboot = firmware",
			      p->path, kver, config);
}

int kit_cmdline(const struct profile *p, char *buf, size_t len)
{
	static const char *const keys[][2] = {
		{"appliance", "name"},
		{"appliance", "after"},
		{"host", "disk"},
		{"host", "write_cache"},
		{"host", "page_cache"},
		{"host", "dirty_ratio"},
		{"host", "dirty_background_ratio"},
		{"host", "scheduler"},
		{"host", "read_ahead_kb"},
		{"host", "strict"},
		{"guest", "accel"},
	};
	char value[PROFILE_STR_MAX];
	size_t used;
	int n;

	/* The host settings ride on the command line too, where a netboot
	 * entry can change them (the init applies them over the plan's). */
	n = snprintf(buf, len, "console=tty0 console=%s quiet",
		     p->appliance.console[0] ? p->appliance.console : "ttyS0,115200");
	for (size_t i = 0; n >= 0 && (size_t)n < len && i < sizeof(keys) / sizeof(keys[0]); i++) {
		keys_format(p, keys_find(keys[i][0], keys[i][1]), value, sizeof(value));
		/* The command line is space-separated: a value with a space
		 * would split into two settings. */
		if (strchr(value, ' '))
			return log_error_code(-EINVAL, "[%s] %s must not contain spaces",
					      keys[i][0], keys[i][1]);
		used = (size_t)n;
		n += snprintf(buf + used, len - used, " buildapp.%s=%s", keys[i][1], value);
	}
	/* The last of the kit's words: the appliance says whether it got
	 * them all. */
	if (n >= 0 && (size_t)n < len)
		n += snprintf(buf + n, len - (size_t)n, " " CMDLINE_END);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

/* Debian's fio links the Ceph client libraries, which the host root
 * leaves out (nothing else there needs them): a kit whose host-native
 * cells run fio on the lab server carries them besides.  Under usr/:
 * /lib is a symlink in the root, which a directory entry would replace. */
static int add_fio_libs(struct kit_payload *pl)
{
	struct elfdeps deps = {.n = 0};
	unsigned n = 0;
	int r = elfdeps_add(&deps, "/usr/bin/fio");

	for (size_t i = 0; r == 0 && i < deps.n; i++) {
		const char *path = deps.paths[i];
		char dest[PATH_MAX];

		snprintf(dest, sizeof(dest), "%s%s",
			 strncmp(path, "/lib/", 5) == 0 ? "/usr" : "", path);
		if (!hostroot_trimmed(dest + 1))
			continue;
		if (n == KIT_MAX_LIBS) {
			r = log_error_code(-E2BIG, "fio needs more than %d libraries "
						  "the host root leaves out", KIT_MAX_LIBS);
			break;
		}
		snprintf(pl->lib_src[n], PATH_MAX, "%s", path);
		snprintf(pl->lib_dest[n], PATH_MAX, "%s", dest);
		pl->files[pl->n_files++] =
			(struct fsimage_file){pl->lib_src[n], pl->lib_dest[n]};
		n++;
	}
	elfdeps_release(&deps); /* elfdeps_add reported its errors */
	return r;
}

/* NAME.manifest.json.sig: OpenSSH's signature of the manifest with KEY
 * (a private key, or a public one whose private half ssh-agent holds),
 * which `ssh-keygen -Y verify` checks without buildapp (docs/kit.md). */
static int sign_manifest(const struct kit_paths *k, const char *key)
{
	progress_step("signing the manifest");
	int r = command_run((char *[]){"ssh-keygen", "-q", "-Y", "sign", "-f", (char *)key,
				       "-n", KIT_SIGNATURE_NAMESPACE, (char *)k->manifest, NULL},
			    NULL, 1);
	if (r != 0)
		return log_error_code(r < 0 ? r : -EIO, "ssh-keygen could not sign the "
				      "manifest with '%s' (a key with a passphrase needs "
				      "ssh-agent)", key);
	return 0;
}

/* The guest kernel as an archive of its own, appended to the netboot
 * initrd (a copy of the ESP's): a netbooted server has no ESP to take it
 * from.  The kernel unpacks
 * archives laid end to end; zstd at a low level (a kernel image is
 * compressed already), as the archives before it are zstd. */
static int write_kernel_archive(const struct kit_paths *k,
				const struct kit_payload *payload, uint64_t epoch)
{
	const char *dest = BENCH_KIT_DIR "/vmlinuz";
	_cleanup_close_ int fd = open(k->netboot_initrd, O_WRONLY | O_APPEND | O_CLOEXEC);
	struct initramfs *a = NULL;
	int r;

	if (fd < 0)
		return log_error_errno(-errno, "'%s'", k->netboot_initrd);
	r = initramfs_open_long(fd, 3, 0, epoch, &a);
	if (r == 0)
		r = initramfs_add_parents(a, dest);
	if (r == 0)
		r = initramfs_add_file(a, payload->guest.kernel, dest + 1, 0644);
	int c = initramfs_close(a);
	return r < 0 ? r : c;
}

void kit_ipxe_script(const char *cmdline, char *buf, size_t len)
{
	snprintf(buf, len, "#!ipxe\nkernel vmlinuz initrd=initrd %s\ninitrd initrd\nboot\n",
		 cmdline);
}

static int write_netboot(const struct kit_paths *k, const struct kit_payload *payload,
			 const char *cmdline, uint64_t epoch)
{
	char path[PATH_MAX + 32], script[8192];
	int r;

	if (mkdir(k->netboot, 0755) < 0)
		return log_error_errno(-errno, "'%s'", k->netboot);
	snprintf(path, sizeof(path), "%s/vmlinuz", k->netboot);
	r = files_copy(k->kernel, path, 0644, 0);
	if (r == 0)
		r = files_copy(k->initrd, k->netboot_initrd, 0644, 0);
	if (r < 0)
		return log_error_errno(r, "copying the netboot files");
	if (payload->kernel_ref[0] && (r = write_kernel_archive(k, payload, epoch)) < 0)
		return r;
	kit_ipxe_script(cmdline, script, sizeof(script));
	snprintf(path, sizeof(path), "%s/boot.ipxe", k->netboot);
	_cleanup_fclose_ FILE *f = fopen(path, "we");
	if (!f || fputs(script, f) < 0 || fflush(f) != 0)
		return log_error_errno(-errno, "'%s'", path);
	return 0;
}

static int resolve_inputs(const struct profile *p, const struct kit_options *o,
			  struct kit_paths *k)
{
	int r = tools_find_kernel(p->appliance.kernel, k->kernel, sizeof(k->kernel),
				  k->kver, sizeof(k->kver));
	if (r < 0)
		return r;
	if (tools_find_init(k->init, sizeof(k->init)) < 0)
		return -ENOENT;
	if (tools_cache_dir(o->cache_dir, k->cache, sizeof(k->cache)) < 0)
		return -ENOENT;
	return 0;
}

/* Renames FROM to TO; an existing TO directory is moved aside into the
 * work directory first (rename cannot replace a non-empty directory). */
static int put_in_place(const struct kit_paths *k, const char *from, const char *to,
			int is_dir)
{
	char aside[PATH_MAX + 16];

	if (is_dir && access(to, F_OK) == 0) {
		snprintf(aside, sizeof(aside), "%s/old", k->work);
		if (rename(to, aside) < 0)
			return log_error_errno(-errno, "'%s'", to);
	}
	if (rename(from, to) < 0)
		return log_error_errno(-errno, "rename to '%s'", to);
	return 0;
}

static int write_plan(const struct profile *p, const char *path)
{
	struct plan plan;
	FILE *f;
	int r;

	r = planner_build(p, &plan);
	if (r < 0)
		return log_error_errno(r, "cannot make the plan");
	f = fopen(path, "we");
	if (!f) {
		plan_release(&plan);
		return log_error_errno(-errno, "'%s'", path);
	}
	r = plan_write_json(&plan, f);
	if (fclose(f) != 0 && r == 0)
		r = -EIO;
	plan_release(&plan);
	return r < 0 ? log_error_errno(r, "cannot write '%s'", path) : 0;
}

/* The pristine disk as the appliance carries it: an uncompressed qcow2
 * (only the data, as the raw image is sparse), so that the initrd's zstd,
 * with its long window, stores the tarball's bytes and its extracted
 * tree's once (qcow2's own compression squeezes each 64K cluster alone:
 * 45.7 MiB there against 21 here).  Made once and kept beside the cached
 * raw image (same content key). */
static int pristine_qcow2(const struct guestimage *img, char *ret, size_t len)
{
	char tmp[PATH_MAX + 32];
	const char *slash = strrchr(img->path, '/');
	int r;

	if (!slash || (size_t)snprintf(ret, len, "%.*s/disk-plain.qcow2",
				       (int)(slash - img->path), img->path) >= len)
		return log_error_code(-ENAMETOOLONG, "'%s': path too long", img->path);
	if (access(ret, R_OK) == 0)
		return 0;
	tempfiles_reap_tmp(ret);
	tempfiles_tmp_name(ret, tmp, sizeof(tmp));
	tempfiles_add(tmp, 0);
	r = command_run((char *[]){"qemu-img", "convert", "-q", "-O", "qcow2",
				   (char *)img->path, tmp, NULL},
			NULL, 1);
	if (r != 0)
		return log_error_errno(r < 0 ? r : -EIO, "qemu-img convert of '%s' failed",
				       img->path);
	if (rename(tmp, ret) < 0)
		return log_error_errno(-errno, "'%s'", ret);
	tempfiles_forget(tmp);
	return 0;
}

/* The guest kernel in the root: itself, or, when it is the appliance's
 * kernel byte for byte (as with [appliance] kernel = auto), a reference
 * to the ESP's /vmlinuz and its sha256, which the init copies into place
 * (appliance/kitkernel.h): the image then stores the kernel once. */
static int guest_kernel_entry(const struct kit_paths *k, struct kit_payload *pl)
{
	char esp[65], guest[65];
	int r = extents_sha256(k->kernel, esp);

	if (r == 0)
		r = extents_sha256(pl->guest.kernel, guest);
	if (r < 0)
		return r;
	if (strcmp(esp, guest) != 0) {
		pl->files[1] = (struct fsimage_file){pl->guest.kernel, BENCH_KIT_DIR "/vmlinuz"};
		return 0;
	}
	snprintf(pl->kernel_ref, sizeof(pl->kernel_ref), "%s/" KITKERNEL_REF, k->work);
	_cleanup_fclose_ FILE *f = fopen(pl->kernel_ref, "we");
	if (!f || fprintf(f, "%s  ESP:" KITKERNEL_ESP_PATH "\n", esp) < 0 || fflush(f) != 0)
		return log_error_errno(-errno, "'%s'", pl->kernel_ref);
	pl->files[1] = (struct fsimage_file){pl->kernel_ref, BENCH_KIT_DIR "/" KITKERNEL_REF};
	return 0;
}

static int build_payload(const struct profile *p, const struct kit_paths *k,
			 struct kit_payload *ret)
{
	int r;

	snprintf(ret->plan, sizeof(ret->plan), "%s/plan.json", k->work);
	progress_step("building the benchmark guest (kernel, initramfs, pristine disk)");
	r = write_plan(p, ret->plan);
	if (r == 0)
		r = guestkit_build(p, k->cache, NULL, &ret->guest);
	if (r == 0)
		r = guestimage_build(p, k->cache, &ret->image);
	if (r == 0)
		r = pristine_qcow2(&ret->image, ret->pristine, sizeof(ret->pristine));
	if (r < 0)
		return r;
	ret->files[0] = (struct fsimage_file){ret->plan, BENCH_KIT_DIR "/plan.json"};
	r = guest_kernel_entry(k, ret);
	if (r < 0)
		return r;
	ret->files[2] = (struct fsimage_file){ret->guest.initrd, BENCH_KIT_DIR "/initrd.img"};
	ret->files[3] = (struct fsimage_file){ret->pristine, BENCH_KIT_DIR "/disk.qcow2"};
	ret->n_files = 4;
	/* The CAs an https:// upload trusts (the URL may come later, on the
	 * kernel command line): the profile's, else this host's. */
	const char *ca = p->appliance.upload_ca[0] ? p->appliance.upload_ca : KIT_SYSTEM_CAS;
	if (access(ca, R_OK) == 0)
		ret->files[ret->n_files++] = (struct fsimage_file){ca, BENCH_KIT_UPLOAD_CA};
	else if (p->appliance.upload_ca[0])
		return log_error_errno(-errno, "[appliance] upload_ca '%s'", ca);
	/* A Redfish BMC's account and CAs: in the root, and (the account)
	 * nowhere else: write_manifest does not list it. */
	if (bmcspec_is_redfish(p->host.bmc)) {
		ret->files[ret->n_files++] =
			(struct fsimage_file){p->host.bmc_credentials, BENCH_KIT_BMC_CREDENTIALS};
		ca = p->host.bmc_ca[0] ? p->host.bmc_ca : KIT_SYSTEM_CAS;
		if (access(ca, R_OK) == 0)
			ret->files[ret->n_files++] = (struct fsimage_file){ca, BENCH_KIT_BMC_CA};
		else if (p->host.bmc_ca[0])
			return log_error_errno(-errno, "[host] bmc_ca '%s'", ca);
	}
	/* The fio job file: the guests have it in their initramfs, host-native
	 * cells run this copy; here, the manifest lists its sha256. */
	if ((p->workload.kinds & AXIS_BIT(WORKLOAD_FIO)) && p->workload.fio_job[0])
		ret->files[ret->n_files++] =
			(struct fsimage_file){p->workload.fio_job, BENCH_KIT_JOB};
	/* Host-native cells run the guest agent on the lab server. */
	if (p->workload.host_baseline) {
		r = guestkit_find_agent(NULL, ret->agent, sizeof(ret->agent));
		if (r < 0)
			return r;
		ret->files[ret->n_files++] =
			(struct fsimage_file){ret->agent, BENCH_KIT_AGENT};
		if (p->workload.kinds & AXIS_BIT(WORKLOAD_FIO))
			r = add_fio_libs(ret);
	}
	if (r < 0)
		return r;
	return 0;
}

int kit_build(const struct profile *p, const struct kit_options *o)
{
	struct kit_paths k = {0};
	_cleanup_free_ struct kit_payload *payload = calloc(1, sizeof(*payload));
	char cmdline[2048], final[PATH_MAX + 64];
	enum image_format format = o->format >= 0 ? (enum image_format)o->format
						  : p->appliance.format;
	const char *name = p->appliance.name;
	uint64_t epoch;
	unsigned long mark;
	int r;

	r = repro_epoch(&epoch);
	if (r == 0)
		r = resolve_inputs(p, o, &k);
	if (r == 0)
		r = kit_cmdline(p, cmdline, sizeof(cmdline));
	if (r < 0)
		return r;
	r = dirs_make(o->outdir, 0755);
	if (r < 0)
		return log_error_errno(r, "'%s'", o->outdir);
	tempfiles_remove_on_signal();
	mark = tempfiles_mark();
	/* Killed builds' work directories (of any kit), whose owner is gone. */
	tempfiles_reap_owned(o->outdir, ".*.kit-??????");
	snprintf(k.work, sizeof(k.work), "%s/.%s.kit-XXXXXX", o->outdir, name);
	r = tempfiles_mkdtemp_owned(k.work);
	if (r < 0)
		return r;
	snprintf(k.initrd, sizeof(k.initrd), "%s/initrd", k.work);
	snprintf(k.image, sizeof(k.image), "%s/%s.img", k.work, name);
	snprintf(k.iso, sizeof(k.iso), "%s/%s.iso", k.work, name);
	snprintf(k.netboot, sizeof(k.netboot), "%s/%s.netboot", k.work, name);
	snprintf(k.manifest, sizeof(k.manifest), "%s/%s.manifest.json", k.work, name);
	snprintf(k.netboot_initrd, sizeof(k.netboot_initrd), "%s/initrd", k.netboot);
	snprintf(k.signature, sizeof(k.signature), "%s.sig", k.manifest);

	r = payload ? build_payload(p, &k, payload) : -ENOMEM;
	if (r == 0)
		r = hostroot_build(&(struct hostroot_spec){
				   .cache_dir = k.cache,
				   .kernel_version = k.kver,
				   .init = k.init,
				   .files = payload->files,
				   .n_files = payload->n_files,
				   .epoch = epoch,
				   .output = k.initrd,
				   .ret_base = k.hostroot,
				   .ret_sizes = k.hostroot_sizes,
			   },
			   NULL);
	if (r == 0)
		r = image_build(&(struct image_spec){
			.name = name,
			.output = k.image,
			.format = format,
			.kernel = k.kernel,
			.initrd = k.initrd,
			.cmdline = cmdline,
			.size = p->appliance.size,
			.epoch = epoch,
		});
	if (r == 0)
		r = write_netboot(&k, payload, cmdline, epoch);
	/* The CD boots the netboot initrd: it has no ESP to take the guest
	 * kernel from. */
	if (r == 0)
		r = image_build_iso(&(struct image_spec){
			.name = name,
			.output = k.iso,
			.kernel = k.kernel,
			.initrd = k.netboot_initrd,
			.cmdline = cmdline,
			.epoch = epoch,
		});
	if (r == 0) {
		progress_step("writing the manifest (sha256 of the kit)");
		r = kitmanifest_write(p, &k, payload, format, cmdline, epoch);
	}
	/* The jobs name the kit by its manifest's sha256. */
	char manifest_sha[65];
	if (r == 0)
		r = extents_sha256(k.manifest, manifest_sha);
	if (r == 0)
		r = lavajob_write(&(struct lavajob_spec){.profile = p, .cmdline = cmdline,
							 .netboot = k.netboot, .url = o->lava_url,
							 .outdir = o->outdir,
							 .manifest_sha256 = manifest_sha,
							 .servers = o->lava_servers,
							 .n_servers = o->n_lava_servers});
	snprintf(final, sizeof(final), "%s/%s.netboot", o->outdir, name);
	if (r == 0)
		r = put_in_place(&k, k.netboot, final, 1);
	if (r == 0 && o->sign_key)
		r = sign_manifest(&k, o->sign_key);
	snprintf(final, sizeof(final), "%s/%s.manifest.json.sig", o->outdir, name);
	if (r == 0 && o->sign_key)
		r = put_in_place(&k, k.signature, final, 0);
	else if (r == 0 && unlink(final) < 0 && errno != ENOENT)
		r = log_error_errno(-errno, "'%s': an older kit's signature", final);
	snprintf(final, sizeof(final), "%s/%s.manifest.json", o->outdir, name);
	if (r == 0)
		r = put_in_place(&k, k.manifest, final, 0);
	snprintf(final, sizeof(final), "%s/%s.iso", o->outdir, name);
	if (r == 0)
		r = put_in_place(&k, k.iso, final, 0);
	snprintf(final, sizeof(final), "%s/%s.img", o->outdir, name);
	if (r == 0)
		r = put_in_place(&k, k.image, final, 0);
	tempfiles_remove_since(mark);
	if (r == 0)
		log_info("wrote %s, %s.iso, %s.netboot/, %s.manifest.json", final, name, name,
			 name);
	return r;
}
