#include "image.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cleanup.h"
#include "extents.h"
#include "gfs.h"
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

/* A libguestfs call costs about 0.25 s under TCG, copying 4 MiB about as
 * much: data extents closer than this are copied as one. */
#define COPY_MERGE_GAP (4 * MIB)

struct copying {
	guestfs_h *g;
	const char *src, *dst;
	off_t start, end; /* the pending run of extents; start < 0: none */
	off_t size;       /* of the host file, for progress */
	bool copy_failed; /* reported by gfs_error */
};

static int copy_pending(struct copying *c)
{
	if (c->start < 0)
		return 0;
	if (guestfs_copy_device_to_device(
		    c->g, c->src, c->dst, GUESTFS_COPY_DEVICE_TO_DEVICE_SRCOFFSET,
		    (int64_t)c->start, GUESTFS_COPY_DEVICE_TO_DEVICE_DESTOFFSET,
		    (int64_t)c->start, GUESTFS_COPY_DEVICE_TO_DEVICE_SIZE,
		    (int64_t)(c->end - c->start), GUESTFS_COPY_DEVICE_TO_DEVICE_SPARSE,
		    1, -1) < 0) {
		c->copy_failed = true;
		return gfs_error(c->g, c->dst);
	}
	progress_update((uint64_t)c->end, (uint64_t)c->size);
	c->start = -1;
	return 0;
}

/* One data extent: joins the pending run when close enough, else the run
 * is copied and this one starts the next. */
static int copy_extent(off_t start, off_t end, void *opaque)
{
	struct copying *c = opaque;

	if (c->start >= 0 && start - c->end > (off_t)COPY_MERGE_GAP) {
		int r = copy_pending(c);
		if (r < 0)
			return r;
	}
	if (c->start < 0)
		c->start = start;
	c->end = end;
	return 0;
}

/* Copies the data extents of the host file HOST, attached as SRC, to
 * the same offsets of DST.  DST is part of a new sparse disk, so its
 * holes are zeros already: a mostly empty filesystem costs what it
 * holds, not its size (a whole-device copy reads every byte through the
 * emulated disk).  Zeros in a merged gap are not written (sparse). */
static int copy_extents(guestfs_h *g, const char *host, const char *src,
			const char *dst)
{
	_cleanup_close_ int fd = open(host, O_RDONLY | O_CLOEXEC);
	struct stat st;

	if (fd < 0 || fstat(fd, &st) < 0)
		return log_error_errno(-errno, "'%s'", host);
	struct copying c = {.g = g, .src = src, .dst = dst, .start = -1,
			    .size = st.st_size};
	int r = extents_for_each(fd, st.st_size, copy_extent, &c);
	if (r == 0)
		r = copy_pending(&c);
	if (r < 0 && !c.copy_failed) /* lseek's */
		return log_error_errno(r, "'%s'", host);
	return r;
}

/* Copies the two filesystems into the partitioned disk DISK: the one
 * libguestfs launch of a build. */
static int assemble(const char *disk, const char *esp, const char *results)
{
	_cleanup_guestfs_ guestfs_h *g = gfs_open();
	int r;

	if (!g)
		return -ENOMEM;
	if (guestfs_add_drive_opts(g, disk, GUESTFS_ADD_DRIVE_OPTS_FORMAT, "raw",
				   GUESTFS_ADD_DRIVE_OPTS_CACHEMODE, "unsafe",
				   -1) < 0 ||
	    guestfs_add_drive_opts(g, esp, GUESTFS_ADD_DRIVE_OPTS_FORMAT, "raw",
				   GUESTFS_ADD_DRIVE_OPTS_READONLY, 1, -1) < 0 ||
	    guestfs_add_drive_opts(g, results, GUESTFS_ADD_DRIVE_OPTS_FORMAT,
				   "raw", GUESTFS_ADD_DRIVE_OPTS_READONLY, 1,
				   -1) < 0)
		return gfs_error(g, "adding the disks");
	r = gfs_launch(g);
	if (r < 0)
		return r;

	progress_step("copying the ESP");
	r = copy_extents(g, esp, "/dev/sdb", "/dev/sda1");
	if (r == 0) {
		progress_step("copying the RESULTS filesystem");
		r = copy_extents(g, results, "/dev/sdc", "/dev/sda2");
	}
	if (r < 0)
		return r;
	progress_step("closing the libguestfs appliance");
	if (guestfs_shutdown(g) < 0)
		return gfs_error(g, "libguestfs shutdown");
	return 0;
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
		r = assemble(raw, esp, results);
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
