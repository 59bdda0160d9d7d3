#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# buildapp run when runs fail, on real TCG guests, with one-cell profiles
# (one raw 64M backend, a small fio job) and one guest kit cache:
#   a. guest timeout: each run's guest is made to hang (its QEMU stopped
#      with SIGSTOP once it is booting), so every run is journaled as
#      "timeout" however fast this machine is, the sweep ends, exit 1,
#      summary.json counts the failures, no QEMU left;
#   b. a guest that panics (128M is too little to unpack the kit): every
#      run journaled as "crashed", the sweep goes on to the next run;
#   c. resume: SIGTERM after the first journal line: killed by it, no
#      QEMU and no state directory left, the run under way not journaled, the
#      finished run kept; the same command again makes only the missing
#      runs and says how many it skipped;
#   d. target_ci / max_runs: one more run while the interval is too wide,
#      with the reason, and none past max_runs.
set -eu
. "$(dirname "$0")/../lib/run-env.sh"
command -v qemu-system-x86_64 >/dev/null || { echo "qemu-system-x86_64 is not installed"; exit 77; }
command -v fio >/dev/null || { echo "fio is not installed (the guest kit needs it)"; exit 77; }

T=$(mktemp -d /var/tmp/buildapp-sweepfail.XXXXXX)
[ -n "${KEEP_TMP:-}" ] || trap 'rm -rf "$T"' EXIT

fail() { echo "FAIL: $*"; exit 1; }

# profile NAME MEMORY TIMEOUT RUNS FIO_SIZE FIO_RUNTIME
profile() {
	cat >"$T/$1.ini" <<INI
[appliance]
name = sweep-failures-$1
[storage]
backends = raw
size = 64M
raw_preallocation = sparse
[guest]
memory = $2
bus = virtio
cache = unsafe
aio = threads
timeout = $3
[workload]
kinds = fio
fio_rw = randwrite
fio_bs = 4K
fio_size = $5
fio_runtime = $6
fio_direct = no
fio_fsync = 1
[sweep]
runs = $4
INI
}

# run_sweep NAME: buildapp run of profile NAME, output in $T/NAME.out,
# exit status in $rc.
run_sweep() {
	mkdir -p "$T/target-$1"
	rc=0
	"$BUILDAPP" run "$T/$1.ini" --target "$T/target-$1" --results "$T/res-$1" \
		--cache "$T/cache" >>"$T/$1.out" 2>&1 || rc=$?
}

# No QEMU process on our disks, and no libvirt domain status left in an
# embedded driver's state directory that names them.
no_leftovers() { # what
	if pgrep -f "qemu-system.*$T" >/dev/null; then
		ps -eo pid,args | grep "[q]emu-system.*$T" | cut -c1-200
		fail "$1: a QEMU process outlived buildapp run"
	fi
	for d in /tmp/buildapp-run-*/run; do
		[ -d "$d" ] || continue
		if grep -rlsq "$T" "$d"; then
			fail "$1: a libvirt domain is still recorded in $d"
		fi
	done
}

lines() { if [ -f "$1" ]; then grep -c . "$1" || true; else echo 0; fi; }
statuses() { sed -n 's/.*"status":"\([^"]*\)".*/\1/p' "$1"; }

