#!/bin/sh
# The native executor here: file backends in a directory, reset, and a
# recipe with fill on a loop device; LVM too where a device mapper works.
set -u
prog="$B/tests/integration/storage_native"
work=$(mktemp -d "$TOP/$B/storage-native.XXXXXX") || exit 1
devs=""
cleanup() {
	umount -l "$work/mnt" 2>/dev/null
	vgremove -q -f buildapp >/dev/null 2>&1
	for d in $devs; do losetup -d "$d"; done
	rm -rf "$work"
}
trap cleanup EXIT

if [ "$(id -u)" -ne 0 ] || ! losetup -f >/dev/null 2>&1; then
	"$prog" "$work" || exit 1
	echo "loop device part not run: needs root and a free loop device"
	exit 77
fi
truncate -s 256M "$work/disk.img"
dev=$(losetup -P -f --show "$work/disk.img") || exit 1
devs="$dev"
"$prog" "$work" "$dev" || exit 1
# /dev/mapper/control can exist without a driver behind it.
if ( exec 3</dev/mapper/control ) 2>/dev/null; then
	truncate -s 64M "$work/lvm.img"
	dev=$(losetup -P -f --show "$work/lvm.img") || exit 1
	devs="$devs $dev"
	"$prog" "$work" "$dev" lvm || exit 1
else
	lvm_skipped="native lvm not tested: no device mapper driver on this host"
fi
# A part that did not run makes the test a skip, not a pass.
[ -z "${lvm_skipped:-}" ] || { echo "$lvm_skipped"; exit 77; }
