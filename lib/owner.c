/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "owner.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <sys/file.h>
#include <unistd.h>

#include "cleanup.h"

int owner_claim(const char *dir)
{
	char path[PATH_MAX];

	if ((size_t)snprintf(path, sizeof(path), "%s/.owner", dir) >= sizeof(path))
		return -ENAMETOOLONG;
	int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0)
		return -errno;
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		int r = -errno;
		close(fd);
		return r;
	}
	return 0; /* fd stays open: it is the claim */
}

bool owner_abandoned(const char *dir)
{
	char path[PATH_MAX];

	if ((size_t)snprintf(path, sizeof(path), "%s/.owner", dir) >= sizeof(path))
		return false;
	_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	return fd >= 0 && flock(fd, LOCK_SH | LOCK_NB) == 0;
}
