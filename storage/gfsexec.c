#include "gfsexec.h"

#include <errno.h>
#include <fcntl.h>
#include <guestfs.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cleanup.h"
#include "gfshandle.h"
#include "layoutmark.h"
#include "log.h"
#include "tool.h"

/* Below the protocol's message limit. */
#define CHUNK (UINT64_C(1) << 20)

static const char zeros[CHUNK];

void gfsexec_target(struct storage_target *ret)
{
	memset(ret, 0, sizeof(*ret));
	ret->kind = STORAGE_TARGET_DISK;
	snprintf(ret->device, sizeof(ret->device), "/dev/sda");
	snprintf(ret->mountpoint, sizeof(ret->mountpoint), "/");
}

/* guestfs_fill takes an int: files are filled in pieces of this size. */
#define FILL_PIECE (UINT64_C(1) << 30)

/* PATH becomes a file of SIZE written zero bytes.  The daemon writes them
 * (guestfs_fill) rather than the protocol carrying them: the first piece
 * is filled, and the file then doubles by appending its own head to
 * itself (copy-file-to-file, same file, append) until it is SIZE long. */
static int zero_file(guestfs_h *g, const char *path, uint64_t size)
{
	uint64_t have = size < FILL_PIECE ? size : FILL_PIECE;

	if (guestfs_fill(g, 0, (int)have, path) < 0)
		return gfshandle_error(g, "libguestfs: fill '%s'", path);
	while (have < size) {
		uint64_t n = size - have < have ? size - have : have;

		if (guestfs_copy_file_to_file(g, path, path,
					      GUESTFS_COPY_FILE_TO_FILE_SIZE, (int64_t)n,
					      GUESTFS_COPY_FILE_TO_FILE_APPEND, 1, -1) < 0)
			return gfshandle_error(g, "libguestfs: copy-file-to-file '%s'", path);
		have += n;
	}
	return 0;
}

/* Writes zeroes to the first SIZE bytes of PATH (file or device). */
static int write_zeros(guestfs_h *g, const char *path, bool device, uint64_t size)
{
	if (!device)
		return zero_file(g, path, size);
	for (uint64_t off = 0; off < size;) {
		size_t n = size - off < CHUNK ? size - off : CHUNK;
		int w = guestfs_pwrite_device(g, path, zeros, n, (int64_t)off);
		if (w <= 0)
			return gfshandle_error(g, "libguestfs: write '%s'", path);
		off += (uint64_t)w;
	}
	return 0;
}

static int pwrite_all(guestfs_h *g, const char *path, const char *buf,
		      size_t n, uint64_t off)
{
	while (n > 0) {
		int w = guestfs_pwrite(g, path, buf, n, (int64_t)off);
		if (w <= 0)
			return gfshandle_error(g, "libguestfs: pwrite '%s'", path);
		buf += w;
		n -= (size_t)w;
		off += (uint64_t)w;
	}
	return 0;
}

/* qcow2 inside the appliance: qemu-img makes a template on the host
 * (metadata preallocated, or none for "off"); the file is given its
 * size and file-level allocation by mode, then the template's non-zero
 * blocks (its metadata) are written at their offsets. */
static int create_qcow2(guestfs_h *g, const char *tmpdir,
			const struct recipe_step *s, int mode)
{
	char tpl[STORAGE_PATH_MAX + 32];
	struct storage_volume v = {
		.backend = BACKEND_QCOW2,
		.format = IMAGE_FORMAT_QCOW2,
		.prealloc = mode == QCOW2_PREALLOC_OFF ? QCOW2_PREALLOC_OFF
						       : QCOW2_PREALLOC_METADATA,
		.size = s->size,
		.cluster_size = s->cluster_size,
	};
	_cleanup_free_ char *buf = malloc(CHUNK);
	_cleanup_close_ int fd = -1;
	off_t end, data = 0;
	int k;

	if (!buf)
		return -ENOMEM;
	snprintf(v.path, sizeof(v.path), "%s/template.qcow2", tmpdir);
	snprintf(tpl, sizeof(tpl), "%s", v.path);
	unlink(tpl);
	k = storage_create_file(&v);
	if (k < 0)
		return k;
	fd = open(tpl, O_RDONLY | O_CLOEXEC);
	end = fd < 0 ? -1 : lseek(fd, 0, SEEK_END);
	if (end < 0)
		return log_error_errno(-errno, "qcow2 template '%s'", tpl);

	if (mode == QCOW2_PREALLOC_FALLOC)
		k = guestfs_fallocate64(g, s->path, end) < 0
			    ? gfshandle_error(g, "libguestfs: fallocate '%s'", s->path) : 0;
	else if (mode == QCOW2_PREALLOC_FULL)
		k = write_zeros(g, s->path, false, (uint64_t)end);
	else
		k = guestfs_touch(g, s->path) < 0 ||
				    guestfs_truncate_size(g, s->path, end) < 0
			    ? gfshandle_error(g, "libguestfs: create '%s'", s->path) : 0;
	if (k < 0)
		return k;

	while ((data = lseek(fd, data, SEEK_DATA)) >= 0 && data < end) {
		off_t hole = lseek(fd, data, SEEK_HOLE);

		for (off_t off = data; off < hole;) {
			size_t n = (size_t)(hole - off) < CHUNK ? (size_t)(hole - off) : CHUNK;
			ssize_t got = pread(fd, buf, n, off);

			if (got <= 0)
				return log_error_errno(errno ? -errno : -EIO,
						       "reading '%s'", tpl);
			if (memcmp(buf, zeros, (size_t)got) != 0) {
				k = pwrite_all(g, s->path, buf, (size_t)got,
					       (uint64_t)off);
				if (k < 0)
					return k;
			}
			off += got;
		}
		data = hole;
	}
	unlink(tpl);
	return 0;
}

