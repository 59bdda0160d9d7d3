#include "disks.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cleanup.h"
#include "safety.h"
#include "sysfs.h"

/* Disks that never hold a benchmark: loop, ram, optical, stacked. */
static int is_candidate(const char *name)
{
	static const char *const skip[] = {"loop", "ram", "zram", "sr", "dm-",
					   "md", "nbd", "fd", NULL};

	if (name[0] == '.')
		return 0;
	for (const char *const *s = skip; *s; s++)
		if (strncmp(name, *s, strlen(*s)) == 0)
			return 0;
	return 1;
}


int disks_info(const char *name, struct disk_info *ret)
{
	struct disk_info d = {0};
	char buf[64];

	if (strlen(name) >= sizeof(d.name))
		return -EINVAL;
	snprintf(d.name, sizeof(d.name), "%s", name);
	if (sysfs_read_block(name, "size", buf, sizeof(buf)) < 0)
		return -ENOENT;
	d.size = strtoull(buf, NULL, 10) * 512;
	/* NVMe and virtio-blk name it serial; SCSI and ATA via VPD. */
	if (sysfs_read_block(name, "device/serial", d.serial, sizeof(d.serial)) < 0 &&
	    sysfs_read_block(name, "serial", d.serial, sizeof(d.serial)) < 0)
		safety_vpd_serial(name, d.serial, sizeof(d.serial));
	if (sysfs_read_block(name, "device/wwid", d.wwid, sizeof(d.wwid)) < 0)
		sysfs_read_block(name, "wwid", d.wwid, sizeof(d.wwid));
	sysfs_read_block(name, "device/model", d.model, sizeof(d.model));
	*ret = d;
	return 0;
}

int disks_match(const struct disk_info *disk, const char *identity)
{
	const char *id = identity;
	size_t il, sl;

	if (strncmp(id, "/dev/disk/by-id/", 16) == 0)
		id += 16;
	else if (strncmp(id, "/dev/", 5) == 0)
		id += 5;
	if (!*id)
		return 0;
	if (strcmp(id, disk->name) == 0)
		return 1;
	if (disk->serial[0] && strcmp(id, disk->serial) == 0)
		return 1;
	if (disk->wwid[0] && (strcmp(id, disk->wwid) == 0 ||
			      /* wwn-0x5000c500... against naa.5000c500... */
			      (strncmp(id, "wwn-0x", 6) == 0 &&
			       strstr(disk->wwid, id + 6)) ||
			      (strncmp(id, "0x", 2) == 0 && strstr(disk->wwid, id + 2))))
		return 1;
	/* by-id names: ata-MODEL_SERIAL, nvme-MODEL_SERIAL, scsi-... */
	il = strlen(id);
	sl = strlen(disk->serial);
	return sl && il > sl + 1 && id[il - sl - 1] == '_' &&
	       strcmp(id + il - sl, disk->serial) == 0;
}

static int ext_label_is(const char *part, const char *label)
{
	char path[300];
	unsigned char sb[1024];
	_cleanup_close_ int fd = -1;

	snprintf(path, sizeof(path), "/dev/%s", part);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || pread(fd, sb, sizeof(sb), 1024) != (ssize_t)sizeof(sb))
		return 0;
	/* s_magic at 0x38, s_volume_name[16] at 0x78. */
	if (sb[0x38] != 0x53 || sb[0x39] != 0xef)
		return 0;
	return strncmp((const char *)sb + 0x78, label, 16) == 0;
}

int disks_find_label(const char *label, char part[DISK_NAME_MAX],
		     char disk[DISK_NAME_MAX])
{
	struct dirent **disks = NULL;
	int n = scandir("/sys/block", &disks, NULL, alphasort), found = -ENOENT;

	for (int i = 0; i < n; i++) {
		const char *d = disks[i]->d_name;
		char dir[300];
		struct dirent **parts = NULL;
		int m;

		if (found < 0 && is_candidate(d)) {
			snprintf(dir, sizeof(dir), "/sys/block/%s", d);
			m = scandir(dir, &parts, NULL, alphasort);
			for (int j = 0; j < m; j++) {
				const char *p = parts[j]->d_name;
				if (found < 0 && strncmp(p, d, strlen(d)) == 0 &&
				    strlen(p) < DISK_NAME_MAX &&
				    ext_label_is(p, label)) {
					snprintf(part, DISK_NAME_MAX, "%.*s",
						 DISK_NAME_MAX - 1, p);
					snprintf(disk, DISK_NAME_MAX, "%.*s",
						 DISK_NAME_MAX - 1, d);
					found = 0;
				}
				free(parts[j]);
			}
			free(parts);
		}
		free(disks[i]);
	}
	free(disks);
	return found;
}

int disks_find_target(const char *identity, const char *exclude,
		      struct disk_info *ret)
{
	struct dirent **disks = NULL;
	int n = scandir("/sys/block", &disks, NULL, alphasort), found = -ENOENT;
	int is_auto = strcmp(identity, "auto") == 0;

	for (int i = 0; i < n; i++) {
		struct disk_info info;
		const char *d = disks[i]->d_name;

		if (found < 0 && is_candidate(d) &&
		    (!exclude || strcmp(d, exclude) != 0) &&
		    disks_info(d, &info) == 0 && info.size > 0 &&
		    (is_auto || disks_match(&info, identity))) {
			*ret = info;
			found = 0;
		}
		free(disks[i]);
	}
	free(disks);
	return found;
}
