/* buildapp verify KIT: is this the kit its manifest describes?
 *
 * KIT is NAME.img (raw or qcow2), a disk or stick it was written to,
 * NAME.netboot/, or the directory that holds NAME.manifest.json.  An image
 * whose sha256 is the manifest's is the kit; one that differs (a booted
 * kit's RESULTS changes, a device holds more) is opened and each file the
 * manifest lists is hashed where the kit holds it: the boot code, the
 * ESP's files (mtools), the initramfs's own files (its archives, read with
 * libzstd and libarchive).  Each that differs is named.  --key checks the
 * manifest's OpenSSH signature; --rebuild builds the manifest's profile
 * again and compares the bytes (docs/kit.md, "Checking a kit"). */
#include <blkid/blkid.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <glob.h>
#include <json-c/json.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "backend.h"
#include "cleanup.h"
#include "command.h"
#include "commands.h"
#include "extents.h"
#include "initramfs.h"
#include "kit.h"
#include "log.h"
#include "plan.h"
#include "progress.h"
#include "sha256.h"
#include "tempfiles.h"

DEFINE_TRIVIAL_CLEANUP_FUNC(json_object, json_object_put)

#define MBR_BOOT_CODE 440 /* bytes of gptmbr.bin at the start of the disk */

struct verify {
	json_object *manifest;
	char manifest_path[PATH_MAX];
	char image[PATH_MAX];   /* "" when KIT has none */
	char iso[PATH_MAX];     /* "" when KIT has none */
	char netboot[PATH_MAX]; /* "" when KIT has none */
	bool device;
	unsigned checked, differ;
};

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: buildapp verify KIT [--manifest FILE] [--key KEY.pub]\n"
		"                           [--rebuild [--cache DIR]]\n\n"
		"Checks that KIT is the kit its manifest describes: the image's\n"
		"sha256, and where the image differs (a booted kit, a stick) each\n"
		"file the manifest lists: boot code, ESP files, the initramfs's\n"
		"own files; the netboot files.  Each file that differs is named.\n"
		"KIT is NAME.img, NAME.iso, a disk or stick it was written to\n"
		"(give --manifest), NAME.netboot/, or the directory holding\n"
		"NAME.manifest.json.\n\n"
		"  --manifest FILE  the manifest (default: NAME.manifest.json\n"
		"                   beside the image or the netboot directory)\n"
		"  --key KEY.pub    check the manifest's signature\n"
		"                   (NAME.manifest.json.sig, buildapp --sign)\n"
		"  --rebuild        build the manifest's profile again in a\n"
		"                   temporary directory and compare: package\n"
		"                   versions, then the bytes\n"
		"  --cache DIR      the rebuild's cache (default as for a build)\n"
		"  -h, --help       this text\n");
	commands_help_exit(f, "something differs or the signature is not good",
			   "no readable manifest", false);
}

static void say(struct verify *v, bool ok, const char *what, const char *detail)
{
	v->checked++;
	if (!ok)
		v->differ++;
	printf("%-8s %s%s%s\n", ok ? "ok" : "DIFFERS", what, detail[0] ? ": " : "",
	       detail);
}

/* One check of a hash: GOT against the manifest's WANT, OK_DETAIL said
 * when they are the same.  True when they are. */
static bool say_sha(struct verify *v, const char *what, const char *got, const char *want,
		    const char *ok_detail)
{
	char detail[128];
	bool same = strcmp(got, want) == 0;

	snprintf(detail, sizeof(detail), "sha256 %.16s..., the manifest's %.16s...", got, want);
	say(v, same, what, same ? ok_detail : detail);
	return same;
}

/* The manifest's "files" array, or NULL. */
static json_object *manifest_files(json_object *m)
{
	json_object *files = NULL;

	json_object_object_get_ex(m, "files", &files);
	return json_object_is_type(files, json_type_array) ? files : NULL;
}

static size_t manifest_n_files(json_object *m)
{
	json_object *files = manifest_files(m);
	return files ? json_object_array_length(files) : 0;
}

