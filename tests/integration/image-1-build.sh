#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Builds the busybox kit image twice with one SOURCE_DATE_EPOCH and
# compares bytes; also the qcow2 output.  Leaves the raw image in the
# test cache for image-2-boot.
. "$TOP/tests/lib/common.sh"
work=$(mktemp -d "$CACHE/build.XXXXXX")
trap 'rm -rf "$work"' EXIT
export SOURCE_DATE_EPOCH=1700000000

build_image "$work/a.img"
build_image "$work/b.img"
cmp "$work/a.img" "$work/b.img" || fail "two raw builds differ"
echo "raw: two builds are byte-identical ($(stat -c %s "$work/a.img") bytes)"

# The layout the boot paths rely on.
guestfish --ro --format=raw -a "$work/a.img" run : \
	part-get-gpt-type /dev/sda 1 : part-get-gpt-attributes /dev/sda 1 : \
	vfs-type /dev/sda1 : vfs-label /dev/sda2 : vfs-type /dev/sda2 : \
	mount-ro /dev/sda1 / : ls / : ls /EFI/BOOT : cat /syslinux.cfg : cat /EFI/debian/grub.cfg \
	>"$work/layout"
cat "$work/layout"
grep -qx 'C12A7328-F81F-11D2-BA4B-00A0C93EC93B' "$work/layout" || fail "ESP type"
grep -qx 4 "$work/layout" || fail "legacy BIOS bootable attribute"
grep -qx vfat "$work/layout" || fail "ESP not FAT"
grep -qx RESULTS "$work/layout" || fail "RESULTS label"
grep -qx ext4 "$work/layout" || fail "RESULTS not ext4"
for f in vmlinuz initrd ldlinux.sys ldlinux.c32 syslinux.cfg EFI BOOTX64.EFI grubx64.efi; do
	grep -qx "$f" "$work/layout" || fail "ESP lacks $f"
done
grep -q "^	linux /vmlinuz 'console=ttyS0'$" "$work/layout" || fail "GRUB's entry"
guestfish --ro --format=raw -a "$work/a.img" run : mount-ro /dev/sda1 / : \
	download /EFI/BOOT/BOOTX64.EFI "$work/shim" : download /EFI/BOOT/grubx64.efi "$work/grub"
cmp "$work/shim" /usr/lib/shim/shimx64.efi.signed || fail "BOOTX64.EFI is not Debian's signed shim"
cmp "$work/grub" /usr/lib/grub/x86_64-efi-signed/grubx64.efi.signed || fail "grubx64.efi is not Debian's signed GRUB"
dd if="$work/a.img" bs=440 count=1 2>/dev/null | cmp - /usr/lib/syslinux/mbr/gptmbr.bin ||
	fail "MBR boot code is not gptmbr.bin"
mv "$work/a.img" "$CACHE/busybox-kit.img"

# The qcow2 output: the same disk content (qemu-img convert of the raw
# disk, which is what makes it reproducible).
build_image "$work/c.qcow2" --format qcow2
qemu-img info "$work/c.qcow2" | grep -q 'file format: qcow2' || fail "not qcow2"
qemu-img compare -q -f qcow2 -F raw "$work/c.qcow2" "$CACHE/busybox-kit.img" ||
	fail "qcow2 and raw builds differ in content"
echo "qcow2: same content as the raw build"
