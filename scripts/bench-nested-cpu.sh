#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# What the TCG lab server's CPU model costs its nested guests: one kit
# (bench-nested.sh's profile: one LVM LV, cache unsafe, an 8M tarball
# written RUNS times in a TCG guest) booted by scripts/boot-appliance.sh
# under TCG with `--cpu max` (ERMS and FSRM offered: the server's kernel
# clears and copies pages byte by byte, rep stosb and movsb) and with its
# default under TCG, `--cpu max,erms=off,fsrm=off` (rep stosq and movsq).
# Under TCG each iteration of those is an emulated store, and a store to a
# page QEMU has translated code from takes its slow path: the pages a
# nested guest's QEMU ran its own translated code in are freed when it
# exits and cleared for the next guest's QEMU, whose start (libvirt's
# start to the paused guest, the journal's phases.guest_start) is where
# it shows.  Each boot gets a fresh copy of the image and a blank 4G disk
# under test; the sides alternate (max, default, then default, max, ...)
# REPS times each (default 1), RUNS runs a boot (default 3); medians over
# every run of a side, the first run of each boot apart from the later
# ones, and their ratio.
# Usage: scripts/bench-nested-cpu.sh [REPS (default 1)] [RUNS (default 3)]
# Env: WORK (default a temp dir), KEEP_WORK (keep WORK).
set -eu
reps=${1:-1}
runs=${2:-3}
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
# shellcheck source=scripts/lib/bench.sh
. "$top/scripts/lib/bench.sh"
bench_setup
export BUILDAPP_ACCEL=tcg LIBGUESTFS_BACKEND_SETTINGS=force_tcg
work=${WORK:-$(mktemp -d /var/tmp/bench-nested-cpu.XXXXXX)}
[ -n "${KEEP_WORK:-}" ] || trap 'rm -rf "$work"' EXIT
mkdir -p "$work"

nested_profile "$work/bench-nested.ini" "$runs"
echo "building the kit..." >&2
"$buildapp" "$work/bench-nested.ini" -o "$work/kit" >"$work/build.log" 2>&1 ||
	{ tail -20 "$work/build.log" >&2; echo "bench-nested-cpu.sh: the kit does not build" >&2; exit 1; }

# One boot of the kit with SIDE's CPU; each run's numbers appended to
# WORK/SIDE.*.
boot() { # side rep
	# default: boot-appliance.sh's own choice under TCG, whatever it is
	case $1 in
	erms) cpu=max ;;
	default) cpu= ;;
	esac
	out=$work/$1-$2
	echo "$1 (--cpu ${cpu:-as boot-appliance.sh chooses}), boot $2 (the console in $out.log)..." >&2
	rm -rf "$out" && mkdir -p "$out"
	cp --sparse=always "$work/kit/bench-nested.img" "$out/bench-nested.img"
	t0=$(date +%s)
	sh "$top/scripts/boot-appliance.sh" "$out/bench-nested.img" --plan "$work/kit/bench-nested.manifest.json" \
		--disk-size 4G ${cpu:+--cpu "$cpu"} --log "$out.log" >"$out.boot" 2>&1 ||
		{ tail -30 "$out.boot" >&2; echo "bench-nested-cpu.sh: the $1 boot failed" >&2; exit 1; }
	echo "$(($(date +%s) - t0))" >>"$work/$1.wall"
	if ! "$buildapp" results "$out/bench-nested.img" -o "$out/results" >/dev/null 2>"$out.results.log" ||
		! nested_runs "$out/results/runs.jsonl" "$work/$1"; then
		echo "bench-nested-cpu.sh: the $1 boot's journal: see $out.log and $out.results.log" >&2
		exit 1
	fi
	rm -f "$out/bench-nested.img"
}

nested_sides_init "$work" erms default
alternate "$reps" boot erms default

cd "$work"
row() { nested_row "$1" "$2" erms default; }
echo
echo "the TCG lab server's CPU: --cpu max (ERMS, FSRM) against the default max,erms=off,fsrm=off;"
echo "$(git -C "$top" rev-parse --short HEAD)$(git -C "$top" diff --quiet HEAD || echo ' with changes'); tarball-write (8M) on an LVM LV, 384M guest, TCG inside TCG;"
echo "$reps boot(s) a side, $runs runs each; $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg) at the end"
echo
echo "| measure (per run) | max median s | each s | default median s | each s | default/max |"
echo "|---|---:|---|---:|---|---:|"
row "guest's QEMU started, each boot's first run" start
row "guest's QEMU started, later runs" later_start
row "boot to shutdown, less workload_seconds" boot
row "workload_seconds" work
row "the lab server's boot to power-off (per boot)" wall