/* The "path" of entry I of the manifest's files, or NULL. */
static const char *manifest_file_path(json_object *m, size_t i)
{
	json_object *path;

	return json_object_object_get_ex(json_object_array_get_idx(manifest_files(m), i),
					 "path", &path)
		       ? json_object_get_string(path)
		       : NULL;
}

/* The index in the manifest's files of the one it calls NAME, or -1. */
static ssize_t manifest_file_index(json_object *m, const char *name)
{
	for (size_t i = 0; i < manifest_n_files(m); i++) {
		const char *path = manifest_file_path(m, i);
		if (path && strcmp(path, name) == 0)
			return (ssize_t)i;
	}
	return -1;
}

/* The manifest's sha256 and size of the file it calls NAME, or NULL. */
static const char *manifest_file(json_object *m, const char *name, int64_t *ret_size)
{
	ssize_t i = manifest_file_index(m, name);
	json_object *f, *sha, *size;

	if (i < 0)
		return NULL;
	f = json_object_array_get_idx(manifest_files(m), (size_t)i);
	if (!json_object_object_get_ex(f, "sha256", &sha))
		return NULL;
	if (ret_size)
		*ret_size = json_object_object_get_ex(f, "size", &size) ? json_object_get_int64(size)
									: -1;
	return json_object_get_string(sha);
}

static const char *manifest_string(json_object *m, const char *section, const char *key)
{
	json_object *v;

	if (section && !json_object_object_get_ex(m, section, &m))
		return NULL;
	return json_object_object_get_ex(m, key, &v) ? json_object_get_string(v) : NULL;
}

/* Compares the file PATH with the manifest's NAME; true when it is the
 * manifest's. */
static bool check_file(struct verify *v, const char *name, const char *path)
{
	const char *want = manifest_file(v->manifest, name, NULL);
	char got[SHA256_HEX_LEN], detail[PATH_MAX + 32];

	if (!want) {
		say(v, false, name, "not in the manifest");
		return false;
	}
	if (access(path, F_OK) < 0) {
		snprintf(detail, sizeof(detail), "missing (%s)", path);
		say(v, false, name, detail);
		return false;
	}
	if (extents_sha256(path, got) < 0) {
		say(v, false, name, "cannot be read");
		return false;
	}
	return say_sha(v, name, got, want, "");
}

struct initrd_walk {
	struct verify *v;
	bool *seen; /* by index in the manifest's files */
};

static int initrd_member(const char *name, const void *data, size_t len, void *opaque)
{
	struct initrd_walk *w = opaque;
	char entry[PATH_MAX + 16], got[SHA256_HEX_LEN], detail[256];
	unsigned char md[SHA256_LEN];
	int64_t size;

	snprintf(entry, sizeof(entry), "initrd:/%s", name);
	const char *want = manifest_file(w->v->manifest, entry, &size);
	if (!want)
		return 0; /* a file of the host root: the initramfs's hash covers it */
	w->seen[manifest_file_index(w->v->manifest, entry)] = true;
	if (sha256_digest(data, len, md) < 0)
		return -ENOMEM;
	sha256_hex(md, got);
	snprintf(detail, sizeof(detail), "%zu bytes, sha256 %.16s...; the manifest's %" PRId64
		 " bytes, %.16s...", len, got, size, want);
	say(w->v, strcmp(got, want) == 0, entry, strcmp(got, want) == 0 ? "" : detail);
	return 0;
}

/* The appliance's own files inside the initramfs INITRD, which differs
 * from the manifest's: which of them differ. */
static void check_initrd_files(struct verify *v, const char *initrd, const char *name)
{
	size_t n = manifest_n_files(v->manifest);
	_cleanup_free_ bool *seen = calloc(n ? n : 1, sizeof(*seen));
	struct initrd_walk w = {.v = v, .seen = seen};

	if (!seen)
		return;
	progress_step("reading the initramfs's archives");
	bool unreadable = initramfs_read_files(initrd, name, initrd_member, &w) == -EIO;
	for (size_t i = 0; i < n; i++) {
		const char *file = manifest_file_path(v->manifest, i);
		if (file && strncmp(file, "initrd:/", 8) == 0 && !seen[i])
			say(v, false, file, unreadable ? "not in the archives of the initramfs "
							 "that can be read"
						       : "not in the initramfs");
	}
}

