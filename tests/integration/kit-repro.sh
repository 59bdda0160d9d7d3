#!/bin/sh
# The benchmark guest from two empty caches gives the same bytes: kernel,
# initramfs and the pristine disk (an ext4 whose UUID, hash seed and
# times come from the inputs, not the clock), with two different
# SOURCE_DATE_EPOCHs and a second apart.  No libguestfs, a few seconds.
# The whole kit (image, manifest) from two empty caches: tests/slow/kit-repro.sh.
set -eu
B=${B:-build}
BUILDAPP=${BUILDAPP:-$B/buildapp}
"$BUILDAPP" kernel >/dev/null 2>&1 || { echo "no kernel in /boot with modules"; exit 77; }
for t in mke2fs debugfs e2fsck; do
	command -v "$t" >/dev/null 2>&1 || { echo "$t is not installed"; exit 77; }
done

tmp="$B/test-tmp/kit-repro"
rm -rf "$tmp"
mkdir -p "$tmp"
# A tarball workload: the disk then holds the tarball and its tree.
cat >"$tmp/p.ini" <<INI
[appliance]
include = $PWD/profiles/ci-smoke.ini
name = kit-repro
[workload]
kinds = fio, tarball-read
tarball = generated
tarball_size = 2M
INI
SOURCE_DATE_EPOCH=1700000000 XDG_CACHE_HOME="$tmp/xdg1" \
	"$BUILDAPP" kit "$tmp/p.ini" -o "$tmp/out1"
sleep 1
SOURCE_DATE_EPOCH=1800000000 "$BUILDAPP" kit "$tmp/p.ini" -o "$tmp/out2" \
	--cache "$tmp/cache2"
for f in vmlinuz initrd.img disk.img; do
	cmp "$tmp/out1/$f" "$tmp/out2/$f" ||
		{ echo "FAIL: $f differs between two builds from empty caches"; exit 1; }
done
echo "two kits from two empty caches are byte-identical"

# The disk is sound and holds what the agent expects.
e2fsck -fn "$tmp/out1/disk.img" >"$tmp/fsck" 2>&1 || { cat "$tmp/fsck"; exit 1; }
debugfs -R 'ls -p /' "$tmp/out1/disk.img" 2>/dev/null >"$tmp/root"
for d in data tree work lost+found; do
	grep -q "/$d/" "$tmp/root" || { echo "FAIL: no /$d on the disk"; exit 1; }
done
debugfs -R 'stat /data/workload.tar' "$tmp/out1/disk.img" 2>/dev/null >"$tmp/tar"
size=$(sed -n 's/^User:.*Size: \([0-9]*\)$/\1/p' "$tmp/tar")
[ "$size" = "$(stat -c %s "$tmp/cache2"/tarball-*.tar)" ] ||
	{ echo "FAIL: /data/workload.tar is $size bytes"; exit 1; }
# No time from the clock: every inode stamped 2000-01-01 or the tarball's.
grep -q 'ctime: 0x386d4380' "$tmp/tar" || { echo "FAIL: ctime from the clock"; cat "$tmp/tar"; exit 1; }
[ "$(debugfs -R 'ls -l /tree/src' "$tmp/out1/disk.img" 2>/dev/null | grep -c d000)" -gt 0 ] ||
	{ echo "FAIL: the tarball is not extracted in /tree"; exit 1; }
# The staging tree and the debugfs script are gone.
[ -z "$(find "$tmp/cache2" -name '*.tmp*')" ] || { echo "FAIL: temporaries left"; exit 1; }
echo "the pristine disk holds /data/workload.tar, /tree and /work"
