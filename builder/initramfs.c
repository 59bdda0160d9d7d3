/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "initramfs.h"

#include <archive.h>
#include <archive_entry.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include "cleanup.h"
#include "log.h"
#include "progress.h"

struct initramfs {
	struct archive *ar;
	uint64_t epoch;
	int64_t ino;
	char root[PATH_MAX]; /* of the tree being added */
	uint64_t tree_bytes, tree_done; /* its regular files, for progress */
	/* With a long window: libarchive writes the plain cpio here and
	 * libzstd compresses it into FD (libarchive's own zstd filter has
	 * no long-distance matching). */
	ZSTD_CCtx *zc;
	int fd;
	char zbuf[1 << 17];
};

DEFINE_TRIVIAL_CLEANUP_FUNC(struct archive_entry, archive_entry_free)

static int ar_error(struct initramfs *a, const char *what)
{
	return log_error_code(-EIO, "initramfs: %s: %s", what,
			      archive_error_string(a->ar));
}

/* Compresses IN (MODE: ZSTD_e_continue or ZSTD_e_end) into A->fd. */
static int zwrite(struct initramfs *a, const void *in, size_t len,
		  ZSTD_EndDirective mode)
{
	ZSTD_inBuffer ib = {in, len, 0};
	size_t left;

	do {
		ZSTD_outBuffer ob = {a->zbuf, sizeof(a->zbuf), 0};
		left = ZSTD_compressStream2(a->zc, &ob, &ib, mode);
		if (ZSTD_isError(left))
			return log_error_code(-EIO, "initramfs: zstd: %s",
					      ZSTD_getErrorName(left));
		for (size_t off = 0; off < ob.pos;) {
			ssize_t n = write(a->fd, a->zbuf + off, ob.pos - off);
			if (n < 0)
				return log_error_errno(-errno, "writing the "
							       "initramfs");
			off += (size_t)n;
		}
	} while (mode == ZSTD_e_end ? left != 0 : ib.pos < ib.size);
	return 0;
}

static la_ssize_t zcallback(struct archive *ar, void *data, const void *buf,
			    size_t len)
{
	struct initramfs *a = data;
	int r = zwrite(a, buf, len, ZSTD_e_continue);

	if (r < 0) {
		archive_set_error(ar, -r, "compressing: %s", strerror(-r));
		return -1;
	}
	return (la_ssize_t)len;
}

/* LEVEL with two workers (streaming multi-threaded zstd gives the same
 * bytes for any number of workers, and this number is fixed anyway) and,
 * with WLOG, long-distance matching over a window of 2^WLOG bytes. */
static int zstart(struct initramfs *a, int level, int wlog)
{
	a->zc = ZSTD_createCCtx();
	if (!a->zc)
		return -ENOMEM;
	size_t e = ZSTD_CCtx_setParameter(a->zc, ZSTD_c_compressionLevel, level);
	if (!ZSTD_isError(e))
		e = ZSTD_CCtx_setParameter(a->zc, ZSTD_c_nbWorkers, 2);
	if (!ZSTD_isError(e) && wlog > 0)
		e = ZSTD_CCtx_setParameter(a->zc, ZSTD_c_enableLongDistanceMatching, 1);
	if (!ZSTD_isError(e) && wlog > 0)
		e = ZSTD_CCtx_setParameter(a->zc, ZSTD_c_windowLog, wlog);
	if (!ZSTD_isError(e))
		e = ZSTD_CCtx_setParameter(a->zc, ZSTD_c_checksumFlag, 1);
	if (ZSTD_isError(e))
		return log_error_code(-EINVAL, "initramfs: zstd level %d, "
					       "window 2^%d: %s",
				      level, wlog, ZSTD_getErrorName(e));
	return 0;
}

int initramfs_open(int fd, int level, uint64_t epoch, struct initramfs **ret)
{
	return initramfs_open_long(fd, level, -1, epoch, ret);
}

int initramfs_open_long(int fd, int level, int window_log, uint64_t epoch,
			struct initramfs **ret)
{
	struct initramfs *a = calloc(1, sizeof(*a));
	char opt[48];
	int r = 0;

