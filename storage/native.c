#include "native.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cleanup.h"
#include "dirs.h"
#include "layoutmark.h"
#include "log.h"
#include "tool.h"
#include "watchdog.h"

/* Partition nodes appear after the kernel rereads the table (devtmpfs,
 * no udev needed); give it a few seconds. */
static int wait_for_device(const char *dev)
{
	struct timespec ts = {0, 100 * 1000 * 1000};
	struct stat st;

	for (int i = 0; i < 100; i++) {
		if (stat(dev, &st) == 0 && S_ISBLK(st.st_mode))
			return 0;
		nanosleep(&ts, NULL);
	}
	log_error("'%s' did not appear within 10 s (a loop device needs "
		  "partition scanning: losetup -P)", dev);
	return -ENODEV;
}

/* sfdisk's own reread is not always enough: a kernel without the GPT
 * parser (seen here) keeps no partitions.  Ask again, waiting out a busy
 * device, then let partx add what the kernel did not parse itself. */
static int reread_partitions(const char *disk)
{
	struct timespec ts = {0, 200 * 1000 * 1000};
	_cleanup_close_ int fd = open(disk, O_RDONLY | O_CLOEXEC);
	char *partx[] = {"partx", "-u", (char *)disk, NULL};

	if (fd < 0)
		return log_error_errno(-errno, "'%s'", disk);
	for (int i = 0; i < 25; i++) {
		if (ioctl(fd, BLKRRPART) == 0)
			return tool_run(partx, NULL, NULL);
		if (errno != EBUSY)
			break;
		nanosleep(&ts, NULL);
	}
	return log_error_errno(-errno, "rereading the partition table of '%s'",
			       disk);
}

/* One sfdisk run for the table step and the partition steps after it. */
static int partition(const struct recipe *r, size_t i, size_t *ret_next)
{
	char script[] = "/tmp/buildapp-sfdisk-XXXXXX";
	_cleanup_fclose_ FILE *f = NULL;
	const char *disk = r->steps[i].device;
	char *argv[] = {"sfdisk", "-q", "--wipe", "always", "--wipe-partitions",
			"always", (char *)disk, NULL};
	char guid[LAYOUTMARK_GUID_LEN] = "";
	int fd, k;

	/* The mark that tells the next kit this layout is a kit's. */
	if (strcmp(r->steps[i].name, "gpt") == 0 &&
	    (k = layoutmark_for_recipe(r, i, guid)) < 0)
		return log_error_errno(k, "the mark of the layout of '%s'", disk);
	fd = mkstemp(script);
	if (fd < 0)
		return log_error_errno(-errno, "mkstemp");
	f = fdopen(fd, "w");
	if (!f) {
		close(fd);
		unlink(script);
		return -ENOMEM;
	}
	fprintf(f, "label: %s\n", r->steps[i].name);
	if (guid[0])
		fprintf(f, "label-id: %s\n", guid);
	for (i++; i < r->n_steps && r->steps[i].kind == STEP_PARTITION; i++)
		fprintf(f, "start=%" PRIu64 "KiB, size=%" PRIu64 "KiB, name=\"%s\"\n",
			r->steps[i].start / 1024, r->steps[i].size / 1024,
			r->steps[i].name);
	k = fflush(f) == 0 ? 0 : -errno;
	if (k == 0)
		k = tool_run(argv, script, NULL);
	unlink(script);
	*ret_next = i;
	return k < 0 ? k : reread_partitions(disk);
}

static int mount_fs(const struct recipe_step *s)
{
	int k = wait_for_device(s->device);

	if (k < 0)
		return k;
	k = dirs_make(s->path, 0755);
	if (k < 0)
		return log_error_errno(k, "mkdir '%s'", s->path);
	if (mount(s->device, s->path, "ext4", 0, NULL) < 0)
		return log_error_errno(-errno, "mount '%s' on '%s'", s->device,
				       s->path);
	return 0;
}

