/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "fsimage.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cleanup.h"
#include "log.h"
#include "command.h"

/* Runs a tool with the reproducibility variables set; reports failure.
 * With DROP_OUTPUT, its stdout is read and dropped (debugfs -f echoes
 * every command). */
static int run_tool_out(char *const argv[], uint64_t epoch, int drop_output)
{
	char sde[64], fake[64];
	char *env[] = {sde, fake, "MTOOLS_SKIP_CHECK=1", "LC_ALL=C", NULL};
	char desc[512];
	int r;

	snprintf(sde, sizeof(sde), "SOURCE_DATE_EPOCH=%" PRIu64, epoch);
	snprintf(fake, sizeof(fake), "E2FSPROGS_FAKE_TIME=%" PRIu64, epoch);
	if (drop_output) {
		_cleanup_free_ char *out = NULL;
		r = command_capture(argv, env, 4096, &out);
	} else {
		r = command_run(argv, env, 1);
	}
	if (r == 0)
		return 0;
	command_describe(argv, desc, sizeof(desc));
	if (r < 0)
		return log_error_errno(r, "'%s' failed", desc);
	return log_error_code(-EIO, "'%s' failed with exit status %d", desc, r);
}

static int run_tool(char *const argv[], uint64_t epoch)
{
	return run_tool_out(argv, epoch, 0);
}

int fsimage_make_sparse(const char *path, uint64_t size)
{
	_cleanup_close_ int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
				      0644);

	if (fd < 0 || ftruncate(fd, (off_t)size) < 0) {
		int r = -errno;
		return log_error_errno(r, "cannot create '%s'", path);
	}
	return 0;
}

int fsimage_make_esp(const struct fsimage_esp *esp)
{
	char sectors[32], hidden[32], serial[16];
	char target[1024];
	int r;

	if (esp->size < (esp->small ? 1ULL << 20 : 64ULL << 20) || esp->size % (1 << 20))
		return log_error_code(-EINVAL, "ESP size %" PRIu64
				      " is not a multiple of 1 MiB >= 64 MiB",
				      esp->size);
	r = fsimage_make_sparse(esp->path, esp->size);
	if (r < 0)
		return r;
	snprintf(sectors, sizeof(sectors), "%" PRIu64, esp->size / 512);
	snprintf(hidden, sizeof(hidden), "%" PRIu64, esp->start_sector);
	snprintf(serial, sizeof(serial), "%08" PRIx32, esp->serial);
	/* 64 heads x 32 sectors: the geometry firmware assumes for disks. */
	char *mformat[] = {"mformat", "-i", (char *)esp->path,
			   "-T", sectors, "-h", "64", "-s", "32",
			   "-H", hidden, "-N", serial,
			   "-v", (char *)esp->label, "-F", "::", NULL};
	if (esp->small) { /* no -F: the FAT type that fits the size */
		mformat[15] = "::";
		mformat[16] = NULL;
	}
	r = run_tool(mformat, esp->epoch);
	if (r < 0)
		return r;
	for (const char *const *d = esp->dirs; d && *d; d++) {
		snprintf(target, sizeof(target), "::%s", *d);
		char *mmd[] = {"mmd", "-i", (char *)esp->path, target, NULL};
		r = run_tool(mmd, esp->epoch);
		if (r < 0)
			return r;
	}
	for (unsigned i = 0; i < esp->n_files; i++) {
		snprintf(target, sizeof(target), "::%s", esp->files[i].dest);
		char *mcopy[] = {"mcopy", "-i", (char *)esp->path, "-o",
				 (char *)esp->files[i].source, target, NULL};
		r = run_tool(mcopy, esp->epoch);
		if (r < 0)
			return r;
	}
	if (esp->syslinux) {
		/* The mtools-based installer: works on an image file. */
		char *syslinux[] = {"syslinux", "--install", (char *)esp->path,
				    NULL};
		r = run_tool(syslinux, esp->epoch);
		if (r < 0)
			return r;
	}
	return 0;
}

int fsimage_make_ext4(const struct fsimage_ext4 *ext4)
{
	char opts[256];
	int r = fsimage_make_sparse(ext4->path, ext4->size);

	if (r < 0)
		return r;
	/* Full inode tables and journal up front: lazy init would leave the
	 * kernel to zero them at first mount, in the appliance. */
	snprintf(opts, sizeof(opts),
		 "hash_seed=%s,root_owner=0:0,lazy_itable_init=0,"
		 "lazy_journal_init=0",
		 ext4->hash_seed);
	char *mke2fs[] = {"mke2fs", "-q", "-F", "-t", "ext4",
			  "-L", (char *)ext4->label, "-U", (char *)ext4->uuid,
			  "-E", opts, (char *)ext4->path, NULL, NULL, NULL};
	if (ext4->root) {
		mke2fs[11] = "-d";
		mke2fs[12] = (char *)ext4->root;
		mke2fs[13] = (char *)ext4->path;
	}
	return run_tool(mke2fs, ext4->epoch);
}

int fsimage_debugfs(const char *path, const char *script, uint64_t epoch)
{
	char *debugfs[] = {"debugfs", "-w", "-f", (char *)script, (char *)path,
			   NULL};
	return run_tool_out(debugfs, epoch, 1);
}