# freeze_booted_guests TARGET CONSOLE_DIR: until killed, stops (SIGSTOP)
# each QEMU on TARGET once the console log it writes (an fd libvirt hands
# it, so found through /proc) has its first bytes: libvirt has started and
# resumed it, so what it is stopped in is its boot or its workload, never
# libvirt's start-up.  A stopped guest cannot finish, whatever this
# machine's speed: the timeout is made, not hoped for.
freeze_booted_guests() {
	while :; do
		for pid in $(pgrep -f "qemu-system.*$1" || true); do
			for fd in /proc/"$pid"/fd/*; do
				log=$(readlink "$fd" 2>/dev/null) || continue
				case $log in
				"$2"/run-*.log) if [ -s "$log" ]; then kill -STOP "$pid" 2>/dev/null || true; fi ;;
				esac
			done
		done
		sleep 0.1
	done
}

# --- a. timeout: each run's guest is stopped once it is booting, so it
# reaches its 10 s timeout on any machine (a guest left alone has booted,
# run this fio and shut down in 8.4 s on a quick one).
profile timeout 256M 10 2 32M 60
echo "a. guest timeout (builds the guest kit first)"
freeze_booted_guests "$T/target-timeout" "$T/res-timeout/console" &
freezer=$!
run_sweep timeout
kill "$freezer"
wait "$freezer" 2>/dev/null || true
cat "$T/timeout.out"
j=$T/res-timeout/runs.jsonl
[ "$rc" -eq 1 ] || fail "timeout: exit status $rc, expected 1"
[ "$(lines "$j")" -eq 2 ] || fail "timeout: $(lines "$j") journal lines, expected 2"
[ "$(statuses "$j" | sort -u)" = timeout ] ||
	fail "timeout: statuses $(statuses "$j" | tr '\n' ' '), expected timeout"
[ -s "$T/res-timeout/summary.json" ] || fail "timeout: no summary.json"
grep -q '"runs": 2' "$T/res-timeout/summary.json" &&
	grep -q '"failed": 2' "$T/res-timeout/summary.json" ||
	fail "timeout: summary.json does not count 2 failed runs of 2"
grep -q "sweep done: 2 runs made, 0 already there, 2 failed" "$T/timeout.out" ||
	fail "timeout: no 'sweep done' line with 2 failed runs"
no_leftovers timeout
# host.json (docs/report.md), written once the boot check knew TCG: the
# versions as qemu and virsh print them, no disk for a directory target,
# no kit for `buildapp run`, a seed and the plan's hash, no temporary
# file left.
qemu_v=$(qemu-system-x86_64 --version | sed -n '1s/.*version \([0-9.]*\).*/\1/p')
libvirt_v=$(virsh --version 2>/dev/null || true)
python3 - "$T/res-timeout/host.json" "$qemu_v" "$libvirt_v" <<'EOF' ||
import json, sys
h = json.load(open(sys.argv[1]))
want = {"version": 1, "accel": "tcg", "disk": None, "kit": None,
        "qemu_version": sys.argv[2], "libvirt_version": sys.argv[3] or h["libvirt_version"]}
bad = {k: h.get(k) for k, v in want.items() if h.get(k) != v}
if bad or h["plan"]["seed"] is None or len(h["plan"]["sha256"]) != 64 or h["cpus"] < 1:
    sys.exit(f"host.json: {bad or h}")
EOF
	fail "timeout: host.json is not what was expected"
! ls -A "$T/res-timeout" | grep -q '^\.host' || fail "timeout: a temporary host.json was left"

# --- b. crash: 128M cannot hold the unpacked kit (it needs 256M): the
# kernel panics while unpacking the initramfs, and reboots (panic=-1).
profile crash 128M 120 2 4M 0
echo "b. guest crash"
run_sweep crash
cat "$T/crash.out"
j=$T/res-crash/runs.jsonl
[ "$rc" -eq 1 ] || fail "crash: exit status $rc, expected 1"
[ "$(lines "$j")" -eq 2 ] || fail "crash: $(lines "$j") journal lines, expected 2 (the sweep must go on)"
statuses "$j" | grep -qx ok && fail "crash: a run of a guest that cannot boot is ok"
[ "$(statuses "$j" | sort -u)" = crashed ] ||
	fail "crash: statuses $(statuses "$j" | tr '\n' ' '), expected crashed"
grep -q "Kernel panic" "$T/res-crash/console/run-0000.log" ||
	fail "crash: no panic on the console"
grep -q '"failed": 2' "$T/res-crash/summary.json" || fail "crash: summary.json does not count 2 failed runs"
# The report the sweep leaves lists each failed run with its console log.
[ "$(grep -c ': crashed: .*; console: console/run-000[01].log$' "$T/res-crash/report.txt")" -eq 2 ] ||
	fail "crash: report.txt does not list the 2 crashed runs with their console logs"
no_leftovers crash

# --- c. resume after SIGTERM.
profile resume 256M 300 3 4M 0
echo "c. SIGTERM and resume"
j=$T/res-resume/runs.jsonl
mkdir -p "$T/target-resume"
states_before=$(ls -d /tmp/buildapp-run-* 2>/dev/null | sort)
"$BUILDAPP" run "$T/resume.ini" --target "$T/target-resume" --results "$T/res-resume" \
	--cache "$T/cache" >"$T/resume1.out" 2>&1 &
pid=$!
i=0
while [ "$(lines "$j")" -lt 1 ] && kill -0 "$pid" 2>/dev/null && [ $i -lt 1500 ]; do
	sleep 0.2
	i=$((i + 1))
done
[ "$(lines "$j")" -ge 1 ] || { cat "$T/resume1.out"; fail "resume: no journal line after 300 s"; }
# The second run's guest under way (its console written to), not its
# reset: a signal during the reset stops the sweep before any run is.
c=$T/res-resume/console/run-0001.log
while [ ! -s "$c" ] && kill -0 "$pid" 2>/dev/null && [ $i -lt 1500 ]; do
	sleep 0.2
	i=$((i + 1))
done
[ -s "$c" ] || { cat "$T/resume1.out"; fail "resume: the second run's guest did not start"; }
kill -TERM "$pid"
rc=0
wait "$pid" || rc=$?
cat "$T/resume1.out"
[ "$rc" -eq 143 ] || fail "resume: exit status $rc after SIGTERM, expected 143 (killed by it)"
no_leftovers "resume (SIGTERM)"
[ "$(ls -d /tmp/buildapp-run-* 2>/dev/null | sort)" = "$states_before" ] ||
	fail "resume: buildapp run left its state directory in /tmp after SIGTERM"
grep -q "interrupted by Terminated" "$T/resume1.out" ||
	fail "resume: the run under way is not reported as interrupted"
kept=$(lines "$j")
[ "$kept" -ge 1 ] && [ "$kept" -lt 3 ] || fail "resume: $kept journal lines after SIGTERM"
tail -c 1 "$j" | od -An -c | grep -q '\\n' || fail "resume: journal ends with a partial line"
statuses "$j" | grep -vqx ok && fail "resume: a run before SIGTERM is not ok"
cp "$j" "$T/journal-before"

run_sweep resume
cat "$T/resume.out"
[ "$rc" -eq 0 ] || fail "resume: second buildapp run exited $rc"
[ "$(lines "$j")" -eq 3 ] || fail "resume: $(lines "$j") journal lines, expected 3"
head -n "$kept" "$j" | cmp -s - "$T/journal-before" || fail "resume: the finished lines changed"
[ "$(sed -n 's/.*"index":\([0-9]*\).*/\1/p' "$j" | sort | tr '\n' ' ')" = "0 1 2 " ] ||
	fail "resume: run indexes $(sed -n 's/.*"index":\([0-9]*\).*/\1/p' "$j" | tr '\n' ' '), expected 0 1 2 once each"
made=$((3 - kept))
grep -q "sweep done: $made run$([ "$made" = 1 ] || echo s) made, $kept already there, 0 failed" "$T/resume.out" ||
	fail "resume: the output does not say $kept runs were skipped and $made made"
[ "$(grep -c '^buildapp: run [0-9]/3' "$T/resume.out")" -eq "$made" ] ||
	fail "resume: the second command did not start exactly $made runs"
no_leftovers resume

# --- d. target_ci: the same sweep asked for a 0.01% interval gets one
# more run, up to max_runs = 4, and says why; a second time, none.
echo "d. target_ci and max_runs"
printf 'target_ci = 0.01\nmax_runs = 4\n' >>"$T/resume.ini"
: >"$T/resume.out"
run_sweep resume
cat "$T/resume.out"
[ "$rc" -eq 0 ] || fail "target_ci: buildapp run exited $rc"
[ "$(lines "$j")" -eq 4 ] || fail "target_ci: $(lines "$j") journal lines, expected 4"
grep -q 'one more run (fio_write_iops 95% CI is +/- .* of the mean, target 0.01%)' "$T/resume.out" ||
	fail "target_ci: no reason given for the extra run"
grep -q "sweep done: 1 run made, 3 already there, 0 failed" "$T/resume.out" ||
	fail "target_ci: not exactly one extra run"
: >"$T/resume.out"
run_sweep resume
[ "$(lines "$j")" -eq 4 ] || fail "target_ci: max_runs = 4 exceeded"
grep -q "sweep done: 0 runs made, 3 already there" "$T/resume.out" ||
	fail "target_ci: a run was made past max_runs"
echo "all sweep failure checks passed"