static int create_file(guestfs_h *g, const char *tmpdir, const struct recipe_step *s)
{
	if (s->format == IMAGE_FORMAT_QCOW2)
		return create_qcow2(g, tmpdir, s, s->prealloc);
	if (s->backend == BACKEND_RAW && s->prealloc == RAW_PREALLOC_FALLOC)
		return guestfs_fallocate64(g, s->path, (int64_t)s->size) < 0
			       ? gfshandle_error(g, "libguestfs: fallocate '%s'", s->path) : 0;
	if (s->backend == BACKEND_RAW && s->prealloc == RAW_PREALLOC_FULL)
		return write_zeros(g, s->path, false, s->size);
	return guestfs_touch(g, s->path) < 0 ||
			       guestfs_truncate_size(g, s->path, (int64_t)s->size) < 0
		       ? gfshandle_error(g, "libguestfs: create '%s'", s->path) : 0;
}

/* Every guest byte written once.  A qcow2 file becomes a fully mapped
 * image whose clusters are all written: what writing it through QEMU
 * would leave (in another cluster order). */
static int fill(guestfs_h *g, const char *tmpdir, const struct recipe_step *s)
{
	if (s->format == IMAGE_FORMAT_QCOW2)
		return create_qcow2(g, tmpdir, s, QCOW2_PREALLOC_FULL);
	return write_zeros(g, s->path, s->backend == BACKEND_LVM, s->size);
}

static int run_step(guestfs_h *g, const char *tmpdir, const struct recipe_step *s)
{
	switch (s->kind) {
	case STEP_PARTITION_TABLE:
		return guestfs_part_init(g, s->device, s->name) < 0
			       ? gfshandle_error(g, "libguestfs: part-init '%s'", s->device) : 0;
	case STEP_PARTITION:
		if (guestfs_part_add(g, s->device, "p", (int64_t)(s->start / 512),
				     (int64_t)((s->start + s->size) / 512 - 1)) < 0 ||
		    guestfs_part_set_name(g, s->device, (int)s->partnum, s->name) < 0)
			return gfshandle_error(g, "libguestfs: part-add '%s'", s->device);
		return 0;
	case STEP_MKFS_EXT4:
		return guestfs_mke2fs(g, s->device,
				      GUESTFS_MKE2FS_FSTYPE, "ext4",
				      GUESTFS_MKE2FS_LABEL, s->name,
				      GUESTFS_MKE2FS_RESERVEDBLOCKSPERCENTAGE, (int64_t)0,
				      GUESTFS_MKE2FS_LAZYITABLEINIT, 0,
				      GUESTFS_MKE2FS_LAZYJOURNALINIT, 0,
				      GUESTFS_MKE2FS_FORCECREATE, 1, -1) < 0
			       ? gfshandle_error(g, "libguestfs: mke2fs '%s'", s->device) : 0;
	case STEP_MOUNT:
		return guestfs_mount(g, s->device, s->path) < 0
			       ? gfshandle_error(g, "libguestfs: mount '%s'", s->device) : 0;
	case STEP_PVCREATE:
		return guestfs_pvcreate(g, s->device) < 0
			       ? gfshandle_error(g, "libguestfs: pvcreate '%s'", s->device) : 0;
	case STEP_VGCREATE: {
		char *pvs[] = {(char *)s->device, NULL};
		return guestfs_vgcreate(g, s->name, pvs) < 0
			       ? gfshandle_error(g, "libguestfs: vgcreate '%s'", s->name) : 0;
	}
	case STEP_LVCREATE:
		return guestfs_lvcreate(g, s->name, s->path, (int)(s->size >> 20)) < 0
			       ? gfshandle_error(g, "libguestfs: lvcreate '%s'", s->device) : 0;
	case STEP_CREATE_FILE:
		return create_file(g, tmpdir, s);
	case STEP_FILL:
		return fill(g, tmpdir, s);
	default:
		return -EINVAL;
	}
}

