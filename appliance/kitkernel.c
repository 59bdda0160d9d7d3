/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "kitkernel.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cleanup.h"
#include "command.h"
#include "disks.h"
#include "files.h"
#include "log.h"
#include "sha256.h"
#include "sysfs.h"

/* The reference's hash: its first line is "HEX  ESP:/vmlinuz". */
static int read_ref(const char *path, char hex[SHA256_HEX_LEN])
{
	char line[256], want[sizeof(line)];
	int r = sysfs_read(path, line, sizeof(line));

	if (r < 0)
		return r;
	snprintf(want, sizeof(want), "  ESP:%s", KITKERNEL_ESP_PATH);
	if (strlen(line) != 64 + strlen(want) || strcmp(line + 64, want) != 0 ||
	    strspn(line, "0123456789abcdef") != 64)
		return -EBADMSG;
	snprintf(hex, SHA256_HEX_LEN, "%.64s", line);
	return 0;
}

/* The ESP of DISK: its FAT partition labelled KITKERNEL_ESP_LABEL, else
 * its partition 1.  Returns 0 or -ENOENT. */
static int find_esp(const char *disk, char part[NAME_MAX + 1])
{
	char dir[300], num[600], n[16];
	struct dirent **e = NULL;
	int count, found = -ENOENT;

	part[0] = '\0';
	snprintf(dir, sizeof(dir), "/sys/block/%s", disk);
	count = scandir(dir, &e, NULL, alphasort);
	for (int i = 0; i < count; i++) {
		const char *p = e[i]->d_name;
		snprintf(num, sizeof(num), "%s/%s/partition", dir, p);
		if (found < 0 && strncmp(p, disk, strlen(disk)) == 0 &&
		    sysfs_read(num, n, sizeof(n)) == 0) {
			if (disks_fs_is(p, "vfat", KITKERNEL_ESP_LABEL)) {
				snprintf(part, NAME_MAX + 1, "%s", p);
				found = 0;
			} else if (strcmp(n, "1") == 0 && !part[0]) {
				snprintf(part, NAME_MAX + 1, "%s", p);
			}
		}
		free(e[i]);
	}
	free(e);
	return found == 0 || part[0] ? 0 : -ENOENT;
}

/* Mounts PART (a FAT) read-only on MNT.  DETAIL says what went wrong. */
static int mount_esp(const char *part, const char *mnt, char *detail, size_t len)
{
	static const char *const modules[] = {"vfat", "nls_cp437", "nls_ascii",
					      "nls_utf8"};
	char dev[NAME_MAX + 8];

	/* The FAT and the code pages its mount asks for (437, and the
	 * iocharset): modules of the host root, loaded before, as nothing
	 * loads them on demand here. */
	for (size_t i = 0; i < sizeof(modules) / sizeof(modules[0]); i++)
		command_run((char *[]){"modprobe", "-q", (char *)modules[i], NULL}, NULL, 1);
	snprintf(dev, sizeof(dev), "/dev/%s", part);
	mkdir(mnt, 0700);
	if (mount(dev, mnt, "vfat", MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) < 0) {
		int r = -errno;
		snprintf(detail, len, "mounting %s: %s", dev, strerror(-r));
		rmdir(mnt);
		return r;
	}
	return 0;
}

/* A CD (NAME.iso in a drive, or a BMC's virtual one) whose ISO 9660
 * filesystem holds the kernel and the initramfs, mounted read-only on
 * MNT.  Returns 0 or -ENOENT. */
static int mount_cd(const char *mnt)
{
	_cleanup_(closedirp) DIR *d = opendir("/sys/block");
	struct dirent *e;
	char dev[NAME_MAX + 8], path[PATH_MAX];

	command_run((char *[]){"modprobe", "-q", "isofs", NULL}, NULL, 1);
	while (d && (e = readdir(d))) {
		if (strncmp(e->d_name, "sr", 2) != 0)
			continue;
		snprintf(dev, sizeof(dev), "/dev/%s", e->d_name);
		mkdir(mnt, 0700);
		if (mount(dev, mnt, "iso9660", MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC,
			  NULL) < 0)
			continue;
		snprintf(path, sizeof(path), "%s%s", mnt, KITKERNEL_ESP_INITRD);
		if (access(path, R_OK) == 0) {
			snprintf(path, sizeof(path), "%s%s", mnt, KITKERNEL_ESP_PATH);
			if (access(path, R_OK) == 0)
				return 0;
		}
		umount(mnt);
	}
	rmdir(mnt);
	return -ENOENT;
}

