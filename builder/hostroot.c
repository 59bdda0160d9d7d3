/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "hostroot.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cleanup.h"
#include "command.h"
#include "dirs.h"
#include "files.h"
#include "gfs.h"
#include "icustub.h"
#include "initramfs.h"
#include "log.h"
#include "progress.h"
#include "rootsizes.h"
#include "sha256.h"
#include "tempfiles.h"

/* Bumped when what goes into the cached root changes. */
#define HOSTROOT_LAYOUT 15
#define HOSTROOT_BASE_MTIME 0
/* The cached root is compressed once per package set, so it can take a
 * higher level than the per-build files (level 3: 72.3 MiB; this level:
 * docs/performance.md).  No long window: the kernel would need its buffer while it
 * unpacks the 220 MiB root, too much beside them in a 512M machine. */
#define HOSTROOT_BASE_LEVEL 12

const char *const hostroot_packages[] = {
	"qemu-system-x86", "qemu-utils", "libvirt-daemon",
	"libvirt-daemon-driver-qemu", "lvm2", "e2fsprogs", "hdparm", "sdparm",
	"nvme-cli", "kmod", "busybox-static", "util-linux", "fdisk", "fio",
	/* host-native cells: bonnie++, and mount for the loop device */
	"bonnie++", "mount",
	/* the fast reset: the runner links libnbd (qemu-nbd is in qemu-utils) */
	"libnbd0",
	/* the bundle's upload (buildapp-init links libcurl) */
	"libcurl4",
	/* host crashes back by kexec (kexec -s -l: kexec_file_load) */
	"kexec-tools",
	/* power cuts through the server's BMC, in-band (/dev/ipmi0) */
	"ipmitool", NULL,
};

/* Module folders of the kernel the appliance needs: disk controllers
 * (SATA, SAS/SCSI HBAs, NVMe, virtio, USB sticks), device mapper for LVM,
 * the filesystems, crypto/lib helpers, KVM (arch/x86/kvm, virt/lib, the
 * AMD ccp), keyboards.  block/ holds t10-pi, which sd_mod needs. */
static const char *const module_dirs[] = {
	"kernel/drivers/ata", "kernel/drivers/scsi", "kernel/drivers/nvme",
	"kernel/drivers/block", "kernel/drivers/virtio", "kernel/drivers/md",
	"kernel/drivers/usb", "kernel/drivers/message",
	/* the CD-ROM layer, which sr_mod (in scsi/) needs: a server's CD
	 * drive, or a BMC's virtual CD the kit booted from */
	"kernel/drivers/cdrom",
	/* keyboards: HID's core, its generic driver and USB transport (what
	 * a server's BMC and a USB keyboard are; not the 118 drivers of
	 * particular mice, tablets and game pads) */
	"kernel/drivers/hid/hid.ko", "kernel/drivers/hid/hid-generic.ko",
	"kernel/drivers/hid/usbhid",
	"kernel/drivers/pci", "kernel/drivers/crypto", "kernel/block",
	"kernel/virt", "kernel/fs/ext4", "kernel/fs/jbd2",
	"kernel/fs/mbcache.ko", "kernel/fs/fat", "kernel/fs/nls", "kernel/lib",
	/* a kit booted from its ISO reads its kernel and initramfs there for
	 * a host crash's kexec */
	"kernel/fs/isofs",
	/* the EFI variables (Secure Boot's state for host.json) */
	"kernel/fs/efivarfs",
	"kernel/crypto", "kernel/arch",
	/* NICs for an upload: virtio, Intel, Broadcom, Realtek */
	"kernel/drivers/net/virtio_net.ko", "kernel/drivers/net/net_failover.ko",
	"kernel/net/core/failover.ko", "kernel/drivers/net/mii.ko",
	"kernel/drivers/net/mdio.ko", "kernel/drivers/net/phy",
	"kernel/drivers/net/ethernet/intel", "kernel/drivers/net/ethernet/broadcom",
	"kernel/drivers/net/ethernet/realtek",
	/* the server's hardware watchdog (iTCO_wdt with the LPC bridge's
	 * lpc_ich and intel_pmc_bxt, sp5100_tco, hpwdt, i6300esb...) and its
	 * BMC's in-band interface (ipmi_si, ipmi_devintf, ipmi_watchdog) */
	"kernel/drivers/watchdog", "kernel/drivers/char/ipmi",
	"kernel/drivers/mfd/lpc_ich.ko", "kernel/drivers/mfd/intel_pmc_bxt.ko",
	NULL,
};

