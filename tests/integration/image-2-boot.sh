#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Boots the busybox kit as an ISO image from a CD drive under SeaBIOS,
# and as a disk image (from image-1-build, else built here) under OVMF
# with Secure Boot enforcing (and, with its kernel unsigned, is refused
# there), with scripts/boot-appliance.sh, and reads what the
# initramfs wrote back from RESULTS: with boot-appliance's own read-back,
# then with `buildapp results`.
. "$TOP/tests/lib/common.sh"
work=$(mktemp -d "$CACHE/boot.XXXXXX")
trap 'rm -rf "$work"' EXIT

[ -s "$CACHE/busybox-kit.img" ] || build_image "$CACHE/busybox-kit.img"
cp --sparse=always "$CACHE/busybox-kit.img" "$work/uefi.img"

# Under SeaBIOS from a CD drive (the kit's image under SeaBIOS:
# tests/e2e/kit-boot.sh's demo): the same kernel and initramfs as an
# ISO image, RESULTS on a USB stick beside it.
build_image "$work/bios.iso" --iso
sh "$TOP/scripts/boot-appliance.sh" "$work/bios.iso" --cdrom --report boot-test.txt \
	--disk-size 1G --memory 512 --timeout 300 >"$work/bios.out"
tail -n 10 "$work/bios.out"
grep -q '^firmware: bios$' "$work/bios.out" || fail "BIOS CD boot: no report from the RESULTS stick"
# The disk under test is blank: a first partition can only be the
# stick's, whichever name the kernel gave it.
grep -q '^results: /dev/sd[a-z]1$' "$work/bios.out" || fail "BIOS CD boot: RESULTS was not the stick's"

# UEFI with Secure Boot enforcing (Microsoft's keys, as servers ship):
# shim, Debian's GRUB and kernel, the kernel locked down, its modules
# loaded.  (Plain UEFI: tests/e2e/kit-boot.sh.)
sh "$TOP/scripts/boot-appliance.sh" "$work/uefi.img" --secure-boot --report boot-test.txt \
	--disk-size 1G --memory 512 --timeout 300 >"$work/uefi.out"
tail -n 10 "$work/uefi.out"
grep -q '^firmware: uefi$' "$work/uefi.out" || fail "UEFI boot: no report from RESULTS"
grep -q '^secure_boot: enabled$' "$work/uefi.out" || fail "UEFI boot: Secure Boot is not on"
grep -q '^lockdown: .*\[integrity\]' "$work/uefi.out" || fail "UEFI boot: the kernel is not locked down"

# The same firmware refuses the image once its kernel lost its signature.
cp --sparse=always "$CACHE/busybox-kit.img" "$work/unsigned.img"
python3 "$TOP/tests/lib/pe-unsign.py" "$KERNEL" "$work/vmlinuz.unsigned"
esp="$work/unsigned.img@@$(($(partx -g -o START -n 1 "$work/unsigned.img") * 512))"
MTOOLS_SKIP_CHECK=1 mcopy -o -n -i "$esp" "$work/vmlinuz.unsigned" ::/vmlinuz
rc=0
sh "$TOP/scripts/boot-appliance.sh" "$work/unsigned.img" --secure-boot --report boot-test.txt \
	--disk-size 1G --memory 512 --timeout 60 --log "$work/unsigned.log" \
	>"$work/unsigned.out" 2>&1 || rc=$?
[ "$rc" -eq 1 ] || fail "an unsigned kernel under Secure Boot: boot-appliance exit $rc, not 1"
grep -aq 'bad shim signature' "$work/unsigned.log" ||
	fail "an unsigned kernel under Secure Boot was not refused by its signature"
echo "Secure Boot: the signed chain boots; an unsigned kernel is refused (bad shim signature)"

"$BUILDAPP" results "$work/uefi.img" -o "$work/results"
cat "$work/results/boot-test.txt"
grep -q '^firmware: uefi$' "$work/results/boot-test.txt" || fail "buildapp results"
grep -q '^disk: sda' "$work/results/boot-test.txt" || fail "no AHCI disk under test seen"
