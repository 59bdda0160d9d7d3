/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "guestkit.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "cas.h"
#include "cleanup.h"
#include "elfdeps.h"
#include "files.h"
#include "guestproto.h"
#include "initramfs.h"
#include "kmods.h"
#include "log.h"
#include "pvhkernel.h"
#include "tempfiles.h"
#include "tools.h"


/* Bump when the initramfs layout changes: old cache entries are then
 * not reused. */
#define KIT_FORMAT "buildapp-guestkit-3"

/* The tools of the guest workloads.  Only those of the profile's kinds
 * go in: fio alone brings 80 MB of libraries (Debian builds it with every
 * engine), which the guest unpacks at every boot. */
static const struct {
	enum workload_kind kind;
	const char *path;
} programs[] = {
	{WORKLOAD_FIO, GUESTPROTO_FIO},
	{WORKLOAD_BONNIE, "/usr/sbin/bonnie++"},
};
/* Disk drivers for every bus a cell may use (virtio-blk, virtio-scsi,
 * LSI SCSI, AHCI, PIIX IDE) and ext4, with what they need and their
 * softdeps (ext4's crc32c: every module of that alias, kmods). */
static const char *const modules[] = {
	"virtio_pci", "virtio_blk", "virtio_scsi", "sym53c8xx", "sd_mod",
	"ahci",       "ata_piix",   "ext4",        NULL,
};
/* Where the kernel has them: pvpanic, through which a guest panic
 * reaches libvirt as a CRASHED event. */
static const char *const optional_modules[] = {
	"pvpanic_mmio", "pvpanic_pci", NULL,
};
/* The drivers of one bus (disk_bus_name), ext4 with them: the list the
 * agent loads when the command line names the bus (buildapp.bus=), so a
 * guest on virtio-blk does not load and probe libata, AHCI's six ports
 * and the SCSI stack (0.8 s of a 7 s boot under one level of TCG). */
static const struct {
	const char *bus;
	const char *const modules[6];
} bus_modules[] = {
	{"virtio", {"virtio_pci", "virtio_blk", "ext4", NULL}},
	{"scsi", {"virtio_pci", "virtio_scsi", "sym53c8xx", "sd_mod", "ext4"}},
	{"sata", {"ahci", "sd_mod", "ext4", NULL}},
	{"ide", {"ata_piix", "sd_mod", "ext4", NULL}},
};

enum kind { K_DIR, K_FILE, K_LINK, K_CHR, K_TEXT };

struct entry {
	enum kind kind;
	char *dest; /* path in the archive, no leading slash */
	char *src;  /* K_FILE: host file; K_LINK: target; K_TEXT: content */
	mode_t perm;
	dev_t rdev;
};

struct kit {
	struct entry *e;
	size_t n, cap;
};

static void kit_release(struct kit *k)
{
	for (size_t i = 0; i < k->n; i++) {
		free(k->e[i].dest);
		free(k->e[i].src);
	}
	free(k->e);
}

static int kit_add(struct kit *k, enum kind kind, const char *dest,
		   const char *src, mode_t perm, dev_t rdev)
{
	while (*dest == '/')
		dest++;
	for (size_t i = 0; i < k->n; i++)
		if (strcmp(k->e[i].dest, dest) == 0)
			return 0;
	if (k->n == k->cap) {
		size_t cap = k->cap ? 2 * k->cap : 128;
		struct entry *e = realloc(k->e, cap * sizeof(*e));
		if (!e)
			return -ENOMEM;
		k->e = e;
		k->cap = cap;
	}
	struct entry *e = &k->e[k->n];
	*e = (struct entry){kind, strdup(dest), src ? strdup(src) : NULL, perm,
			    rdev};
	if (!e->dest || (src && !e->src))
		return -ENOMEM;
	k->n++;
	return 0;
}

/* Adds the parent directories of DEST (inside the guest's /usr, since
 * /lib, /bin... are symlinks into it as on the host). */
static int kit_add_parents(struct kit *k, const char *dest)
{
	char buf[PATH_MAX];
	snprintf(buf, sizeof(buf), "%s", dest);
	for (char *p = buf + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		int r = kit_add(k, K_DIR, buf, NULL, 0755, 0);
		*p = '/';
		if (r < 0)
			return r;
	}
	return 0;
}

/* The guest sees the host's merged /usr: /lib/x/y is /usr/lib/x/y. */
static void guest_path(const char *path, char *ret, size_t len)
{
	static const char *const merged[] = {"/lib/", "/lib64/", "/bin/",
					     "/sbin/"};
	for (size_t i = 0; i < sizeof(merged) / sizeof(merged[0]); i++)
		if (strncmp(path, merged[i], strlen(merged[i])) == 0) {
			snprintf(ret, len, "/usr%s", path);
			return;
		}
	snprintf(ret, len, "%s", path);
}