/* Left out of those folders: storage the disk under test is not on
 * (Fibre Channel, iSCSI and FCoE HBAs, the SCSI debug driver) and the USB
 * classes no keyboard or stick needs (gadgets, serial adapters, Type-C,
 * USB/IP, ATM, cameras), kernel self-tests, bcache and crypto offload
 * cards.  Nothing kept depends on them. */
static const char *const module_excludes[] = {
	"kernel/drivers/scsi/qla2xxx", "kernel/drivers/scsi/qla4xxx",
	"kernel/drivers/scsi/lpfc", "kernel/drivers/scsi/bfa",
	"kernel/drivers/scsi/fcoe", "kernel/drivers/scsi/libfc",
	"kernel/drivers/scsi/qedf", "kernel/drivers/scsi/qedi",
	"kernel/drivers/scsi/bnx2fc", "kernel/drivers/scsi/bnx2i",
	"kernel/drivers/scsi/be2iscsi", "kernel/drivers/scsi/csiostor",
	"kernel/drivers/scsi/cxgbi", "kernel/drivers/scsi/fnic",
	"kernel/drivers/scsi/snic", "kernel/drivers/scsi/scsi_debug.ko",
	"kernel/drivers/usb/gadget", "kernel/drivers/usb/serial",
	"kernel/drivers/usb/misc", "kernel/drivers/usb/typec",
	"kernel/drivers/usb/usbip", "kernel/drivers/usb/atm",
	"kernel/drivers/usb/image", "kernel/drivers/usb/mon",
	"kernel/lib/test_bpf.ko", "kernel/lib/test_firmware.ko",
	"kernel/lib/test_static_key_base.ko", "kernel/lib/test_static_keys.ko",
	"kernel/lib/test_user_copy.ko", "kernel/drivers/md/bcache",
	"kernel/drivers/crypto/qat", "kernel/drivers/crypto/chelsio",
	/* a watchdog in software dies with the kernel it would watch */
	"kernel/drivers/watchdog/softdog.ko", NULL,
};

/* Trimmed from the root: nothing in the appliance reads them.  Besides
 * documentation: the emulators of other machines (the guests are x86_64
 * on q35/pc), the qemu tools the runner does not call, firmware of other
 * architectures, Python (pulled in by packages, run by nothing here) and
 * the Ceph client libraries (only librbd links them, and nothing links
 * librbd without qemu's rbd block module, which is not installed). */
