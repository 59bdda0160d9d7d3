/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "acklog.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cleanup.h"
#include "guestproto.h"
#include "log.h"
#include "monotonic.h"

#define ACK_MARK GUESTPROTO_TAG GUESTPROTO_ACK " seq="

int acklog_open(struct acklog *a, const char *console, const char *path)
{
	_cleanup_free_ char *dir = strdup(path);
	char *slash = dir ? strrchr(dir, '/') : NULL;

	memset(a, 0, sizeof(*a));
	a->console = console;
	a->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0644);
	if (a->fd < 0)
		return log_error_errno(-errno, "cannot create '%s'", path);
	/* The file's name, too, must outlive a power cut before an
	 * acknowledgement in it counts: its directory synced once. */
	if (slash)
		*slash = '\0';
	_cleanup_close_ int dfd = open(slash ? dir : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0 || fsync(dfd) < 0) {
		int r = log_error_errno(-errno, "cannot sync the directory of '%s'", path);
		acklog_close(a);
		return r;
	}
	return 0;
}

void acklog_close(struct acklog *a)
{
	if (a->fd > 0)
		close(a->fd);
	a->fd = -1;
}

/* One whole console line: an ACK line is appended to BATCH. */
static void take_line(struct acklog *a, const char *line, size_t len,
		      char *batch, size_t *batch_len, uint64_t *pending)
{
	const char *m = memmem(line, len, ACK_MARK, strlen(ACK_MARK));
	if (!m)
		return;
	m += strlen(ACK_MARK);
	uint64_t seq = 0;
	size_t digits = 0;
	while (m + digits < line + len && m[digits] >= '0' && m[digits] <= '9')
		seq = seq * 10 + (uint64_t)(m[digits++] - '0');
	if (!digits || seq != a->acks + *pending) {
		a->out_of_order = true;
		return;
	}
	*batch_len += (size_t)sprintf(batch + *batch_len, "%" PRIu64 "\n", seq);
	(*pending)++;
}

int acklog_poll(struct acklog *a)
{
	char buf[1 << 16], batch[(sizeof(buf) / 8 + 1) * 24];
	_cleanup_close_ int fd = open(a->console, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return 0; /* not there yet */
	while ((n = pread(fd, buf, sizeof(buf), a->seen)) > 0) {
		size_t batch_len = 0;
		uint64_t pending = 0;
		a->seen += n;
		for (ssize_t i = 0; i < n; i++) {
			if (buf[i] != '\n') {
				if (a->part_len < sizeof(a->part))
					a->part[a->part_len++] = buf[i];
				else
					a->part_overflow = true;
				continue;
			}
			if (!a->part_overflow)
				take_line(a, a->part, a->part_len, batch,
					  &batch_len, &pending);
			a->part_len = 0;
			a->part_overflow = false;
		}
		if (!pending)
			continue;
		/* Durable before it counts: the crash point and the check
		 * are decided on what this file holds. */
		if (write(a->fd, batch, batch_len) != (ssize_t)batch_len ||
		    fdatasync(a->fd) < 0)
			return log_error_errno(-errno ? -errno : -EIO,
					       "cannot write the acknowledgements");
		double now = monotonic_seconds();
		if (!a->acks)
			a->first_at = now;
		a->last_at = now;
		a->acks += pending;
	}
	return n < 0 ? -errno : 0;
}

int acklog_read(const char *path, uint64_t *ret_n)
{
	_cleanup_fclose_ FILE *f = fopen(path, "re");
	char line[64];
	uint64_t n = 0;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		char *end;
		errno = 0;
		unsigned long long v = strtoull(line, &end, 10);
		if (errno || end == line || *end != '\n' || v != n)
			return -EBADMSG;
		n++;
	}
	*ret_n = n;
	return 0;
}