	if (!a)
		return -ENOMEM;
	a->ar = archive_write_new();
	a->epoch = epoch;
	a->fd = fd;
	if (!a->ar) {
		free(a);
		return -ENOMEM;
	}
	if (level > 0 && window_log >= 0 && (r = zstart(a, level, window_log)) < 0)
		goto fail;
	snprintf(opt, sizeof(opt), "zstd:compression-level=%d", level);
	if (archive_write_set_format_cpio_newc(a->ar) != ARCHIVE_OK ||
	    (level > 0 && !a->zc &&
	     (archive_write_add_filter_zstd(a->ar) != ARCHIVE_OK ||
	      archive_write_set_options(a->ar, opt) != ARCHIVE_OK)) ||
	    /* No padding to 10 KiB blocks: archives are concatenated. */
	    archive_write_set_bytes_per_block(a->ar, 0) != ARCHIVE_OK ||
	    (a->zc ? archive_write_open(a->ar, a, NULL, zcallback, NULL)
		   : archive_write_open_fd(a->ar, fd)) != ARCHIVE_OK) {
		r = ar_error(a, "cannot start the archive");
		goto fail;
	}
	*ret = a;
	return 0;
fail:
	archive_write_free(a->ar);
	ZSTD_freeCCtx(a->zc);
	free(a);
	return r;
}

static struct archive_entry *new_entry(struct initramfs *a, const char *dest,
				       mode_t mode, int64_t size)
{
	struct archive_entry *e = archive_entry_new();

	if (!e)
		return NULL;
	archive_entry_set_pathname(e, dest);
	archive_entry_set_mode(e, mode);
	archive_entry_set_size(e, size);
	archive_entry_set_mtime(e, (time_t)a->epoch, 0);
	archive_entry_set_ino64(e, ++a->ino);
	archive_entry_set_nlink(e, S_ISDIR(mode) ? 2 : 1);
	return e;
}

static int write_fd_data(struct initramfs *a, int fd, const char *name)
{
	char buf[1 << 16];
	ssize_t n;

	while ((n = read(fd, buf, sizeof(buf))) > 0) {
		if (archive_write_data(a->ar, buf, (size_t)n) != n)
			return ar_error(a, name);
		a->tree_done += (uint64_t)n;
		progress_update(a->tree_done, a->tree_bytes);
	}
	if (n < 0) {
		int r = -errno;
		return log_error_errno(r, "reading '%s'", name);
	}
	return 0;
}

/* One tree entry; PATH on the host, DEST in the archive. */
static int add_path(struct initramfs *a, const char *path, const char *dest)
{
	_cleanup_(archive_entry_freep) struct archive_entry *e = NULL;
	_cleanup_close_ int fd = -1;
	struct stat st;
	char target[PATH_MAX];

	if (lstat(path, &st) < 0) {
		int r = -errno;
		return log_error_errno(r, "'%s'", path);
	}
	e = new_entry(a, dest, st.st_mode, S_ISREG(st.st_mode) ? st.st_size : 0);
	if (!e)
		return -ENOMEM;
	archive_entry_set_uid(e, st.st_uid);
	archive_entry_set_gid(e, st.st_gid);
	if (S_ISLNK(st.st_mode)) {
		ssize_t n = readlink(path, target, sizeof(target) - 1);
		if (n < 0)
			return log_error_errno(-errno, "'%s'", path);
		target[n] = '\0';
		archive_entry_set_symlink(e, target);
	} else if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode)) {
		archive_entry_set_rdev(e, st.st_rdev);
	} else if (S_ISREG(st.st_mode)) {
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return log_error_errno(-errno, "'%s'", path);
	} else if (!S_ISDIR(st.st_mode)) {
		return 0; /* sockets and fifos have no place in a root */
	}
	if (archive_write_header(a->ar, e) != ARCHIVE_OK)
		return ar_error(a, dest);
	return fd >= 0 ? write_fd_data(a, fd, path) : 0;
}

static int add_dir_contents(struct initramfs *a, const char *rel)
{
	char path[PATH_MAX];
	struct dirent **names = NULL;
	int n, r = 0;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", a->root, rel) >=
	    sizeof(path))
		return log_error_code(-ENAMETOOLONG, "path too long: %s", rel);
	n = scandir(path, &names, NULL, alphasort);
	if (n < 0)
		return log_error_errno(-errno, "'%s'", path);
	for (int i = 0; i < n; i++) {
		const char *name = names[i]->d_name;
		char child[PATH_MAX], host[PATH_MAX];
		struct stat st;

		if (r < 0 || strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
			goto next;
		if ((size_t)snprintf(child, sizeof(child), "%s%s%s", rel,
				     *rel ? "/" : "", name) >= sizeof(child) ||
		    (size_t)snprintf(host, sizeof(host), "%s/%s", a->root, child) >=
			    sizeof(host)) {
			r = log_error_code(-ENAMETOOLONG, "path too long: %s", name);
			goto next;
		}
		r = add_path(a, host, child);
		if (r == 0 && lstat(host, &st) == 0 && S_ISDIR(st.st_mode))
			r = add_dir_contents(a, child);
next:
		free(names[i]);
	}
	free(names);
	return r;
}