static const char *const trim_paths[] = {
	"usr/share/doc", "usr/share/man", "usr/share/info", "usr/share/locale",
	"usr/share/lintian", "usr/share/bash-completion", "usr/share/zsh",
	/* ipmitool's names of IANA enterprise numbers (4.7 MB): without it,
	 * it prints the numbers */
	"usr/share/misc/enterprise-numbers.txt",
	"usr/lib/locale", "usr/share/i18n",
	"usr/libexec/qemu-system-i386", "usr/bin/qemu-system-x86_64-microvm",
	/* (qemu-nbd stays: the fast reset serves both sides with it) */
	"usr/bin/qemu-storage-daemon", "usr/bin/qemu-io",
	"usr/share/qemu/skiboot.lid", "usr/share/qemu/slof.bin",
	"usr/share/qemu/openbios-sparc64", "usr/share/qemu/openbios-sparc32",
	"usr/share/qemu/openbios-ppc", "usr/share/qemu/hppa-firmware.img",
	"usr/share/qemu/palcode-clipper", "usr/share/qemu/s390-netboot.img",
	"usr/share/qemu/s390-ccw.img",
	"usr/bin/python3", "usr/bin/python3.11", "usr/lib/python3",
	"usr/lib/python3.11", "etc/python3.11",
	"usr/lib/x86_64-linux-gnu/ceph", "usr/lib/x86_64-linux-gnu/librbd.so.1",
	"usr/lib/x86_64-linux-gnu/librbd.so.1.16.0",
	"usr/lib/x86_64-linux-gnu/librados.so.2",
	"usr/lib/x86_64-linux-gnu/librados.so.2.0.0",
	/* glibc's iconv modules (the conversions anything here makes, UTF-8
	 * and ASCII, are built into libc), PAM modules (nobody logs in),
	 * ISO code tables (for media tags), the daemons and helpers of
	 * libvirt and qemu that qemu:///embed does not start. */
	"usr/lib/x86_64-linux-gnu/gconv", "usr/lib/x86_64-linux-gnu/security",
	"usr/share/iso-codes", "usr/share/xml/iso-codes",
	"usr/sbin/libvirtd", "usr/sbin/virtlogd", "usr/sbin/virtlockd",
	"usr/sbin/virtproxyd", "usr/bin/qemu-pr-helper",
	/* ICU's libraries but libicuuc (libxml2's) and its data (made empty:
	 * builder/icustub.c): nothing in the root links them. */
	"usr/lib/x86_64-linux-gnu/libicui18n.so.72",
	"usr/lib/x86_64-linux-gnu/libicui18n.so.72.1",
	"usr/lib/x86_64-linux-gnu/libicuio.so.72",
	"usr/lib/x86_64-linux-gnu/libicuio.so.72.1",
	"usr/lib/x86_64-linux-gnu/libicutest.so.72",
	"usr/lib/x86_64-linux-gnu/libicutest.so.72.1",
	"usr/lib/x86_64-linux-gnu/libicutu.so.72",
	"usr/lib/x86_64-linux-gnu/libicutu.so.72.1",
	/* The guests have no network and no display: no NIC option ROMs, VGA
	 * BIOSes or keymaps; nor firmware of other machines.  (pvh.bin stays:
	 * QEMU boots the guests' PVH kernel through it, runner/pvhkernel.h;
	 * so does qboot.rom, the guests' firmware, runner/domain.h.) */
	"usr/lib/ipxe", "usr/share/qemu/keymaps", "usr/share/qemu/trace-events-all",
	"usr/share/qemu/opensbi-riscv64-generic-fw_dynamic.bin",
	"usr/share/qemu/opensbi-riscv64-generic-fw_dynamic.elf",
	"usr/share/qemu/vof.bin",
	"usr/share/qemu/sgabios.bin", "usr/share/qemu/QEMU,cgthree.bin",
	"usr/share/qemu/QEMU,tcx.bin", "usr/share/qemu/QEMU,VGA.bin",
	"usr/share/qemu/bamboo.dtb", "usr/share/qemu/canyonlands.dtb",
	"usr/share/qemu/vgabios.bin", "usr/share/qemu/vgabios-cirrus.bin",
	"usr/share/qemu/vgabios-stdvga.bin", "usr/share/qemu/vgabios-vmware.bin",
	"usr/share/qemu/vgabios-qxl.bin", "usr/share/qemu/vgabios-virtio.bin",
	"usr/share/qemu/vgabios-ramfb.bin", "usr/share/qemu/vgabios-bochs-display.bin",
	"usr/share/qemu/vgabios-ati.bin", NULL,
};

bool hostroot_trimmed(const char *rel)
{
	for (const char *const *t = trim_paths; *t; t++) {
		size_t n = strlen(*t);
		if (strncmp(rel, *t, n) == 0 && (rel[n] == '\0' || rel[n] == '/'))
			return true;
	}
	return false;
}

/* snprintf for paths: a path that does not fit is an error, not a
 * silently shortened name. */
__attribute__((format(printf, 3, 4))) static int pathf(char *buf, size_t len,
							const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= len)
		return log_error_code(-ENAMETOOLONG, "path too long: %s", buf);
	return 0;
}

static int run(char *const argv[], const char *what)
{
	int r = command_run(argv, NULL, 1);

	if (r == 0)
		return 0;
	return log_error_code(r < 0 ? r : -EIO, "%s failed (%s)", what,
			      r < 0 ? strerror(-r) : "non-zero exit status");
}

