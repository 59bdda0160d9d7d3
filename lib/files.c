#include "files.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cleanup.h"

static int copy_fd(int in, int out, off_t size)
{
	char buf[1 << 16];
	ssize_t n;
	bool plain = false;

	for (off_t left = size; left > 0 && !plain;) {
		n = copy_file_range(in, NULL, out, NULL, (size_t)left, 0);
		if (n < 0 && errno == EINTR)
			continue;
		/* (Filesystems and kernels that cannot: copy by hand.) */
		if (n < 0 && (errno == EXDEV || errno == EINVAL ||
			      errno == EOPNOTSUPP || errno == ENOSYS)) {
			plain = true;
			break;
		}
		if (n < 0)
			return -errno;
		if (n == 0)
			return -EIO; /* shrank under us */
		left -= n;
	}
	if (!plain)
		return 0;
	while ((n = read(in, buf, sizeof(buf))) > 0)
		for (ssize_t done = 0; done < n;) {
			ssize_t w = write(out, buf + done, (size_t)(n - done));
			if (w < 0 && errno == EINTR)
				continue;
			if (w < 0)
				return -errno;
			done += w;
		}
	return n < 0 ? -errno : 0;
}

int files_copy(const char *from, const char *to, mode_t mode, int hardlink)
{
	if (hardlink) {
		unlink(to);
		if (link(from, to) == 0)
			return 0;
	}
	_cleanup_close_ int in = open(from, O_RDONLY | O_CLOEXEC);
	_cleanup_close_ int out = -1;
	struct stat st;
	if (in < 0 || fstat(in, &st) < 0)
		return -errno;
	out = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
	if (out < 0)
		return -errno;
	/* The offsets stay where copy_file_range left them: a fallback
	 * after a partial copy goes on from there. */
	int r = copy_fd(in, out, st.st_size);
	if (r == 0 && close(out) < 0)
		r = -errno;
	else if (r == 0)
		out = -1;
	return r;
}

/* What copy_entry's nftw callback copies to (nftw passes no context). */
static const char *copy_from, *copy_to;
static int copy_error;

static int copy_entry(const char *path, const struct stat *st, int flag,
		      struct FTW *ftw)
{
	char dest[PATH_MAX], target[PATH_MAX];
	int r = 0;

	(void)ftw;
	if ((size_t)snprintf(dest, sizeof(dest), "%s%s", copy_to,
			     path + strlen(copy_from)) >= sizeof(dest)) {
		copy_error = -ENAMETOOLONG;
		return 1;
	}
	if (flag == FTW_D) {
		if (mkdir(dest, st->st_mode & 07777) < 0 && errno != EEXIST)
			r = -errno;
	} else if (flag == FTW_SL) {
		ssize_t n = readlink(path, target, sizeof(target) - 1);
		if (n < 0)
			r = -errno;
		else {
			target[n] = '\0';
			unlink(dest);
			if (symlink(target, dest) < 0)
				r = -errno;
		}
	} else if (flag == FTW_F && S_ISREG(st->st_mode)) {
		r = files_copy(path, dest, st->st_mode & 07777, 0);
	} else if (flag == FTW_DNR || flag == FTW_NS) {
		r = -EACCES;
	}
	if (r < 0) {
		copy_error = r;
		return 1;
	}
	return 0;
}

int files_copy_tree(const char *from, const char *to)
{
	copy_from = from;
	copy_to = to;
	copy_error = 0;
	if (nftw(from, copy_entry, 16, FTW_PHYS) < 0 && !copy_error)
		copy_error = -errno;
	return copy_error;
}

static int remove_error;

static int remove_entry(const char *path, const struct stat *st, int flag,
			struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	if (remove(path) < 0 && errno != ENOENT && !remove_error)
		remove_error = -errno;
	return 0; /* go on: remove what can be */
}

int files_remove_tree(const char *path)
{
	struct stat st;

	if (lstat(path, &st) < 0)
		return errno == ENOENT ? 0 : -errno;
	remove_error = 0;
	if (nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS | FTW_MOUNT) < 0)
		return -errno;
	return remove_error;
}

int files_read_regular(const char *path, size_t max, char **ret, size_t *ret_len)
{
	_cleanup_fclose_ FILE *f = fopen(path, "re");
	_cleanup_free_ char *buf = NULL;
	struct stat sb;
	size_t n;

	if (!f)
		return -errno;
	/* Not a pipe or device: reading one could block or never end. */
	if (fstat(fileno(f), &sb) < 0)
		return -errno;
	if (S_ISDIR(sb.st_mode))
		return -EISDIR;
	if (!S_ISREG(sb.st_mode))
		return -EINVAL;
	buf = malloc(max + 1);
	if (!buf)
		return -ENOMEM;
	n = fread(buf, 1, max + 1, f);
	if (ferror(f))
		return -EIO;
	if (n > max)
		return -EFBIG;
	buf[n] = '\0';
	*ret = TAKE_PTR(buf);
	if (ret_len)
		*ret_len = n;
	return 0;
}

bool files_last_line(const char *path, char *buf, size_t size)
{
	_cleanup_fclose_ FILE *f = fopen(path, "re");
	char line[256];
	bool any = false;

	while (f && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\r\n")] = '\0';
		if (!line[strspn(line, " \t")])
			continue;
		snprintf(buf, size, "%s", line);
		any = true;
	}
	return any;
}

int files_fsync_dir(const char *dir)
{
	_cleanup_close_ int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0 || fsync(fd) < 0)
		return -errno;
	return 0;
}