/* The byte offset of the first partition (the ESP) of the raw disk RAW. */
static int esp_offset(const char *raw, uint64_t *ret)
{
	blkid_probe pr = blkid_new_probe_from_filename(raw);
	blkid_partlist parts;
	blkid_partition esp;
	int r = -ENOENT;

	if (!pr)
		return log_error_errno(-errno, "'%s'", raw);
	blkid_probe_enable_partitions(pr, 1);
	parts = blkid_probe_get_partitions(pr);
	esp = parts ? blkid_partlist_get_partition(parts, 0) : NULL;
	if (esp) {
		*ret = (uint64_t)blkid_partition_get_start(esp) * 512;
		r = 0;
	}
	blkid_free_probe(pr);
	return r < 0 ? log_error_code(r, "'%s': no partition table", raw) : 0;
}

/* The first 440 bytes of RAW against the manifest's boot code. */
static void check_mbr(struct verify *v, const char *raw)
{
	_cleanup_close_ int fd = open(raw, O_RDONLY | O_CLOEXEC);
	unsigned char code[MBR_BOOT_CODE], md[SHA256_LEN];
	char got[SHA256_HEX_LEN];
	const char *want = manifest_file(v->manifest, "MBR:gptmbr.bin", NULL);

	if (!want)
		return;
	if (fd < 0 || pread(fd, code, sizeof(code), 0) != (ssize_t)sizeof(code) ||
	    sha256_digest(code, sizeof(code), md) < 0) {
		say(v, false, "MBR:gptmbr.bin", "cannot be read");
		return;
	}
	sha256_hex(md, got);
	say(v, strcmp(got, want) == 0, "MBR:gptmbr.bin",
	    strcmp(got, want) == 0 ? "" : "the boot code is not the manifest's");
}

/* Each ESP:/ file of the manifest, copied out of RAW's ESP into SCRATCH. */
static void check_esp(struct verify *v, const char *raw, const char *scratch)
{
	char image_arg[PATH_MAX + 32], from[PATH_MAX], to[PATH_MAX + 32];
	char *env[] = {"MTOOLS_SKIP_CHECK=1", "LC_ALL=C", NULL};
	uint64_t offset = 0;

	if (esp_offset(raw, &offset) < 0) {
		say(v, false, "ESP", "no partition table: not a kit image");
		return;
	}
	snprintf(image_arg, sizeof(image_arg), "%s@@%" PRIu64, raw, offset);
	for (size_t i = 0; i < manifest_n_files(v->manifest); i++) {
		const char *name = manifest_file_path(v->manifest, i);
		if (!name || strncmp(name, "ESP:/", 5) != 0)
			continue;
		snprintf(from, sizeof(from), "::%s", name + 4);
		snprintf(to, sizeof(to), "%s/esp-%zu", scratch, i);
		int r = command_run((char *[]){"mcopy", "-n", "-i", image_arg, from, to, NULL},
				    env, 1);
		if (r != 0) {
			say(v, false, name, "not on the ESP (or the ESP cannot be read)");
			continue;
		}
		if (!check_file(v, name, to) && strcmp(name, "ESP:/initrd") == 0)
			check_initrd_files(v, to, name);
		unlink(to);
	}
}

static bool is_qcow2(const char *path)
{
	_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC);
	unsigned char magic[4];

	return fd >= 0 && pread(fd, magic, 4, 0) == 4 && memcmp(magic, "QFI\xfb", 4) == 0;
}

