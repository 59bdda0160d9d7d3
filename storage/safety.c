#include "safety.h"

#include <blkid/blkid.h>
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "cleanup.h"
#include "layoutmark.h"
#include "log.h"

#define BY_ID "/dev/disk/by-id/"

/* Truncating copy. */
static void set_str(char *dst, size_t len, const char *src)
{
	size_t n = strnlen(src, len - 1);

	memcpy(dst, src, n);
	dst[n] = '\0';
}

static void add_item(char (*items)[SAFETY_ITEM_MAX], size_t *n, const char *s)
{
	if (*n >= SAFETY_MAX_ITEMS || !s || !*s)
		return;
	for (size_t i = 0; i < *n; i++)
		if (strcmp(items[i], s) == 0)
			return;
	set_str(items[(*n)++], SAFETY_ITEM_MAX, s);
}

/* Every signature, as wipefs finds them: partition tables, filesystems,
 * LVM PVs, RAID members. */
static int probe_signatures(const char *path, struct safety_facts *f)
{
	blkid_probe pr = blkid_new_probe_from_filename(path);

	/* Unreadable is not blank: the decision treats it as signed. */
	if (!pr) {
		f->unreadable = true;
		add_item(f->signatures, &f->n_signatures, "unreadable");
		return 0;
	}
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE | BLKID_SUBLKS_MAGIC |
					      BLKID_SUBLKS_BADCSUM);
	blkid_probe_enable_partitions(pr, 1);
	blkid_probe_set_partitions_flags(pr, BLKID_PARTS_MAGIC);
	while (blkid_do_probe(pr) == 0) {
		const char *v = NULL;

		if (blkid_probe_lookup_value(pr, "TYPE", &v, NULL) == 0 ||
		    blkid_probe_lookup_value(pr, "PTTYPE", &v, NULL) == 0)
			add_item(f->signatures, &f->n_signatures, v);
		if (blkid_probe_lookup_value(pr, "PTUUID", &v, NULL) == 0)
			set_str(f->ptuuid, sizeof(f->ptuuid), v);
	}
	blkid_free_probe(pr);
	return 0;
}

/* Whether the GPT on PATH is named and marked as a kit's layout. */
static void probe_layout_mark(const char *path, struct safety_facts *f)
{
	struct layoutmark_part parts[LAYOUTMARK_MAX_PARTS];
	char guid[LAYOUTMARK_GUID_LEN];
	size_t n = 0;

	if (layoutmark_read(path, guid, parts, &n) < 0)
		return;
	f->kit_names = layoutmark_names(parts, n);
	f->kit_mark = layoutmark_check(guid, parts, n);
}

/* Kernel name of block device DEV ("sda2", "dm-0"), or -ENOENT. */
static int dev_name(dev_t dev, char *buf, size_t len)
{
	char link[64], target[PATH_MAX];
	const char *base;
	ssize_t n;

	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", major(dev), minor(dev));
	n = readlink(link, target, sizeof(target) - 1);
	if (n < 0)
		return -errno;
	target[n] = '\0';
	base = strrchr(target, '/');
	set_str(buf, len, base ? base + 1 : target);
	return 0;
}

/* The disk a partition NAME belongs to (its sysfs parent), or -EINVAL. */
static int partition_parent(const char *name, char *buf, size_t len)
{
	char path[PATH_MAX], real[PATH_MAX], *slash;

	snprintf(path, sizeof(path), "/sys/class/block/%s/partition", name);
	if (access(path, F_OK) < 0)
		return -EINVAL;
	snprintf(path, sizeof(path), "/sys/class/block/%s", name);
	if (!realpath(path, real) || !(slash = strrchr(real, '/')))
		return -EINVAL;
	*slash = '\0';
	slash = strrchr(real, '/');
	set_str(buf, len, slash ? slash + 1 : real);
	return 0;
}

/* True when block device NAME is DISK, a partition of it, or stacked on
 * it (device mapper, md: sysfs "slaves"), a few levels deep. */
