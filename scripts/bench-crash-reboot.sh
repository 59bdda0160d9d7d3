#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# What a host crash's way back costs, through the firmware and by kexec
# ([workload] crash_reboot, docs/results.md).  One kit of durability runs
# with crash = host (one LVM LV, cache unsafe, CRASHES runs, so CRASHES
# crashes a boot sequence), booted on the virtual lab server with reboots
# allowed, alternately as built (kexec, the default) and with
# buildapp.crash_reboot=firmware on its kernel command line (the same
# image otherwise, its syslinux.cfg edited on a copy), every other round
# in the reverse order.  Each crashed run's journal line says how it came
# back (host_crash): to_kernel_seconds, the crash to the next kernel's
# start, and to_sweep_seconds, the crash to the run journaled by the boot
# after it, the sweep resuming.  Prints each side's values, their medians
# and the ratios firmware / kexec of the medians.
# The virtual lab server's firmware is SeaBIOS, whose POST takes about a
# second under TCG: most of the firmware path's cost here is loading the
# kernel and initramfs from the boot disk again.  A real server's POST
# adds tens of seconds to minutes to every firmware crash
# (docs/results.md); kexec pays none.
# Usage: scripts/bench-crash-reboot.sh [REPS (default 2)] [CRASHES (default 2)]
# Env: B (default build), WORK (default a temp dir), KEEP_WORK.
set -eu
reps=${1:-2} crashes=${2:-2}
. "$(dirname "$0")/lib/bench.sh"
bench_setup
: "${LIBGUESTFS_BACKEND_SETTINGS:=force_tcg}" "${BUILDAPP_ACCEL:=tcg}"
export LIBGUESTFS_BACKEND_SETTINGS BUILDAPP_ACCEL
[ "$(id -u)" -eq 0 ] || { echo "bench-crash-reboot.sh: needs root" >&2; exit 1; }
work=${WORK:-$(mktemp -d /var/tmp/bench-crash-reboot.XXXXXX)}
[ -n "${KEEP_WORK:-}" ] || trap 'rm -rf "$work"' EXIT
top=$(pwd)

cat >"$work/crash.ini" <<INI
[appliance]
include = $top/profiles/ci-smoke.ini
name = bench-crash
console = ttyS0
[host]
disk = BENCH-CRASH-DUT
[storage]
backends = lvm
size = 64M
[guest]
cache = unsafe
accel = tcg
timeout = 900
[workload]
kinds = durability
durability_records = 200
crash = host
[sweep]
runs = $crashes
INI
echo "building the kit..." >&2
BUILDAPP_INIT="$B/buildapp-init" "$buildapp" "$work/crash.ini" -o "$work/out" \
	--cache "${KIT_CACHE:-$B/cache}" >"$work/build.log" 2>&1 ||
	{ tail "$work/build.log" >&2; exit 1; }
img=$work/out/bench-crash.img

# The same image with buildapp.crash_reboot=firmware on the kernel
# command line of its BIOS boot entry (syslinux.cfg on the ESP).
esp_offset=$(sfdisk -J "$img" | python3 -c 'import json,sys; t=json.load(sys.stdin)["partitiontable"]; print(t["partitions"][0]["start"] * t.get("sectorsize", 512))')
cp --sparse=always "$img" "$work/firmware.img"
mtype -i "$work/firmware.img@@$esp_offset" ::/syslinux.cfg |
	sed 's/^\( *APPEND .*\)$/\1 buildapp.crash_reboot=firmware/' >"$work/syslinux.cfg"
grep -q 'buildapp.crash_reboot=firmware' "$work/syslinux.cfg" ||
	{ echo "bench-crash-reboot.sh: no APPEND line in the ESP's syslinux.cfg" >&2; exit 1; }
mcopy -o -i "$work/firmware.img@@$esp_offset" "$work/syslinux.cfg" ::/syslinux.cfg
cp --sparse=always "$img" "$work/kexec.img"

# boot SIDE REP: a fresh copy of SIDE's image and a blank disk under
# test, booted until the kit powers off; its crashed runs' ways back
# appended to SIDE.kernel and SIDE.sweep.
boot() {
	cp --sparse=always "$work/$1.img" "$work/run.img"
	rm -f "$work/dut.img"
	qemu-img create -q -f raw "$work/dut.img" 2G
	sh scripts/boot-appliance.sh "$work/run.img" --plan "$work/out/bench-crash.manifest.json" \
		--serial BENCH-CRASH-DUT --disk "$work/dut.img" --memory 2048 --reboots \
		--log "$work/$1.$2.console" >/dev/null 2>"$work/$1.$2.err" ||
		{ tail "$work/$1.$2.err" >&2; exit 1; }
	rm -rf "$work/res"
	"$buildapp" results "$work/run.img" -o "$work/res" >/dev/null
	python3 - "$work/res/runs.jsonl" "$1" "$work/$1" <<'PY'
import json, sys
path, side, out = sys.argv[1:]
n = 0
with open(path) as f, open(out + ".kernel", "a") as k, open(out + ".sweep", "a") as s:
    for line in f:
        h = json.loads(line).get("host_crash")
        if not h:
            continue
        if h["mechanism"] != side:
            sys.exit(f"a crash of the {side} side went by {h['mechanism']}: {h['fallback']}")
        print(h["to_kernel_seconds"], file=k)
        print(h["to_sweep_seconds"], file=s)
        n += 1
if n == 0:
    sys.exit(f"no crashed run journaled on the {side} side")
PY
	echo "  $1, round $2: $(grep -c . "$work/$1.sweep") crashes so far" >&2
}
alternate "$reps" boot kexec firmware

for what in kernel sweep; do
	case $what in
	kernel) label="crash to the next kernel's start" ;;
	sweep) label="crash to the resumed sweep" ;;
	esac
	echo "$label (s): firmware $(values_of "$work/firmware.$what") (median $(median_of "$work/firmware.$what")); kexec $(values_of "$work/kexec.$what") (median $(median_of "$work/kexec.$what")); firmware / kexec = $(median_ratio "$work/firmware.$what" "$work/kexec.$what")"
done
