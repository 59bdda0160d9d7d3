/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "kitmanifest.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bench.h"
#include "cleanup.h"
#include "command.h"
#include "extents.h"
#include "kit.h"
#include "licenses.h"
#include "log.h"

DEFINE_TRIVIAL_CLEANUP_FUNC(json_object, json_object_put)

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

int kitmanifest_write(const struct profile *p, const struct kit_paths *k,
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