static uint64_t tree_bytes;

static int count_file(const char *path, const struct stat *st, int type,
		      struct FTW *ftw)
{
	(void)path, (void)ftw;
	if (type == FTW_F && S_ISREG(st->st_mode))
		tree_bytes += (uint64_t)st->st_size;
	return 0;
}

int initramfs_add_tree(struct initramfs *a, const char *dir)
{
	if (strlen(dir) >= sizeof(a->root))
		return -ENAMETOOLONG;
	snprintf(a->root, sizeof(a->root), "%s", dir);
	/* The total, for the progress of the current step. */
	tree_bytes = 0;
	if (nftw(dir, count_file, 64, FTW_PHYS) == 0)
		a->tree_bytes = tree_bytes;
	a->tree_done = 0;
	int r = add_dir_contents(a, "");
	a->tree_bytes = 0;
	return r;
}

/* An entry without data: a directory, a symlink (TARGET) or a device
 * node (RDEV). */
static int add_header(struct initramfs *a, const char *dest, mode_t mode,
		      const char *target, dev_t rdev)
{
	_cleanup_(archive_entry_freep) struct archive_entry *e =
		new_entry(a, dest, mode, 0);

	if (!e)
		return -ENOMEM;
	if (target)
		archive_entry_set_symlink(e, target);
	if (S_ISCHR(mode) || S_ISBLK(mode))
		archive_entry_set_rdev(e, rdev);
	if (archive_write_header(a->ar, e) != ARCHIVE_OK)
		return ar_error(a, dest);
	return 0;
}

int initramfs_add_dir(struct initramfs *a, const char *dest, mode_t mode)
{
	return add_header(a, dest, S_IFDIR | mode, NULL, 0);
}

int initramfs_add_parents(struct initramfs *a, const char *dest)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s", dest + (dest[0] == '/'));
	for (char *s = strchr(path, '/'); s; s = strchr(s + 1, '/')) {
		*s = '\0';
		int r = initramfs_add_dir(a, path, 0755);
		*s = '/';
		if (r < 0)
			return r;
	}
	return 0;
}

int initramfs_add_file(struct initramfs *a, const char *source,
		       const char *dest, mode_t mode)
{
	_cleanup_(archive_entry_freep) struct archive_entry *e = NULL;
	_cleanup_close_ int fd = open(source, O_RDONLY | O_CLOEXEC);
	struct stat st;

	if (fd < 0 || fstat(fd, &st) < 0) {
		int r = -errno;
		return log_error_errno(r, "'%s'", source);
	}
	e = new_entry(a, dest, S_IFREG | mode, st.st_size);
	if (!e)
		return -ENOMEM;
	if (archive_write_header(a->ar, e) != ARCHIVE_OK)
		return ar_error(a, dest);
	return write_fd_data(a, fd, source);
}

int initramfs_add_data(struct initramfs *a, const char *dest, const void *data,
		       size_t len, mode_t mode)
{
	_cleanup_(archive_entry_freep) struct archive_entry *e =
		new_entry(a, dest, S_IFREG | mode, (int64_t)len);

	if (!e)
		return -ENOMEM;
	if (archive_write_header(a->ar, e) != ARCHIVE_OK ||
	    (len && archive_write_data(a->ar, data, len) != (ssize_t)len))
		return ar_error(a, dest);
	return 0;
}

int initramfs_add_symlink(struct initramfs *a, const char *dest,
			  const char *target)
{
	return add_header(a, dest, S_IFLNK | 0777, target, 0);
}

int initramfs_add_node(struct initramfs *a, const char *dest, mode_t mode,
		       dev_t rdev)
{
	return add_header(a, dest, mode, NULL, rdev);
}

int initramfs_close(struct initramfs *a)
{
	int r = 0;

	if (!a)
		return 0;
	if (archive_write_close(a->ar) != ARCHIVE_OK)
		r = ar_error(a, "finishing the archive");
	if (r == 0 && a->zc)
		r = zwrite(a, NULL, 0, ZSTD_e_end);
	archive_write_free(a->ar);
	ZSTD_freeCCtx(a->zc);
	free(a);
	return r;
}

DEFINE_TRIVIAL_CLEANUP_FUNC(struct archive, archive_read_free)
DEFINE_TRIVIAL_CLEANUP_FUNC(ZSTD_DCtx, ZSTD_freeDCtx)