int hostroot_cache_key(const char *const *packages, const char *kernel_version,
		       char key[65])
{
	char *argv[64] = {"dpkg-query", "-W", "-f", "${Package}=${Version}\\n"};
	_cleanup_free_ char *versions = NULL;
	unsigned char md[SHA256_LEN];
	size_t k = 4;
	int r;

	for (const char *const *p = packages; *p && k < 63; p++)
		argv[k++] = (char *)*p;
	argv[k] = NULL;
	r = command_capture(argv, NULL, 1 << 20, &versions);
	if (r != 0)
		return log_error_code(r < 0 ? r : -ENOENT,
				      "host root: a package of the list is not "
				      "installed (dpkg-query)");
	_cleanup_(sha256_freep) struct sha256 *ctx = sha256_new();
	char head[128];
	snprintf(head, sizeof(head), "layout %d\nkernel %s\n", HOSTROOT_LAYOUT,
		 kernel_version);
	if (ctx) {
		sha256_update(ctx, head, strlen(head));
		sha256_update(ctx, versions, strlen(versions));
	}
	if (!ctx || sha256_final(ctx, md) < 0)
		return log_error_code(-ENOMEM, "sha256 failed");
	sha256_hex(md, key);
	return 0;
}

static int copy_modules(const char *root, const char *kver)
{
	char dest[4096], src[4096];
	int r;

	r = pathf(dest, sizeof(dest), "%s/lib/modules/%s", root, kver);
	if (r < 0)
		return r;
	for (const char *const *d = module_dirs; *d; d++) {
		snprintf(src, sizeof(src), "/lib/modules/%s/%s", kver, *d);
		if (access(src, F_OK) < 0)
			continue;
		char to[4096];
		if (pathf(to, sizeof(to), "%s/%s", dest, *d) < 0)
			return -ENAMETOOLONG;
		*strrchr(to, '/') = '\0';
		r = dirs_make(to, 0755); /* the parents */
		if (r == 0) {
			r = pathf(to, sizeof(to), "%s/%s", dest, *d);
			if (r == 0)
				r = files_copy_tree(src, to);
		}
		if (r < 0)
			return log_error_errno(r, "copying kernel modules '%s'",
					       src);
	}
	for (const char *const *x = module_excludes; *x; x++) {
		if (pathf(src, sizeof(src), "%s/%s", dest, *x) < 0)
			return -ENAMETOOLONG;
		r = run((char *[]){"rm", "-rf", src, NULL}, "trimming the modules");
		if (r < 0)
			return r;
	}
	static const char *const meta[] = {"modules.order", "modules.builtin",
					   "modules.builtin.modinfo", NULL};
	for (const char *const *m = meta; *m; m++) {
		snprintf(src, sizeof(src), "/lib/modules/%s/%s", kver, *m);
		if (access(src, F_OK) == 0) {
			char to[4096];
			r = pathf(to, sizeof(to), "%s/%s", dest, *m);
			if (r == 0)
				r = files_copy(src, to, 0644, 0);
			if (r < 0)
				return log_error_errno(r, "copying '%s'", src);
		}
	}
	return run((char *[]){"depmod", "-b", (char *)root, (char *)kver, NULL},
		   "depmod");
}

/* BASE's size breakdown: hostroot-KEY.sizes.json beside it. */
static int sizes_path(const char *base, char *buf, size_t len)
{
	size_t n = strlen(base);
	const char *ext = ".cpio.zst";

	if (n < strlen(ext))
		return -EINVAL;
	return pathf(buf, len, "%.*s.sizes.json", (int)(n - strlen(ext)), base);
}

/* The trimmed paths as supermin's excludefiles, so that supermin does not
 * copy them in the first place (the rm -rf after it catches what a
 * package lists under the other side of the /usr merge). */
static int write_excludefiles(const char *sd)
{
	char path[4096];

	if (pathf(path, sizeof(path), "%s/excludefiles", sd) < 0)
		return -ENAMETOOLONG;
	_cleanup_fclose_ FILE *f = fopen(path, "we");
	if (!f)
		return log_error_errno(-errno, "'%s'", path);
	for (const char *const *t = trim_paths; *t; t++)
		fprintf(f, "-/%s\n-/%s/*\n", *t, *t);
	if (fflush(f) != 0)
		return log_error_errno(-errno, "'%s'", path);
	return 0;
}