static void check_image(struct verify *v, const char *scratch)
{
	const char *want = manifest_string(v->manifest, "image", "sha256");
	char got[SHA256_HEX_LEN], raw[PATH_MAX + 16];

	if (!v->device) {
		progress_step("hashing the image");
		if (extents_sha256(v->image, got) < 0) {
			say(v, false, v->image, "cannot be read");
			return;
		}
		if (want && strcmp(got, want) == 0) {
			say(v, true, v->image, "the manifest's sha256: every file in it is the manifest's");
			return;
		}
		printf("%-8s %s: sha256 %.16s..., not the manifest's %.16s... (a booted "
		       "kit's RESULTS partition changes it); its files:\n",
		       "note", v->image, got, want ? want : "(none)");
	} else {
		printf("%-8s %s: a device (its RESULTS and free space are not the kit's); "
		       "its files:\n", "note", v->image);
	}
	snprintf(raw, sizeof(raw), "%s", v->image);
	if (!v->device && is_qcow2(v->image)) {
		snprintf(raw, sizeof(raw), "%s/image.raw", scratch);
		if (command_run((char *[]){"qemu-img", "convert", "-q", "-O", "raw", v->image,
					   raw, NULL},
				NULL, 1) != 0) {
			say(v, false, v->image, "qemu-img cannot read it");
			return;
		}
	}
	check_mbr(v, raw);
	progress_step("reading the ESP");
	check_esp(v, raw, scratch);
	if (strcmp(raw, v->image) != 0)
		unlink(raw);
}

/* A CD image is read-only wherever it goes: its bytes are the kit's. */
static void check_iso(struct verify *v)
{
	const char *want = manifest_string(v->manifest, "iso", "sha256");
	char got[SHA256_HEX_LEN];

	progress_step("hashing the ISO image");
	if (!want) {
		say(v, false, v->iso, "the manifest lists no ISO image (a kit from before them)");
		return;
	}
	if (extents_sha256(v->iso, got) < 0) {
		say(v, false, v->iso, "cannot be read");
		return;
	}
	say_sha(v, v->iso, got, want, "the manifest's sha256");
}

static void check_netboot(struct verify *v)
{
	char path[PATH_MAX + 16], want[4096];
	const char *cmdline = manifest_string(v->manifest, NULL, "cmdline");

	snprintf(path, sizeof(path), "%s/vmlinuz", v->netboot);
	check_file(v, "ESP:/vmlinuz", path);
	snprintf(path, sizeof(path), "%s/initrd", v->netboot);
	if (!check_file(v, "netboot:/initrd", path) && access(path, R_OK) == 0)
		check_initrd_files(v, path, "netboot:/initrd");
	kit_ipxe_script(cmdline ? cmdline : "", want, sizeof(want));
	snprintf(path, sizeof(path), "%s/boot.ipxe", v->netboot);
	_cleanup_fclose_ FILE *f = fopen(path, "re");
	char have[4096] = "";
	size_t n = f ? fread(have, 1, sizeof(have) - 1, f) : 0;
	have[n] = '\0';
	bool same = f && strcmp(have, want) == 0;
	say(v, same, "netboot:/boot.ipxe",
	    same ? "" : !f ? "missing" : "not the manifest's command line (edited by hand?)");
}

/* NAME.manifest.json.sig against the public key KEY. */
static void check_signature(struct verify *v, const char *key, const char *scratch)
{
	char sig[PATH_MAX + 8], signers[PATH_MAX + 32], errlog[PATH_MAX + 32], line[8192] = "";

	snprintf(sig, sizeof(sig), "%s.sig", v->manifest_path);
	if (!key) {
		if (access(sig, F_OK) == 0)
			printf("%-8s %s: not checked (give --key)\n", "note", sig);
		return;
	}
	if (access(sig, R_OK) < 0) {
		say(v, false, "signature", "the manifest is not signed (no .sig beside it)");
		return;
	}
	/* ssh-keygen checks against "allowed signers": the one key given. */
	_cleanup_fclose_ FILE *k = fopen(key, "re");
	if (!k || !fgets(line, sizeof(line), k)) {
		say(v, false, "signature", "the key cannot be read");
		return;
	}
	snprintf(signers, sizeof(signers), "%s/allowed_signers", scratch);
	_cleanup_fclose_ FILE *s = fopen(signers, "we");
	if (!s || fprintf(s, "kit %s", line) < 0 || fflush(s) != 0) {
		say(v, false, "signature", "cannot write a temporary file");
		return;
	}
	snprintf(errlog, sizeof(errlog), "%s/ssh-keygen.err", scratch);
	struct command_result res = {0};
	int r = command_spawn((char *[]){"ssh-keygen", "-Y", "verify", "-f", signers, "-I",
					 "kit", "-n", KIT_SIGNATURE_NAMESPACE, "-s", sig, NULL},
			      &(struct command_opts){.stdin_path = v->manifest_path,
						     .stderr_path = errlog,
						     .out = COMMAND_OUT_CAPTURE,
						     .max = 4096},
			      &res);
	_cleanup_free_ char *out = res.out;
	if (r == 0) {
		say(v, true, "signature", "good, by the key given");
		return;
	}
	/* Its reason is the last line it printed, on either stream. */
	char reason[512] = "not good (ssh-keygen failed)";
	_cleanup_fclose_ FILE *e = fopen(errlog, "re");
	while (e && fgets(line, sizeof(line), e))
		if (line[0] != '\n')
			snprintf(reason, sizeof(reason), "not good: %.*s", (int)strcspn(line, "\n"),
				 line);
	for (char *save = NULL, *l = out ? strtok_r(out, "\n", &save) : NULL; l;
	     l = strtok_r(NULL, "\n", &save))
		snprintf(reason, sizeof(reason), "not good: %s", l);
	say(v, false, "signature", reason);
}

