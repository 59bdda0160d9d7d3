#!/bin/sh
# Install every Debian package buildapp needs to build, test and run.
# Idempotent and quiet when everything is present.  As non-root it prints
# the one apt-get line needed and exits 1.
set -eu

PACKAGES="
build-essential pkg-config clang
libguestfs-dev libvirt-dev libiniparser-dev libarchive-dev libzstd-dev libjson-c-dev
libcmocka-dev libssl-dev libxml2-dev libicu-dev libblkid-dev libnbd-dev libcurl4-openssl-dev libkmod-dev libelf-dev
libguestfs-tools supermin
libvirt-daemon libvirt-daemon-driver-qemu libvirt-clients libvirt-daemon-system
qemu-system-x86 qemu-utils ovmf
linux-image-amd64 busybox-static kmod cpio zstd
fio bonnie++ lvm2 e2fsprogs dosfstools mtools util-linux openssh-client
syslinux syslinux-common extlinux isolinux shim-signed grub-efi-amd64-signed xorriso
hdparm sdparm nvme-cli fdisk kexec-tools
python3 python3-html5lib xxd openssl
chromium poppler-utils tidy
nginx-core ipxe-qemu
"

missing=""
for p in $PACKAGES; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q '^install ok installed$'; then
		missing="$missing $p"
	fi
done

[ -z "$missing" ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
	echo "install-deps: missing packages:$missing" >&2
	echo "run as root: apt-get install -y --no-install-recommends$missing" >&2
	exit 1
fi

echo "install-deps: installing:$missing" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >/dev/null
