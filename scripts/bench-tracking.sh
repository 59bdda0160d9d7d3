#!/bin/sh
# Does tracking what a run writes (a QEMU dirty bitmap on the guest's
# disk; for the host-native cell, the kernel's block_bio_queue event on
# the loop device: docs/runner.md) change what the run measures?  The
# same sweep of a filled raw volume, a fio randwrite job at cache=unsafe
# and directsync and on the host itself (host_baseline), twice: tracked
# (fast resets), and with BUILDAPP_TRACK_WRITES=no (no bitmap, no trace,
# full resets).  The two results
# directories go to `buildapp report` as two hosts, whose comparisons
# answer, per cell and metric, whether they differ (ratio of geometric means, 95%
# interval); the lines of the fio metrics are printed.  Runs alternate
# between the two sweeps so load changes hit both alike.
# Usage: scripts/bench-tracking.sh [RUNS (default 5)]
# Env: B (default build), WORK (default a temp dir), BUILDAPP_ACCEL (tcg).
set -eu
runs=${1:-5}
. "$(dirname "$0")/lib/bench.sh"
bench_setup
: "${LIBGUESTFS_BACKEND_SETTINGS:=force_tcg}" "${BUILDAPP_ACCEL:=tcg}"
export LIBGUESTFS_BACKEND_SETTINGS BUILDAPP_ACCEL
[ "$(id -u)" -eq 0 ] || { echo "bench-tracking.sh: needs root (embedded libvirt driver)" >&2; exit 1; }
work=${WORK:-$(mktemp -d /var/tmp/bench-tracking.XXXXXX)}
[ -n "${KEEP_WORK:-}" ] || trap 'rm -rf "$work"' EXIT
mkdir -p "$work/t-on" "$work/t-off"

# One run per sweep invocation: `buildapp run` resumes, so calling it
# again with runs = N adds the next run.
profile() {
	cat >"$work/p.ini" <<INI
[appliance]
name = bench-tracking
[storage]
backends = raw
size = 256M
fill = yes
[guest]
memory = 256M
cache = unsafe, directsync
[workload]
kinds = fio
host_baseline = yes
fio_rw = randwrite
fio_bs = 4K
fio_size = 16M
fio_direct = yes
[sweep]
runs = $1
order = blocked
INI
}
# Exit status 1 is a run that failed (a TCG guest's kernel can fail its
# timer check under load): journaled, and the report counts it.
sweep() {
	rc=0
	"$buildapp" run "$work/p.ini" --target "$work/t-$1" --results "$work/$1" \
		--cache "${KIT_CACHE:-$B/cache}" >/dev/null 2>"$work/$1.err" || rc=$?
	[ $rc -le 1 ] || { tail "$work/$1.err" >&2; exit 1; }
}
for n in $(seq 1 "$runs"); do
	profile "$n"
	sweep on
	BUILDAPP_TRACK_WRITES=no sweep off
done
grep -c '"reset":"fast"' "$work/on/runs.jsonl" | sed 's/^/tracked sweep, fast resets: /'
grep -c '"reset":"fast"' "$work/off/runs.jsonl" | sed 's/^/untracked sweep, fast resets: /'
"$buildapp" report "$work/on" "$work/off" -o "$work/report" --format txt >/dev/null
grep -i "fio_write_iops\|fio_write_bw\|fio_write_clat_mean\|boot_to_shutdown" "$work/report/report.txt" |
	grep -i " vs \|host" | head -20
