#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Each safety refusal on real targets: an image file and a loop device
# with a partition table (no wipe, no identity, wrong identity), a mounted
# disk and the boot disk; and what is allowed.
set -u
prog="$B/tests/integration/storage_safety"
work=$(mktemp -d "$TOP/$B/storage-safety.XXXXXX") || exit 1
devs=""
cleanup() {
	umount -l "$work/mnt" 2>/dev/null
	for d in $devs; do losetup -d "$d"; done
	rm -rf "$work"
}
trap cleanup EXIT
fail=0

# expect STATUS TEXT TARGET WIPE IDENTITY
expect() {
	want=$1 text=$2
	shift 2
	out=$("$prog" "$@" 2>&1)
	rc=$?
	if [ "$rc" -ne "$want" ] || ! printf '%s\n' "$out" | grep -q -- "$text"; then
		echo "FAIL: $* -> exit $rc, wanted $want and '$text':"
		printf '%s\n' "$out" | sed 's/^/    /'
		fail=1
	else
		echo "ok: $* -> $(printf '%s\n' "$out" | tail -n 1)"
	fi
}

img="$work/gpt.img"
truncate -s 64M "$img"
printf 'label: gpt\nstart=1MiB, size=16MiB\n' | sfdisk -q "$img" || exit 1
expect 0 allowed "$work/new.img" no auto
expect 2 "signatures (gpt)" "$img" no auto
expect 0 allowed "$img" yes auto

if [ "$(id -u)" -ne 0 ] || ! losetup -f >/dev/null 2>&1; then
	# A failure above stays a failure.
	[ "$fail" -eq 0 ] || exit 1
	echo "block device cases not run: need root and a free loop device"
	exit 77
fi
dev=$(losetup -f --show "$img") || exit 1
devs="$dev"
expect 2 "wipe is not set" "$dev" no auto
expect 2 "stable identity" "$dev" yes auto
expect 2 "is not 'WRONG-SERIAL-0042'" "$dev" yes WRONG-SERIAL-0042
expect 2 "is not '/dev/disk/by-id/WRONG-SERIAL-0042'" "$dev" yes /dev/disk/by-id/WRONG-SERIAL-0042

truncate -s 64M "$work/blank.img"
dev=$(losetup -f --show "$work/blank.img") || exit 1
devs="$devs $dev"
expect 0 allowed "$dev" no auto
mkfs.ext4 -q "$dev" && mkdir -p "$work/mnt" && mount "$dev" "$work/mnt" || exit 1
expect 2 "mounted on $work/mnt" "$dev" yes auto
umount "$work/mnt"

root=$(findmnt -n -o SOURCE /)
if [ -b "$root" ]; then
	expect 2 "boot device" "$root" yes auto
else
	# A failure above stays a failure; a case not run is a skip.
	[ "$fail" -eq 0 ] || exit 1
	echo "boot device case not run: / is on '$root', not a block device"
	exit 77
fi
exit $fail
