#include "guestimage.h"

#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <glob.h>
#include <guestfs.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cas.h"
#include "cleanup.h"
#include "guestproto.h"
#include "gfshandle.h"
#include "log.h"
#include "parse.h"
#include "tempfiles.h"

DEFINE_TRIVIAL_CLEANUP_FUNC(struct cas, cas_free)
DEFINE_TRIVIAL_CLEANUP_FUNC(struct archive, archive_write_free)
DEFINE_TRIVIAL_CLEANUP_FUNC(struct archive_entry, archive_entry_free)
DEFINE_TRIVIAL_CLEANUP_FUNC(guestfs_h, guestfs_close)

#define IMAGE_FORMAT "buildapp-guestimage-1"
#define TARBALL_FORMAT "buildapp-tarball-2"
#define FILES_PER_DIR 64
#define MiB (1ull << 20)

/* xorshift64*: a fixed sequence, so a size always gives the same tar. */
static uint64_t next(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ull;
}

/* Fills BUF with LEN bytes of C-like text: tokens of a small vocabulary
 * in lines, so the files compress about as kernel sources do (random
 * letters would make the kit's pristine disk twice as big). */
static void fill_source_text(char *buf, size_t len, uint64_t *seed)
{
	static const char *const tokens[] = {
		"int ", "return ", "struct ", "static ", "const ", "unsigned ",
		"if (", "else ", "for (", "while (", "break;", "goto out;",
		"NULL", "err", "ret", "dev", "buf", "len", "size", "flags",
		"-> ", "= ", "== ", "!= ", "&& ", "|| ", "+ ", "- ", "* ",
		"0", "1", "i", "j", "(", ")", "{", "}", "[", "]", ";", ", ",
		"page", "inode", "sb", "bio", "req", "q", "sector", "count",
		"lock", "unlock", "spin_", "mutex_", "kmalloc(", "kfree(",
		"GFP_KERNEL", "EINVAL", "ENOMEM", "/* ", " */", "#define ",
		"#include <linux/", ".h>", "\t", "\t\t",
	};
	size_t n = 0, col = 0;

	while (n < len) {
		const char *t = tokens[next(seed) % (sizeof(tokens) / sizeof(tokens[0]))];
		for (; *t && n < len; t++, col++)
			buf[n++] = *t;
		if (col >= 60 && n < len) {
			buf[n++] = '\n';
			col = 0;
		}
	}
}

int guestimage_generate_tarball(const char *path, uint64_t total)
{
	_cleanup_(archive_write_freep) struct archive *a = archive_write_new();
	_cleanup_free_ char *buf = malloc(32768);
	uint64_t seed = 0x6275696c64617070ull, written = 0;
	char name[64];

	if (!a || !buf)
		return log_error_code(-ENOMEM, "out of memory");
	if (archive_write_set_format_pax_restricted(a) != ARCHIVE_OK ||
	    archive_write_open_filename(a, path) != ARCHIVE_OK)
		goto fail;
	for (unsigned i = 0; written < total; i++) {
		_cleanup_(archive_entry_freep) struct archive_entry *e =
			archive_entry_new();
		if (!e)
			return log_error_code(-ENOMEM, "out of memory");
		/* Source-tree-like: directories of small files, sizes spread
		 * from 256 bytes to 32 KiB (kernel sources average ~15K). */
		size_t size = 256 + next(&seed) % (32768 - 256);
		if (size > total - written)
			size = total - written;
		fill_source_text(buf, size, &seed);
		if (i % FILES_PER_DIR == 0) {
			_cleanup_(archive_entry_freep) struct archive_entry *d =
				archive_entry_new();
			snprintf(name, sizeof(name), "src/d%05u/",
				 i / FILES_PER_DIR);
			archive_entry_set_pathname(d, name);
			archive_entry_set_filetype(d, AE_IFDIR);
			archive_entry_set_perm(d, 0755);
			if (archive_write_header(a, d) != ARCHIVE_OK)
				goto fail;
		}
		snprintf(name, sizeof(name), "src/d%05u/f%05u.c",
			 i / FILES_PER_DIR, i);
		archive_entry_set_pathname(e, name);
		archive_entry_set_filetype(e, AE_IFREG);
		archive_entry_set_perm(e, 0644);
		archive_entry_set_size(e, size);
		if (archive_write_header(a, e) != ARCHIVE_OK ||
		    archive_write_data(a, buf, size) < 0)
			goto fail;
		written += size;
	}
	if (archive_write_close(a) != ARCHIVE_OK)
		goto fail;
	return 0;
fail:
	log_error("tarball '%s': %s", path, archive_error_string(a));
	unlink(path);
	return -EIO;
}