static bool name_on_disk(const char *name, const char *disk, int depth)
{
	char path[PATH_MAX], parent[64];
	_cleanup_(closedirp) DIR *d = NULL;
	struct dirent *e;

	if (strcmp(name, disk) == 0)
		return true;
	if (depth > 6)
		return false;
	if (partition_parent(name, parent, sizeof(parent)) == 0)
		return name_on_disk(parent, disk, depth + 1);
	snprintf(path, sizeof(path), "/sys/class/block/%s/slaves", name);
	d = opendir(path);
	while (d && (e = readdir(d)))
		if (e->d_name[0] != '.' && name_on_disk(e->d_name, disk, depth + 1))
			return true;
	return false;
}

static bool dev_on_disk(dev_t dev, const char *disk)
{
	char name[64];

	return major(dev) != 0 && dev_name(dev, name, sizeof(name)) == 0 &&
	       name_on_disk(name, disk, 0);
}

static void probe_boot(struct safety_facts *f)
{
	static const char *const dirs[] = {"/", "/boot", "/usr", "/boot/efi"};
	struct stat st;

	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++)
		if (stat(dirs[i], &st) == 0 && dev_on_disk(st.st_dev, f->disk))
			f->boot = true;
}

/* Mounted filesystems (mountinfo: "ID PARENT MAJ:MIN ROOT MOUNTPOINT")
 * and active swap. */
static void probe_mounted(struct safety_facts *f)
{
	_cleanup_fclose_ FILE *mi = fopen("/proc/self/mountinfo", "re");
	_cleanup_fclose_ FILE *sw = fopen("/proc/swaps", "re");
	char line[4096], where[PATH_MAX];
	unsigned maj, min;
	struct stat st;

	while (mi && !f->mounted && fgets(line, sizeof(line), mi))
		if (sscanf(line, "%*u %*u %u:%u %*s %4095s", &maj, &min, where) == 3 &&
		    dev_on_disk(makedev(maj, min), f->disk)) {
			f->mounted = true;
			set_str(f->mounted_on, sizeof(f->mounted_on), where);
		}
	while (sw && !f->mounted && fgets(line, sizeof(line), sw))
		if (sscanf(line, "%4095s", where) == 1 && stat(where, &st) == 0 &&
		    S_ISBLK(st.st_mode) && dev_on_disk(st.st_rdev, f->disk)) {
			f->mounted = true;
			set_str(f->mounted_on, sizeof(f->mounted_on), "swap");
		}
}

/* Device mapper or md holding the disk or one of its partitions (an
 * active VG, a RAID member): in use even when nothing is mounted. */
static void probe_holders(struct safety_facts *f)
{
	char path[PATH_MAX];
	_cleanup_(closedirp) DIR *d = NULL;
	struct dirent *e;

	snprintf(path, sizeof(path), "/sys/class/block/%s", f->disk);
	d = opendir(path);
	while (d && !f->mounted && (e = readdir(d))) {
		_cleanup_(closedirp) DIR *h = NULL;
		struct dirent *he;

		if (strcmp(e->d_name, "holders") != 0 &&
		    strncmp(e->d_name, f->disk, strlen(f->disk)) != 0)
			continue;
		if (strcmp(e->d_name, "holders") == 0)
			snprintf(path, sizeof(path), "/sys/class/block/%s/holders", f->disk);
		else
			snprintf(path, sizeof(path), "/sys/class/block/%s/%s/holders",
				 f->disk, e->d_name);
		h = opendir(path);
		while (h && (he = readdir(h)))
			if (he->d_name[0] != '.') {
				f->mounted = true;
				snprintf(f->mounted_on, sizeof(f->mounted_on),
					 "held by %.100s", he->d_name);
				break;
			}
	}
}

/* A sysfs attribute's text, trimmed, or "" */
static void read_attr(const char *disk, const char *attr, char *buf, size_t len)
{
	char path[PATH_MAX];
	_cleanup_fclose_ FILE *f = NULL;
	size_t n = 0;

	buf[0] = '\0';
	snprintf(path, sizeof(path), "/sys/class/block/%s/%s", disk, attr);
	f = fopen(path, "re");
	if (!f || !fgets(buf, (int)len, f))
		return;
	while (isspace((unsigned char)buf[n]))
		n++;
	memmove(buf, buf + n, strlen(buf + n) + 1);
	for (n = strlen(buf); n > 0 && isspace((unsigned char)buf[n - 1]); n--)
		buf[n - 1] = '\0';
}

