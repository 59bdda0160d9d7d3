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
# The mark of the layout the executor made (storage/layoutmark.h), read
# off the image file: a kit's layout, written again without wipe; one
# hex digit of its disk GUID changed, or one letter of a partition's name,
# and it is not.
safety="$B/tests/integration/storage_safety"
mark() { # WANT TEXT
	out=$("$safety" "$work/disk.img" no auto 2>&1)
	rc=$?
	printf '%s\n' "$out" | grep -q -- "$2" && [ "$rc" -eq "$1" ] || {
		printf '%s\n' "$out"
		echo "FAIL: the layout's mark: wanted exit $1 and '$2', got exit $rc"
		exit 1
	}
}
mark 0 "named as a kit's layout 1, its mark 1"
guid=$(sfdisk --disk-id "$work/disk.img") || exit 1
last=$(printf '%s' "$guid" | tail -c 1)
flipped=$(printf '%s' "$guid" | sed "s/.\$/$([ "$last" = 0 ] && echo 1 || echo 0)/")
sfdisk -q --disk-id "$work/disk.img" "$flipped" || exit 1
mark 2 "its disk GUID is not that layout's mark"
sfdisk -q --disk-id "$work/disk.img" "$guid" || exit 1
mark 0 "its mark 1"
name=$(sfdisk --part-label "$work/disk.img" 1) || exit 1
sfdisk -q --part-label "$work/disk.img" 1 "$(printf '%s' "$name" | sed 's/.$/X/')" || exit 1
mark 2 "its disk GUID is not that layout's mark"
echo "the layout's mark: taken as a kit's; one digit of its GUID or one letter of a name changed, refused"
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