static const char *const applets[] = {
	"sh",   "ash",  "tar",   "mount", "umount", "sync",  "cat",
	"ls",   "dmesg", "mkdir", "rm",   "echo",   "sleep", "poweroff",
	"modprobe", "insmod", "lsmod", "gzip", "gunzip", "xz", "unxz",
	"bzip2", "bunzip2", "find", "dd", "cp", "mv", "df", "du", "free",
	"ps", "grep", "sed", "head", "tail", "wc", NULL,
};

static int kit_add_file(struct kit *k, const char *host, const char *guest,
			mode_t perm)
{
	char g[PATH_MAX];
	guest_path(guest, g, sizeof(g));
	int r = kit_add_parents(k, g);
	return r < 0 ? r : kit_add(k, K_FILE, g, host, perm, 0);
}

int guestkit_find_agent(const char *agent, char *ret, size_t len)
{
	return tools_find("buildapp-agent", "BUILDAPP_AGENT", agent, ret, len);
}

/* The load order of NAMES and the optional modules, one guest path a
 * line, into LIST (LEN bytes); with K, each module's file is added to it. */
static int module_list(struct kit *k, const char *moddir, const char *const *names,
		       char *list, size_t len)
{
	struct elfdeps deps = {0};
	char host[PATH_MAX * 2], guest[PATH_MAX];
	size_t used = 0;
	int r;

	if ((r = kmods_resolve(moddir, names, false, &deps)) < 0 ||
	    (r = kmods_resolve(moddir, optional_modules, true, &deps)) < 0)
		goto out;
	for (size_t i = 0; i < deps.n; i++) {
		snprintf(host, sizeof(host), "%s/%s", moddir, deps.paths[i]);
		if (k && (r = kit_add_file(k, host, host, 0644)) < 0)
			goto out;
		guest_path(host, guest, sizeof(guest));
		used += snprintf(list + used, len - used, "%s\n", guest);
		if (used >= len) {
			r = -E2BIG;
			goto out;
		}
	}
out:
	elfdeps_release(&deps);
	return r;
}

static int collect(struct kit *k, const char *agent, const char *version,
		   axis_mask kinds, const char *job)
{
	char moddir[PATH_MAX], buf[PATH_MAX], list[65536] = "";
	struct elfdeps deps = {0};
	int r = 0;

	static const char *const dirs[] = {"dev", "proc", "sys", "tmp", "mnt",
					   "etc", "etc/buildapp", "usr",
					   "usr/bin", "usr/sbin", "usr/lib",
					   "usr/lib64", NULL};
	for (const char *const *d = dirs; *d && r == 0; d++)
		r = kit_add(k, K_DIR, *d, NULL, 0755, 0);
	/* The kernel opens /dev/console for PID 1 before devtmpfs is up. */
	if (r == 0)
		r = kit_add(k, K_CHR, "dev/console", NULL, 0600, makedev(5, 1));
	if (r == 0)
		r = kit_add(k, K_CHR, "dev/null", NULL, 0666, makedev(1, 3));
	static const char *const links[][2] = {{"bin", "usr/bin"},
					       {"sbin", "usr/sbin"},
					       {"lib", "usr/lib"},
					       {"lib64", "usr/lib64"}};
	for (size_t i = 0; i < 4 && r == 0; i++)
		r = kit_add(k, K_LINK, links[i][0], links[i][1], 0777, 0);
	if (r == 0)
		r = kit_add(k, K_FILE, "init", agent, 0755, 0);
	if (r == 0)
		r = kit_add(k, K_TEXT, "etc/passwd", "root:x:0:0:root:/:/bin/sh\n",
			    0644, 0);
	if (r == 0)
		r = kit_add(k, K_TEXT, "etc/group", "root:x:0:\n", 0644, 0);
	if (r == 0)
		r = kit_add(k, K_FILE, "usr/bin/busybox", "/bin/busybox", 0755,
			    0);
	for (const char *const *a = applets; *a && r == 0; a++) {
		snprintf(buf, sizeof(buf), "usr/bin/%s", *a);
		r = kit_add(k, K_LINK, buf, "busybox", 0777, 0);
	}
	if (r < 0)
		return r;

	for (size_t i = 0; i < sizeof(programs) / sizeof(programs[0]); i++) {
		const char *prog = programs[i].path;
		/* No kinds given (a kit for any profile): everything. */
		if (kinds && !(kinds & AXIS_BIT(programs[i].kind)))
			continue;
		if ((r = kit_add_file(k, prog, prog, 0755)) < 0)
			return r;
		if ((r = elfdeps_add(&deps, prog)) < 0)
			goto out;
	}
	for (size_t i = 0; i < deps.n && r == 0; i++)
		r = kit_add_file(k, deps.paths[i], deps.paths[i], 0755);
	elfdeps_release(&deps);
	/* [workload] fio_job, which buildapp.fio_job= names. */
	if (r == 0 && job && (!kinds || (kinds & AXIS_BIT(WORKLOAD_FIO))))
		r = kit_add(k, K_FILE, GUESTPROTO_JOB_FILE, job, 0644, 0);
	if (r < 0)
		goto out;

	snprintf(moddir, sizeof(moddir), "/lib/modules/%s", version);
	/* Every module, with its file, for a command line without the bus;
	 * then each bus's own list of some of them. */
	r = module_list(k, moddir, modules, list, sizeof(list));
	if (r == 0)
		r = kit_add(k, K_TEXT, GUESTPROTO_MODULE_LIST, list, 0644, 0);
	for (size_t i = 0; i < sizeof(bus_modules) / sizeof(bus_modules[0]) && r == 0; i++) {
		char path[128];
		snprintf(path, sizeof(path), GUESTPROTO_MODULE_LIST "-%s", bus_modules[i].bus);
		r = module_list(NULL, moddir, bus_modules[i].modules, list, sizeof(list));
		if (r == 0)
			r = kit_add(k, K_TEXT, path, list, 0644, 0);
	}
	/* Last: its presence tells the agent the unpacking finished. */
	if (r == 0)
		r = kit_add(k, K_TEXT, GUESTPROTO_KIT_COMPLETE, "", 0644, 0);
out:
	elfdeps_release(&deps);
	return r;
}