/* SCSI/ATA unit serial number from VPD page 0x80: 4 header bytes, then
 * the serial, space padded. */
void safety_vpd_serial(const char *name, char *buf, size_t len)
{
	char path[256];
	unsigned char page[256];
	_cleanup_close_ int fd = -1;
	ssize_t n;

	snprintf(path, sizeof(path), "/sys/block/%s/device/vpd_pg80", name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || (n = read(fd, page, sizeof(page))) < 4)
		return;
	size_t l = page[3];
	if (l > (size_t)n - 4)
		l = (size_t)n - 4;
	const char *s = (const char *)page + 4;
	while (l && *s == ' ')
		s++, l--;
	while (l && (s[l - 1] == ' ' || s[l - 1] == '\0'))
		l--;
	if (l < len)
		snprintf(buf, len, "%.*s", (int)l, s);
}

static void probe_identities(const char *path, struct safety_facts *f)
{
	static const char *const attrs[] = {"device/serial", "serial",
					    "device/wwid", "wwid"};
	char v[SAFETY_ITEM_MAX], real[PATH_MAX], link[PATH_MAX], lreal[PATH_MAX];
	_cleanup_(closedirp) DIR *d = NULL;
	struct dirent *e;

	for (size_t i = 0; i < sizeof(attrs) / sizeof(attrs[0]); i++) {
		read_attr(f->disk, attrs[i], v, sizeof(v));
		add_item(f->identities, &f->n_identities, v);
		/* by-id spells a NAA WWID "wwn-0x<hex>". */
		if (strncmp(v, "naa.", 4) == 0) {
			char w[SAFETY_ITEM_MAX];

			snprintf(w, sizeof(w), "0x%.100s", v + 4);
			add_item(f->identities, &f->n_identities, w);
			snprintf(w, sizeof(w), "wwn-0x%.100s", v + 4);
			add_item(f->identities, &f->n_identities, w);
		}
	}
	/* ATA and SCSI disks carry their serial in VPD page 0x80 only, and
	 * a root without udev has no by-id links to name it. */
	v[0] = '\0';
	safety_vpd_serial(f->disk, v, sizeof(v));
	add_item(f->identities, &f->n_identities, v);
	if (!realpath(path, real))
		return;
	d = opendir(BY_ID);
	while (d && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(link, sizeof(link), BY_ID "%s", e->d_name);
		if (realpath(link, lreal) && strcmp(lreal, real) == 0)
			add_item(f->identities, &f->n_identities, e->d_name);
	}
}

int safety_probe(const char *path, struct safety_facts *ret)
{
	struct safety_facts f;
	struct stat st;
	int k;

	memset(&f, 0, sizeof(f));
	if (stat(path, &st) < 0) {
		if (errno != ENOENT)
			return log_error_errno(-errno, "'%s'", path);
		*ret = f;
		return 0;
	}
	f.exists = true;
	f.block_device = S_ISBLK(st.st_mode);
	if (!f.block_device && !S_ISREG(st.st_mode)) {
		log_error("'%s' is neither an image file nor a block device", path);
		return -EINVAL;
	}
	k = probe_signatures(path, &f);
	if (k < 0)
		return k;
	if (!f.unreadable)
		probe_layout_mark(path, &f);
	if (f.block_device) {
		char name[64];

		k = dev_name(st.st_rdev, name, sizeof(name));
		if (k < 0)
			return log_error_code(k, "'%s': not in /sys/dev/block", path);
		f.partition = partition_parent(name, f.disk, sizeof(f.disk)) == 0;
		if (!f.partition)
			set_str(f.disk, sizeof(f.disk), name);
		probe_boot(&f);
		probe_mounted(&f);
		probe_holders(&f);
		probe_identities(path, &f);
	}
	*ret = f;
	return 0;
}

