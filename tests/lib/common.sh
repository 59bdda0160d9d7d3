# SPDX-License-Identifier: GPL-2.0-or-later
# Sourced by the image tests.  Needs $B, $BUILDAPP, $TOP (tests/run-tests.sh).
# Sets: CACHE (shared between tests), KERNEL, KVER, ACCEL (kvm|tcg, probed
# once), LIBGUESTFS_BACKEND_SETTINGS=force_tcg when KVM does not really work.
set -eu
: "${B:=build}" "${TOP:=$(pwd)}"
: "${BUILDAPP:=$B/buildapp}"
CACHE=$TOP/$B/test-cache
mkdir -p "$CACHE"

skip() { echo "$*"; exit 77; }
fail() { echo "FAIL: $*" >&2; exit 1; }

for t in guestfish qemu-system-x86_64 mformat mke2fs syslinux cpio; do
	command -v "$t" >/dev/null 2>&1 || skip "$t is not installed"
done
# The kernel a build takes (one rule, lib/kernel.h).
kernel=$("$BUILDAPP" kernel 2>/dev/null) || skip "no kernel in /boot with modules"
KERNEL=${kernel% *} KVER=${kernel##* }
[ -r "$KERNEL" ] || skip "$KERNEL is not readable"

if [ ! -s "$CACHE/accel" ]; then
	sh "$TOP/scripts/boot-appliance.sh" --probe-accel >"$CACHE/accel.tmp"
	mv "$CACHE/accel.tmp" "$CACHE/accel"
fi
ACCEL=$(cat "$CACHE/accel")
export BUILDAPP_ACCEL="$ACCEL"
[ "$ACCEL" = kvm ] || export LIBGUESTFS_BACKEND_SETTINGS=force_tcg
echo "accelerator: $ACCEL"

# The busybox initramfs that writes /boot-test.txt to RESULTS.
busybox_initrd() {
	if [ ! -s "$CACHE/busybox-initrd.gz" ]; then
		sh "$TOP/tests/lib/busybox-initrd.sh" "$KVER" "$CACHE/busybox-initrd.gz.tmp"
		mv "$CACHE/busybox-initrd.gz.tmp" "$CACHE/busybox-initrd.gz"
	fi
	echo "$CACHE/busybox-initrd.gz"
}

# build_image OUT [buildapp image options...]: the busybox kit image.
build_image() {
	out=$1
	shift
	"$BUILDAPP" image --kernel "$KERNEL" --initrd "$(busybox_initrd)" \
		--name image-test -o "$out" "$@"
}

# wait_for_log FILE PATTERN [SECONDS]: until FILE has a line matching
# PATTERN (grep -E), at most SECONDS (default 150).
wait_for_log() {
	n=$((${3:-150} * 2))
	while [ "$n" -gt 0 ] && ! grep -qE "$2" "$1"; do
		sleep 0.5
		n=$((n - 1))
	done
}

# interrupt SIG PID LOG: sends SIG to the background job PID, waits for it
# and prints LOG; its exit status in $rc.
interrupt() {
	kill -"$1" "$2"
	rc=0
	wait "$2" || rc=$?
	cat "$3"
}