int kitkernel_mount_boot(const char *boot_disk, const char *mnt, char *why, size_t len)
{
	char part[NAME_MAX + 1], detail[300] = "";

	if (boot_disk && *boot_disk && find_esp(boot_disk, part) == 0 &&
	    mount_esp(part, mnt, detail, sizeof(detail)) == 0)
		return 0;
	if (mount_cd(mnt) == 0)
		return 0;
	if (!boot_disk || !*boot_disk)
		snprintf(why, len, "no boot disk (netbooted) and no CD with %s and %s",
			 KITKERNEL_ESP_PATH, KITKERNEL_ESP_INITRD);
	else
		snprintf(why, len, "no ESP on %s (%s) and no CD with %s and %s", boot_disk,
			 detail[0] ? detail : "no partition 1 or FAT labelled " KITKERNEL_ESP_LABEL,
			 KITKERNEL_ESP_PATH, KITKERNEL_ESP_INITRD);
	return -ENOENT;
}

void kitkernel_umount_boot(const char *mnt)
{
	if (umount(mnt) < 0)
		log_warning("unmounting the ESP from %s: %s", mnt, strerror(errno));
	rmdir(mnt);
}

/* Copies the ESP's kernel of PART into TO, mounted read-only on MNT for
 * as long as the copy takes.  DETAIL says what went wrong. */
static int copy_from_esp(const char *part, const char *mnt, const char *to,
			 char *detail, size_t len)
{
	char from[PATH_MAX];
	int r = mount_esp(part, mnt, detail, len);

	if (r < 0)
		return r;
	snprintf(from, sizeof(from), "%s%s", mnt, KITKERNEL_ESP_PATH);
	r = files_copy(from, to, 0644, 0);
	if (r < 0)
		snprintf(detail, len, "/dev/%s:%s: %s", part, KITKERNEL_ESP_PATH, strerror(-r));
	if (umount(mnt) < 0 && r == 0) {
		r = -errno;
		snprintf(detail, len, "unmounting /dev/%s: %s", part, strerror(-r));
	}
	rmdir(mnt);
	return r;
}

int kitkernel_fetch(const char *dir, const char *boot_disk, const char *mnt,
		    char *why, size_t len)
{
	char ref[PATH_MAX], dest[PATH_MAX], tmp[PATH_MAX], want[SHA256_HEX_LEN],
		got[SHA256_HEX_LEN], part[NAME_MAX + 1], detail[400] = "";
	int r;

	snprintf(ref, sizeof(ref), "%s/%s", dir, KITKERNEL_REF);
	snprintf(dest, sizeof(dest), "%s/vmlinuz", dir);
	if (access(ref, F_OK) < 0 && errno == ENOENT)
		return 0;
	r = read_ref(ref, want);
	if (r < 0) {
		snprintf(why, len, "guest kernel: %s: %s", ref,
			 r == -EBADMSG ? "not one line \"SHA256  ESP:" KITKERNEL_ESP_PATH "\""
				       : strerror(-r));
		return r;
	}
	/* Netbooted: the netboot initrd's last archive put it there. */
	if (access(dest, F_OK) == 0) {
		r = sha256_path_hex(dest, got);
		if (r == 0 && strcmp(got, want) == 0)
			return 0;
		snprintf(why, len, "guest kernel: %s has sha256 %s, not %s", dest,
			 r < 0 ? strerror(-r) : got, want);
		unlink(dest);
		return r < 0 ? r : -EBADMSG;
	}
	snprintf(tmp, sizeof(tmp), "%s/.vmlinuz.tmp", dir);
	if (!boot_disk || !*boot_disk) {
		r = -ENOENT;
		snprintf(detail, sizeof(detail), "no boot disk");
	} else if ((r = find_esp(boot_disk, part)) < 0) {
		snprintf(detail, sizeof(detail), "no partition 1 or FAT labelled %s",
			 KITKERNEL_ESP_LABEL);
	} else if ((r = copy_from_esp(part, mnt, tmp, detail, sizeof(detail))) == 0) {
		r = sha256_path_hex(tmp, got);
		if (r == 0 && strcmp(got, want) != 0)
			r = -EBADMSG;
		if (r < 0)
			snprintf(detail, sizeof(detail), "/dev/%s:%s has sha256 %s", part,
				 KITKERNEL_ESP_PATH, r == -EBADMSG ? got : strerror(-r));
		else if (rename(tmp, dest) < 0)
			r = -errno;
		else
			log_info("guest kernel: /dev/%s:%s, sha256 as the kit says", part,
				 KITKERNEL_ESP_PATH);
	}
	if (r < 0) {
		unlink(tmp);
		snprintf(why, len, "guest kernel: no ESP with %s of sha256 %s on %s (%s)",
			 KITKERNEL_ESP_PATH, want, boot_disk && *boot_disk ? boot_disk : "-",
			 detail[0] ? detail : strerror(-r));
	}
	return r;
}
