/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "kit.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <json-c/json.h>
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
#include "gfs.h"
#include "hostroot.h"
#include "guestimage.h"
#include "guestkit.h"
#include "image.h"
#include "initramfs.h"
#include "kitkernel.h"
#include "lavajob.h"
#include "licenses.h"
#include "elfdeps.h"
#include "extents.h"
#include "files.h"
#include "kernel.h"
#include "keys.h"
#include "log.h"
#include "progress.h"
#include "planner.h"
#include "repro.h"
#include "sha256.h"
#include "tempfiles.h"
#include "tools.h"

DEFINE_TRIVIAL_CLEANUP_FUNC(json_object, json_object_put)

/* Paths of one kit build; everything is made in WORK and renamed into
 * OUT at the end. */
struct kit_paths {
	char work[PATH_MAX - 128];
	char initrd[PATH_MAX], image[PATH_MAX], iso[PATH_MAX], netboot[PATH_MAX],
		manifest[PATH_MAX], signature[PATH_MAX + 8];
	char kernel[PATH_MAX], kver[256], init[PATH_MAX], cache[PATH_MAX];
	char netboot_initrd[PATH_MAX + 16];
	char hostroot[HOSTROOT_PATH_MAX], hostroot_sizes[HOSTROOT_PATH_MAX];
};

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

static int add_file_hash(json_object *files, const char *name, const char *path)
{
	char hex[65];
	struct stat st;
	int r = extents_sha256(path, hex);

	if (r < 0 || stat(path, &st) < 0)
		return r < 0 ? r : -errno;
	json_object *o = json_object_new_object();
	json_object_object_add(o, "path", json_object_new_string(name));
	json_object_object_add(o, "size", json_object_new_int64(st.st_size));
	json_object_object_add(o, "sha256", json_object_new_string(hex));
	json_object_array_add(files, o);
	return 0;
}