/* supermin + trim + modules into WORK/root, then the cpio into BASE. */
static int build_base(const struct hostroot_spec *spec, const char *work,
		      const char *base)
{
	char sd[4096], root[4096], tmp[4096];
	char *argv[64] = {"supermin", "--prepare", "--use-installed", "-o", sd};
	size_t k = 5;
	int r;

	if (pathf(sd, sizeof(sd), "%s/supermin.d", work) < 0 ||
	    pathf(root, sizeof(root), "%s/root", work) < 0)
		return -ENAMETOOLONG;
	for (const char *const *p = spec->packages ? spec->packages : hostroot_packages;
	     *p && k < 63; p++)
		argv[k++] = (char *)*p;
	argv[k] = NULL;
	progress_step("host root: supermin --prepare (installed packages)");
	r = run(argv, "supermin --prepare");
	if (r == 0)
		r = write_excludefiles(sd);
	if (r < 0)
		return r;
	progress_step("host root: supermin --build -f chroot");
	r = run((char *[]){"supermin", "--build", "-f", "chroot", "-o", root, sd,
			   NULL},
		"supermin --build");
	if (r < 0)
		return r;
	for (const char *const *t = trim_paths; *t; t++) {
		r = pathf(tmp, sizeof(tmp), "%s/%s", root, *t);
		if (r < 0)
			return r;
		r = files_remove_tree(tmp);
		if (r < 0)
			return log_error_errno(r, "trimming the root: cannot "
					       "remove '%s'",
					       tmp);
	}
	r = icustub_apply(root);
	if (r < 0)
		return r;
	progress_step("host root: kernel modules");
	r = copy_modules(root, spec->kernel_version);
	if (r < 0)
		return r;
	/* The breakdown belongs to the cpio: a build stopped before the
	 * cpio is in place leaves neither. */
	char sizes[PATH_MAX];
	r = sizes_path(base, sizes, sizeof(sizes));
	if (r == 0)
		r = tempfiles_add(sizes, 0);
	if (r == 0)
		r = rootsizes_measure(root, sizes);
	if (r < 0)
		return r;

	progress_step("host root: writing the compressed cpio (zstd)");
	r = pathf(tmp, sizeof(tmp), "%s.tmp", base);
	if (r < 0)
		return r;
	tempfiles_add(tmp, 0);
	_cleanup_close_ int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
				      0644);
	struct initramfs *a = NULL;
	if (fd < 0)
		return log_error_errno(-errno, "'%s'", tmp);
	/* The cached part is shared by builds of every SOURCE_DATE_EPOCH:
	 * its mtimes are fixed, its content is named by the cache key. */
	r = initramfs_open_long(fd, HOSTROOT_BASE_LEVEL, 0, HOSTROOT_BASE_MTIME, &a);
	if (r == 0)
		r = initramfs_add_tree(a, root);
	int k2 = initramfs_close(a);
	r = r < 0 ? r : k2;
	if (r == 0 && (fsync(fd) < 0 || rename(tmp, base) < 0))
		r = log_error_errno(-errno, "'%s'", base);
	if (r == 0) {
		tempfiles_forget(tmp);
		tempfiles_forget(sizes);
	}
	return r;
}

static const char passwd[] =
	"root:x:0:0:root:/root:/bin/sh\n"
	"libvirt-qemu:x:64055:107:Libvirt Qemu:/var/lib/libvirt:/usr/sbin/nologin\n";
static const char group[] = "root:x:0:\nkvm:x:107:libvirt-qemu\n"
			    "libvirt-qemu:x:64055:libvirt-qemu\n";
/* No virtlogd in the appliance: qemu's output goes to plain files. */
static const char qemu_conf[] = "stdio_handler = \"file\"\n";

/* The overlay's zstd window: a power of two over all its files (the
 * pristine disk holds the tarball and its extracted tree, the same bytes
 * twice, further apart than a plain window reaches), so that only a big
 * kit asks the kernel for a big buffer while it unpacks; 2^27 at most,
 * zstd's own limit for a decoder's default. */