/* The regular files of one plain cpio archive (CPIO, LEN bytes). */
static int read_cpio(const char *path, unsigned index, const void *cpio, size_t len,
		     initramfs_file_fn *fn, void *opaque)
{
	_cleanup_(archive_read_freep) struct archive *ar = archive_read_new();
	struct archive_entry *e;
	int r;

	if (!ar)
		return -ENOMEM;
	archive_read_support_format_cpio(ar);
	if (archive_read_open_memory(ar, cpio, len) != ARCHIVE_OK)
		return log_error_code(-EIO, "'%s': archive %u: %s", path, index,
				      archive_error_string(ar));
	while ((r = archive_read_next_header(ar, &e)) == ARCHIVE_OK) {
		if (archive_entry_filetype(e) != AE_IFREG)
			continue;
		size_t size = (size_t)archive_entry_size(e);
		_cleanup_free_ char *data = malloc(size ? size : 1);
		if (!data)
			return -ENOMEM;
		if (archive_read_data(ar, data, size) != (la_ssize_t)size)
			return log_error_code(-EIO, "'%s': archive %u: %s: %s", path, index,
					      archive_entry_pathname(e),
					      archive_error_string(ar));
		int f = fn(archive_entry_pathname(e), data, size, opaque);
		if (f < 0)
			return f;
	}
	if (r != ARCHIVE_EOF)
		return log_error_code(-EIO, "'%s': archive %u: %s", path, index,
				      archive_error_string(ar));
	return 0;
}

/* One zstd frame decompressed whole (the archives here are a few
 * hundred MiB at most); the window may be long (initramfs_open_long). */
static int unzstd_frame(ZSTD_DCtx *dc, const void *frame, size_t len,
			char **ret, size_t *ret_len)
{
	size_t cap = 1 << 24, used = 0, left = 1;
	_cleanup_free_ char *out = malloc(cap);
	ZSTD_inBuffer in = {frame, len, 0};

	ZSTD_DCtx_reset(dc, ZSTD_reset_session_only);
	ZSTD_DCtx_setParameter(dc, ZSTD_d_windowLogMax, 31);
	while (out && left != 0) {
		if (used == cap) {
			char *bigger = realloc(out, cap * 2);
			if (!bigger)
				return -ENOMEM;
			out = bigger;
			cap *= 2;
		}
		ZSTD_outBuffer ob = {out + used, cap - used, 0};
		left = ZSTD_decompressStream(dc, &ob, &in);
		used += ob.pos;
		if (ZSTD_isError(left))
			return log_error_code(-EIO, "zstd: %s", ZSTD_getErrorName(left));
		/* All input taken, room left, and the frame not done: cut short. */
		if (left != 0 && in.pos == in.size && used < cap)
			return log_error_code(-EIO, "zstd: the frame is cut short");
	}
	if (!out)
		return -ENOMEM;
	*ret = out;
	*ret_len = used;
	out = NULL;
	return 0;
}

int initramfs_read_files(const char *path, const char *name, initramfs_file_fn *fn,
			 void *opaque)
{
	_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC);
	_cleanup_(ZSTD_freeDCtxp) ZSTD_DCtx *dc = ZSTD_createDCtx();
	struct stat st;
	int r = 0;

	if (fd < 0 || fstat(fd, &st) < 0)
		return log_error_errno(-errno, "'%s'", name);
	if (!dc)
		return -ENOMEM;
	size_t len = (size_t)st.st_size;
	char *map = len ? mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0) : NULL;
	if (map == MAP_FAILED)
		return log_error_errno(-errno, "'%s'", name);
	size_t pos = 0;
	for (unsigned index = 1; pos < len; index++) {
		/* Padding between archives (the kernel skips zeros). */
		if (map[pos] == 0) {
			pos++;
			index--;
			continue;
		}
		size_t n = ZSTD_findFrameCompressedSize(map + pos, len - pos);
		if (ZSTD_isError(n)) {
			r = log_error_code(-EIO, "'%s': archive %u at byte %zu: zstd: %s "
						 "(the archives after it are not read)",
					   name, index, pos, ZSTD_getErrorName(n));
			break;
		}
		char *cpio = NULL;
		size_t cpio_len = 0;
		int f = unzstd_frame(dc, map + pos, n, &cpio, &cpio_len);
		if (f == -EIO)
			log_error("'%s': archive %u (bytes %zu to %zu) cannot be "
				  "decompressed", name, index, pos, pos + n);
		else if (f == 0)
			f = read_cpio(name, index, cpio, cpio_len, fn, opaque);
		free(cpio);
		if (f == -EIO)
			r = -EIO; /* reported; the next archive is read */
		else if (f < 0)
			r = f;
		pos += n;
		if (f < 0 && f != -EIO)
			break;
	}
	munmap(map, len);
	return r;
}