json_object *kit_packages_json(void)
{
	char *argv[64] = {"dpkg-query", "-W", "-f", "${Package}\\t${Version}\\n"};
	_cleanup_free_ char *out = NULL;
	json_object *o = json_object_new_object();
	size_t k = 4;

	for (const char *const *p = hostroot_packages; *p && k < 63; p++)
		argv[k++] = (char *)*p;
	argv[k] = NULL;
	if (command_capture(argv, NULL, 1 << 20, &out) != 0 || !out)
		return o;
	for (char *save = NULL, *line = strtok_r(out, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *tab = strchr(line, '\t');
		if (!tab)
			continue;
		*tab = '\0';
		json_object_object_add(o, line, json_object_new_string(tab + 1));
	}
	return o;
}

/* What the appliance's sweep needs, baked into its root under
 * BENCH_KIT_DIR: the plan (the appliance never reads the INI), the
 * benchmark guest's kernel and initramfs, and the pristine guest image as
 * uncompressed qcow2 (its reset source on the lab server). */
#define KIT_MAX_LIBS 4
struct kit_payload {
	char plan[PATH_MAX], pristine[PATH_MAX], agent[PATH_MAX];
	/* When the guest kernel is the ESP's, the root carries this
	 * reference to it (KITKERNEL_REF) instead of a second copy; else
	 * "". */
	char kernel_ref[PATH_MAX];
	struct guestkit guest;
	struct guestimage image;
	/* fio's libraries the host root leaves out (add_fio_libs) */
	char lib_src[KIT_MAX_LIBS][PATH_MAX], lib_dest[KIT_MAX_LIBS][PATH_MAX];
	struct fsimage_file files[9 + KIT_MAX_LIBS];
	unsigned n_files;
};

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

static int64_t file_bytes(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 ? (int64_t)st.st_size : 0;
}

static int count_data(off_t start, off_t end, void *opaque)
{
	*(int64_t *)opaque += end - start;
	return 0;
}

/* Bytes in the data extents of PATH (what a sparse copy writes). */
static int64_t data_bytes(const char *path)
{
	_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	int64_t n = 0;

	if (fd < 0 || fstat(fd, &st) < 0 ||
	    extents_for_each(fd, st.st_size, count_data, &n) < 0)
		return -1;
	return n;
}

static void add_int(json_object *o, const char *key, int64_t v)
{
	json_object_object_add(o, key, json_object_new_int64(v));
}

/* What the kit's bytes are (docs/kit.md, "sizes"): the image's data
 * bytes as the ESP's kernel and initramfs and the rest (boot loaders,
 * FAT, the RESULTS filesystem's metadata, the GPT); the initramfs as the
 * cached host root and the appliance's own files; the host root before
 * compression by package. */
static json_object *sizes_json(const struct kit_paths *k,
			       const struct kit_payload *payload)
{
	json_object *o = json_object_new_object();
	json_object *esp = json_object_new_object();
	json_object *initrd = json_object_new_object();
	json_object *files = json_object_new_object();
	int64_t data = data_bytes(k->image);
	int64_t kernel = file_bytes(k->kernel), ird = file_bytes(k->initrd);
	int64_t base = file_bytes(k->hostroot);

	add_int(o, "image_apparent", file_bytes(k->image));
	add_int(o, "image_data", data);
	add_int(esp, "vmlinuz", kernel);
	add_int(esp, "initrd", ird);
	add_int(esp, "other", data - kernel - ird);
	json_object_object_add(o, "image", esp);
	add_int(initrd, "host_root", base);
	add_int(initrd, "appliance_files", ird - base);
	json_object_object_add(o, "initrd", initrd);
	add_int(files, "/init", file_bytes(k->init));
	/* The BMC's account file is not listed (write_manifest): nor its size,
	 * which gives its password's length away. */
	for (unsigned i = 0; i < payload->n_files; i++)
		if (strcmp(payload->files[i].dest, BENCH_KIT_BMC_CREDENTIALS) != 0)
			add_int(files, payload->files[i].dest,
				file_bytes(payload->files[i].source));
	json_object_object_add(o, "appliance_files", files);
	json_object *netboot = json_object_new_object();
	int64_t netboot_ird = file_bytes(k->netboot_initrd);
	add_int(netboot, "initrd", netboot_ird);
	add_int(netboot, "kernel_archive", netboot_ird - ird);
	json_object_object_add(o, "netboot", netboot);
	json_object *root = json_object_from_file(k->hostroot_sizes);
	if (root)
		json_object_object_add(o, "host_root_uncompressed", root);
	return o;
}

struct package_size {
	const char *name;
	int64_t bytes;
};

static int by_size_desc(const void *a, const void *b)
{
	int64_t x = ((const struct package_size *)a)->bytes;
	int64_t y = ((const struct package_size *)b)->bytes;
	return x < y ? 1 : x > y ? -1 : 0;
}

#define MIB_F(n) ((double)(n) / 1048576.0)

/* The breakdown, printed: the largest packages of the root.  The
 * allocation (the filesystem's blocks) is printed, not kept in the
 * manifest: it depends on the filesystem the kit was written to. */
static void print_sizes(json_object *s, const char *image_path)
{
	struct stat st;
	int64_t allocated = stat(image_path, &st) == 0 ? (int64_t)st.st_blocks * 512 : 0;
	json_object *image, *initrd, *root, *pk, *v;

	json_object_object_get_ex(s, "image", &image);
	json_object_object_get_ex(s, "initrd", &initrd);
	log_info("kit size: %.1f MiB allocated (%.1f MiB data): kernel %.1f, "
		 "initramfs %.1f (host root %.1f, appliance files %.1f), "
		 "loaders/FAT/RESULTS/GPT %.1f",
		 MIB_F(allocated),
		 MIB_F(json_object_get_int64(json_object_object_get(s, "image_data"))),
		 MIB_F(json_object_get_int64(json_object_object_get(image, "vmlinuz"))),
		 MIB_F(json_object_get_int64(json_object_object_get(image, "initrd"))),
		 MIB_F(json_object_get_int64(json_object_object_get(initrd, "host_root"))),
		 MIB_F(json_object_get_int64(json_object_object_get(initrd, "appliance_files"))),
		 MIB_F(json_object_get_int64(json_object_object_get(image, "other"))));
	json_object_object_get_ex(s, "netboot", &v);
	if (json_object_get_int64(json_object_object_get(v, "kernel_archive")) > 0)
		log_info("  guest kernel: the ESP's vmlinuz (in the netboot initrd: "
			 "an archive of its own, %.1f MiB)",
			 MIB_F(json_object_get_int64(json_object_object_get(v, "kernel_archive"))));
	json_object_object_get_ex(s, "appliance_files", &v);
	json_object_object_foreach(v, name, bytes)
		log_info("  appliance file %s: %.1f MiB", name,
			 MIB_F(json_object_get_int64(bytes)));
	if (!json_object_object_get_ex(s, "host_root_uncompressed", &root) ||
	    !json_object_object_get_ex(root, "packages", &pk))
		return;
	log_info("  host root before compression: %.1f MiB (modules %.1f, "
		 "unpackaged %.1f); largest packages:",
		 MIB_F(json_object_get_int64(json_object_object_get(root, "total"))),
		 MIB_F(json_object_get_int64(json_object_object_get(root, "modules"))),
		 MIB_F(json_object_get_int64(json_object_object_get(root, "unpackaged"))));
	struct package_size top[512];
	size_t n = 0;
	json_object_object_foreach(pk, pkg, pkg_bytes)
		if (n < sizeof(top) / sizeof(top[0]))
			top[n++] = (struct package_size){pkg, json_object_get_int64(pkg_bytes)};
	qsort(top, n, sizeof(top[0]), by_size_desc);
	for (size_t i = 0; i < n && i < 12; i++)
		log_info("    %-32s %6.1f MiB", top[i].name, MIB_F(top[i].bytes));
}

/* The manifest's "licenses" (licenses.h): the host root's packages, and
 * the owners of the host files the kit copies from outside it: the
 * kernel, fio's libraries, the tarball (not one generated in the cache,
 * whose path differs from cache to cache). */
static int add_licenses(json_object *m, json_object *sizes, const struct kit_paths *k,
			const struct kit_payload *payload)
{
	const char *files[2 + KIT_MAX_LIBS] = {k->kernel};
	size_t n = 1;

	if (strncmp(payload->image.tarball, k->cache, strlen(k->cache)) != 0)
		files[n++] = payload->image.tarball;
	for (unsigned i = 0; i < KIT_MAX_LIBS; i++)
		files[n++] = payload->lib_src[i];
	json_object *licenses = licenses_json(sizes, files, n);
	if (!licenses)
		return log_error_errno(-ENOMEM, "the manifest's licenses");
	json_object_object_add(m, "licenses", licenses);
	return 0;
}

/* NAME.manifest.json: what the kit is made of and from (docs/kit.md). */
static int write_manifest(const struct profile *p, const struct kit_paths *k,
			  const struct kit_payload *payload,
			  enum image_format format, const char *cmdline,
			  uint64_t epoch)
{
	_cleanup_(json_object_putp) json_object *m = json_object_new_object();
	json_object *files = json_object_new_array();
	json_object *builder = json_object_new_object();
	json_object *image = json_object_new_object();
	char hex[65], leaf[PROFILE_NAME_MAX + 8];
	int r;

	json_object_object_add(builder, "name", json_object_new_string("buildapp"));
	json_object_object_add(builder, "version", json_object_new_string(BUILDAPP_VERSION));
	json_object_object_add(m, "builder", builder);
	json_object_object_add(m, "source_date_epoch", json_object_new_int64((int64_t)epoch));
	/* The plan baked into the root, and its resolved profile. */
	json_object *plan = json_object_from_file(payload->plan), *profile;
	if (!plan || !json_object_object_get_ex(plan, "profile", &profile)) {
		json_object_put(plan);
		return log_error_code(-EIO, "'%s': %s", payload->plan,
				      json_util_get_last_err());
	}
	json_object_object_add(m, "profile", json_object_get(profile));
	json_object_object_add(m, "plan", plan);
	json_object_object_add(m, "kernel_version", json_object_new_string(k->kver));
	json_object_object_add(m, "cmdline", json_object_new_string(cmdline));
	json_object_object_add(m, "files", files);
	r = add_file_hash(files, "ESP:/vmlinuz", k->kernel);
	if (r == 0)
		r = add_file_hash(files, "ESP:/initrd", k->initrd);
	if (r == 0)
		r = add_file_hash(files, "netboot:/initrd", k->netboot_initrd);
	if (r == 0)
		r = add_file_hash(files, "ESP:/EFI/BOOT/BOOTX64.EFI", IMAGE_SHIM);
	if (r == 0)
		r = add_file_hash(files, "ESP:/EFI/BOOT/grubx64.efi", IMAGE_GRUB);
	if (r == 0)
		r = add_file_hash(files, "MBR:gptmbr.bin", IMAGE_GPTMBR);
	if (r == 0)
		r = add_file_hash(files, "initrd:/init", k->init);
	for (unsigned i = 0; r == 0 && i < payload->n_files; i++) {
		char name[PATH_MAX + 8];
		/* Its sha256 would be an unsalted hash of the BMC's password:
		 * the initramfs's own hash covers it. */
		if (strcmp(payload->files[i].dest, BENCH_KIT_BMC_CREDENTIALS) == 0) {
			json_object_object_add(m, "bmc_credentials",
					       json_object_new_string(
						       "in the initramfs, not listed: its sha256 "
						       "would be a hash of the BMC's password"));
			continue;
		}
		snprintf(name, sizeof(name), "initrd:%s", payload->files[i].dest);
		r = add_file_hash(files, name, payload->files[i].source);
	}
	if (r == 0)
		r = extents_sha256(k->image, hex);
	if (r < 0)
		return r;
	json_object_object_add(m, "packages", kit_packages_json());
	snprintf(leaf, sizeof(leaf), "%s.img", p->appliance.name);
	json_object_object_add(image, "file", json_object_new_string(leaf));
	json_object_object_add(image, "format", json_object_new_string(image_format_name(format)));
	json_object_object_add(image, "sha256", json_object_new_string(hex));
	json_object_object_add(m, "image", image);
	json_object *iso = json_object_new_object();
	r = extents_sha256(k->iso, hex);
	if (r < 0)
		return r;
	snprintf(leaf, sizeof(leaf), "%s.iso", p->appliance.name);
	json_object_object_add(iso, "file", json_object_new_string(leaf));
	json_object_object_add(iso, "sha256", json_object_new_string(hex));
	json_object_object_add(m, "iso", iso);
	json_object *sizes = sizes_json(k, payload);
	print_sizes(sizes, k->image);
	json_object_object_add(m, "sizes", sizes);
	r = add_licenses(m, sizes, k, payload);
	if (r < 0)
		return r;

	if (json_object_to_file_ext(k->manifest, m,
				    JSON_C_TO_STRING_PRETTY |
					    JSON_C_TO_STRING_NOSLASHESCAPE) < 0)
		return log_error_code(-EIO, "writing '%s': %s", k->manifest,
				      json_util_get_last_err());
	return 0;
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
		r = write_manifest(p, &k, payload, format, cmdline, epoch);
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
