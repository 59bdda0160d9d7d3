#!/bin/sh
# End to end on this host: the orderings of two studies that this kind of
# machine (TCG, a virtual disk) can measure, from their small variants,
# with their 95% intervals, so a runner change that erases an effect fails:
# - qcow2-l2-cache: qemu-img bench on a filled qcow2 image is slower with
#   an L2 cache that covers a quarter of it (16K) than with one that covers
#   it all (1M) (the study: 20.9 s vs 1.57 s);
# - guest-vs-host: 4K dd writes on the raw file's filesystem are faster on
#   the host itself than in a guest (the study: 15 MB/s in the guest).
# Each cell runs 3 times; an ordering holds when the two 95% confidence
# intervals of the means do not overlap.
set -u
B=${B:-build}
BUILDAPP=${BUILDAPP:-$B/buildapp}
[ "$(id -u)" -eq 0 ] || { echo "needs root (libvirt's embedded driver, loop devices)"; exit 77; }
command -v qemu-system-x86_64 >/dev/null || { echo "no qemu-system-x86_64"; exit 77; }
tmp=$(mktemp -d /var/tmp/buildapp-orderings.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
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
runs = 3"
sweep host "[appliance]
include = $TOP/profiles/guest-vs-host-small.ini
[workload]
kinds = dd
[sweep]
runs = 3"

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
    ok = bool(ma and mb and ma["n"] == 3 and mb["n"] == 3 and
              ma["mean"] - ma["ci95"] > mb["mean"] + mb["ci95"])
    shown = lambda m: "%.4g +/- %.2g" % (m["mean"], m["ci95"]) if m else "missing"
    print("%s: %s (%s: %s vs %s)" % ("ok" if ok else "FAILED", what, name, shown(ma), shown(mb)))
    if not ok:
        failed.append(what)
slower("l2", "bench_seconds",
       "qcow2/qcow2/off/l2=16K/none/native/-/qemu-img-bench",
       "qcow2/qcow2/off/l2=1M/none/native/-/qemu-img-bench",
       "qemu-img bench is slower with a 16K L2 cache than with 1M")
slower("host", "dd_mbps",
       "raw/raw/sparse/-/-/host/dd",
       "raw/raw/sparse/writethrough/threads/virtio/dd",
       "4K dd writes are faster on the host than in the guest")
sys.exit(1 if failed else 0)
PY
exit $fail