static int write_entry(struct initramfs *a, const struct entry *e)
{
	switch (e->kind) {
	case K_DIR:
		return initramfs_add_dir(a, e->dest, e->perm);
	case K_LINK:
		return initramfs_add_symlink(a, e->dest, e->src);
	case K_CHR:
		return initramfs_add_node(a, e->dest, S_IFCHR | e->perm, e->rdev);
	case K_TEXT:
		return initramfs_add_data(a, e->dest, e->src, strlen(e->src),
					  e->perm);
	case K_FILE:
		return initramfs_add_file(a, e->src, e->dest, e->perm);
	}
	return -EINVAL;
}

/* zstd at its default level: the kernel unpacks it (CONFIG_RD_ZSTD)
 * faster than gzip.  Every time is 0: the kit is cached by content,
 * whatever the build's SOURCE_DATE_EPOCH. */
static int write_initrd(const struct kit *k, const char *path)
{
	_cleanup_close_ int fd =
		open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	struct initramfs *a = NULL;
	int r;

	if (fd < 0)
		return log_error_errno(-errno, "cannot create '%s'", path);
	if ((r = initramfs_open(fd, 3, 0, &a)) < 0)
		return r;
	for (size_t i = 0; i < k->n && r == 0; i++)
		r = write_entry(a, &k->e[i]);
	int c = initramfs_close(a);
	if (r == 0 && c < 0)
		r = c;
	if (r == 0 && fsync(fd) < 0)
		r = log_error_errno(-errno, "cannot write '%s'", path);
	return r;
}

/* The guest holds the compressed initramfs and its unpacked files (in
 * ramfs: guestcmdline's rootfstype=ramfs) at once while booting, plus
 * the kernel and the workload's own memory.  Measured with the 90 MB fio
 * kit (35 MB compressed): boots in 256M, not in 192M. */
static uint64_t min_memory(const struct kit *k, const char *initrd)
{
	uint64_t sum = 0;
	struct stat st;
	for (size_t i = 0; i < k->n; i++)
		if (k->e[i].kind == K_FILE && stat(k->e[i].src, &st) == 0)
			sum += st.st_size;
		else if (k->e[i].kind == K_TEXT)
			sum += strlen(k->e[i].src);
	if (stat(initrd, &st) == 0)
		sum += st.st_size;
	const uint64_t mib = 1ull << 20, step = 64 * mib;
	uint64_t need = sum + 96 * mib;
	return (need + step - 1) / step * step;
}

