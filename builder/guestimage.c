/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "guestimage.h"

#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <glob.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cas.h"
#include "cleanup.h"
#include "files.h"
#include "fsimage.h"
#include "guestproto.h"
#include "log.h"
#include "parse.h"
#include "records.h"
#include "repro.h"
#include "sha256.h"
#include "tempfiles.h"

DEFINE_TRIVIAL_CLEANUP_FUNC(struct archive, archive_write_free)
DEFINE_TRIVIAL_CLEANUP_FUNC(struct archive, archive_read_free)
DEFINE_TRIVIAL_CLEANUP_FUNC(struct archive_entry, archive_entry_free)

/* 2: built on the host with mke2fs -d, every identifier and time from
 * the inputs. */
#define IMAGE_FORMAT "buildapp-guestimage-2"
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

/* The size of the durability workload's blank records file in the work
 * directory (lib/records.h), 0 when P does not run it. */
static uint64_t records_bytes(const struct profile *p)
{
	const struct profile_workload *w = &p->workload;

	if (!(w->kinds & AXIS_BIT(WORKLOAD_DURABILITY)))
		return 0;
	return w->durability_records * w->durability_record_size;
}

/* Writes the blank records file of BYTES bytes at PATH. */
static int write_blank_records(const char *path, uint64_t bytes)
{
	_cleanup_close_ int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	char buf[64 * RECORDS_SECTOR];

	if (fd < 0)
		return log_error_errno(-errno, "cannot create '%s'", path);
	records_blank(buf, sizeof(buf));
	while (bytes > 0) {
		size_t n = bytes < sizeof(buf) ? (size_t)bytes : sizeof(buf);
		if (write(fd, buf, n) != (ssize_t)n)
			return log_error_errno(-errno ? -errno : -EIO,
					       "cannot write '%s'", path);
		bytes -= n;
	}
	return 0;
}

/* The room the workloads of P need: the blank records file, the
 * tarball, its extracted copy in /tree, another one written by
 * tarball-write, the largest benchmark file, ext4's own overhead (journal, inode tables: ~5%, at least 16M). */
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
	uint64_t total = tar + 2 * tree + work + records_bytes(p);
	total += total / 20 + 16 * MiB;
	return (total + MiB - 1) / MiB * MiB;
}

/* The disk's times are part of its format, not of the build: the same
 * inputs give the same disk whatever SOURCE_DATE_EPOCH or the clock say,
 * so one cache entry serves every build.  (2000-01-01; 0 would mean
 * "unset" to E2FSPROGS_FAKE_TIME.) */
#define DISK_TIME 946684800

static int copy_data(struct archive *in, struct archive *out)
{
	const void *buf;
	size_t size;
	la_int64_t off;
	int r;

	while ((r = archive_read_data_block(in, &buf, &size, &off)) ==
	       ARCHIVE_OK)
		if (archive_write_data_block(out, buf, size, off) != ARCHIVE_OK)
			return -1;
	return r == ARCHIVE_EOF ? 0 : -1;
}

/* Extracts TARBALL under DIR (owners kept when root, as tar does). */
static int extract(const char *tarball, const char *dir)
{
	_cleanup_(archive_read_freep) struct archive *in = archive_read_new();
	_cleanup_(archive_write_freep) struct archive *out =
		archive_write_disk_new();
	struct archive_entry *e;
	char path[PATH_MAX];
	int flags = ARCHIVE_EXTRACT_TIME | ARCHIVE_EXTRACT_PERM |
		    ARCHIVE_EXTRACT_SECURE_NODOTDOT |
		    ARCHIVE_EXTRACT_SECURE_SYMLINKS;
	int r;

	if (!in || !out)
		return log_error_errno(-ENOMEM, "out of memory");
	if (geteuid() == 0)
		flags |= ARCHIVE_EXTRACT_OWNER;
	archive_read_support_filter_all(in);
	archive_read_support_format_all(in);
	archive_write_disk_set_options(out, flags);
	if (archive_read_open_filename(in, tarball, 1 << 16) != ARCHIVE_OK)
		goto fail_in;
	while ((r = archive_read_next_header(in, &e)) == ARCHIVE_OK) {
		/* Under DIR: an absolute name in the tarball is too. */
		const char *hard = archive_entry_hardlink(e);
		if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir,
				     archive_entry_pathname(e)) >= sizeof(path))
			return log_error_errno(-ENAMETOOLONG,
					       "tarball '%s': '%s': name too long",
					       tarball, archive_entry_pathname(e));
		archive_entry_copy_pathname(e, path);
		if (hard) {
			if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir,
					     hard) >= sizeof(path))
				return log_error_errno(-ENAMETOOLONG,
						       "tarball '%s': '%s': name "
						       "too long",
						       tarball, hard);
			archive_entry_copy_hardlink(e, path);
		}
		if (archive_write_header(out, e) != ARCHIVE_OK ||
		    (archive_entry_size(e) > 0 &&
		     copy_data(in, out) < 0))
			goto fail_out;
	}
	if (r != ARCHIVE_EOF)
		goto fail_in;
	/* Directories get their times on close, after their entries. */
	if (archive_write_close(out) != ARCHIVE_OK)
		goto fail_out;
	return 0;
