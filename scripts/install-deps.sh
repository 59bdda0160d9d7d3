#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Install the Debian packages buildapp needs: without an option, what
# building buildapp, building a kit and booting it (on a lab server, or in
# QEMU with scripts/demo.sh and scripts/boot-appliance.sh) take; with
# --tests, also what only the tests take (`make check` runs it so).
# Idempotent and quiet when everything is present.  As non-root it prints
# the one apt-get line needed and exits 1.
# Usage: install-deps.sh [--tests]
set -eu

# Building buildapp, and the kit: the appliance's root is made of this
# host's own packages (builder/hostroot.c names them), its kernel is
# linux-image-amd64, its loaders are Debian's signed shim and GRUB.
# nbdkit and openipmi (ipmi_sim) are the virtual lab server's disk whose
# cache a power cut loses and its BMC (scripts/boot-appliance.sh --bmc,
# --dut-cache).
PACKAGES="
build-essential pkg-config xxd
libguestfs-dev libvirt-dev libiniparser-dev libarchive-dev libzstd-dev libjson-c-dev
libssl-dev libxml2-dev libicu-dev libblkid-dev libnbd-dev libcurl4-openssl-dev libkmod-dev libelf-dev
libguestfs-tools supermin
libvirt-daemon libvirt-daemon-driver-qemu libvirt-clients libvirt-daemon-system
qemu-system-x86 qemu-utils ovmf
linux-image-amd64 busybox-static kmod cpio zstd
fio bonnie++ lvm2 e2fsprogs dosfstools mtools util-linux fdisk
syslinux syslinux-common extlinux isolinux shim-signed grub-efi-amd64-signed xorriso
hdparm sdparm nvme-cli kexec-tools ipmitool nbdkit openipmi
openssh-client ca-certificates python3
"

# Only the tests: cmocka (unit tests), clang (make check-asan, make
# fuzz), git (kit-boot.sh clones the tree), procps (pgrep), openssl (the
# WebDAV tests' certificates), nginx (the WebDAV server of the upload and
# netboot tests), QEMU's iPXE ROMs (netboot), chromium, html5lib, tidy
# and poppler (the report's HTML, screenshots and PDF), LAVA's dispatcher,
# server and client with the TFTP server and PostgreSQL they expect (the
# kit as a LAVA job: tests/slow/lava-job.sh, tests/slow/lava-engine.sh),
# and the emulated x86 server's console server: ser2net, socat joining
# its pseudo-terminals, telnet for LAVA to connect (tests/e2e/lava-x86.sh).
TEST_PACKAGES="
libcmocka-dev clang git procps openssl
nginx-core ipxe-qemu
chromium python3-html5lib tidy poppler-utils
lava-dispatcher lava-server lavacli tftpd-hpa postgresql
ser2net socat telnet
"

case ${1:-} in
"") ;;
--tests) PACKAGES="$PACKAGES $TEST_PACKAGES" ;;
*) echo "usage: install-deps.sh [--tests]" >&2; exit 2 ;;
esac


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
# (tests/slow/lava-job.sh, tests/slow/lava-engine.sh), and lava-server's
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
