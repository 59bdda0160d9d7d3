#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Reset time after the same guest write, for filled raw volumes of 1G, 4G
# and 16G, fast (only what the run wrote, read from QEMU's dirty bitmap)
# against full (every byte, `qemu-img convert -n -S 0`) measured in the
# same run on the same volume.  For each size: a pristine image of that
# size (the guest kit's ext4 disk grown with zeros, as an uncompressed
# qcow2 like the kit's disk.qcow2), a sparse volume the reset treats as
# filled, one full reset (timed, with the sync that writes it back), one
# guest that writes a 64M file with fio (tracked), one fast reset (timed,
# reading the writes back included).  Ends with the line
#   reset 16G/1G: N.NNx; full/fast at 16G: N.Nx
# Writes about 21 GiB in all (the full resets) under WORK; TCG guests.
# Usage: scripts/bench-reset.sh   Env: B (build dir, default build),
# WORK (default a temp dir in /var/tmp), BUILDAPP_ACCEL (default tcg).
set -eu
. "$(dirname "$0")/lib/bench.sh"
driver=$B/tests/integration/fast-reset
bench_setup "$driver"
: "${LIBGUESTFS_BACKEND_SETTINGS:=force_tcg}" "${BUILDAPP_ACCEL:=tcg}"
export LIBGUESTFS_BACKEND_SETTINGS BUILDAPP_ACCEL
[ "$(id -u)" -eq 0 ] || { echo "bench-reset.sh: needs root (embedded libvirt driver)" >&2; exit 1; }
work=${WORK:-$(mktemp -d /var/tmp/bench-reset.XXXXXX)}
[ -n "${KEEP_WORK:-}" ] || trap 'rm -rf "$work"' EXIT
mkdir -p "$work"

cat >"$work/bench.ini" <<INI
[appliance]
name = bench-reset
[storage]
backends = raw
size = 1G
fill = yes
[guest]
memory = 256M
cache = unsafe
[workload]
kinds = fio
fio_rw = write
fio_bs = 1M
fio_size = 64M
fio_direct = yes
[sweep]
runs = 1
INI
"$buildapp" kit "$work/bench.ini" -o "$work/kit" --cache "${KIT_CACHE:-$B/cache}" >"$work/kit.log" 2>&1 ||
	{ cat "$work/kit.log" >&2; exit 1; }
k=$work/kit
field() { sed -n "s/.*$1=\([0-9.]*\).*/\1/p" "$2"; }
secs() { awk '{ print $2 }' "$1"; }

printf '%-5s %12s %12s %14s %10s\n' size "full reset s" "fast reset s" "written MiB" full/fast
for g in 1 4 16; do
	size=$((g << 30))
	qemu-img convert -q -O raw "$k/disk.img" "$work/p.raw"
	qemu-img resize -q -f raw "$work/p.raw" "$size"
	qemu-img convert -q -O qcow2 "$work/p.raw" "$work/p.qcow2"
	rm -f "$work/p.raw" "$work/v"
	qemu-img create -q -f raw "$work/v" "$size"
	"$driver" full "$work/v" raw "$work/p.qcow2" >"$work/full.out"
	# The full reset's writes reach the disk before the guest runs (else
	# the fast reset's fsync waits for their writeback, seconds at 16G),
	# and that writeback is part of the full reset's time.
	t0=$(date +%s.%N); sync; t1=$(date +%s.%N)
	"$driver" run "$work/v" raw "$k/vmlinuz" "$k/initrd.img" "$(cat "$k/cmdline-fio")" \
		"$work/console.log" "$work/state" "$work/written" >"$work/run.out" ||
		{ cat "$work/run.out" "$work/console.log" >&2; exit 1; }
	"$driver" fast "$work/v" raw "$work/p.qcow2" "$work/written" >"$work/fast.out"
	full=$(awk -v a="$(secs "$work/full.out")" -v t0="$t0" -v t1="$t1" \
		'BEGIN { printf "%.3f", a + t1 - t0 }')
	fast=$(awk -v a="$(secs "$work/fast.out")" -v b="$(field read_seconds "$work/run.out")" \
		'BEGIN { printf "%.3f", a + b }')
	mib=$(awk -v b="$(field bytes "$work/run.out")" 'BEGIN { printf "%.1f", b / 1048576 }')
	printf '%-5s %12.3f %12.3f %14s %9.1fx\n' "${g}G" "$full" "$fast" "$mib" \
		"$(awk -v a="$full" -v b="$fast" 'BEGIN { print a / b }')"
	eval "full_$g=$full fast_$g=$fast"
	rm -f "$work/v" "$work/p.qcow2"
done
awk -v f1="$fast_1" -v f16="$fast_16" -v u16="$full_16" \
	'BEGIN { printf "reset 16G/1G: %.2fx; full/fast at 16G: %.1fx\n", f16 / f1, u16 / f16 }'