fail_in:
	log_error("tarball '%s': %s", tarball, archive_error_string(in));
	return -EIO;
fail_out:
	log_error("tarball '%s': extracting into '%s': %s", tarball, dir,
		  archive_error_string(out));
	return -EIO;
}

/* What stamp_tree's nftw callback writes to, and the time the staging
 * began: a time from then on came from the clock, not the tarball. */
static FILE *stamp_script;
static time_t stamp_began;
static size_t stamp_prefix;
static int stamp_failed;

/* Gives every entry of the staging tree times that come from the inputs:
 * mtime here (mke2fs -d copies it), atime (which reading the tree for
 * mke2fs moves again) and ctime (which no call can set) in the debugfs
 * script, and owner root when the build did not run as root. */
static int stamp_entry(const char *path, const struct stat *st, int type,
		       struct FTW *ftw)
{
	(void)type;
	(void)ftw;
	time_t m = st->st_mtime >= stamp_began ? DISK_TIME : st->st_mtime;
	struct timespec t[2] = {{m, 0}, {m, 0}};
	const char *inside = path[stamp_prefix] ? path + stamp_prefix : "/";

	/* debugfs reads a quoted argument up to the next quote. */
	if (strpbrk(inside, "\"\n")) {
		log_error("guest image: '%s': a name with a quote or a newline "
			  "cannot be copied",
			  inside);
		stamp_failed = -EINVAL;
		return 1;
	}
	if (utimensat(AT_FDCWD, path, t, AT_SYMLINK_NOFOLLOW) < 0) {
		stamp_failed = log_error_errno(-errno, "cannot set the times of "
					       "'%s'",
					       path);
		return 1;
	}
	fprintf(stamp_script, "sif \"%s\" ctime @%d\nsif \"%s\" atime @%lld\n",
		inside, DISK_TIME, inside, (long long)m);
	if (geteuid() != 0)
		fprintf(stamp_script, "sif \"%s\" uid 0\nsif \"%s\" gid 0\n",
			inside, inside);
	return 0;
}

static int stamp_tree(const char *dir, const char *script)
{
	_cleanup_fclose_ FILE *f = fopen(script, "we");
	if (!f)
		return log_error_errno(-errno, "cannot create '%s'", script);
	stamp_script = f;
	stamp_prefix = strlen(dir);
	stamp_failed = 0;
	if (nftw(dir, stamp_entry, 16, FTW_PHYS) != 0 && !stamp_failed)
		stamp_failed = log_error_errno(-errno, "cannot walk '%s'",
					       dir);
	stamp_script = NULL;
	if (!stamp_failed && fflush(f) != 0)
		stamp_failed = log_error_errno(-errno, "cannot write '%s'",
					       script);
	return stamp_failed;
}

/* The staging tree and the debugfs script of the disk PATH (in its cache
 * directory), without and with this process' tmp suffix. */
static void stage_names(const char *path, char stage[PATH_MAX + 32],
			char script[PATH_MAX + 32])
{
	char base[PATH_MAX + 16];
	const char *slash = strrchr(path, '/');
	int dir = slash ? (int)(slash - path) : 1;
	const char *at = slash ? path : ".";

	snprintf(base, sizeof(base), "%.*s/stage", dir, at);
	tempfiles_tmp_name(base, stage, PATH_MAX + 32);
	snprintf(base, sizeof(base), "%.*s/debugfs", dir, at);
	tempfiles_tmp_name(base, script, PATH_MAX + 32);
}

/* What the disk's UUID and hash seed are derived from: its format, its
 * size, the tarball's bytes (not the cache key, which names the tarball
 * by its path in this cache) and the records file's size, into RET. */
