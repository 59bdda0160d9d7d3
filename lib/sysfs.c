#include "sysfs.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cleanup.h"

int sysfs_read(const char *path, char *buf, size_t len)
{
	_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (len == 0)
		return -EINVAL;
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	for (size_t l = strlen(buf); l > 0 && (buf[l - 1] == ' ' || buf[l - 1] == '\t');)
		buf[--l] = '\0';
	return 0;
}

int sysfs_read_block(const char *disk, const char *name, char *buf, size_t len)
{
	char path[512];

	snprintf(path, sizeof(path), "/sys/block/%s/%s", disk, name);
	return sysfs_read(path, buf, len);
}

int sysfs_write(const char *path, const char *value)
{
	/* O_TRUNC as a shell's "echo VALUE > PATH": nothing to sysfs and
	 * procfs, and a file standing for one holds VALUE alone. */
	_cleanup_close_ int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	size_t len = strlen(value);

	if (fd < 0)
		return -errno;
	if (write(fd, value, len) != (ssize_t)len)
		return errno ? -errno : -EIO;
	return 0;
}
