/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "written.h"

#include <errno.h>
#include <inttypes.h>
#include <libnbd.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cleanup.h"
#include "log.h"
#include "monotonic.h"

/* One NBD request at most: well under the 32 MiB servers accept. */
#define COPY_CHUNK ((size_t)4 << 20)
/* QEMU's qemu:dirty-bitmap contexts have one flag (docs/interop/nbd.txt);
 * libnbd 1.14 names only base:allocation's. */
#define NBD_STATE_DIRTY 1u
/* One block-status request at most (NBD lengths are 32-bit). */
#define STATUS_CHUNK (UINT64_C(1) << 30)

DEFINE_TRIVIAL_CLEANUP_FUNC(struct nbd_handle, nbd_close)

int written_add(struct written *e, uint64_t offset, uint64_t length)
{
	if (length == 0)
		return 0;
	if (e->n) {
		struct written_range *last = &e->v[e->n - 1];
		uint64_t end = last->offset + last->length;

		if (offset < end)
			return -EINVAL;
		if (offset == end) {
			last->length += length;
			e->bytes += length;
			return 0;
		}
	}
	if (e->n == e->cap) {
		size_t cap = e->cap ? e->cap * 2 : 64;
		struct written_range *v = realloc(e->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		e->v = v;
		e->cap = cap;
	}
	e->v[e->n++] = (struct written_range){offset, length};
	e->bytes += length;
	return 0;
}

void written_release(struct written *e)
{
	free(e->v);
	*e = (struct written){NULL, 0, 0, 0};
}

struct status_ctx {
	const char *context; /* the meta context asked for */
	struct written *out;
	uint64_t next;       /* where the next request starts */
	int error;
};

static int on_extents(void *opaque, const char *metacontext, uint64_t offset,
		      uint32_t *entries, size_t nr_entries, int *error)
{
	struct status_ctx *c = opaque;

	(void)error;
	if (strcmp(metacontext, c->context) != 0)
		return 0;
	for (size_t i = 0; i + 1 < nr_entries; i += 2) {
		uint32_t len = entries[i], flags = entries[i + 1];

		if ((flags & NBD_STATE_DIRTY) && c->error == 0)
			c->error = written_add(c->out, offset, len);
		offset += len;
	}
	c->next = offset;
	return 0;
}

int written_read_bitmap(const char *socket, const char *export,
			const char *bitmap, struct written *ret)
{
	_cleanup_(nbd_closep) struct nbd_handle *h = nbd_create();
	_cleanup_free_ char *context = NULL;
	struct written out = {NULL, 0, 0, 0};
	struct status_ctx c = {.out = &out};
	int64_t size;

	if (!h)
		return log_error_code(-ENOMEM, "libnbd: %s", nbd_get_error());
	if (asprintf(&context, "qemu:dirty-bitmap:%s", bitmap) < 0)
		return -ENOMEM;
	c.context = context;
	if (nbd_set_export_name(h, export) < 0 ||
	    nbd_add_meta_context(h, context) < 0 ||
	    nbd_connect_unix(h, socket) < 0)
		return log_error_code(-EIO, "NBD export '%s' at %s: %s", export,
				       socket, nbd_get_error());
	if (nbd_can_meta_context(h, context) != 1)
		return log_error_code(-ENOTSUP, "NBD export '%s' has no %s",
				       export, context);
	size = nbd_get_size(h);
	if (size < 0)
		return log_error_code(-EIO, "NBD export '%s': %s", export,
				       nbd_get_error());
	while (c.next < (uint64_t)size) {
		uint64_t want = (uint64_t)size - c.next, at = c.next;

		if (want > STATUS_CHUNK)
			want = STATUS_CHUNK;
		if (nbd_block_status(h, want, at,
				     (nbd_extent_callback){.callback = on_extents,
							   .user_data = &c},
				     0) < 0) {
			written_release(&out);
			return log_error_code(-EIO, "NBD block status of '%s': %s",
					       export, nbd_get_error());
		}
		if (c.error < 0 || c.next <= at) {
			written_release(&out);
			return log_error_code(c.error < 0 ? c.error : -EIO,
					      "NBD export '%s': bad block status reply",
					      export);
		}
	}
	nbd_shutdown(h, 0);
	*ret = out;
	return 0;
}

/* Serves PATH (FORMAT, read-only when READONLY) with qemu-nbd on a socket
 * only this handle knows; the server ends when the handle is closed. */
static struct nbd_handle *serve(const char *path, const char *format,
				bool readonly)
{
	char *argv[] = {"qemu-nbd", "-f", (char *)format,
			readonly ? "--read-only" : "--cache=writeback",
			(char *)path, NULL};
	struct nbd_handle *h = nbd_create();

	if (!h) {
		log_error("libnbd: %s", nbd_get_error());
		return NULL;
	}
	if (nbd_connect_systemd_socket_activation(h, argv) < 0) {
		log_error("qemu-nbd %s: %s", path, nbd_get_error());
		nbd_close(h);
		return NULL;
	}
	return h;
}

int written_read(const char *path, enum image_format format,
		 const struct written_range *r, size_t n_ranges, void *buf)
{
	_cleanup_(nbd_closep) struct nbd_handle *h =
		serve(path, image_format_name(format), true);
	char *at = buf;

	if (!h)
		return -EIO;
	for (size_t i = 0; i < n_ranges; i++) {
		uint64_t off = r[i].offset, left = r[i].length;
		while (left) {
			size_t n = left < COPY_CHUNK ? (size_t)left : COPY_CHUNK;
			if (nbd_pread(h, at, n, off, 0) < 0)
				return log_error_code(-EIO, "reading '%s' at %" PRIu64 ": %s",
						      path, off, nbd_get_error());
			at += n;
			off += n;
			left -= n;
		}
	}
	nbd_shutdown(h, 0);
	return 0;
}

static int copy_range(struct nbd_handle *src, struct nbd_handle *dst,
		      void *buf, uint64_t offset, uint64_t length)
{
	while (length) {
		size_t n = length < COPY_CHUNK ? (size_t)length : COPY_CHUNK;

		if (nbd_pread(src, buf, n, offset, 0) < 0)
			return log_error_code(-EIO, "reading the pristine image at %" PRIu64 ": %s",
					       offset, nbd_get_error());
		/* Zeros are written as data, as the full reset's -S 0 does. */
		if (nbd_pwrite(dst, buf, n, offset, 0) < 0)
			return log_error_code(-EIO, "writing the volume at %" PRIu64 ": %s",
					       offset, nbd_get_error());
		offset += n;
		length -= n;
	}
	return 0;
}

int written_reset(const struct storage_volume *v, const char *pristine,
		  const struct written *e, double *ret_seconds)
{
	_cleanup_(nbd_closep) struct nbd_handle *src = NULL, *dst = NULL;
	_cleanup_free_ void *buf = NULL;
	const char *src_fmt = "raw";
	double start = monotonic_seconds();
	int64_t size;
	int k;

	k = storage_probe_format(pristine, &src_fmt);
	if (k < 0)
		return k;
	src = serve(pristine, src_fmt, true);
	dst = src ? serve(v->path, image_format_name(v->format), false) : NULL;
	if (!dst)
		return -EIO;
	size = nbd_get_size(src);
	if (size < 0)
		return log_error_code(-EIO, "pristine image '%s': %s", pristine,
				       nbd_get_error());
	buf = malloc(COPY_CHUNK);
	if (!buf)
		return -ENOMEM;
	for (size_t i = 0; i < e->n; i++) {
		uint64_t off = e->v[i].offset, len = e->v[i].length;

		if (off >= (uint64_t)size)
			break;
		if (len > (uint64_t)size - off)
			len = (uint64_t)size - off;
		k = copy_range(src, dst, buf, off, len);
		if (k < 0)
			return k;
	}
	if (nbd_flush(dst, 0) < 0)
		return log_error_code(-EIO, "flushing '%s': %s", v->path,
				       nbd_get_error());
	/* Closing waits for both servers: the volume is closed, and its
	 * qcow2 metadata written, before this returns. */
	nbd_shutdown(dst, 0);
	nbd_shutdown(src, 0);
	nbd_close(TAKE_PTR(dst));
	nbd_close(TAKE_PTR(src));
	*ret_seconds = monotonic_seconds() - start;
	return 0;
}
