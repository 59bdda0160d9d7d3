#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Makes a tiny initramfs for image tests: busybox, the disk and ext4
# modules of the build host's kernel, and an /init that mounts RESULTS,
# writes /boot-test.txt there (firmware type, kernel, disks) and powers off.
# With INIT, that program is /init instead (the appliance's init), with
# hdparm, sdparm, nvme-cli, the libraries they and INIT link, and modprobe
# from busybox; HANG_TOOL=NAME makes that tool one that never returns.
# Usage: busybox-initrd.sh KVER OUT.cpio.gz [INIT]
set -eu
kver=$1 out=$2 init=${3:-}
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
mkdir -p "$root/bin" "$root/proc" "$root/sys" "$root/dev" "$root/mnt" \
	"$root/lib/modules/$kver"
cp /bin/busybox "$root/bin/busybox"
for m in ahci sd_mod virtio_blk virtio_pci virtio_scsi nvme ext4 crc32c_generic \
	xhci_pci usb_storage; do
	modprobe -S "$kver" --show-depends "$m"
done | awk '$1 == "insmod" { print $2 }' | awk '!seen[$0]++' >"$root/order"
while read -r ko; do
	cp "$ko" "$root/lib/modules/$kver/"
	echo "/lib/modules/$kver/$(basename "$ko")" >>"$root/modules"
done <"$root/order"
rm "$root/order"
if [ -n "$init" ]; then
	rm "$root/modules"
	for f in modules.order modules.builtin modules.builtin.modinfo; do
		cp "/lib/modules/$kver/$f" "$root/lib/modules/$kver/"
	done
	depmod -b "$root" "$kver"
	mkdir -p "$root/sbin" "$root/usr/lib" "$root/dev" "$root/run" "$root/tmp"
	cp "$init" "$root/init"
	for l in sh modprobe; do ln -s busybox "$root/bin/$l"; done
	ln -s ../bin/busybox "$root/sbin/modprobe"
	for t in hdparm sdparm nvme; do
		cp "$(command -v "$t")" "$root/bin/"
	done
	# The tools' and the init's shared libraries (the init links libvirt).
	for p in "$root/bin/hdparm" "$root/bin/sdparm" "$root/bin/nvme" "$init"; do
		for lib in $(ldd "$p" | awk '/=>/ { print $3 } /^\t\/lib/ { print $1 }'); do
			mkdir -p "$root$(dirname "$lib")"
			cp -L "$lib" "$root$lib"
		done
	done
	# HANG_TOOL=NAME: that tool never returns (a step that hangs, for
	# the init's watchdog).
	if [ -n "${HANG_TOOL:-}" ]; then
		printf '#!/bin/busybox sh\n/bin/busybox sleep 1000000\n' >"$root/bin/$HANG_TOOL"
		chmod 755 "$root/bin/$HANG_TOOL"
	fi
	mknod "$root/dev/console" c 5 1
	(cd "$root" && find . | sort | cpio -o -H newc --quiet --reproducible) | gzip -n -9 >"$out"
	exit 0
fi
cat >"$root/init" <<'INIT'
#!/bin/busybox sh
/bin/busybox --install -s /bin
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs dev /dev
while read -r ko; do insmod "$ko" 2>/dev/null; done </modules
dev=
for i in $(seq 1 50); do
	dev=$(findfs LABEL=RESULTS 2>/dev/null) && break
	sleep 0.2
done
if [ -n "$dev" ] && mount -t ext4 "$dev" /mnt; then
	{
		if [ -d /sys/firmware/efi ]; then echo "firmware: uefi"; else echo "firmware: bios"; fi
		mount -t securityfs securityfs /sys/kernel/security 2>/dev/null
		echo "lockdown: $(cat /sys/kernel/security/lockdown 2>/dev/null)"
		echo "secure_boot: $(dmesg | sed -n 's/.*secureboot: Secure boot \([a-z]*\).*/\1/p' | head -n 1)"
		echo "kernel: $(uname -r)"
		echo "results: $dev"
		echo "cmdline: $(cat /proc/cmdline)"
		for b in /sys/block/sd* /sys/block/vd*; do
			[ -e "$b" ] && echo "disk: ${b##*/} $(cat "$b/device/serial" 2>/dev/null || cat "$b/serial" 2>/dev/null)"
		done
	} >/mnt/boot-test.txt
	umount /mnt
	echo "boot-test: wrote RESULTS"
else
	echo "boot-test: RESULTS not found"
fi
sync
poweroff -f
INIT
chmod 755 "$root/init"
(cd "$root" && find . | sort | cpio -o -H newc --quiet --reproducible) | gzip -n -9 >"$out"
