#include "extents.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cleanup.h"
#include "log.h"
#include "sha256.h"

int extents_for_each(int fd, off_t size,
		     int (*fn)(off_t start, off_t end, void *opaque),
		     void *opaque)
{
	for (off_t pos = 0; pos < size;) {
		off_t data = lseek(fd, pos, SEEK_DATA);
		if (data < 0 && errno == ENXIO)
			return 0; /* a hole to the end */
		if (data < 0 && errno != EINVAL)
			return -errno;
		if (data < 0)
			return fn(pos, size, opaque); /* no hole support */
		off_t hole = lseek(fd, data, SEEK_HOLE);
		if (hole < 0)
			return -errno;
		if (hole > size)
			hole = size;
		int r = fn(data, hole, opaque);
		if (r < 0)
			return r;
		pos = hole;
	}
	return 0;
}

static void hash_zeros(struct sha256 *ctx, off_t n)
{
	static const unsigned char zeros[1 << 16];

	while (n > 0) {
		size_t k = n < (off_t)sizeof(zeros) ? (size_t)n : sizeof(zeros);
		sha256_update(ctx, zeros, k);
		n -= (off_t)k;
	}
}

struct hashing {
	struct sha256 *ctx;
	int fd;
	off_t hashed; /* bytes of the file hashed so far */
};

/* One data extent: the hole before it as zeros, then its bytes. */
static int hash_extent(off_t start, off_t end, void *opaque)
{
	struct hashing *h = opaque;
	unsigned char buf[1 << 16];

	hash_zeros(h->ctx, start - h->hashed);
	for (off_t pos = start; pos < end;) {
		size_t want = end - pos < (off_t)sizeof(buf) ? (size_t)(end - pos) : sizeof(buf);
		ssize_t n = pread(h->fd, buf, want, pos);
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		sha256_update(h->ctx, buf, (size_t)n);
		pos += n;
	}
	h->hashed = end;
	return 0;
}

int extents_sha256(const char *path, char hex[65])
{
	_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC);
	_cleanup_(sha256_freep) struct sha256 *ctx = NULL;
	unsigned char md[SHA256_LEN];
	struct stat st;
	int r;

	if (fd < 0 || fstat(fd, &st) < 0)
		return log_error_errno(-errno, "'%s'", path);
	ctx = sha256_new();
	if (!ctx)
		return -ENOMEM;
	struct hashing h = {.ctx = ctx, .fd = fd};
	r = extents_for_each(fd, st.st_size, hash_extent, &h);
	if (r == 0)
		hash_zeros(ctx, st.st_size - h.hashed);
	if (r == 0)
		r = sha256_final(ctx, md);
	if (r < 0)
		return log_error_errno(r, "'%s'", path);
	sha256_hex(md, hex);
	return 0;
}