static int load_manifest(struct verify *v)
{
	v->manifest = json_object_from_file(v->manifest_path);
	if (!v->manifest)
		return log_error_code(-EINVAL, "manifest '%s': %s", v->manifest_path,
				      json_util_get_last_err());
	if (!manifest_files(v->manifest) ||
	    !manifest_string(v->manifest, "image", "sha256"))
		return log_error_code(-EINVAL, "manifest '%s': not a kit manifest (no files, "
					       "no image sha256)", v->manifest_path);
	return 0;
}

/* Where KIT's parts and its manifest are (the manifest may be given). */
static int locate(struct verify *v, const char *kit, const char *manifest)
{
	struct stat st;
	size_t n = strlen(kit);

	while (n > 1 && kit[n - 1] == '/')
		n--;
	if (stat(kit, &st) < 0)
		return log_error_errno(-errno, "'%s'", kit);
	if (S_ISDIR(st.st_mode) && n > 8 && strncmp(kit + n - 8, ".netboot", 8) == 0) {
		snprintf(v->netboot, sizeof(v->netboot), "%.*s", (int)n, kit);
		snprintf(v->manifest_path, sizeof(v->manifest_path), "%.*s.manifest.json",
			 (int)n - 8, kit);
	} else if (S_ISDIR(st.st_mode)) {
		char pattern[PATH_MAX];
		glob_t g;
		snprintf(pattern, sizeof(pattern), "%.*s/*.manifest.json", (int)n, kit);
		if (glob(pattern, 0, NULL, &g) != 0 || g.gl_pathc != 1) {
			size_t found = g.gl_pathc;
			globfree(&g);
			return log_error_code(-EINVAL, "'%s': %s a *.manifest.json; name the "
						       "image or the netboot directory",
					      kit, found ? "more than one" : "no");
		}
		snprintf(v->manifest_path, sizeof(v->manifest_path), "%s", g.gl_pathv[0]);
		globfree(&g);
		size_t stem = strlen(v->manifest_path) - strlen(".manifest.json");
		snprintf(v->image, sizeof(v->image), "%.*s.img", (int)stem, v->manifest_path);
		snprintf(v->netboot, sizeof(v->netboot), "%.*s.netboot", (int)stem,
			 v->manifest_path);
		if (access(v->image, F_OK) < 0)
			v->image[0] = '\0';
		snprintf(v->iso, sizeof(v->iso), "%.*s.iso", (int)stem, v->manifest_path);
		if (access(v->iso, F_OK) < 0)
			v->iso[0] = '\0';
		if (access(v->netboot, F_OK) < 0)
			v->netboot[0] = '\0';
	} else if (S_ISREG(st.st_mode) && n > 4 && strcmp(kit + n - 4, ".iso") == 0) {
		snprintf(v->iso, sizeof(v->iso), "%s", kit);
		snprintf(v->manifest_path, sizeof(v->manifest_path), "%.*s.manifest.json",
			 (int)n - 4, kit);
	} else if (S_ISBLK(st.st_mode) || S_ISREG(st.st_mode)) {
		snprintf(v->image, sizeof(v->image), "%s", kit);
		v->device = S_ISBLK(st.st_mode);
		const char *dot = strrchr(kit, '.');
		const char *slash = strrchr(kit, '/');
		size_t stem = dot && (!slash || dot > slash) ? (size_t)(dot - kit) : n;
		snprintf(v->manifest_path, sizeof(v->manifest_path), "%.*s.manifest.json",
			 (int)stem, kit);
		if (v->device && !manifest)
			return log_error_code(-EINVAL, "'%s' is a device: give its kit's manifest "
						       "with --manifest", kit);
	} else {
		return log_error_code(-EINVAL, "'%s': not an image, a device or a directory", kit);
	}
	if (manifest)
		snprintf(v->manifest_path, sizeof(v->manifest_path), "%s", manifest);
	if (access(v->manifest_path, R_OK) < 0)
		return log_error_errno(-errno, "manifest '%s' (give it with --manifest)",
				       v->manifest_path);
	return 0;
}

