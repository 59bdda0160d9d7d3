/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "image.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <libgen.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cleanup.h"
#include "extents.h"
#include "log.h"
#include "progress.h"
#include "parse.h"
#include "repro.h"
#include "command.h"
#include "tempfiles.h"
#include "tool.h"

#define MIB (1ULL << 20)
#define ESP_START_SECTOR 2048ULL /* 1 MiB alignment */
#define GPT_TAIL_SECTORS 34ULL   /* backup header + entries */
#define ESP_TYPE "C12A7328-F81F-11D2-BA4B-00A0C93EC93B"
#define LINUX_FS_TYPE "0FC63DAF-8483-4772-8E79-3D69D8477DE4"
#define MBR_BOOT_CODE_SIZE 440

/* The temporaries of one build, all inside one directory next to the
 * output so the final rename stays on one filesystem. */
struct workdir {
	char dir[PATH_MAX - 64]; /* leaves room for the leaf names */
	char path[PATH_MAX]; /* scratch for temp_path() */
};

static uint64_t round_up(uint64_t v, uint64_t to)
{
	return (v + to - 1) / to * to;
}

static int workdir_create(struct workdir *w, const char *output)
{
	char d[PATH_MAX], b[PATH_MAX];
	int n;

	snprintf(d, sizeof(d), "%s", output);
	snprintf(b, sizeof(b), "%s", output);
	n = snprintf(w->dir, sizeof(w->dir), "%s/.%s.build-XXXXXX", dirname(d),
		     basename(b));
	if (n < 0 || (size_t)n >= sizeof(w->dir))
		return log_error_code(-ENAMETOOLONG, "output path too long: %s",
				      output);
	if (!mkdtemp(w->dir)) {
		int r = -errno;
		return log_error_errno(r, "cannot create a temporary directory "
				       "next to '%s'",
				       output);
	}
	return tempfiles_add(w->dir, 1);
}

/* Path of LEAF in the work directory, registered for removal.  Valid until
 * the next call. */
static const char *temp_path(struct workdir *w, const char *leaf)
{
	snprintf(w->path, sizeof(w->path), "%s/%s", w->dir, leaf);
	if (tempfiles_add(w->path, 0) < 0)
		log_warning("too many temporary files: '%s' may be left behind",
			    w->path);
	return w->path;
}

static int write_file(const char *path, const char *text)
{
	_cleanup_fclose_ FILE *f = fopen(path, "we");

	if (!f || fputs(text, f) < 0 || fflush(f) != 0) {
		int r = -errno;
		return log_error_errno(r, "cannot write '%s'", path);
	}
	return 0;
}

static int file_size(const char *path, uint64_t *ret)
{
	struct stat st;

	if (stat(path, &st) < 0) {
		int r = -errno;
		return log_error_errno(r, "'%s'", path);
	}
	if (!S_ISREG(st.st_mode))
		return log_error_code(-EINVAL, "'%s': not a regular file", path);
	*ret = (uint64_t)st.st_size;
	return 0;
}

