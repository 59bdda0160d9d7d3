#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# buildapp run on an image file target: the file is created with the size
# the backends need, attached to a loop device, partitioned and provisioned
# with the native tools, one guest run is made on it, and afterwards no
# loop device or mount is left.  An image that already carries a partition
# table is refused (exit 2) without wipe = yes.
set -u
B=${B:-build}
BUILDAPP=${BUILDAPP:-$B/buildapp}
[ "$(id -u)" -eq 0 ] || { echo "needs root (loop devices, libvirt)"; exit 77; }
command -v losetup >/dev/null || { echo "no losetup"; exit 77; }
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

# A second run on the same image: it has a partition table now.
"$BUILDAPP" run "$tmp/one.ini" --target "$tmp/disk.img" --results "$tmp/res2" \
	--cache "$B/cache" >"$tmp/out2" 2>"$tmp/err2"
rc=$?
cat "$tmp/err2"
check "an image with a partition table is refused with exit 2" test $rc -eq 2
check "the refusal names the signature" grep -q "gpt" "$tmp/err2"
check "no loop device left after the refusal" sh -c "! losetup -j '$tmp/disk.img' | grep -q ."
check "nothing written for the refused run" test ! -e "$tmp/res2/runs.jsonl"

"$BUILDAPP" run "$tmp/one.ini" --target /nonexistent/dir/x.img --results "$tmp/res3" \
	--cache "$B/cache" >/dev/null 2>"$tmp/err3"
check "an impossible target path fails" test $? -ne 0
exit $fail
