#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Time of `buildapp report` (every format) on three hosts' bundles
# holding 10,000 runs in all (a wide sweep: 4 backends x 5 cache modes x 3
# aio modes x 2 buses x 2 workloads = 240 cells per host, the runs spread
# over them, 3 metrics a run), against a baseline measured in the same
# run: reading the same journals with python3's json module.  Medians of
# REPS repetitions, alternating.
# Usage: scripts/bench-report.sh [REPS (default 5)]
# Env: BUILDAPP (default build/buildapp), WORK (default a temp dir).
set -eu
reps=${1:-5}
. "$(dirname "$0")/lib/bench.sh"
bench_setup
work=${WORK:-$(mktemp -d)}
trap 'rm -rf "$work"' EXIT

python3 - "$work" <<'PY'
import json, os, random, sys
work = sys.argv[1]
rnd = random.Random(1)
cells = [(b, c, a, bus, w)
         for b in ("raw", "qcow2", "lvm", "ext4-file")
         for c in ("none", "writethrough", "writeback", "directsync", "unsafe")
         for a in ("threads", "native", "io_uring")
         for bus in ("virtio", "ide")
         for w in ("fio", "dd")]
per_host = [3334, 3333, 3333]
for h, total in enumerate(per_host):
    d = os.path.join(work, "host%d" % (h + 1))
    os.makedirs(d)
    with open(os.path.join(d, "runs.jsonl"), "w") as f:
        for pos in range(total):
            b, c, a, bus, w = cells[pos % len(cells)]
            fmt = "qcow2" if b == "qcow2" else "raw"
            cid = "%s/%s/-/%s/%s/%s/%s" % (b, fmt, c, a, bus, w)
            base = 1000 * (1 + ("none", "writethrough", "writeback", "directsync", "unsafe").index(c))
            run = {"version": 1,
                   "cell": {"id": cid, "backend": b, "format": fmt, "preallocation": None,
                            "cache": c, "aio": a, "bus": bus, "workload": w},
                   "index": pos // len(cells), "position": pos,
                   "start_time": "2026-12-01T10:00:00Z", "status": "ok", "message": None,
                   "boot_seconds": 20 + rnd.random(), "accel": "kvm", "applied_cache": None,
                   "host_kernel": "6.1.0", "guest_kernel": "6.1.0",
                   "metrics": [{"name": "iops", "value": base * rnd.uniform(0.9, 1.1), "unit": "IOPS"},
                               {"name": "bw", "value": base * 4 * rnd.uniform(0.9, 1.1), "unit": "KiB/s"},
                               {"name": "clat_p99", "value": 100 * rnd.uniform(0.9, 1.1), "unit": "us"}]}
            f.write(json.dumps(run) + "\n")
PY

# Wall and CPU (user + system) seconds of a command: the machines these
# run on are shared, so the wall time says as much about the others' load.
timed() { # OUT command...
	out=$1
	shift
	/usr/bin/time -f '%e %U %S' -o "$work/t" "$@"
	awk '{printf "%s %.2f\n", $1, $2 + $3}' "$work/t" >>"$out"
}
median() { # column
	sort -n -k"$1" | awk -v c="$1" '{v[NR] = $c} END {print v[int((NR + 1) / 2)]}'
}
: >"$work/t.report"
: >"$work/t.base"
for i in $(seq "$reps"); do
	timed "$work/t.base" python3 -c 'import json, sys
n = 0
for p in sys.argv[1:]:
    for line in open(p):
        json.loads(line); n += 1
assert n == 10000, n' "$work"/host*/runs.jsonl
	rm -rf "$work/out"
	timed "$work/t.report" "$buildapp" report "$work/host1" "$work/host2" "$work/host3" \
		-o "$work/out" 2>/dev/null
done
bw=$(median 1 <"$work/t.base") bc=$(median 2 <"$work/t.base")
rw=$(median 1 <"$work/t.report") rc=$(median 2 <"$work/t.report")
printf '| measure | wall s | ratio | CPU s | ratio |\n|---|---:|---:|---:|---:|\n'
printf '| python3 json: read the 3 journals (10,000 runs) | %.2f | 1.00 | %.2f | 1.00 |\n' "$bw" "$bc"
printf '| buildapp report, 3 hosts, 10,000 runs, all formats | %.2f | %.2f | %.2f | %.2f |\n' \
	"$rw" "$(echo "$rw / $bw" | bc -l)" "$rc" "$(echo "$rc / $bc" | bc -l)"
ls -l "$work/out" >&2
