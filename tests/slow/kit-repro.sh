#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Another team rebuilding a kit from the same profile and the same
# packages gets the same kit: profiles/ci-smoke.ini built twice, each from
# an empty cache of its own (XDG_CACHE_HOME for one, --cache for the
# other), the same SOURCE_DATE_EPOCH, gives the same image, manifest and
# netboot files, and the same pristine guest disk (the one the manifest
# lists as initrd:/usr/lib/buildapp/kit/disk.qcow2).
# Cost: two cold kit builds (supermin, one libguestfs launch each), about
# 5 minutes here under load.
. "$TOP/tests/lib/common.sh"
command -v supermin >/dev/null || skip "supermin is not installed"
work=$(mktemp -d "$CACHE/repro.XXXXXX")
trap 'rm -rf "$work"' EXIT
export SOURCE_DATE_EPOCH=1700000000

XDG_CACHE_HOME="$work/xdg" "$BUILDAPP" "$TOP/profiles/ci-smoke.ini" -o "$work/out1"
"$BUILDAPP" "$TOP/profiles/ci-smoke.ini" -o "$work/out2" --cache "$work/cache2"
ls -d "$work/xdg/buildapp"/hostroot-* "$work/cache2"/hostroot-* >/dev/null ||
	fail "the builds did not use their own caches"
for f in ci-smoke.img ci-smoke.manifest.json ci-smoke.netboot/initrd \
	ci-smoke.netboot/vmlinuz ci-smoke.netboot/boot.ipxe; do
	cmp "$work/out1/$f" "$work/out2/$f" || fail "$f differs between two builds"
done
# The pristine disk each build made, and the one its image carries.
for c in "$work/xdg/buildapp" "$work/cache2"; do
	set -- "$c"/image-*/disk.qcow2
	[ $# -eq 1 ] && [ -s "$1" ] || fail "no pristine disk in $c"
	sha256sum "$1" | cut -d' ' -f1
done >"$work/disks"
[ "$(sort -u "$work/disks" | wc -l)" -eq 1 ] || fail "the pristine disks differ"
tr -d ' \n' <"$work/out1/ci-smoke.manifest.json" >"$work/manifest"
grep -q "\"initrd:/usr/lib/buildapp/kit/disk.qcow2\"[^}]*\"$(head -n 1 "$work/disks")\"" \
	"$work/manifest" || fail "the manifest does not list this pristine disk"
echo "two kit builds from two empty caches are byte-identical"