bool safety_identity_matches(const struct safety_facts *facts, const char *identity)
{
	if (strncmp(identity, BY_ID, strlen(BY_ID)) == 0)
		identity += strlen(BY_ID);
	for (size_t i = 0; i < facts->n_identities; i++)
		if (strcasecmp(facts->identities[i], identity) == 0)
			return true;
	return false;
}

bool safety_kit_layout(const struct safety_facts *f)
{
	return f->kit_mark && f->n_signatures == 1 && strcmp(f->signatures[0], "gpt") == 0;
}

static void list(char *buf, size_t len, char (*items)[SAFETY_ITEM_MAX], size_t n)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < n && used < len; i++) {
		int r = snprintf(buf + used, len - used, "%s%s", i ? ", " : "", items[i]);
		if (r < 0)
			break;
		used += (size_t)r;
	}
}

int safety_decide(const struct safety_facts *f, const struct safety_policy *p,
		  char *reason, size_t len)
{
	char sigs[512], ids[512];
	bool named = p->identity && *p->identity && strcmp(p->identity, "auto") != 0;
	/* Signatures of the layout buildapp itself made here: resuming a
	 * sweep (after a power cut, or to add runs) needs no wipe; nor does
	 * a layout that carries a kit's mark, which the next kit on the
	 * same server lays out again (no RESULTS tells it). */
	bool own = (p->own_ptuuid && *p->own_ptuuid && f->ptuuid[0] &&
		    strcmp(p->own_ptuuid, f->ptuuid) == 0) ||
		   safety_kit_layout(f);
	/* Named as a kit's layout, but not marked as one: said, as that
	 * is what its owner will wonder about. */
	const char *unmarked = f->kit_names && !f->kit_mark
				       ? "; its partitions are named as a kit's layout, but "
					 "its disk GUID is not that layout's mark, so it is "
					 "not taken for one"
				       : "";

	list(sigs, sizeof(sigs), (char (*)[SAFETY_ITEM_MAX])f->signatures, f->n_signatures);
	list(ids, sizeof(ids), (char (*)[SAFETY_ITEM_MAX])f->identities, f->n_identities);
	if (!f->exists)
		return 0;
	if (!f->block_device) {
		if (f->n_signatures > 0 && !p->wipe && !own) {
			snprintf(reason, len, "the image file carries signatures (%s) "
				 "and wipe is not set%s (remove the file to start over)",
				 sigs, unmarked);
			return -EPERM;
		}
		return 0;
	}
	if (f->boot) {
		snprintf(reason, len, "disk '%s' holds the running system (boot "
			 "device); signatures: %s", f->disk, *sigs ? sigs : "none");
		return -EPERM;
	}
	if (f->mounted) {
		snprintf(reason, len, "disk '%s' is in use: %s%s; "
			 "signatures: %s", f->disk,
			 strncmp(f->mounted_on, "held by", 7) == 0 ? "" : "mounted on ",
			 f->mounted_on, *sigs ? sigs : "none");
		return -EPERM;
	}
	if (f->partition) {
		snprintf(reason, len, "the target is a partition of '%s'; give the "
			 "whole disk", f->disk);
		return -EPERM;
	}
	if (named && !safety_identity_matches(f, p->identity)) {
		snprintf(reason, len, "disk '%s' is not '%s' (its identities: %s); "
			 "signatures: %s", f->disk, p->identity, *ids ? ids : "none",
			 *sigs ? sigs : "none");
		return -EPERM;
	}
	if (own)
		return 0;
	if (f->n_signatures > 0 && !p->wipe) {
		snprintf(reason, len, "disk '%s' carries signatures (%s) and wipe is "
			 "not set%s: to erase it, set [host] wipe = yes and [host] disk "
			 "to one of its identities (%s; on the appliance: "
			 "buildapp.wipe=yes buildapp.disk=ID at the boot menu)",
			 f->disk, sigs, unmarked, *ids ? ids : "none");
		return -EPERM;
	}
	if (f->n_signatures > 0 && !named) {
		snprintf(reason, len, "disk '%s' carries signatures (%s): wipe needs "
			 "[host] disk to name it by a stable identity (by-id name, "
			 "serial or WWN; its identities: %s)", f->disk, sigs,
			 *ids ? ids : "none");
		return -EPERM;
	}
	return 0;
}