/* This host's package versions against the manifest's; the number that
 * differ. */
static unsigned compare_packages(struct verify *v, json_object *m)
{
	_cleanup_(json_object_putp) json_object *here = kit_packages_json();
	json_object *theirs, *mine;
	unsigned n = 0, differ = 0;

	if (!json_object_object_get_ex(m, "packages", &theirs))
		return 0;
	json_object_object_foreach(theirs, name, version) {
		n++;
		const char *here_v = json_object_object_get_ex(here, name, &mine)
					     ? json_object_get_string(mine)
					     : NULL;
		if (here_v && strcmp(here_v, json_object_get_string(version)) == 0)
			continue;
		differ++;
		printf("%-8s package %s: the manifest's %s, here %s\n", "note", name,
		       json_object_get_string(version), here_v ? here_v : "not installed");
	}
	if (!differ) {
		char detail[64];
		snprintf(detail, sizeof(detail), "the manifest's %u versions are the ones here", n);
		say(v, true, "packages", detail);
	}
	return differ;
}

/* Builds the manifest's plan's profile into a temporary directory with
 * the manifest's SOURCE_DATE_EPOCH and compares the new manifest. */
static void rebuild(struct verify *v, const char *cache)
{
	json_object *plan_json;
	struct plan plan;
	char out[PATH_MAX], path[PATH_MAX + PROFILE_NAME_MAX + 32], epoch[32];
	const char *tmp = getenv("TMPDIR");

	printf("rebuilding the kit from the manifest's profile\n");
	unsigned packages = compare_packages(v, v->manifest);
	const char *version = manifest_string(v->manifest, "builder", "version");
	if (version && strcmp(version, BUILDAPP_VERSION) != 0)
		printf("%-8s builder: the manifest's buildapp %s, this one %s\n", "note", version,
		       BUILDAPP_VERSION);
	if (!json_object_object_get_ex(v->manifest, "plan", &plan_json)) {
		say(v, false, "rebuild", "the manifest has no plan");
		return;
	}
	const char *text = json_object_to_json_string_ext(plan_json, JSON_C_TO_STRING_PLAIN);
	memset(&plan, 0, sizeof(plan));
	if (plan_parse_json(v->manifest_path, text, strlen(text), &plan) < 0) {
		say(v, false, "rebuild", "the manifest's plan cannot be read");
		return;
	}
	snprintf(epoch, sizeof(epoch), "%" PRId64,
		 json_object_get_int64(json_object_object_get(v->manifest, "source_date_epoch")));
	setenv("SOURCE_DATE_EPOCH", epoch, 1);
	snprintf(out, sizeof(out), "%s/buildapp-verify-XXXXXX", tmp && *tmp ? tmp : "/var/tmp");
	if (tempfiles_mkdtemp_owned(out) < 0) {
		plan_release(&plan);
		say(v, false, "rebuild", "cannot make a temporary directory");
		return;
	}
	const char *format = manifest_string(v->manifest, "image", "format");
	struct kit_options o = {
		.outdir = out,
		.format = format ? name_table_lookup(&image_format_names, format) : -1,
		.cache_dir = cache,
	};
	int r = kit_build(&plan.profile, &o);
	snprintf(path, sizeof(path), "%s/%s.manifest.json", out, plan.profile.appliance.name);
	plan_release(&plan);
	_cleanup_(json_object_putp) json_object *again = r < 0 ? NULL : json_object_from_file(path);
	if (!again) {
		say(v, false, "rebuild", "the build failed (see above)");
		return;
	}
	const char *want = manifest_string(v->manifest, "image", "sha256");
	const char *got = manifest_string(again, "image", "sha256");
	char detail[PATH_MAX];
	if (got && want && strcmp(got, want) == 0) {
		snprintf(detail, sizeof(detail), "byte-identical (image sha256 %s)", got);
		say(v, true, "rebuild", detail);
		return;
	}
	/* Every listed file that differs: the innermost (an initrd:/ file)
	 * says why the ones that hold it (the initramfs, the image) do. */
	size_t used = (size_t)snprintf(detail, sizeof(detail), "not identical; differ:");
	unsigned n_differ = 0;
	for (size_t i = 0; i < manifest_n_files(v->manifest) &&
			   used < sizeof(detail);
	     i++) {
		const char *n = manifest_file_path(v->manifest, i);
		if (!n)
			continue;
		const char *a = manifest_file(v->manifest, n, NULL), *b = manifest_file(again, n, NULL);
		if (b && strcmp(a, b) == 0)
			continue;
		used += (size_t)snprintf(detail + used, sizeof(detail) - used, "%s %s",
					 n_differ++ ? "," : "", n);
	}
	if (!n_differ)
		snprintf(detail, sizeof(detail), "not identical: the image differs outside the "
			 "listed files (partition table, file systems)");
	if (packages && used < sizeof(detail))
		snprintf(detail + strlen(detail), sizeof(detail) - strlen(detail),
			 " (packages differ, above)");
	say(v, false, "rebuild", detail);
}