static int disk_identity(uint64_t size, const char *tarball,
			 uint64_t records, char ret[SHA256_HEX_LEN + 96])
{
	char hex[SHA256_HEX_LEN] = "none";

	if (*tarball) {
		_cleanup_close_ int fd = open(tarball, O_RDONLY | O_CLOEXEC);
		int r = fd < 0 ? -errno : sha256_fd_hex(fd, NULL, 0, hex);
		if (r < 0)
			return log_error_errno(r, "cannot read '%s'",
					       tarball);
	}
	snprintf(ret, SHA256_HEX_LEN + 96, "%s %" PRIu64 " %s", IMAGE_FORMAT,
		 size, hex);
	/* Only when there is one: other disks keep their identities. */
	if (records)
		snprintf(ret + strlen(ret), 32, " records=%" PRIu64, records);
	return 0;
}

/* The pristine disk, built on this host (mke2fs -d) from a staging tree
 * next to it: the UUID and the hash seed come from disk_identity, every
 * time from DISK_TIME, so the same inputs give the same bytes. */
static int assemble(const char *path, uint64_t size, const char *tarball,
		    uint64_t records)
{
	char key[SHA256_HEX_LEN + 96];
	char stage[PATH_MAX + 32], sub[PATH_MAX + 96], script[PATH_MAX + 32];
	char uuid[REPRO_UUID_LEN], seed[REPRO_UUID_LEN];
	int r;

	/* Beside PATH, named as tempfiles_reap_tmp finds them after a
	 * build killed with SIGKILL (stage_names). */
	stage_names(path, stage, script);
	stamp_began = time(NULL);
	if (mkdir(stage, 0755) < 0)
		return log_error_errno(-errno, "cannot create '%s'", stage);
	if ((r = tempfiles_add(stage, TEMPFILE_TREE)) < 0 ||
	    (r = tempfiles_add(script, 0)) < 0) {
		log_error_errno(r, "guest image");
		goto out;
	}
	static const char *const dirs[] = {GUESTPROTO_DATA_DIR,
					   GUESTPROTO_TREE_DIR,
					   GUESTPROTO_WORK_DIR};
	for (size_t i = 0; i < 3; i++) {
		snprintf(sub, sizeof(sub), "%s/%s", stage, dirs[i]);
		if (mkdir(sub, 0755) < 0) {
			r = log_error_errno(-errno, "cannot create '%s'",
					    sub);
			goto out;
		}
	}
	if (*tarball) {
		snprintf(sub, sizeof(sub), "%s/" GUESTPROTO_DATA_DIR
			 "/" GUESTPROTO_TARBALL, stage);
		if ((r = files_copy(tarball, sub, 0644, 0)) < 0) {
			log_error_errno(r, "cannot copy '%s'", tarball);
			goto out;
		}
		snprintf(sub, sizeof(sub), "%s/" GUESTPROTO_TREE_DIR, stage);
		if ((r = extract(tarball, sub)) < 0)
			goto out;
	}
	if (records) {
		snprintf(sub, sizeof(sub), "%s/" GUESTPROTO_WORK_DIR "/" RECORDS_FILE,
			 stage);
		if ((r = write_blank_records(sub, records)) < 0)
			goto out;
	}
	if ((r = stamp_tree(stage, script)) < 0 ||
	    (r = disk_identity(size, tarball, records, key)) < 0)
		goto out;
	repro_uuid(key, 0, "guest-disk-uuid", uuid);
	repro_uuid(key, 0, "guest-disk-hash-seed", seed);
	/* No lazy init (fsimage_make_ext4): ext4lazyinit writing inode
	 * tables in the guest would disturb the first runs. */
	if ((r = fsimage_make_ext4(&(struct fsimage_ext4){
		     .path = path,
		     .size = size,
		     .label = GUESTPROTO_FS_LABEL,
		     .uuid = uuid,
		     .hash_seed = seed,
		     .root = stage,
		     .epoch = DISK_TIME,
	     })) < 0 ||
	    (r = fsimage_debugfs(path, script, DISK_TIME)) < 0)
		goto out;
out:
	unlink(script);
	tempfiles_forget(script);
	files_remove_tree(stage);
	tempfiles_forget(stage);
	return r;
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
	if (records_bytes(p)) {
		snprintf(size_s, sizeof(size_s), "records=%" PRIu64, records_bytes(p));
		cas_add_str(c, size_s);
	}
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
	snprintf(tmp, sizeof(tmp), "%s/stage", dir);
	tempfiles_reap_tmp(tmp);
	snprintf(tmp, sizeof(tmp), "%s/debugfs", dir);
	tempfiles_reap_tmp(tmp);
	tempfiles_tmp_name(img.path, tmp, sizeof(tmp));
	tempfiles_add(tmp, 0);
	r = assemble(tmp, img.size, img.tarball, records_bytes(p));
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
