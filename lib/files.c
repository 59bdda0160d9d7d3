#include "files.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <ftw.h>
#include <stdio.h>
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