int cmd_verify(int argc, char **argv)
{
	static const struct option opts[] = {
		{"manifest", required_argument, NULL, 'm'},
		{"key", required_argument, NULL, 'k'},
		{"rebuild", no_argument, NULL, 'r'},
		{"cache", required_argument, NULL, 'c'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	const char *manifest = NULL, *key = NULL, *cache = NULL;
	struct verify v = {0};
	bool again = false;
	char scratch[PATH_MAX];
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'm': manifest = optarg; break;
		case 'k': key = optarg; break;
		case 'r': again = true; break;
		case 'c': cache = optarg; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return EXIT_BAD_INPUT;
		}
	}
	if (optind + 1 != argc) {
		usage(stderr);
		return EXIT_BAD_INPUT;
	}
	if (key && access(key, R_OK) < 0) {
		log_error("--key '%s': %s", key, strerror(errno));
		return EXIT_BAD_INPUT;
	}
	if (locate(&v, argv[optind], manifest) < 0 || load_manifest(&v) < 0) {
		json_object_put(v.manifest);
		return EXIT_BAD_INPUT;
	}
	tempfiles_remove_on_signal();
	if (tempfiles_scratch(scratch, sizeof(scratch)) < 0) {
		json_object_put(v.manifest);
		return 1;
	}
	printf("kit of %s (buildapp %s)\n", v.manifest_path,
	       manifest_string(v.manifest, "builder", "version") ?: "?");
	check_signature(&v, key, scratch);
	if (v.image[0])
		check_image(&v, scratch);
	if (v.iso[0])
		check_iso(&v);
	if (v.netboot[0])
		check_netboot(&v);
	if (again)
		rebuild(&v, cache);
	tempfiles_remove_all();
	json_object_put(v.manifest);
	if (v.differ)
		printf("%u of %u checks failed\n", v.differ, v.checked);
	else
		printf("all %u checks match the manifest\n", v.checked);
	return v.differ ? 1 : 0;
}
