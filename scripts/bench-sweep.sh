#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Sweep efficiency: the runs' measuring time (guests boot to shutdown,
# host workloads) over the sweep's wall time, for `buildapp run` of a
# profile on an image-file target (loop device, native provisioning), the
# whole command timed from its start (guest kit lookup included), and
# where the rest went: the sweep's timings.json (docs/results.md), whose
# phases are measured by the runner itself.  The guests' own time is the
# baseline, measured in the same run.
# Usage: scripts/bench-sweep.sh [PROFILE (default profiles/ci-smoke.ini)] [RUNS per cell]
#        scripts/bench-sweep.sh --full-size [--verify]
# --full-size: the qcow2-l2-cache study's qemu-img bench cells at its size
# (profiles/qcow2-l2-cache.ini: 32G qcow2 and raw, fill = yes; three L2
# cache sizes and raw, 200000 requests 512M apart, two runs a cell) in a
# directory target, swept three times in the same run: before, every
# reset full (BUILDAPP_TRACK_WRITES=no: a fill, then a full reset before
# every run, as before runs that only read were given none and a filled
# volume's first run none); then as the runner resets now, in a new
# directory; then again in that directory with new results, its volumes
# kept (docs/storage.md, "Volumes kept").  Each with its resets by kind.
# With --verify, a fourth sweep in that directory with [sweep]
# verify_reset = yes: every reset checked against a full reset made over
# it (sha256 of the whole volume before and after; docs/results.md,
# reset_check), the number identical printed (about 25 minutes more: each
# check reads the 32G volume twice and writes it once).
# Needs about 70G free in WORK.
# Env: BUILDAPP (default build/buildapp), KIT_CACHE (guest kit cache,
# default build/cache: warm after `make check`), WORK (default a temp dir),
# BUILDAPP_ACCEL (tcg|kvm, default tcg).
# Ends with the line "sweep efficiency: 0.NN (R runs, W s wall, M s measuring)",
# with --full-size "full-size sweep efficiency: before B, after A, again G",
# and with --verify "reset checks: N identical, M differ".
set -eu
case ${1:-} in
--full-size) profile='' verify=${2:-} ;;
*) profile=$(realpath "${1:-profiles/ci-smoke.ini}") ;;
esac
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

# sweep LABEL PROFILE TARGET [ENV=VALUE...]: buildapp run of PROFILE on
# TARGET (an image file, or a directory that exists) into new results, its
# timings and resets printed; its efficiency in $efficiency.
sweep() {
	label=$1 p=$2 target=$3
	shift 3
	rm -rf "$work/res"
	start=$(date +%s.%N)
	rc=0
	env "$@" "$buildapp" run "$p" --target "$target" --results "$work/res" \
		--cache "$kitcache" >"$work/out-$label" 2>&1 || rc=$?
	end=$(date +%s.%N)
	# Exit 1 with timings.json: a run failed (a timeout on a loaded host), and
	# its time is still the sweep's.
	if [ "$rc" -ne 0 ]; then
		[ "$rc" -eq 1 ] && [ -s "$work/res/timings.json" ] || {
			tail -30 "$work/out-$label"; echo "bench-sweep.sh: buildapp run exited $rc" >&2; exit 1; }
		echo "note: $(grep -vc '"status":"ok"' "$work/res/runs.jsonl") run(s) failed (see $work/res/runs.jsonl)"
	fi
	[ -z "$label" ] || echo "== $label"
	python3 - "$work/res/timings.json" "$start" "$end" "$work/res/runs.jsonl" <<'PY' >"$work/timings-$label"
import collections, json, sys
t = json.load(open(sys.argv[1]))
s = t["sessions"][-1]
wall = s["wall_seconds"]
print("process wall time: %.1f s (the sweep counts %.1f s of it)" % (float(sys.argv[3]) - float(sys.argv[2]), wall))
print("%-14s %9s %7s" % ("phase", "s", "share"))
for k, v in s["phases"].items():
    print("%-14s %9.1f %6.1f%%" % (k, v, 100 * v / wall))
resets = collections.defaultdict(lambda: [0, 0.0])
for line in open(sys.argv[4]):
    r = json.loads(line)
    secs = [m["value"] for m in r["metrics"] if m["name"] == "reset_seconds"]
    resets[r.get("reset")][0] += 1
    resets[r.get("reset")][1] += sum(secs)
print("resets: " + ", ".join("%d %s (%.1f s)" % (n, k, secs) for k, (n, secs) in sorted(resets.items(), key=str)))
print("sweep efficiency: %.2f (%d runs, %.1f s wall, %.1f s measuring)"
      % (t["efficiency"], s["runs"], wall, s["measured_seconds"]))
PY
	cat "$work/timings-$label"
	efficiency=$(sed -n 's/^sweep efficiency: \([0-9.]*\) .*/\1/p' "$work/timings-$label")
}

prof=$work/bench.ini
if [ -z "$profile" ]; then
	cat >"$prof" <<INI
[appliance]
include = $(realpath profiles/qcow2-l2-cache.ini)
name = bench-sweep-full-size
[guest]
l2_cache = 1M, 8M, default
[workload]
kinds = qemu-img-bench
bench_count = 200000
[sweep]
runs = 2
INI
	# The guest kit (its 32G pristine disk) built first, outside the
	# sweeps: each then finds it in the cache.
	"$buildapp" kit "$prof" -o "$work/kit" --cache "$kitcache" >/dev/null
	rm -rf "$work/kit"
	mkdir "$work/before"
	sweep before "$prof" "$work/before" BUILDAPP_TRACK_WRITES=no
	before=$efficiency
	rm -rf "$work/before"
	mkdir "$work/after"
	sweep after "$prof" "$work/after"
	after=$efficiency
	sweep again "$prof" "$work/after"
	echo "full-size sweep efficiency: before $before, after $after, again $efficiency"
	[ "$verify" = --verify ] || exit 0
	# The profile ends in [sweep].
	{ cat "$prof"; echo "verify_reset = yes"; } >"$work/checked.ini"
	sweep checked "$work/checked.ini" "$work/after"
	python3 - "$work/res/runs.jsonl" <<'PY'
import json, sys
same = differ = 0
for line in open(sys.argv[1]):
    r = json.loads(line)
    for key in ("reset_check", "reset_check_after"):
        c = r.get(key)
        if c:
            ok = c["identical"] and c["fast"] == c["full"]
            same += ok
            differ += not ok
            when = "its reset (%s)" % r["reset"] if key == "reset_check" else "the reset after it"
            print("%s run %d, %s: sha256 %.16s..., then %.16s... after a full reset: %s"
                  % (r["cell"]["id"], r["index"] + 1, when, c["fast"], c["full"],
                     "identical" if ok else "DIFFERENT"))
print("reset checks: %d identical, %d differ" % (same, differ))
sys.exit(1 if differ or not same else 0)
PY
	exit 0
fi
{
	echo "[appliance]"
	echo "include = $profile"
	[ -z "$runs" ] || printf '[sweep]\nruns = %s\n' "$runs"
} >"$prof"
sweep "" "$prof" "$work/disk.img"
