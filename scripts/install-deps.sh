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
lava-dispatcher lava-server lavacli tftpd-hpa postgresql
"

# One dpkg-query for all of them: a package it does not know is missing.
# shellcheck disable=SC2086
installed=$(dpkg-query -W -f='${Package} ${Status}\n' $PACKAGES 2>/dev/null |
	sed -n 's/ install ok installed$//p')
missing=""
for p in $PACKAGES; do
	echo "$installed" | grep -qx "$p" || missing="$missing $p"
done

[ -z "$missing" ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
	echo "install-deps: missing packages:$missing" >&2
	echo "run as root: apt-get install -y --no-install-recommends$missing" >&2
	exit 1
fi

echo "install-deps: installing:$missing" >&2
export DEBIAN_FRONTEND=noninteractive
# No service starts at install: LAVA's server, worker and scheduler,
# PostgreSQL and tftpd are what the LAVA tests start and stop themselves
# (tests/e2e/lava-job.sh, tests/slow/lava-engine.sh), and lava-server's
# postinst makes no database while PostgreSQL is not running.  A
# policy-rc.d of the machine's own is left as it is.
policy=/usr/sbin/policy-rc.d own_policy=0
if [ ! -e "$policy" ]; then
	printf '#!/bin/sh\nexit 101\n' >"$policy" && chmod 755 "$policy" && own_policy=1
	trap '[ "$own_policy" = 0 ] || rm -f "$policy"' EXIT
fi
apt-get update -qq >/dev/null
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >/dev/null