/* The command line goes into two config files, one line each. */
static int check_cmdline(const char *cmdline)
{
	for (const char *p = cmdline; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			return log_error_code(-EINVAL, "kernel command line: "
					      "control character");
		else if (*p == '\'')
			return log_error_code(-EINVAL, "kernel command line: a "
					      "quote (GRUB's configuration quotes each word)");
	if (strlen(cmdline) > 2048)
		return log_error_code(-EINVAL, "kernel command line longer "
				      "than 2048 bytes");
	return 0;
}

struct boot_files {
	char syslinux_cfg[PATH_MAX];
	char grub_cfg[PATH_MAX];
};

/* CMDLINE with each word in single quotes, for GRUB's `linux` line: GRUB
 * reads it as sh would ($, ;, braces), the kernel gets it as it was. */
static void grub_words(const char *cmdline, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (const char *p = cmdline; *p && used + 4 < len;) {
		size_t n = strcspn(p, " ");
		if (n)
			used += (size_t)snprintf(buf + used, len - used, " '%.*s'", (int)n, p);
		p += n;
		p += strspn(p, " ");
	}
}

static int write_boot_config(struct workdir *w, const struct image_spec *spec,
			     struct boot_files *ret)
{
	char text[4096];
	int r;

	snprintf(ret->syslinux_cfg, PATH_MAX, "%s", temp_path(w, "syslinux.cfg"));
	snprintf(text, sizeof(text),
		 "DEFAULT buildapp\nPROMPT 0\nTIMEOUT 0\n"
		 "LABEL buildapp\n  MENU LABEL %s\n  LINUX /vmlinuz\n"
		 "  INITRD /initrd\n  APPEND %s\n",
		 spec->name, spec->cmdline);
	r = write_file(ret->syslinux_cfg, text);
	if (r < 0)
		return r;
	char words[3072];
	grub_words(spec->cmdline, words, sizeof(words));
	snprintf(ret->grub_cfg, PATH_MAX, "%s", temp_path(w, "grub.cfg"));
	snprintf(text, sizeof(text),
		 "set default=0\nset timeout=0\n"
		 "menuentry '%s' {\n\tlinux /vmlinuz%s\n\tinitrd /initrd\n}\n",
		 spec->name, words);
	return write_file(ret->grub_cfg, text);
}

static int make_filesystems(struct workdir *w, const struct image_spec *spec,
			    uint64_t esp_size, uint64_t results_size,
			    char esp_path[PATH_MAX], char results_path[PATH_MAX])
{
	struct boot_files bf;
	struct fsimage_file files[16];
	unsigned n = 0;
	char uuid[REPRO_UUID_LEN], seed[REPRO_UUID_LEN];
	int r;

	if (spec->n_extra_files > 10)
		return log_error_code(-E2BIG, "too many extra files for the ESP");
	r = write_boot_config(w, spec, &bf);
	if (r < 0)
		return r;
	files[n++] = (struct fsimage_file){spec->kernel, "/vmlinuz"};
	files[n++] = (struct fsimage_file){spec->initrd, "/initrd"};
	files[n++] = (struct fsimage_file){bf.syslinux_cfg, "/syslinux.cfg"};
	files[n++] = (struct fsimage_file){IMAGE_SHIM, "/EFI/BOOT/BOOTX64.EFI"};
	files[n++] = (struct fsimage_file){IMAGE_GRUB, "/EFI/BOOT/grubx64.efi"};
	files[n++] = (struct fsimage_file){bf.grub_cfg, IMAGE_GRUB_CFG};
	for (unsigned i = 0; i < spec->n_extra_files; i++)
		files[n++] = spec->extra_files[i];

	static const char *const dirs[] = {"/EFI", "/EFI/BOOT", "/EFI/debian", NULL};
	snprintf(esp_path, PATH_MAX, "%s", temp_path(w, "esp.img"));
	progress_step("making the ESP (FAT32, SYSLINUX, shim and GRUB)");
	r = fsimage_make_esp(&(struct fsimage_esp){
		.path = esp_path,
		.size = esp_size,
		.start_sector = ESP_START_SECTOR,
		.serial = repro_u32(spec->name, spec->epoch, "esp-serial"),
		.label = IMAGE_ESP_LABEL,
		.dirs = dirs,
		.files = files,
		.n_files = n,
		.syslinux = 1,
		.epoch = spec->epoch,
	});
	if (r < 0)
		return r;

	snprintf(results_path, PATH_MAX, "%s", temp_path(w, "results.img"));
	repro_uuid(spec->name, spec->epoch, "results-uuid", uuid);
	repro_uuid(spec->name, spec->epoch, "results-hash-seed", seed);
	progress_step("making the RESULTS filesystem (ext4)");
	return fsimage_make_ext4(&(struct fsimage_ext4){
		.path = results_path,
		.size = results_size,
		.label = IMAGE_RESULTS_LABEL,
		.uuid = uuid,
		.hash_seed = seed,
		.epoch = spec->epoch,
	});
}

static int read_mbr_code(char buf[MBR_BOOT_CODE_SIZE])
{
	_cleanup_close_ int fd = open(IMAGE_GPTMBR, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0) {
		int r = -errno;
		return log_error_code(r, "'%s': %s (package syslinux-common)",
				      IMAGE_GPTMBR, strerror(-r));
	}
	n = read(fd, buf, MBR_BOOT_CODE_SIZE);
	if (n != MBR_BOOT_CODE_SIZE)
		return log_error_code(-EIO, "'%s': shorter than %d bytes",
				      IMAGE_GPTMBR, MBR_BOOT_CODE_SIZE);
	return 0;
}

struct layout {
	uint64_t disk_size;
	uint64_t esp_start, esp_end; /* sectors, inclusive */
	uint64_t results_start, results_end;
};

/* The GPT of DISK (a sparse file of l->disk_size bytes), written on the
 * host by sfdisk in one call (libguestfs would take a partition rescan
 * per change), and gptmbr.bin's boot code in the protective MBR. */
static int partition(const struct image_spec *spec, const struct layout *l,
		     struct workdir *w, const char *disk)
{
	char disk_guid[REPRO_UUID_LEN], esp_guid[REPRO_UUID_LEN],
		results_guid[REPRO_UUID_LEN], mbr[MBR_BOOT_CODE_SIZE];
	char script[1024], script_path[PATH_MAX];
	int r;

	progress_step("partitioning (GPT)");
	r = read_mbr_code(mbr);
	if (r < 0)
		return r;
	repro_uuid(spec->name, spec->epoch, "gpt-disk", disk_guid);
	repro_uuid(spec->name, spec->epoch, "gpt-esp", esp_guid);
	repro_uuid(spec->name, spec->epoch, "gpt-results", results_guid);
	snprintf(script, sizeof(script),
		 "label: gpt\n"
		 "label-id: %s\n"
		 "start=%" PRIu64 ", size=%" PRIu64 ", type=%s, uuid=%s, "
		 "name=\"ESP\", attrs=\"LegacyBIOSBootable\"\n"
		 "start=%" PRIu64 ", size=%" PRIu64 ", type=%s, uuid=%s, "
		 "name=\"" IMAGE_RESULTS_LABEL "\"\n",
		 disk_guid, l->esp_start, l->esp_end - l->esp_start + 1, ESP_TYPE,
		 esp_guid, l->results_start, l->results_end - l->results_start + 1,
		 LINUX_FS_TYPE, results_guid);
	snprintf(script_path, sizeof(script_path), "%s", temp_path(w, "gpt.sfdisk"));
	r = write_file(script_path, script);
	if (r < 0)
		return r;
	char *argv[] = {"sfdisk", "--quiet", "--no-reread", "--no-tell-kernel",
			(char *)disk, NULL};
	r = tool_run(argv, script_path, NULL);
	if (r < 0)
		return r;
	_cleanup_close_ int fd = open(disk, O_WRONLY | O_CLOEXEC);
	if (fd < 0 || pwrite(fd, mbr, MBR_BOOT_CODE_SIZE, 0) != MBR_BOOT_CODE_SIZE)
		return log_error_errno(errno ? -errno : -EIO, "writing gptmbr.bin "
				       "into '%s'", disk);
	return 0;
}

#define COPY_CHUNK (1 << 20)
#define ZERO_BLOCK 4096 /* the unit of the holes left in the disk */

static bool all_zero(const unsigned char *p, size_t n)
{
	return n == 0 || (p[0] == 0 && memcmp(p, p + 1, n - 1) == 0);
}

struct copying {
	int in, out;
	off_t offset; /* of the partition in the disk */
	off_t size;   /* of the filesystem image, for progress */
	unsigned char *buf;
};

/* Writes the N bytes of C->buf read at POS, but for the blocks of
 * zeros, each run of other blocks in one pwrite. */
static int write_data(struct copying *c, size_t n, off_t pos)
{
	for (size_t i = 0; i < n;) {
		size_t len = n - i < ZERO_BLOCK ? n - i : ZERO_BLOCK;
		if (all_zero(c->buf + i, len)) {
			i += len;
			continue;
		}
		size_t j = i + len;
		while (j < n) {
			size_t k = n - j < ZERO_BLOCK ? n - j : ZERO_BLOCK;
			if (all_zero(c->buf + j, k))
				break;
			j += k;
		}
		if (pwrite(c->out, c->buf + i, j - i, c->offset + pos + (off_t)i) !=
		    (ssize_t)(j - i))
			return errno ? -errno : -EIO;
		i = j;
	}
	return 0;
}

/* One data extent of the filesystem image, written at the same offset
 * of its partition.  The disk is a new sparse file, so its holes are
 * zeros already: blocks of zeros are not written, and a mostly empty
 * filesystem costs what it holds, not its size. */
static int copy_extent(off_t start, off_t end, void *opaque)
{
	struct copying *c = opaque;

	for (off_t pos = start; pos < end;) {
		size_t want = end - pos < COPY_CHUNK ? (size_t)(end - pos) : COPY_CHUNK;
		ssize_t n = pread(c->in, c->buf, want, pos);
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		int r = write_data(c, (size_t)n, pos);
		if (r < 0)
			return r;
		pos += n;
	}
	progress_update((uint64_t)end, (uint64_t)c->size);
	return 0;
}

/* Copies the data extents of the filesystem image FS into DISK at byte
 * OFFSET (its partition), on the host: the ESP and RESULTS are plain
 * files, so no libguestfs launch is needed to place them. */
static int copy_into(const char *disk, off_t offset, const char *fs)
{
	_cleanup_close_ int in = open(fs, O_RDONLY | O_CLOEXEC);
	_cleanup_close_ int out = open(disk, O_WRONLY | O_CLOEXEC);
	_cleanup_free_ unsigned char *buf = malloc(COPY_CHUNK);
	struct stat st;

	if (in < 0 || fstat(in, &st) < 0)
		return log_error_errno(-errno, "'%s'", fs);
	if (out < 0)
		return log_error_errno(-errno, "'%s'", disk);
	if (!buf)
		return log_error_errno(-ENOMEM, "copying '%s'", fs);
	struct copying c = {.in = in, .out = out, .offset = offset,
			    .size = st.st_size, .buf = buf};
	int r = extents_for_each(in, st.st_size, copy_extent, &c);
	if (r < 0)
		return log_error_errno(r, "copying '%s' into '%s'", fs, disk);
	return 0;
}

/* Places the two filesystems in their partitions of DISK. */
static int assemble(const struct layout *l, const char *disk, const char *esp,
		    const char *results)
{
	progress_step("copying the ESP");
	int r = copy_into(disk, (off_t)(l->esp_start * 512), esp);
	if (r < 0)
		return r;
	progress_step("copying the RESULTS filesystem");
	return copy_into(disk, (off_t)(l->results_start * 512), results);
}

static int to_qcow2(const char *raw, const char *qcow2)
{
	/* qemu-img writes clusters in order, so the file is reproducible;
	 * writing qcow2 from inside the appliance would follow its page
	 * cache's writeback order. */
	char *argv[] = {"qemu-img", "convert", "-q", "-f", "raw", "-O", "qcow2",
			"-o", "compat=1.1", (char *)raw, (char *)qcow2, NULL};
	int r;

	progress_step("converting to qcow2");
	r = command_run(argv, NULL, 1);
	if (r != 0)
		return log_error_errno(r < 0 ? r : -EIO,
				       "qemu-img convert to qcow2 failed");
	return 0;
}

static int sync_file(const char *path)
{
	_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0 || fsync(fd) < 0) {
		int r = -errno;
		return log_error_errno(r, "'%s'", path);
	}
	return 0;
}

