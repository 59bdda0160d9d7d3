#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# End to end on this host: the study orderings that this kind of machine
# (TCG, a shared virtual disk) measures reliably, from the studies' small
# variants, with their 95% intervals, so a runner change that erases an
# effect fails:
# - qcow2-l2-cache: qemu-img bench on a filled qcow2 image is slower with
#   an L2 cache that covers a quarter of it (16K) than with one that covers
#   it all (1M) (the study, 32G: 20.9 s with an L2 cache covering 8G, 1.57 s
#   with one covering the whole image).
# Each cell runs 5 times; the ordering holds when the two 95% confidence
# intervals of the means do not overlap.  (guest-vs-host's dd ordering is
# not here: host and guest dd here overlap at a few runs, host 68-219 MB/s
# vs guest 42-85 MB/s in one sweep, under the other tests' disk load.)
set -u
B=${B:-build}
BUILDAPP=${BUILDAPP:-$B/buildapp}
[ "$(id -u)" -eq 0 ] || { echo "needs root (libvirt's embedded driver, loop devices)"; exit 77; }
command -v qemu-system-x86_64 >/dev/null || { echo "no qemu-system-x86_64"; exit 77; }
tmp=$(mktemp -d /var/tmp/buildapp-orderings.XXXXXX)
trap '[ -n "${KEEP_TMP:-}" ] || rm -rf "$tmp"' EXIT
fail=0
sweep() { # name, profile text
	mkdir "$tmp/$1"
	printf '%s\n' "$2" >"$tmp/$1.ini"
	"$BUILDAPP" run "$tmp/$1.ini" --target "$tmp/$1" --results "$tmp/$1.res" \
		--cache "$B/cache" >"$tmp/$1.out" 2>"$tmp/$1.err"
	rc=$?
	[ $rc -eq 0 ] || { cat "$tmp/$1.err"; echo "FAILED: $1: buildapp run exited $rc"; fail=1; }
}
sweep l2 "[appliance]
include = $TOP/profiles/qcow2-l2-cache-small.ini
[workload]
kinds = qemu-img-bench
[sweep]
runs = 5"

python3 - "$tmp" <<'PY' || fail=1
import json, os, sys
tmp = sys.argv[1]
failed = []
def metric(study, cell, name):
    path = os.path.join(tmp, study + ".res", "summary.json")
    for c in json.load(open(path))["cells"]:
        if c["cell"]["id"] == cell:
            for m in c["metrics"]:
                if m["name"] == name:
                    return m
    return None
def slower(study, name, a, b, what):
    """A's mean is above B's, their 95% intervals apart."""
    ma, mb = metric(study, a, name), metric(study, b, name)
    ok = bool(ma and mb and ma["n"] == 5 and mb["n"] == 5 and
              ma["mean"] - ma["ci95"] > mb["mean"] + mb["ci95"])
    shown = lambda m: "%.4g +/- %.2g" % (m["mean"], m["ci95"]) if m else "missing"
    print("%s: %s (%s: %s vs %s)" % ("ok" if ok else "FAILED", what, name, shown(ma), shown(mb)))
    if not ok:
        failed.append(what)
slower("l2", "bench_seconds",
       "qcow2/qcow2/off/l2=16K/none/native/-/qemu-img-bench",
       "qcow2/qcow2/off/l2=1M/none/native/-/qemu-img-bench",
       "qemu-img bench is slower with a 16K L2 cache than with 1M")
sys.exit(1 if failed else 0)
PY
exit $fail
