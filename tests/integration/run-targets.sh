#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# buildapp run on an image file target: the file is created with the size
# the backends need, attached to a loop device, partitioned and provisioned
# with the native tools, one guest run is made on it, and afterwards no
# loop device or mount is left.  A second run on that image finds the
# layout a kit made (its GPT's disk GUID, the mark: storage/layoutmark.h)
# and lays it out again without wipe = yes; the same image with one hex
# digit of its disk GUID changed is another partition table, refused
# (exit 2) without wipe = yes, nothing written.
set -u
B=${B:-build}
BUILDAPP=${BUILDAPP:-$B/buildapp}
[ "$(id -u)" -eq 0 ] || { echo "needs root (loop devices, libvirt)"; exit 77; }
command -v losetup >/dev/null || { echo "no losetup"; exit 77; }
command -v sfdisk >/dev/null || { echo "no sfdisk (fdisk)"; exit 77; }
tmp=$(mktemp -d /var/tmp/buildapp-targets.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
. "${TOP:-.}/tests/lib/check.sh"
cat >"$tmp/one.ini" <<EOF2
[appliance]
include = $TOP/profiles/ci-smoke.ini
[storage]
backends = raw
[guest]
cache = unsafe
[sweep]
runs = 1
EOF2

"$BUILDAPP" run "$tmp/one.ini" --target "$tmp/disk.img" --results "$tmp/res" \
	--cache "$B/cache" >"$tmp/out" 2>"$tmp/err"
rc=$?
cat "$tmp/err"
check "run on a new image file exits 0" test $rc -eq 0
check "the image file was created" test -s "$tmp/disk.img"
check "one run journaled, ok" sh -c "test \$(grep -c '\"status\":\"ok\"' '$tmp/res/runs.jsonl') -eq 1"
check "no loop device left on the image" sh -c "! losetup -j '$tmp/disk.img' | grep -q ."
check "nothing left mounted" sh -c "! grep -q buildapp-run- /proc/mounts"
check "the image carries the GPT it was given" sh -c "blkid -p -o value -s PTTYPE '$tmp/disk.img' | grep -q gpt"

# A second run on the same image: the layout a kit made, laid out again.
"$BUILDAPP" run "$tmp/one.ini" --target "$tmp/disk.img" --results "$tmp/res2" \
	--cache "$B/cache" >"$tmp/out2" 2>"$tmp/err2"
rc=$?
cat "$tmp/err2"
check "a second run on the kit's own layout exits 0, no wipe" test $rc -eq 0
check "it says the layout is a kit's" grep -q "carries a layout a kit made" "$tmp/err2"
check "its run journaled, ok" sh -c "test \$(grep -c '\"status\":\"ok\"' '$tmp/res2/runs.jsonl') -eq 1"

# The same image with one hex digit of its disk GUID changed: not the mark.
guid=$(sfdisk --disk-id "$tmp/disk.img")
last=$(printf '%s' "$guid" | tail -c 1)
changed=$(printf '%s' "$guid" | sed "s/.\$/$([ "$last" = 0 ] && echo 1 || echo 0)/")
sfdisk -q --disk-id "$tmp/disk.img" "$changed"
check "sfdisk changed the disk GUID" test "$(sfdisk --disk-id "$tmp/disk.img")" = "$changed"
sum=$(sha256sum <"$tmp/disk.img")
"$BUILDAPP" run "$tmp/one.ini" --target "$tmp/disk.img" --results "$tmp/res4" \
	--cache "$B/cache" >"$tmp/out4" 2>"$tmp/err4"
rc=$?
cat "$tmp/err4"
check "an image with another partition table is refused with exit 2" test $rc -eq 2
check "the refusal names the signature" grep -q "gpt" "$tmp/err4"
check "no loop device left after the refusal" sh -c "! losetup -j '$tmp/disk.img' | grep -q ."
check "nothing written for the refused run" test ! -e "$tmp/res4/runs.jsonl"
check "the refused image is unchanged" test "$(sha256sum <"$tmp/disk.img")" = "$sum"

"$BUILDAPP" run "$tmp/one.ini" --target /nonexistent/dir/x.img --results "$tmp/res3" \
	--cache "$B/cache" >/dev/null 2>"$tmp/err3"
check "an impossible target path fails" test $? -ne 0
exit $fail
