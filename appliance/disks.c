#include "disks.h"

#include <blkid/blkid.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cleanup.h"
#include "parse.h"
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

bool disks_fs_is(const char *part, const char *type, const char *label)
{
	char path[300];
	const char *t = NULL, *l = NULL;
	bool is = false;

	snprintf(path, sizeof(path), "/dev/%s", part);
	blkid_probe pr = blkid_new_probe_from_filename(path);
	if (!pr)
		return false;
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE | BLKID_SUBLKS_LABEL);
	if (blkid_do_safeprobe(pr) == 0 &&
	    blkid_probe_lookup_value(pr, "TYPE", &t, NULL) == 0 &&
	    blkid_probe_lookup_value(pr, "LABEL", &l, NULL) == 0)
		is = strncmp(t, type, strlen(type)) == 0 && strcmp(l, label) == 0;
	blkid_free_probe(pr);
	return is;
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
				    disks_fs_is(p, "ext", label)) {
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

size_t disks_candidates(const char *exclude, struct disk_info *ret, size_t max)
{
	struct dirent **disks = NULL;
	int n = scandir("/sys/block", &disks, NULL, alphasort);
	size_t found = 0;

	for (int i = 0; i < n; i++) {
		struct disk_info info;
		const char *d = disks[i]->d_name;

		if (is_candidate(d) && (!exclude || strcmp(d, exclude) != 0) &&
		    disks_info(d, &info) == 0 && info.size > 0) {
			if (found < max)
				ret[found] = info;
			found++;
		}
		free(disks[i]);
	}
	free(disks);
	return found;
}

int disks_find_target(const char *identity, const char *exclude,
		      struct disk_info *ret)
{
	struct disk_info c[DISKS_MAX];
	size_t n = disks_candidates(exclude, c, DISKS_MAX);

	if (strcmp(identity, "auto") == 0) {
		if (n > 1)
			return -ENOTUNIQ;
		if (n == 1)
			*ret = c[0];
		return n == 1 ? 0 : -ENOENT;
	}
	for (size_t i = 0; i < n && i < DISKS_MAX; i++)
		if (disks_match(&c[i], identity)) {
			*ret = c[i];
			return 0;
		}
	return -ENOENT;
}

void disks_describe(const struct disk_info *disks, size_t n, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < n && i < DISKS_MAX && used < len; i++) {
		const struct disk_info *d = &disks[i];
		struct safety_facts f = {.n_identities = 0};
		char dev[DISK_NAME_MAX + 8], size[32], ids[512] = "";

		snprintf(dev, sizeof dev, "/dev/%s", d->name);
		/* Those with white space (a t10 WWID) cannot name it on the
		 * kernel command line: left out. */
		if (safety_probe(dev, &f) == 0)
			for (size_t k = 0, u = 0; k < f.n_identities && u < sizeof ids; k++)
				if (!strpbrk(f.identities[k], " \t"))
					u += (size_t)snprintf(ids + u, sizeof ids - u, "%s%s",
							      u ? ", " : "", f.identities[k]);
		used += (size_t)snprintf(buf + used, len - used,
					 "%s%s: %s, model %s, identities: %s", i ? "; " : "",
					 d->name, format_size(d->size, size, sizeof size),
					 d->model[0] ? d->model : "unknown", ids[0] ? ids : "none");
	}
}
