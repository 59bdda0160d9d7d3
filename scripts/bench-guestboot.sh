#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The benchmark guest's own boot: the time from QEMU's start to the
# agent's first console line (BUILDAPP: BEGIN) and from QEMU's start to
# its exit less the workload's own seconds (the agent's workload_seconds),
# before and after the guest boots the kernel's PVH ELF with the boot-time
# options of runner/guestcmdline.c.  Both come from the same kit of this
# tree: "before" is the kit's bzImage (vmlinuz) with the command line less
# those options (initcall_blacklist=crypto_kdf108_init cryptomgr.notests=1
# ipv6.disable=1), "after" the kit's vmlinux with its own command line.
# A third side, "pvh", is the vmlinux with the old command line: what the
# kernel alone saves.  A fourth, "lean", is "after" as the runner now
# boots it: QEMU's qboot as firmware instead of SeaBIOS
# (domain_guest_firmware, runner/domain.h) and buildapp.bus=virtio, with
# which the agent loads the virtio-blk drivers alone, not libata, AHCI and
# the SCSI stack.  The sides alternate (before, pvh, after, lean, then
# lean, after, pvh, before, ...) so load on the host hits them alike;
# medians are reported, and their ratio to before's (lean's to after's
# too).
# Bare qemu-system-x86_64 as scripts/bench-runner.sh boots it, under TCG:
# one level of TCG, a proxy for the nested guests of a TCG lab server.
# Usage: scripts/bench-guestboot.sh [REPS (default 5)] [KIND tarball-write|fio (default tarball-write)]
# Env: BUILDAPP (default build/buildapp), KIT_CACHE (guest kit cache,
# default a directory in WORK), WORK (default a temp dir), MEMORY (guest
# memory, default 384M).
set -eu
reps=${1:-5}
kind=${2:-tarball-write}
# shellcheck source=scripts/lib/bench.sh
. "$(dirname "$0")/lib/bench.sh"
bench_setup
memory=${MEMORY:-384M}
: "${LIBGUESTFS_BACKEND:=direct}"
: "${LIBGUESTFS_BACKEND_SETTINGS:=force_tcg}"
export LIBGUESTFS_BACKEND LIBGUESTFS_BACKEND_SETTINGS
work=${WORK:-$(mktemp -d /var/tmp/bench-guestboot.XXXXXX)}
kitcache=${KIT_CACHE:-$work/cache}
[ -n "${KEEP_WORK:-}" ] || trap 'rm -rf "$work"' EXIT
mkdir -p "$kitcache"


prof=$work/bench.ini
case $kind in
tarball-write) workload="tarball = generated
tarball_size = 8M" ;;
fio) workload="fio_rw = randwrite
fio_bs = 4K
fio_size = 4M
fio_direct = no
fio_fsync = 1" ;;
*) echo "bench-guestboot.sh: KIND is tarball-write or fio" >&2; exit 2 ;;
esac
cat >"$prof" <<INI
[appliance]
name = bench-guestboot
[storage]
backends = raw
size = 256M
raw_preallocation = sparse
[guest]
memory = $memory
bus = virtio
cache = unsafe
aio = threads
[workload]
kinds = $kind
$workload
[sweep]
runs = 1
INI

kit=$work/kit
build_kit "$buildapp" "$prof" "$kit" "$kitcache"
[ -f "$kit/vmlinux" ] ||
	{ echo "bench-guestboot.sh: the kit has no vmlinux (no PVH entry in its kernel?)" >&2; exit 1; }
after_cmdline=$(cat "$kit/cmdline-$kind")
before_cmdline=$(printf '%s\n' "$after_cmdline" | sed \
	-e 's/ initcall_blacklist=crypto_kdf108_init//' \
	-e 's/ cryptomgr.notests=1//' -e 's/ ipv6.disable=1//')
[ "$before_cmdline" != "$after_cmdline" ] ||
	{ echo "bench-guestboot.sh: the command line has none of the boot options" >&2; exit 1; }

# One boot: the console stamped line by line as it comes; the run's
# numbers appended to WORK/SIDE.begin and WORK/SIDE.boot.
boot() { # side kernel cmdline rep [firmware]
	cp --sparse=always "$kit/disk.img" "$work/disk.raw"
	log=$work/$1-$4.log
	t0=$(now)
	bare_guest "-accel tcg -cpu qemu64${5:+ -bios $5}" "$memory" "$2" "$kit/initrd.img" "$3" \
		"$work/disk.raw" unsafe stdio 2>&1 |
		while IFS= read -r line; do printf '%s %s\n' "$(now)" "$line"; done >"$log"
	t1=$(now)
	grep -q 'BUILDAPP:END status=0' "$log" ||
		{ echo "$1 run $4: no successful END line in $log" >&2; tail "$log" >&2; exit 1; }
	awk -v t0="$t0" -v t1="$t1" -v b="$work/$1.begin" -v o="$work/$1.boot" \
		-v w="$work/$1.work" '
		/BUILDAPP:BEGIN / && !begin { begin = $1 - t0 }
		/BUILDAPP:METRIC name=workload_seconds / {
			for (i = 1; i <= NF; i++)
				if ($i ~ /^value=/) { sub(/^value=/, "", $i); secs = $i } }
		END { printf "%.3f\n", begin >>b; printf "%.3f\n", t1 - t0 - secs >>o;
			printf "%.3f\n", secs >>w }' "$log"
}

side() { # side rep
	case $1 in
	before) boot before "$kit/vmlinuz" "$before_cmdline" "$2" ;;
	pvh) boot pvh "$kit/vmlinux" "$before_cmdline" "$2" ;;
	after) boot after "$kit/vmlinux" "$after_cmdline" "$2" ;;
	lean) boot lean "$kit/vmlinux" "$after_cmdline buildapp.bus=virtio" "$2" "$qboot" ;;
	esac
}
qboot=/usr/share/qemu/qboot.rom
[ -r "$qboot" ] || { echo "bench-guestboot.sh: no $qboot (package qemu-system-data)" >&2; exit 1; }
for s in before pvh after lean; do for f in begin boot work; do : >"$work/$s.$f"; done; done
alternate "$reps" side before pvh after lean

cd "$work"
row() { # label measure
	printf '| %s | %s | %s | %s (%s) | %s | %s (%s) | %s | %s (%s; %s of after) | %s |\n' "$1" \
		"$(median_of "before.$2")" "$(values_of "before.$2")" \
		"$(median_of "pvh.$2")" "$(median_ratio "pvh.$2" "before.$2")" \
		"$(values_of "pvh.$2")" "$(median_of "after.$2")" \
		"$(median_ratio "after.$2" "before.$2")" "$(values_of "after.$2")" \
		"$(median_of "lean.$2")" "$(median_ratio "lean.$2" "before.$2")" \
		"$(median_ratio "lean.$2" "after.$2")" "$(values_of "lean.$2")"
}
echo
echo "guest boot: before (bzImage, old command line), pvh (PVH vmlinux, old command line),"
echo "after (PVH vmlinux, boot options), lean (after, qboot, the virtio drivers alone); $kind kit, initramfs $(du -k "$kit/initrd.img" | cut -f1) KiB,"
echo "$memory guest, TCG, $reps repetitions each, interleaved; $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg) at the end"
echo
echo "| measure | before median s | each s | pvh median s (ratio) | each s | after median s (ratio) | each s | lean median s (ratios) | each s |"
echo "|---|---:|---|---:|---|---:|---|---:|---|"
row "QEMU start to BUILDAPP: BEGIN" begin
row "QEMU start to exit, less workload_seconds" boot
row "workload_seconds (should not change)" work
