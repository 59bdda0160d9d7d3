#!/bin/sh
# The nested benchmark guest's boot, before and after the work on it:
# each tarball-write run's boot to shutdown less the agent's own
# workload_seconds, in a kit booted as a virtual lab server under TCG, so
# that every guest is TCG inside TCG, as in the demo (scripts/demo.sh).
#
# "before" is this tree's history at BEFORE (default 0571248^, the last
# commit whose guests boot the bzImage under SeaBIOS, with the kernel's
# boot-time self-tests and IPv6 and every disk driver), extracted with
# `git archive` into WORK and built there (with the packages its
# scripts/install-deps.sh installs), its kit built with a cache of its
# own; "after" is this tree as it is (the PVH ELF, the boot options of
# runner/guestcmdline.c, qboot and the drivers of the cell's bus alone).
# Each side builds the same profile (written here, with keys both trees
# know: one LVM LV, cache unsafe, an 8M generated tarball; not the demo's
# profile, lvm-unsafe-demo.ini, whose qemu-img bench has no guest) and
# runs it with its own scripts/demo.sh given that profile: the kit built,
# booted with a blank 4G disk under test, its results copied back.  The sides
# alternate (before, after, then after, before, ...) REPS times each
# (default 1), RUNS runs a boot (default 3); medians over every run of a
# side, and their ratio.
# Usage: scripts/bench-nested.sh [REPS (default 1)] [RUNS (default 3)]
# Env: BEFORE (a commit, default 0571248^), WORK (default a temp dir),
# KEEP_WORK (keep WORK).
set -eu
reps=${1:-1}
runs=${2:-3}
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
# shellcheck source=scripts/lib/bench.sh
. "$top/scripts/lib/bench.sh"
bench_setup
before=${BEFORE:-0571248^}
export BUILDAPP_ACCEL=tcg LIBGUESTFS_BACKEND_SETTINGS=force_tcg
# Each tree finds its own init and agent beside its buildapp.
unset BUILDAPP_INIT
work=${WORK:-$(mktemp -d /var/tmp/bench-nested.XXXXXX)}
[ -n "${KEEP_WORK:-}" ] || trap 'rm -rf "$work"' EXIT
git -C "$top" rev-parse -q --verify "$before^{commit}" >/dev/null 2>&1 ||
	{ echo "bench-nested.sh: $before is not a commit of $top (a git clone is needed)" >&2; exit 1; }

echo "building the tree at $before in $work/before..." >&2
mkdir -p "$work/before" "$work/before-cache"
git -C "$top" archive "$before" | tar -x -C "$work/before"
# What it needs that this tree does not (systemd-boot-efi, its UEFI loader).
sh "$work/before/scripts/install-deps.sh" >"$work/before-deps.log" 2>&1 ||
	{ tail -20 "$work/before-deps.log" >&2; echo "bench-nested.sh: $before's install-deps.sh failed" >&2; exit 1; }
make -s -C "$work/before" -j"$(nproc)" >"$work/before-make.log" 2>&1 ||
	{ tail -20 "$work/before-make.log" >&2; echo "bench-nested.sh: $before does not build" >&2; exit 1; }

nested_profile "$work/bench-nested.ini" "$runs"

# One boot of SIDE's kit; each run's numbers appended to WORK/SIDE.*.
boot() { # side rep
	case $1 in
	before) tree=$work/before bin=$work/before/build/buildapp cache=$work/before-cache ;;
	after) tree=$top bin=$buildapp cache=${XDG_CACHE_HOME:-$HOME/.cache} ;;
	esac
	out=$work/$1-$2
	echo "$1, boot $2: building its kit and booting it (the console in $out.log)..." >&2
	t0=$(date +%s)
	XDG_CACHE_HOME=$cache BUILDAPP=$bin \
		sh "$tree/scripts/demo.sh" "$work/bench-nested.ini" "$out" >"$out.log" 2>&1 ||
		{ tail -30 "$out.log" >&2; echo "bench-nested.sh: $1's demo.sh failed" >&2; exit 1; }
	echo "$(($(date +%s) - t0))" >>"$work/$1.wall"
	nested_runs "$out/bench-nested.results/runs.jsonl" "$work/$1" ||
		{ echo "bench-nested.sh: $1's journal: see $out.log" >&2; exit 1; }
}

nested_sides_init "$work" before after
alternate "$reps" boot before after

cd "$work"
row() { nested_row "$1" "$2" before after; }
echo
echo "nested guest boot: before ($before: bzImage, SeaBIOS, every driver and boot-time test),"
echo "after ($(git -C "$top" rev-parse --short HEAD)$(git -C "$top" diff --quiet HEAD || echo ' with changes'): PVH ELF, boot options, qboot, the bus's drivers);"
echo "tarball-write (8M) on an LVM LV, 384M guest, TCG inside a TCG lab server; $reps boot(s) a side, $runs runs each;"
echo "$(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg) at the end"
echo
echo "| measure (per run) | before median s | each s | after median s | each s | after/before |"
echo "|---|---:|---|---:|---|---:|"
row "boot to shutdown, less workload_seconds" boot
row "boot to shutdown" total
row "workload_seconds" work
row "the lab server's build, boot and read-back (per boot)" wall
