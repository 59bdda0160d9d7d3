#!/bin/sh
# Sweep efficiency: the runs' measuring time (guests boot to shutdown,
# host workloads) over the sweep's wall time, for `buildapp run` of a
# profile on an image-file target (loop device, native provisioning), the
# whole command timed from its start (guest kit lookup included), and
# where the rest went: the sweep's timings.json (docs/results.md), whose
# phases are measured by the runner itself.  The guests' own time is the
# baseline, measured in the same run.
# Usage: scripts/bench-sweep.sh [PROFILE (default profiles/ci-smoke.ini)] [RUNS per cell]
# Env: BUILDAPP (default build/buildapp), KIT_CACHE (guest kit cache,
# default build/cache: warm after `make check`), WORK (default a temp dir),
# BUILDAPP_ACCEL (tcg|kvm, default tcg).
# Ends with the line "sweep efficiency: 0.NN (R runs, W s wall, M s measuring)".
set -eu
profile=$(realpath "${1:-profiles/ci-smoke.ini}")
runs=${2:-}
. "$(dirname "$0")/lib/bench.sh"
bench_setup
: "${LIBGUESTFS_BACKEND:=direct}"
: "${LIBGUESTFS_BACKEND_SETTINGS:=force_tcg}"
: "${BUILDAPP_ACCEL:=tcg}"
export LIBGUESTFS_BACKEND LIBGUESTFS_BACKEND_SETTINGS BUILDAPP_ACCEL
[ "$(id -u)" -eq 0 ] || { echo "bench-sweep.sh: needs root (loop device, embedded libvirt driver)" >&2; exit 1; }
work=${WORK:-$(mktemp -d /var/tmp/bench-sweep.XXXXXX)}
kitcache=${KIT_CACHE:-build/cache}
[ -n "${KEEP_WORK:-}" ] || trap 'rm -rf "$work"' EXIT
mkdir -p "$kitcache" "$work"

prof=$work/bench.ini
{
	echo "[appliance]"
	echo "include = $profile"
	[ -z "$runs" ] || printf '[sweep]\nruns = %s\n' "$runs"
} >"$prof"

start=$(date +%s.%N)
rc=0
"$buildapp" run "$prof" --target "$work/disk.img" --results "$work/res" \
	--cache "$kitcache" >"$work/out" 2>&1 || rc=$?
end=$(date +%s.%N)
# Exit 1 with timings.json: a run failed (a timeout on a loaded host), and
# its time is still the sweep's.
if [ "$rc" -ne 0 ]; then
	[ "$rc" -eq 1 ] && [ -s "$work/res/timings.json" ] || {
		tail -30 "$work/out"; echo "bench-sweep.sh: buildapp run exited $rc" >&2; exit 1; }
	echo "note: $(grep -vc '"status":"ok"' "$work/res/runs.jsonl") run(s) failed (see $work/res/runs.jsonl)"
fi
python3 - "$work/res/timings.json" "$start" "$end" <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))
s = t["sessions"][-1]
wall = s["wall_seconds"]
print("process wall time: %.1f s (the sweep counts %.1f s of it)" % (float(sys.argv[3]) - float(sys.argv[2]), wall))
print("%-14s %9s %7s" % ("phase", "s", "share"))
for k, v in s["phases"].items():
    print("%-14s %9.1f %6.1f%%" % (k, v, 100 * v / wall))
print("sweep efficiency: %.2f (%d runs, %.1f s wall, %.1f s measuring)"
      % (t["efficiency"], s["runs"], wall, s["measured_seconds"]))
PY