static int compute_layout(const struct image_spec *spec, struct layout *ret)
{
	uint64_t ksize, isize, esp_size, results_size, min_size;
	int r;

	r = file_size(spec->kernel, &ksize);
	if (r == 0)
		r = file_size(spec->initrd, &isize);
	if (r < 0)
		return r;
	/* FAT32 tables, syslinux, shim, GRUB and room for one more kernel. */
	esp_size = round_up((ksize + isize) * 21 / 20 + 8 * MIB, MIB);
	if (esp_size < 64 * MIB)
		esp_size = 64 * MIB;
	results_size = spec->results_size ? spec->results_size
					  : IMAGE_DEFAULT_RESULTS_SIZE;
	results_size = round_up(results_size, MIB);
	min_size = ESP_START_SECTOR * 512 + esp_size + results_size + MIB;
	if (spec->size && spec->size < min_size) {
		char want[32], have[32];
		return log_error_code(-EINVAL, "image size %s is too small: "
				      "kernel, initramfs and RESULTS need %s",
				      format_size(spec->size, have, sizeof(have)),
				      format_size(min_size, want, sizeof(want)));
	}
	ret->disk_size = spec->size ? round_up(spec->size, MIB) : min_size;
	ret->esp_start = ESP_START_SECTOR;
	ret->esp_end = ESP_START_SECTOR + esp_size / 512 - 1;
	ret->results_start = ret->esp_end + 1;
	/* RESULTS takes the rest, up to the last usable sector. */
	ret->results_end = ret->disk_size / 512 - GPT_TAIL_SECTORS - 1;
	return 0;
}