/* The linux-source package's tarball, the newest if several. */
static bool find_linux_source(char *ret, size_t len)
{
	glob_t g;
	bool found = false;
	if (glob("/usr/src/linux-source-*.tar.*", 0, NULL, &g) == 0 &&
	    g.gl_pathc > 0) {
		snprintf(ret, len, "%s", g.gl_pathv[g.gl_pathc - 1]);
		found = true;
	}
	globfree(&g);
	return found;
}

static int tarball_source(const struct profile *p, const char *cache,
			  char *ret, size_t len)
{
	const char *t = p->workload.tarball;
	if (strcmp(t, "auto") == 0 && find_linux_source(ret, len))
		return 0;
	if (strcmp(t, "auto") != 0 && strcmp(t, "generated") != 0) {
		if (access(t, R_OK) != 0)
			return log_error_errno(-errno, "tarball '%s'", t);
		snprintf(ret, len, "%s", t);
		return 0;
	}
	char size[32];
	snprintf(size, sizeof(size), "%" PRIu64, p->workload.tarball_size);
	_cleanup_(cas_freep) struct cas *c = cas_new("tarball");
	if (!c)
		return -ENOMEM;
	cas_add_str(c, TARBALL_FORMAT);
	cas_add_str(c, size);
	char base[PATH_MAX - 64], tmp[PATH_MAX + 32];
	int r = cas_path(c, cache, base, sizeof(base));
	if (r < 0)
		return log_error_errno(r, "cache '%s'", cache);
	snprintf(ret, len, "%s.tar", base);
	if (access(ret, R_OK) == 0)
		return 0;
	tempfiles_reap_tmp(ret);
	tempfiles_tmp_name(ret, tmp, sizeof(tmp));
	tempfiles_add(tmp, 0);
	if ((r = guestimage_generate_tarball(tmp, p->workload.tarball_size)) < 0) {
		tempfiles_forget(tmp);
		unlink(tmp);
		return r;
	}
	tempfiles_forget(tmp);
	if (rename(tmp, ret) < 0) {
		unlink(tmp);
		return log_error_errno(-errno, "cannot rename '%s'", tmp);
	}
	return 0;
}

/* guestfs tar-in's compress= name, from the file name. */
static const char *compression(const char *tarball)
{
	static const char *const ext[][2] = {
		{".tar.xz", "xz"},   {".txz", "xz"},       {".tar.gz", "gzip"},
		{".tgz", "gzip"},    {".tar.bz2", "bzip2"}, {".tar.zst", "zstd"},
	};
	size_t n = strlen(tarball);
	for (size_t i = 0; i < sizeof(ext) / sizeof(ext[0]); i++) {
		size_t m = strlen(ext[i][0]);
		if (n > m && strcmp(tarball + n - m, ext[i][0]) == 0)
			return ext[i][1];
	}
	return NULL;
}

/* The room the workloads of P need: the tarball, its extracted copy in
 * /tree, another one written by tarball-write, the largest benchmark
 * file, ext4's own overhead (journal, inode tables: ~5%, at least 16M). */
static uint64_t needed_size(const struct profile *p, const char *tarball)
{
	const struct profile_workload *w = &p->workload;
	struct stat st;
	uint64_t tar = *tarball && stat(tarball, &st) == 0
			       ? (uint64_t)st.st_size
			       : 0;
	/* A compressed source tarball unpacks to about 6 times its size;
	 * small files cost a 4K block each: count the tree 1.5 times. */
	uint64_t tree = (compression(tarball) ? 6 * tar : tar) * 3 / 2;
	uint64_t work = 0;
#define WANTS(k) (!w->kinds || (w->kinds & AXIS_BIT(k)))
	if (WANTS(WORKLOAD_FIO) && w->fio_size > work)
		work = w->fio_size;
	if (WANTS(WORKLOAD_BONNIE) && w->bonnie_size > work)
		work = w->bonnie_size;
	if (WANTS(WORKLOAD_DD) && w->dd_bs * w->dd_count > work)
		work = w->dd_bs * w->dd_count;
#undef WANTS
	uint64_t total = tar + 2 * tree + work;
	total += total / 20 + 16 * MiB;
	return (total + MiB - 1) / MiB * MiB;
}