int guestkit_build(const struct profile *p, const char *cache_dir,
		   const char *agent, struct guestkit *ret)
{
	char kernel[PATH_MAX], version[128], agent_path[PATH_MAX];
	char dir[PATH_MAX - 64], tmp[PATH_MAX + 16] = "";
	struct guestkit kit = {0};
	struct kit k = {0};
	_cleanup_(cas_freep) struct cas *c = NULL;
	int r;

	if ((r = tools_find_kernel(p->appliance.kernel, kernel, sizeof(kernel),
				   version, sizeof(version))) < 0 ||
	    (r = guestkit_find_agent(agent, agent_path, sizeof(agent_path))) < 0)
		return r;
	if ((r = collect(&k, agent_path, version, p->workload.kinds,
			 p->workload.fio_job[0] ? p->workload.fio_job : NULL)) < 0)
		goto out;

	c = cas_new("kit");
	if (!c) {
		r = -ENOMEM;
		goto out;
	}
	cas_add_str(c, KIT_FORMAT);
	cas_add_file(c, kernel);
	for (size_t i = 0; i < k.n; i++) {
		cas_add_str(c, k.e[i].dest);
		if (k.e[i].kind == K_FILE)
			r = cas_add_file(c, k.e[i].src);
		else if (k.e[i].src)
			cas_add_str(c, k.e[i].src);
		if (r < 0) {
			log_error_errno(r, "cannot stat '%s'", k.e[i].src);
			goto out;
		}
	}
	if ((r = cas_path(c, cache_dir, dir, sizeof(dir))) < 0) {
		log_error_errno(r, "cache '%s'", cache_dir);
		goto out;
	}
	snprintf(kit.kernel, sizeof(kit.kernel), "%s/vmlinuz", dir);
	snprintf(kit.initrd, sizeof(kit.initrd), "%s/initrd.img", dir);
	snprintf(kit.boot_kernel, sizeof(kit.boot_kernel), "%s/vmlinux", dir);
	snprintf(kit.version, sizeof(kit.version), "%s", version);

	/* The directory is renamed into place last: if it exists, it is
	 * complete. */
	if (access(dir, F_OK) == 0) {
		kit.cached = 1;
		if (access(kit.boot_kernel, F_OK) < 0)
			snprintf(kit.boot_kernel, sizeof(kit.boot_kernel), "%s",
				 kit.kernel);
		kit.min_memory = min_memory(&k, kit.initrd);
		*ret = kit;
		goto out;
	}
	tempfiles_reap_tmp(dir);
	tempfiles_tmp_name(dir, tmp, sizeof(tmp));
	if (mkdir(tmp, 0755) < 0 || tempfiles_add(tmp, TEMPFILE_TREE) < 0) {
		r = log_error_errno(-errno, "cannot create '%s'", tmp);
		goto out;
	}
	char f[PATH_MAX + 32];
	snprintf(f, sizeof(f), "%s/vmlinuz", tmp);
	if ((r = files_copy(kernel, f, 0644, 0)) < 0) {
		log_error_errno(r, "cannot copy '%s'", kernel);
		goto out;
	}
	/* The guests boot the kernel's own ELF when it has a PVH entry:
	 * each guest skips decompressing the kernel, half its boot under
	 * TCG.  Otherwise (another codec, no CONFIG_PVH) the bzImage. */
	snprintf(f, sizeof(f), "%s/vmlinux", tmp);
	r = pvhkernel_write(kernel, f);
	if (r == -ENOEXEC)
		snprintf(kit.boot_kernel, sizeof(kit.boot_kernel), "%s",
			 kit.kernel);
	else if (r < 0)
		goto out;
	snprintf(f, sizeof(f), "%s/initrd.img", tmp);
	if ((r = write_initrd(&k, f)) < 0)
		goto out;
	if (rename(tmp, dir) == 0) {
		tempfiles_forget(tmp);
		tmp[0] = '\0';
	} else if (errno != ENOTEMPTY && errno != EEXIST) {
		/* (Those two: a concurrent build finished first.) */
		r = log_error_errno(-errno, "cannot rename '%s'", tmp);
		goto out;
	}
	kit.min_memory = min_memory(&k, kit.initrd);
	*ret = kit;
	r = 0;
out:
	if (tmp[0]) {
		char f2[PATH_MAX + 32];
		snprintf(f2, sizeof(f2), "%s/vmlinuz", tmp);
		unlink(f2);
		snprintf(f2, sizeof(f2), "%s/initrd.img", tmp);
		unlink(f2);
		snprintf(f2, sizeof(f2), "%s/vmlinux", tmp);
		unlink(f2);
		rmdir(tmp);
		tempfiles_forget(tmp);
	}
	kit_release(&k);
	return r;
}
