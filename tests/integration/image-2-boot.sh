#!/bin/sh
# Boots the busybox kit image (from image-1-build, else built here) under
# SeaBIOS and under OVMF with scripts/boot-appliance.sh, and reads what the
# initramfs wrote back from RESULTS: with boot-appliance's own read-back,
# then with `buildapp results`.
. "$TOP/tests/lib/common.sh"
work=$(mktemp -d "$CACHE/boot.XXXXXX")
trap 'rm -rf "$work"' EXIT

[ -s "$CACHE/busybox-kit.img" ] || build_image "$CACHE/busybox-kit.img"
cp --sparse=always "$CACHE/busybox-kit.img" "$work/bios.img"
cp --sparse=always "$CACHE/busybox-kit.img" "$work/uefi.img"

sh "$TOP/scripts/boot-appliance.sh" "$work/bios.img" --report boot-test.txt \
	--disk-size 1G --memory 512 --timeout 300 >"$work/bios.out"
tail -n 8 "$work/bios.out"
grep -q '^firmware: bios$' "$work/bios.out" || fail "BIOS boot: no report from RESULTS"

sh "$TOP/scripts/boot-appliance.sh" "$work/uefi.img" --uefi --report boot-test.txt \
	--disk-size 1G --memory 512 --timeout 300 >"$work/uefi.out"
tail -n 8 "$work/uefi.out"
grep -q '^firmware: uefi$' "$work/uefi.out" || fail "UEFI boot: no report from RESULTS"

"$BUILDAPP" results "$work/uefi.img" -o "$work/results"
cat "$work/results/boot-test.txt"
grep -q '^firmware: uefi$' "$work/results/boot-test.txt" || fail "buildapp results"
grep -q '^disk: sda' "$work/results/boot-test.txt" || fail "no AHCI disk under test seen"