static int overlay_window(const struct hostroot_spec *spec)
{
	struct stat st;
	uint64_t total = 0;
	int wlog = 20;

	if (stat(spec->init, &st) == 0)
		total += (uint64_t)st.st_size;
	for (unsigned i = 0; i < spec->n_files; i++)
		if (stat(spec->files[i].source, &st) == 0)
			total += (uint64_t)st.st_size;
	while (wlog < 27 && ((uint64_t)1 << wlog) < total)
		wlog++;
	return wlog;
}

/* The per-build archive: /init, users, libvirt config, SPEC->files. */
static int write_overlay(const struct hostroot_spec *spec, int fd)
{
	struct initramfs *a = NULL;
	struct stat st;
	int r = initramfs_open_long(fd, HOSTROOT_ZSTD_LEVEL, overlay_window(spec),
				    spec->epoch, &a);

	if (r == 0)
		r = initramfs_add_file(a, spec->init, "init", 0755);
	if (r == 0)
		r = initramfs_add_data(a, "etc/passwd", passwd, strlen(passwd), 0644);
	if (r == 0)
		r = initramfs_add_data(a, "etc/group", group, strlen(group), 0644);
	if (r == 0)
		r = initramfs_add_parents(a, HOSTROOT_STATEDIR "/etc/qemu.conf");
	if (r == 0)
		r = initramfs_add_data(a, (HOSTROOT_STATEDIR "/etc/qemu.conf") + 1,
				       qemu_conf, strlen(qemu_conf), 0644);
	for (unsigned i = 0; r == 0 && i < spec->n_files; i++) {
		const struct fsimage_file *f = &spec->files[i];
		r = initramfs_add_parents(a, f->dest);
		if (r == 0)
			r = initramfs_add_file(a, f->source, f->dest + (f->dest[0] == '/'),
					       stat(f->source, &st) == 0 &&
							       (st.st_mode & 0111)
						       ? 0755
						       : 0644);
	}
	int k = initramfs_close(a);
	return r < 0 ? r : k;
}

static int append_file(int out, const char *path)
{
	_cleanup_close_ int in = open(path, O_RDONLY | O_CLOEXEC);
	char buf[1 << 16];
	ssize_t n;

	if (in < 0)
		return log_error_errno(-errno, "'%s'", path);
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)n) != n)
			return log_error_errno(-errno, "writing the initramfs");
	return n < 0 ? log_error_errno(-errno, "'%s'", path) : 0;
}

int hostroot_build(const struct hostroot_spec *spec, int *ret_cached)
{
	const char *const *pkgs = spec->packages ? spec->packages : hostroot_packages;
	char key[65], base[4096], work[4096];
	int r, cached;

	r = hostroot_cache_key(pkgs, spec->kernel_version, key);
	if (r < 0)
		return r;
	r = dirs_make(spec->cache_dir, 0755);
	if (r < 0)
		return log_error_errno(r, "cache '%s'", spec->cache_dir);
	snprintf(base, sizeof(base), "%s/hostroot-%s.cpio.zst", spec->cache_dir, key);
	cached = access(base, R_OK) == 0;
	if (spec->ret_base)
		snprintf(spec->ret_base, HOSTROOT_PATH_MAX, "%s", base);
	if (spec->ret_sizes && sizes_path(base, spec->ret_sizes, HOSTROOT_PATH_MAX) < 0)
		return -ENAMETOOLONG;
	if (cached) {
		log_info("host root: cached (%.12s)", key);
	} else {
		snprintf(work, sizeof(work), "%s/hostroot-work.XXXXXX", spec->cache_dir);
		if (!mkdtemp(work))
			return log_error_errno(-errno, "'%s'", work);
		tempfiles_add(work, TEMPFILE_TREE);
		r = build_base(spec, work, base);
		tempfiles_forget(work);
		files_remove_tree(work);
		if (r < 0)
			return r;
	}

	_cleanup_close_ int fd = open(spec->output,
				      O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return log_error_errno(-errno, "'%s'", spec->output);
	progress_step("host root: appliance files");
	r = append_file(fd, base);
	if (r == 0)
		r = write_overlay(spec, fd);
	if (r == 0 && ret_cached)
		*ret_cached = cached;
	return r;
}
