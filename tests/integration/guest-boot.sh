#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Builds the guest kit and the guest image (made on this host) into a
# fresh cache, checks that a second build is a cache hit, then boots with
# bare qemu: the fio workload (fsync=1, small sizes) on a virtio disk and
# on an AHCI (SATA) disk, tarball-write on virtio, and checks the metrics
# parsed from the console.
set -eu
B=${B:-build}
BUILDAPP=${BUILDAPP:-$B/buildapp}
helper="$B/tests/guestkit-helper"
export BUILDAPP_AGENT="$B/buildapp-agent"
export LIBGUESTFS_BACKEND=direct

command -v qemu-system-x86_64 >/dev/null || { echo "no qemu-system-x86_64"; exit 77; }
"$BUILDAPP" kernel >/dev/null 2>&1 || { echo "no kernel in /boot with modules"; exit 77; }
[ -x "$helper" ] || { echo "$helper not built"; exit 77; }

# /dev/kvm on these machines runs the KVM probe but guest kernels then
# make no progress, so TCG unless the caller says BUILDAPP_ACCEL=kvm.
ACCEL=${BUILDAPP_ACCEL:-tcg}
export BUILDAPP_ACCEL="$ACCEL"

tmp="$B/test-tmp/guest-boot"
rm -rf "$tmp"
mkdir -p "$tmp"
cache="$tmp/cache"

start=$(date +%s)
"$helper" build "$cache" fio,tarball-write >"$tmp/build.env"
echo "first build: $(($(date +%s) - start)) s"
. "$tmp/build.env"
[ "$KIT_CACHED" = 0 ] && [ "$IMAGE_CACHED" = 0 ]

start=$(date +%s)
"$helper" build "$cache" fio,tarball-write >"$tmp/build2.env"
. "$tmp/build2.env"
secs=$(($(date +%s) - start))
echo "second build: $secs s (cached kit $KIT_CACHED, image $IMAGE_CACHED)"
[ "$KIT_CACHED" = 1 ] && [ "$IMAGE_CACHED" = 1 ] && [ "$secs" -le 2 ]

boot() { # name kind disk-options...
	name=$1
	kind=$2
	shift 2
	eval "cmdline=\$CMDLINE_$(echo "$kind" | tr - _)"
	# The pristine image stays untouched: each boot gets a copy.
	cp --sparse=always "$IMAGE" "$tmp/$name.img"
	start=$(date +%s)
	timeout 300 qemu-system-x86_64 -machine "q35,accel=$ACCEL" \
		-m "$MEMORY_MB" -display none -nodefaults -no-user-config \
		-no-reboot -kernel "$KERNEL" -initrd "$INITRD" \
		-append "$cmdline" -serial "file:$tmp/$name.log" "$@"
	echo "$name: boot to power-off $(($(date +%s) - start)) s"
	"$helper" parse "$kind" "$tmp/$name.log" | tee "$tmp/$name.metrics"
}
positive() { # name metric...
	name=$1
	shift
	for m in "$@"; do
		awk -v m="$m" '$1 == m && $2 > 0 { ok = 1 } END { exit !ok }' \
			"$tmp/$name.metrics" || { echo "$name: no $m"; exit 1; }
	done
}
fio_metrics="fio_write_iops fio_write_bw fio_write_clat_mean fio_write_clat_p50
	fio_write_clat_p99 fio_write_clat_p99_9"

boot virtio fio -drive "file=$tmp/virtio.img,format=raw,if=virtio"
positive virtio $fio_metrics
grep -q 'BUILDAPP:INFO disk=/dev/vda' "$tmp/virtio.log"

boot sata fio -drive "file=$tmp/sata.img,format=raw,if=none,id=d0" \
	-device ide-hd,drive=d0,bus=ide.0
positive sata $fio_metrics
grep -q 'BUILDAPP:INFO disk=/dev/sda' "$tmp/sata.log"

boot tarball tarball-write -drive "file=$tmp/tarball.img,format=raw,if=virtio"
positive tarball write_seconds workload_seconds

rm -rf "$tmp"
echo "ok"