/* The work directory of a build of SPEC, after its command line is
 * checked. */
static int build_begin(struct workdir *w, const struct image_spec *spec)
{
	int r = check_cmdline(spec->cmdline);

	if (r < 0)
		return r;
	tempfiles_remove_on_signal();
	return workdir_create(w, spec->output);
}

/* FINAL, complete, synced and renamed to OUTPUT. */
static int build_finish(const char *final, const char *output)
{
	int r = sync_file(final);

	if (r == 0 && rename(final, output) < 0)
		r = log_error_errno(-errno, "cannot rename '%s' to '%s'", final, output);
	if (r == 0)
		tempfiles_forget(final);
	return r;
}

int image_build(const struct image_spec *spec)
{
	struct workdir w;
	struct layout l = {0};
	char esp[PATH_MAX], results[PATH_MAX], raw[PATH_MAX], final[PATH_MAX];
	int r;

	unsigned long mark = tempfiles_mark();

	r = compute_layout(spec, &l);
	if (r == 0)
		r = build_begin(&w, spec);
	if (r < 0)
		return r;

	r = make_filesystems(&w, spec, (l.esp_end - l.esp_start + 1) * 512,
			     (l.results_end - l.results_start + 1) * 512, esp,
			     results);
	if (r < 0)
		goto fail;
	snprintf(raw, sizeof(raw), "%s", temp_path(&w, "disk.raw"));
	r = fsimage_make_sparse(raw, l.disk_size);
	if (r < 0)
		goto fail;
	r = partition(spec, &l, &w, raw);
	if (r == 0)
		r = assemble(&l, raw, esp, results);
	if (r < 0)
		goto fail;
	if (spec->format == IMAGE_FORMAT_QCOW2) {
		snprintf(final, sizeof(final), "%s", temp_path(&w, "disk.qcow2"));
		r = to_qcow2(raw, final);
		if (r < 0)
			goto fail;
	} else {
		snprintf(final, sizeof(final), "%s", raw);
	}
	r = build_finish(final, spec->output);
	if (r < 0)
		goto fail;
	tempfiles_remove_since(mark);
	return 0;

fail:
	tempfiles_remove_since(mark);
	return r;
}

