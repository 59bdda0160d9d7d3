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
	if (strlen(cmdline) > 2048)
		return log_error_code(-EINVAL, "kernel command line longer "
				      "than 2048 bytes");
	return 0;
}

struct boot_files {
	char syslinux_cfg[PATH_MAX];
	char loader_conf[PATH_MAX];
	char entry_conf[PATH_MAX];
};

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
	snprintf(ret->loader_conf, PATH_MAX, "%s", temp_path(w, "loader.conf"));
	r = write_file(ret->loader_conf,
		       "default buildapp.conf\ntimeout 0\neditor no\n");
	if (r < 0)
		return r;
	snprintf(ret->entry_conf, PATH_MAX, "%s", temp_path(w, "buildapp.conf"));
	snprintf(text, sizeof(text),
		 "title %s\nlinux /vmlinuz\ninitrd /initrd\noptions %s\n",
		 spec->name, spec->cmdline);
	return write_file(ret->entry_conf, text);
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
	files[n++] = (struct fsimage_file){IMAGE_SYSTEMD_BOOT,
					   "/EFI/BOOT/BOOTX64.EFI"};
	files[n++] = (struct fsimage_file){bf.loader_conf, "/loader/loader.conf"};
	files[n++] = (struct fsimage_file){bf.entry_conf,
					   "/loader/entries/buildapp.conf"};
	for (unsigned i = 0; i < spec->n_extra_files; i++)
		files[n++] = spec->extra_files[i];

	static const char *const dirs[] = {"/EFI", "/EFI/BOOT", "/loader",
					   "/loader/entries", NULL};
	snprintf(esp_path, PATH_MAX, "%s", temp_path(w, "esp.img"));
	progress_step("making the ESP (FAT32, SYSLINUX, systemd-boot)");
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
	/* FAT32 tables, syslinux, systemd-boot and room for one more kernel. */
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

int image_build(const struct image_spec *spec)
{
	struct workdir w;
	struct layout l = {0};
	char esp[PATH_MAX], results[PATH_MAX], raw[PATH_MAX], final[PATH_MAX];
	int r;

	unsigned long mark = tempfiles_mark();

	r = check_cmdline(spec->cmdline);
	if (r == 0)
		r = compute_layout(spec, &l);
	if (r < 0)
		return r;
	tempfiles_remove_on_signal();
	r = workdir_create(&w, spec->output);
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
	r = sync_file(final);
	if (r < 0)
		goto fail;
	if (rename(final, spec->output) < 0) {
		r = -errno;
		log_error("cannot rename '%s' to '%s': %s", final, spec->output,
			  strerror(-r));
		goto fail;
	}
	tempfiles_forget(final);
	tempfiles_remove_since(mark);
	return 0;

fail:
	tempfiles_remove_since(mark);
	return r;
}
