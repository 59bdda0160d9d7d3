#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The main job, end to end on this machine: build a profile's kit
# (default profiles/lvm-unsafe-demo.ini), boot it in qemu as a virtual lab
# server with a blank disk under test, let it run its sweep, copy back the
# results it left on its RESULTS partition and print their summary table.
# Exit status 0 only when every run of the plan was journaled and ok.
#
# Usage: demo.sh [PROFILE.ini] [OUTDIR]
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
profile=${1:-$top/profiles/lvm-unsafe-demo.ini}
out=${2:-$top/out}
buildapp=${BUILDAPP:-$top/build/buildapp}

# Where /dev/kvm exists but does not boot a guest (nested setups), both
# libguestfs and libvirt must be told to use TCG.
accel=${BUILDAPP_ACCEL:-$(sh "$top/scripts/boot-appliance.sh" --probe-accel)}
export BUILDAPP_ACCEL="$accel"
[ "$accel" = kvm ] || export LIBGUESTFS_BACKEND_SETTINGS=force_tcg
echo "demo: accelerator $accel" >&2

start=$(date +%s)
"$buildapp" "$profile" -o "$out"
name=$("$buildapp" plan --json "$profile" | sed -n 's/^ *"name": "\(.*\)",$/\1/p' | head -n 1)
results=$out/$name.results
# How long the server may take comes from the kit's plan (its manifest).
sh "$top/scripts/boot-appliance.sh" "$out/$name.img" --disk-size 4G
rm -rf "$results"
"$buildapp" results "$out/$name.img" -o "$results"
echo "demo: results in $results ($(($(date +%s) - start))s):" >&2

# Every run of the plan, by cell and index, must be in the journal and ok.
rc=0
python3 - "$out/$name.manifest.json" "$results/runs.jsonl" <<'PY' || rc=1
import json, sys
plan = json.load(open(sys.argv[1]))["plan"]
want = {(plan["cells"][r["cell"]]["id"], r["run"]) for r in plan["runs"]}
got = {}
try:
    lines = open(sys.argv[2]).readlines()
except OSError:
    lines = []
for line in lines:
    try:
        run = json.loads(line)
        got[(run["cell"]["id"], run["index"])] = run["status"]
    except (ValueError, KeyError, TypeError):
        pass  # a torn last line: that run is missing
missing = sorted(want - got.keys())
failed = sorted(k for k in want & got.keys() if got[k] != "ok")
print("demo: %d of %d planned runs journaled, %d not ok"
      % (len(want) - len(missing), len(want), len(failed)), file=sys.stderr)
for cell, run in missing:
    print("demo: not journaled: %s run %d" % (cell, run + 1), file=sys.stderr)
for cell, run in failed:
    print("demo: %s run %d: %s" % (cell, run + 1, got[(cell, run)]), file=sys.stderr)
sys.exit(1 if missing or failed else 0)
PY
cat "$results/summary.txt" 2>/dev/null || { echo "demo: no summary.txt" >&2; rc=1; }
# The report the appliance wrote beside the journal: its answers, and the
# page to open.
if [ -s "$results/report.html" ] && [ -s "$results/report.txt" ]; then
	sed -n '/^== Answers ==$/,/^$/p' "$results/report.txt"
	echo "demo: the report: $results/report.html" >&2
else
	echo "demo: the appliance left no report (report.html, report.txt)" >&2
	rc=1
fi
exit $rc
