#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The sweep's remaining time and efficiency, read from a real `buildapp
# run` on TCG guests (one raw 64M backend, a tiny fio job; two guest runs
# in all, the guest kit from the shared build cache):
#   a. one run: its progress line has no estimate yet ("unknown: 1 run not
#      yet timed (fio)"), the journal line has its phases, the sweep ends
#      with "sweep efficiency" and its breakdown, timings.json has one
#      session, the report's header and report.json carry the figure;
#   b. resumed with runs = 2: the new run's line estimates from the
#      journal's time of the first (its "total", to the second), and
#      timings.json has two sessions.
set -eu
. "$(dirname "$0")/../lib/run-env.sh"
. "${TOP:-.}/tests/lib/check.sh"
command -v qemu-system-x86_64 >/dev/null || { echo "qemu-system-x86_64 is not installed"; exit 77; }
command -v fio >/dev/null || { echo "fio is not installed (the guest kit needs it)"; exit 77; }

T=$(mktemp -d /var/tmp/buildapp-eta.XXXXXX)
[ -n "${KEEP_TMP:-}" ] || trap 'rm -rf "$T"' EXIT

profile() { # RUNS
	cat >"$T/p.ini" <<INI
[appliance]
name = sweep-eta
[storage]
backends = raw
size = 64M
[guest]
memory = 256M
cache = unsafe
timeout = 300
[workload]
kinds = fio
fio_size = 1M
fio_direct = no
[sweep]
runs = $1
INI
}

run_sweep() { # OUT
	rc=0
	"$BUILDAPP" run "$T/p.ini" --target "$T/target" --results "$T/res" \
		--cache "$B/cache" >"$T/$1" 2>&1 || rc=$?
	cat "$T/$1"
}

mkdir -p "$T/target"
profile 1
run_sweep a.out
check "a: the sweep exits 0" test "$rc" -eq 0
check "a: before any run the estimate says it has nothing to go by" \
	grep -q "run 1/1: .*ETA unknown: 1 run not yet timed (fio))" "$T/a.out"
check "a: the journal line has the run's phases" \
	grep -q '"phases":{"reset":[0-9.e-]*,"page_cache":[0-9.e-]*,"workload":[0-9.e-]*,"guest_start":[0-9.e-]*,"guest_stop":[0-9.e-]*,"total":[0-9.e-]*}' "$T/res/runs.jsonl"
check "a: the sweep prints its efficiency" grep -q "sweep efficiency: 0\.[0-9][0-9] (" "$T/a.out"
check "a: and where the rest went" grep -q "sweep time: .*guest_start [0-9.]* s, guest_stop [0-9.]* s, guest [0-9.]* s.*other" "$T/a.out"
eff=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["efficiency"])' "$T/res/timings.json")
check "a: timings.json's efficiency is in (0, 1)" \
	python3 -c "import sys; sys.exit(not 0 < $eff < 1)"
check "a: report.txt's header has the figure" \
	sh -c "sed -n 3p '$T/res/report.txt' | grep -q '^Sweep efficiency of .*: 0\.[0-9][0-9] ('"
check "a: report.json's host has it, as in timings.json" \
	python3 -c "import json,sys; h=json.load(open('$T/res/report.json'))['hosts'][0]; sys.exit(not (h['efficiency']['ratio'] == $eff and h['efficiency']['sessions'] == 1))"
check "a: report.html shows it" grep -q "sweep efficiency</dt><dd>0\.[0-9][0-9] (" "$T/res/report.html"

# b. The estimate of a resumed sweep comes from the journal.
total=$(python3 -c 'import json,sys; print(round(json.loads(open(sys.argv[1]).readline())["phases"]["total"]))' "$T/res/runs.jsonl")
want=$(printf '%d:%02d:%02d' $((total / 3600)) $((total / 60 % 60)) $((total % 60)))
profile 2
run_sweep b.out
check "b: the resumed sweep exits 0" test "$rc" -eq 0
check "b: the new run's estimate is the journaled run's time ($want)" \
	grep -q "run 2/2: .*ETA $want)" "$T/b.out"
check "b: after the last run nothing is left" grep -q "ETA 0:00:00)" "$T/b.out"
check "b: timings.json has both sessions" \
	python3 -c "import json,sys; sys.exit(len(json.load(open('$T/res/timings.json'))['sessions']) != 2)"
exit $fail