static int run_step(const struct recipe_step *s, const char *pristine)
{
	char size[32], opts[] = "lazy_itable_init=0,lazy_journal_init=0";
	int k;

	switch (s->kind) {
	case STEP_MKFS_EXT4: {
		char *argv[] = {"mkfs.ext4", "-F", "-q", "-m", "0", "-L",
				(char *)s->name, "-E", opts, (char *)s->device, NULL};
		k = wait_for_device(s->device);
		return k < 0 ? k : tool_run(argv, NULL, NULL);
	}
	case STEP_MOUNT:
		return mount_fs(s);
	case STEP_PVCREATE: {
		char *argv[] = {"pvcreate", "-q", "-ff", "-y", (char *)s->device, NULL};
		k = wait_for_device(s->device);
		return k < 0 ? k : tool_run(argv, NULL, NULL);
	}
	case STEP_VGCREATE: {
		char *argv[] = {"vgcreate", "-q", (char *)s->name, (char *)s->device, NULL};
		return tool_run(argv, NULL, NULL);
	}
	case STEP_LVCREATE: {
		char *argv[] = {"lvcreate", "-q", "-y", "-Wy", "-Zy", "-n",
				(char *)s->name, "-L", size, (char *)s->path, NULL};
		snprintf(size, sizeof(size), "%" PRIu64 "b", s->size);
		return tool_run(argv, NULL, NULL);
	}
	case STEP_CREATE_FILE: {
		struct storage_volume v = {
			.backend = s->backend,
			.format = s->format,
			.prealloc = s->prealloc,
			.size = s->size,
			.cluster_size = s->cluster_size,
		};
		snprintf(v.path, sizeof(v.path), "%s", s->path);
		return storage_create_file(&v);
	}
	case STEP_FILL:
		return storage_fill(s->path, s->format, s->size, pristine);
	default:
		log_error("step '%s' out of place", recipe_step_kind_name(s->kind));
		return -EINVAL;
	}
}

/* A directory's volumes are about to be made again: the record of those
 * an earlier sweep made there (runner/volrecord.h) goes first, so that
 * nothing half made is ever taken for them. */
static int forget_record(const struct recipe *r)
{
	char path[RECIPE_RECORD_PATH_MAX];
	_cleanup_close_ int dir = -1;

	if (r->target.kind != STORAGE_TARGET_DIRECTORY)
		return 0;
	if (unlink(recipe_record_path(r->target.mountpoint, path)) < 0)
		return errno == ENOENT ? 0 : log_error_errno(-errno, "removing '%s'", path);
	dir = open(r->target.mountpoint, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dir < 0 || fsync(dir) < 0)
		return log_error_errno(-errno, "'%s'", r->target.mountpoint);
	return 0;
}

/* Whether step S writes as much as its size (the watchdog gives it time
 * for that): a fill, a file preallocated, an ext4 whose inode tables are
 * written now (lazy_itable_init=0). */
static bool writes_size(const struct recipe_step *s)
{
	return s->kind == STEP_FILL || s->kind == STEP_CREATE_FILE ||
	       s->kind == STEP_MKFS_EXT4;
}

int native_execute(const struct recipe *r, const char *pristine)
{
	char line[2 * STORAGE_PATH_MAX + 128];
	int forgot = forget_record(r);

	if (forgot < 0)
		return forgot;

	for (size_t i = 0; i < r->n_steps;) {
		const struct recipe_step *s = &r->steps[i];
		size_t next = i + 1;
		int k;

		if (s->kind == STEP_FILL && pristine)
			snprintf(line, sizeof(line), "fill %s (%s, %" PRIu64 " bytes): "
				 "qemu-img convert -n -S 0 from the pristine image %s",
				 s->path, image_format_name(s->format), s->size, pristine);
		else
			recipe_step_describe(s, line, sizeof(line));
		watchdog_step(writes_size(s) ? watchdog_extra_for_bytes(s->size) : 0,
			      "step %zu/%zu: %s", i + 1, r->n_steps, line);
		if (s->kind == STEP_PARTITION_TABLE)
			k = partition(r, i, &next);
		else
			k = run_step(s, pristine);
		if (k < 0) {
			log_error("provisioning stopped at step %zu (%s)", i + 1,
				  recipe_step_kind_name(s->kind));
			return k;
		}
		i = next;
	}
	return 0;
}

int native_adopt(const struct recipe *r)
{
	for (size_t i = 0; i < r->n_steps; i++) {
		const struct recipe_step *s = &r->steps[i];
		char part[STORAGE_PATH_MAX];
		struct stat st;
		int k = 0;

		/* A kernel without the GPT parser (an image file's loop device
		 * here) has no partition nodes: partx adds them. */
		if (s->kind == STEP_PARTITION &&
		    recipe_partition_device(s->device, s->partnum, part, sizeof(part)) == 0 &&
		    stat(part, &st) < 0) {
			char *argv[] = {"partx", "-a", (char *)s->device, NULL};
			k = tool_run(argv, NULL, NULL);
		} else if (s->kind == STEP_MOUNT) {
			k = mount_fs(s);
		} else if (s->kind == STEP_VGCREATE) {
			char *argv[] = {"vgchange", "-q", "-ay", (char *)s->name, NULL};
			k = wait_for_device(s->device);
			if (k >= 0)
				k = tool_run(argv, NULL, NULL);
		}
		if (k < 0) {
			log_error("cannot open the volumes as they are at step %zu (%s)",
				  i + 1, recipe_step_kind_name(s->kind));
			return k;
		}
	}
	return 0;
}
