#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# `buildapp kit`: usage errors, and a kit-only build (no libguestfs) of
# the ci-smoke profile that the second time comes from the cache; without
# --cache, the cache is made under an empty HOME or XDG_CACHE_HOME.
set -eu
B=${B:-build}
BUILDAPP=${BUILDAPP:-$B/buildapp}
"$BUILDAPP" kernel >/dev/null 2>&1 || { echo "no kernel in /boot with modules"; exit 77; }

"$BUILDAPP" kit --help | grep -q 'Usage: buildapp kit'
rc=0; "$BUILDAPP" kit profiles/ci-smoke.ini 2>/dev/null || rc=$?
[ "$rc" = 2 ] || { echo "no -o: exit $rc, not 2"; exit 1; }
rc=0; "$BUILDAPP" kit /nonexistent.ini -o "$B/x" 2>/dev/null || rc=$?
[ "$rc" = 2 ] || { echo "missing profile: exit $rc, not 2"; exit 1; }

tmp="$B/test-tmp/kit-cli"
rm -rf "$tmp"
mkdir -p "$tmp"
"$BUILDAPP" kit profiles/ci-smoke.ini -o "$tmp/out" --cache "$tmp/cache" \
	--no-image 2>"$tmp/err1"
cat "$tmp/err1"
[ -s "$tmp/out/vmlinuz" ] && [ -s "$tmp/out/initrd.img" ]
[ ! -e "$tmp/out/disk.img" ]
grep -q 'buildapp.workload=fio' "$tmp/out/cmdline-fio"
grep -q 'buildapp.fio_fsync=1' "$tmp/out/cmdline-fio"
# The initramfs holds the agent as /init and fio's libraries.
zstd -dc "$tmp/out/initrd.img" | cpio -it 2>/dev/null >"$tmp/list"
grep -qx init "$tmp/list"
grep -qx usr/bin/fio "$tmp/list"
grep -q 'usr/lib/x86_64-linux-gnu/libaio.so' "$tmp/list"
grep -q 'virtio_blk.ko' "$tmp/list"
! grep -q bonnie "$tmp/list" # not a kind of ci-smoke

"$BUILDAPP" kit profiles/ci-smoke.ini -o "$tmp/out" --cache "$tmp/cache" \
	--no-image 2>"$tmp/err2"
grep -q '(cached)' "$tmp/err2"

# No --cache on a fresh machine: an empty HOME, no ~/.cache yet.
mkdir "$tmp/home"
env -u XDG_CACHE_HOME HOME="$tmp/home" "$BUILDAPP" kit profiles/ci-smoke.ini \
	-o "$tmp/home-out" --no-image 2>"$tmp/err3" || { cat "$tmp/err3"; exit 1; }
ls -d "$tmp/home/.cache/buildapp"/kit-* >/dev/null
# XDG_CACHE_HOME is honoured and made with its parents; the build from
# there is the same one.
XDG_CACHE_HOME="$tmp/xdg/cache" HOME=/nonexistent "$BUILDAPP" kit \
	profiles/ci-smoke.ini -o "$tmp/xdg-out" --no-image 2>"$tmp/err4" ||
	{ cat "$tmp/err4"; exit 1; }
ls -d "$tmp/xdg/cache/buildapp"/kit-* >/dev/null
cmp "$tmp/home-out/initrd.img" "$tmp/xdg-out/initrd.img"
rm -rf "$tmp"
echo ok
