#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# buildapp provision from the command line: --dry-run touches nothing,
# refusals exit 2 naming the signatures, the native executor provisions a
# directory and reports allocation as JSON.  (The libguestfs path is
# covered by storage-guestfs.sh, to keep launches few.)
set -u
work=$(mktemp -d "$TOP/$B/storage-provision.XXXXXX") || exit 1
dev=""
cleanup() {
	[ -n "$dev" ] && losetup -d "$dev"
	rm -rf "$work"
}
trap cleanup EXIT
fail=0
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fail=1; }

cat >"$work/all.ini" <<'INI'
[storage]
backends = ext4-file, lvm, qcow2, raw
size = 16M
qcow2_preallocation = off, metadata, falloc, full
raw_preallocation = sparse, falloc, full
cluster_size = 64K
fill = yes
INI

# --dry-run: every step printed, nothing created.
out=$("$BUILDAPP" provision "$work/all.ini" --target "$work/a.img" --dry-run) || bad "dry-run exit $?"
n=$(printf '%s\n' "$out" | grep -c '^ *[0-9]*\. ')
[ "$n" -eq 26 ] && ok "dry-run prints 26 steps (image file and 25)" || bad "dry-run printed $n steps"
printf '%s\n' "$out" | grep -q "lvcreate .* -n lvm -L 16777216b buildapp" && ok "lvcreate step" || bad "no lvcreate step"
printf '%s\n' "$out" | grep -q "preallocation=falloc,cluster_size=65536 /qcow2-falloc.qcow2" && ok "qcow2 step" || bad "no qcow2 falloc step"
[ ! -e "$work/a.img" ] && ok "dry-run created nothing" || bad "dry-run created the image"
out=$("$BUILDAPP" provision "$work/all.ini" --target "$work/a.img" --dry-run --json) || bad "dry-run --json"
printf '%s\n' "$out" | grep -q '"volume": "qcow2/full"' && ok "dry-run --json" || bad "dry-run --json: $out"

# Refusals: exit 2 with the signatures.
truncate -s 512M "$work/gpt.img"
printf 'label: gpt\nstart=1MiB, size=16MiB\n' | sfdisk -q "$work/gpt.img"
"$BUILDAPP" provision "$work/all.ini" --target "$work/gpt.img" --dry-run 2>"$work/err"
rc=$?
[ $rc -eq 2 ] && grep -q "signatures (gpt)" "$work/err" && ok "image with a partition table refused" ||
	bad "image with a partition table: exit $rc: $(cat "$work/err")"
"$BUILDAPP" provision "$work/all.ini" --target "$work" 2>"$work/err"
[ $? -eq 2 ] && ok "directory without --executor native refused" || bad "directory accepted"

if [ "$(id -u)" -eq 0 ] && losetup -f >/dev/null 2>&1; then
	dev=$(losetup -f --show "$work/gpt.img")
	printf '[host]\ndisk = WRONG-SERIAL-0042\nwipe = yes\n[storage]\nbackends = raw\n' >"$work/wrong.ini"
	"$BUILDAPP" provision "$work/wrong.ini" --target "$dev" --dry-run 2>"$work/err"
	rc=$?
	[ $rc -eq 2 ] && grep -q "is not 'WRONG-SERIAL-0042'.*signatures: gpt" "$work/err" &&
		ok "wrong identity refused" || bad "wrong identity: exit $rc: $(cat "$work/err")"
fi

# Native executor on a directory: files, allocation in JSON.
mkdir "$work/dir"
cat >"$work/files.ini" <<'INI'
[storage]
backends = qcow2, raw
size = 16M
qcow2_preallocation = metadata
raw_preallocation = falloc
INI
out=$("$BUILDAPP" provision "$work/files.ini" --target "$work/dir" --executor native --json) ||
	bad "native provision exit $?"
[ -f "$work/dir/qcow2-metadata.qcow2" ] && [ -f "$work/dir/raw-falloc.img" ] && ok "native files made" ||
	bad "native files missing"
printf '%s\n' "$out" | grep -q '"qcow2_data_bytes": 16777216' && ok "qcow2 data bytes reported" ||
	bad "allocation JSON: $out"
printf '%s\n' "$out" | grep -q '"unwritten_bytes": 167' && ok "unwritten bytes reported" ||
	bad "allocation JSON: $out"
exit $fail