static int measure(guestfs_h *g, const struct recipe *r, struct storage_alloc *ret)
{
	for (size_t i = 0; i < r->n_volumes; i++) {
		const struct storage_volume *v = &r->volumes[i];
		struct storage_alloc a = {-1, -1, -1, -1};

		if (v->block_device) {
			int64_t n = guestfs_blockdev_getsize64(g, v->path);
			if (n < 0)
				return gfshandle_error(g, "libguestfs: blockdev-getsize64 '%s'", v->path);
			a.allocated = n;
		} else {
			struct guestfs_statns *st = guestfs_statns(g, v->path);
			if (!st)
				return gfshandle_error(g, "libguestfs: stat '%s'", v->path);
			a.allocated = st->st_blocks * 512;
			guestfs_free_statns(st);
		}
		ret[i] = a;
	}
	return 0;
}

/* The mark that tells the next kit a layout is a kit's (layoutmark.h):
 * the partition table step TABLE's disk GUID. */
static int mark_layout(guestfs_h *g, const struct recipe *r, size_t table)
{
	const struct recipe_step *s = &r->steps[table];
	char guid[LAYOUTMARK_GUID_LEN];
	int k;

	if (strcmp(s->name, "gpt") != 0)
		return 0;
	k = layoutmark_for_recipe(r, table, guid);
	if (k < 0)
		return log_error_errno(k, "the mark of the layout of '%s'", s->device);
	return guestfs_part_set_disk_guid(g, s->device, guid) < 0
		       ? gfshandle_error(g, "libguestfs: part-set-disk-guid '%s'", s->device) : 0;
}

static int execute(guestfs_h *g, const struct recipe *r, const char *tmpdir,
		   struct storage_alloc *ret_allocs)
{
	char line[2 * STORAGE_PATH_MAX + 128];
	int k;

	if (gfshandle_launch(g) < 0)
		return gfshandle_error(g, "libguestfs: launch 'appliance'");
	for (size_t i = 0; i < r->n_steps; i++) {
		log_info("step %zu/%zu: %s", i + 1, r->n_steps,
			 recipe_step_describe(&r->steps[i], line, sizeof(line)));
		k = run_step(g, tmpdir, &r->steps[i]);
		if (k == 0 && r->steps[i].kind == STEP_PARTITION_TABLE)
			k = mark_layout(g, r, i);
		if (k < 0) {
			log_error("provisioning stopped at step %zu (%s)", i + 1,
				  recipe_step_kind_name(r->steps[i].kind));
			return k;
		}
	}
	if (guestfs_sync(g) < 0)
		return gfshandle_error(g, "libguestfs: sync 'drive'");
	if (ret_allocs) {
		k = measure(g, r, ret_allocs);
		if (k < 0)
			return k;
	}
	if (guestfs_umount_all(g) < 0 || guestfs_shutdown(g) < 0)
		return gfshandle_error(g, "libguestfs: shutdown 'appliance'");
	return 0;
}

int gfsexec_execute(const struct recipe *r, const char *drive,
		    struct storage_alloc *ret_allocs)
{
	_cleanup_guestfs_ guestfs_h *g = NULL;
	char tmpdir[] = "/tmp/buildapp-qcow2-XXXXXX";
	int k;

	if (r->target.kind != STORAGE_TARGET_DISK ||
	    strcmp(r->target.mountpoint, "/") != 0) {
		log_error("libguestfs executor: the recipe must be built for gfsexec_target()");
		return -EINVAL;
	}
	g = gfshandle_new();
	if (!g)
		return -ENOMEM;
	if (guestfs_add_drive_opts(g, drive, GUESTFS_ADD_DRIVE_OPTS_FORMAT, "raw",
				   -1) < 0)
		return gfshandle_error(g, "libguestfs: add-drive '%s'", drive);
	if (!mkdtemp(tmpdir))
		return log_error_errno(-errno, "mkdtemp");
	k = execute(g, r, tmpdir, ret_allocs);
	rmdir(tmpdir);
	return k;
}