static int fill(guestfs_h *g, const char *tarball)
{
	const char *dev = "/dev/sda";
	const char *z = compression(tarball);
	/* No lazy init: ext4lazyinit writing inode tables in the guest
	 * would disturb the first runs. */
	if (guestfs_mke2fs(g, dev, GUESTFS_MKE2FS_FSTYPE, "ext4",
			   GUESTFS_MKE2FS_LABEL, GUESTPROTO_FS_LABEL,
			   GUESTFS_MKE2FS_LAZYITABLEINIT, 0,
			   GUESTFS_MKE2FS_LAZYJOURNALINIT, 0, -1) < 0 ||
	    guestfs_mount(g, dev, "/") < 0 ||
	    guestfs_mkdir(g, "/" GUESTPROTO_DATA_DIR) < 0 ||
	    guestfs_mkdir(g, "/" GUESTPROTO_TREE_DIR) < 0 ||
	    guestfs_mkdir(g, "/" GUESTPROTO_WORK_DIR) < 0)
		return -EIO;
	if (!*tarball)
		return guestfs_umount_all(g) < 0 || guestfs_shutdown(g) < 0
			       ? -EIO
			       : 0;
	if (guestfs_upload(g, tarball,
			   "/" GUESTPROTO_DATA_DIR "/" GUESTPROTO_TARBALL) < 0)
		return -EIO;
	int r = z ? guestfs_tar_in_opts(g, tarball, "/" GUESTPROTO_TREE_DIR,
					GUESTFS_TAR_IN_OPTS_COMPRESS, z, -1)
		  : guestfs_tar_in_opts(g, tarball, "/" GUESTPROTO_TREE_DIR,
					-1);
	if (r < 0 || guestfs_umount_all(g) < 0 || guestfs_shutdown(g) < 0)
		return -EIO;
	return 0;
}

static int assemble(const char *path, uint64_t size, const char *tarball)
{
	/* Errors are reported once, below, with the image's name. */
	_cleanup_(guestfs_closep) guestfs_h *g = gfshandle_new();
	if (!g)
		return -ENOMEM;
	if (guestfs_disk_create(g, path, "raw", size, -1) < 0 ||
	    guestfs_add_drive_opts(g, path, GUESTFS_ADD_DRIVE_OPTS_FORMAT,
				   "raw", -1) < 0 ||
	    gfshandle_launch(g) < 0 || fill(g, tarball) < 0) {
		const char *e = guestfs_last_error(g);
		log_error("guest image '%s': %s", path,
			  e ? e : "libguestfs failed without a message");
		return -EIO;
	}
	return 0;
}

int guestimage_build(const struct profile *p, const char *cache_dir,
		     struct guestimage *ret)
{
	struct guestimage img = {0};
	char dir[PATH_MAX - 64], tmp[PATH_MAX + 32], size_s[32];
	int r;

	axis_mask kinds = p->workload.kinds;
	bool tar = !kinds || (kinds & (AXIS_BIT(WORKLOAD_TARBALL_WRITE) |
				       AXIS_BIT(WORKLOAD_TARBALL_READ)));
	/* A profile without tarball workloads gets an image without one. */
	if (tar && (r = tarball_source(p, cache_dir, img.tarball,
				       sizeof(img.tarball))) < 0)
		return r;
	uint64_t need = needed_size(p, img.tarball);
	img.size = p->storage.size ? p->storage.size : need;
	if (img.size < need) {
		char a[32], b[32];
		log_error("[storage] size: the guest disk needs at least %s "
			  "for the workload data, not %s",
			  format_size(need, a, sizeof(a)),
			  format_size(img.size, b, sizeof(b)));
		return -EINVAL;
	}

	_cleanup_(cas_freep) struct cas *c = cas_new("image");
	if (!c)
		return -ENOMEM;
	cas_add_str(c, IMAGE_FORMAT);
	snprintf(size_s, sizeof(size_s), "%" PRIu64, img.size);
	cas_add_str(c, size_s);
	if ((tar && (r = cas_add_file(c, img.tarball)) < 0) ||
	    (r = cas_path(c, cache_dir, dir, sizeof(dir))) < 0)
		return log_error_errno(r, "guest image cache");
	snprintf(img.path, sizeof(img.path), "%s/disk.img", dir);
	if (access(img.path, R_OK) == 0) {
		img.cached = 1;
		*ret = img;
		return 0;
	}
	if (mkdir(dir, 0755) < 0 && errno != EEXIST)
		return log_error_errno(-errno, "cannot create '%s'", dir);
	tempfiles_reap_tmp(img.path);
	tempfiles_tmp_name(img.path, tmp, sizeof(tmp));
	tempfiles_add(tmp, 0);
	r = assemble(tmp, img.size, img.tarball);
	tempfiles_forget(tmp);
	if (r == 0 && rename(tmp, img.path) < 0)
		r = log_error_errno(-errno, "cannot rename '%s'", tmp);
	if (r < 0) {
		unlink(tmp);
		return r;
	}
	*ret = img;
	return 0;
}