/* YYYYMMDDhhmmsscc of EPOCH (UTC), xorriso's timestring. */
static void iso_time(uint64_t epoch, char buf[32])
{
	time_t t = (time_t)epoch;
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, 32, "%Y%m%d%H%M%S00", &tm);
}

int image_build_iso(const struct image_spec *spec)
{
	struct workdir w;
	struct boot_files bf;
	char efi[PATH_MAX], info[PATH_MAX], iso[PATH_MAX], when[32], dates[64], sde[48];
	char map[8][PATH_MAX + 64];
	unsigned long mark = tempfiles_mark();
	int r;

	r = build_begin(&w, spec);
	if (r < 0)
		return r;
	r = write_boot_config(&w, spec, &bf);
	if (r < 0)
		goto fail;
	snprintf(info, sizeof(info), "%s", temp_path(&w, "info"));
	char text[256];
	snprintf(text, sizeof(text), "buildapp kit %s\n", spec->name);
	r = write_file(info, text);
	if (r < 0)
		goto fail;
	/* UEFI's El Torito image: shim loads grubx64.efi from beside it. */
	static const char *const efi_dirs[] = {"/EFI", "/EFI/BOOT", NULL};
	const struct fsimage_file efi_files[] = {
		{IMAGE_SHIM, "/EFI/BOOT/BOOTX64.EFI"},
		{IMAGE_GRUB_CD, "/EFI/BOOT/grubx64.efi"},
	};
	snprintf(efi, sizeof(efi), "%s", temp_path(&w, "efi.img"));
	progress_step("making the CD's EFI boot image (shim and GRUB)");
	r = fsimage_make_esp(&(struct fsimage_esp){
		.path = efi,
		.size = 8ULL << 20,
		.serial = repro_u32(spec->name, spec->epoch, "iso-efi-serial"),
		.label = IMAGE_ESP_LABEL,
		.dirs = efi_dirs,
		.files = efi_files,
		.n_files = 2,
		.small = 1,
		.epoch = spec->epoch,
	});
	if (r < 0)
		goto fail;
	/* Every file's dates are the epoch's: the ones written here would
	 * carry the clock. */
	iso_time(spec->epoch, when);
	snprintf(dates, sizeof(dates), "--modification-date=%s", when);
	snprintf(sde, sizeof(sde), "SOURCE_DATE_EPOCH=%" PRIu64, spec->epoch);
	const char *const graft[][2] = {
		{"/vmlinuz", spec->kernel},
		{"/initrd", spec->initrd},
		{"/isolinux/isolinux.bin", IMAGE_ISOLINUX},
		{"/isolinux/ldlinux.c32", IMAGE_LDLINUX_BIOS},
		{"/isolinux/isolinux.cfg", bf.syslinux_cfg},
		{"/boot/grub/grub.cfg", bf.grub_cfg},
		{"/boot/grub/efi.img", efi},
		{"/.disk/info", info},
	};
	for (size_t i = 0; i < 8; i++)
		snprintf(map[i], sizeof(map[i]), "%s=%s", graft[i][0], graft[i][1]);
	snprintf(iso, sizeof(iso), "%s", temp_path(&w, "kit.iso"));
	char *xorriso[] = {
		"xorriso", "-as", "mkisofs", "-quiet", "-o", iso, "-V", "BUILDAPP",
		"-R", "-J", "-graft-points", "-isohybrid-mbr", IMAGE_ISOHYBRID_MBR,
		"-c", "isolinux/boot.cat", "-b", "isolinux/isolinux.bin", "-no-emul-boot",
		"-boot-load-size", "4", "-boot-info-table", "-eltorito-alt-boot",
		"-e", "boot/grub/efi.img", "-no-emul-boot", "-isohybrid-gpt-basdat",
		"--set_all_file_dates", when, dates,
		map[0], map[1], map[2], map[3], map[4], map[5], map[6], map[7], NULL,
	};
	progress_step("writing the ISO image (xorriso)");
	/* Its banner and notes to a file, shown when it fails. */
	char xlog[PATH_MAX];
	snprintf(xlog, sizeof(xlog), "%s", temp_path(&w, "xorriso.log"));
	r = command_spawn(xorriso, &(struct command_opts){.env_extra = (char *[]){sde, NULL},
							   .stderr_path = xlog,
							   .out = COMMAND_OUT_STDERR},
			  NULL);
	if (r != 0) {
		char line[512];
		_cleanup_fclose_ FILE *f = fopen(xlog, "re");
		while (f && fgets(line, sizeof(line), f))
			fputs(line, stderr);
		r = log_error_code(r < 0 ? r : -EIO, "xorriso could not write the ISO image "
				   "(packages xorriso, isolinux, shim-signed, "
				   "grub-efi-amd64-signed)");
		goto fail;
	}
	r = build_finish(iso, spec->output);
	if (r < 0)
		goto fail;
	tempfiles_remove_since(mark);
	return 0;

fail:
	tempfiles_remove_since(mark);
	return r;
}
