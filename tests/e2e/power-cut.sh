#!/bin/sh
# Issue 10, item 1: a power cut, then the same kit booted again on the
# same disk under test.  The kit sweeps one cell of host-side qemu-img
# bench runs (no nested guest, so each run takes seconds under TCG): the
# virtual lab server's QEMU is killed (SIGKILL) once the console shows
# the second run started; the second boot recognises the layout it made
# (recorded on RESULTS), resumes without wipe, and the journal ends with
# every planned (cell, run) exactly once.
. "$TOP/tests/lib/common.sh"
command -v supermin >/dev/null || skip "supermin is not installed"
work=$(mktemp -d "$CACHE/powercut.XXXXXX")
boot_pid=
trap '[ -z "$boot_pid" ] || kill "$boot_pid" 2>/dev/null; rm -rf "$work"' EXIT
export BUILDAPP_INIT="$TOP/$B/buildapp-init" SOURCE_DATE_EPOCH=1700000000
cat >"$work/power-cut.ini" <<INI
[appliance]
name = power-cut
console = ttyS0
[host]
disk = PCUT-DUT
[storage]
backends = raw
size = 256M
[guest]
accel = tcg
[workload]
kinds = qemu-img-bench
bench_count = 200000
bench_step = 64K
[sweep]
runs = 4
INI
"$BUILDAPP" "$work/power-cut.ini" -o "$work/out" --cache "$CACHE/hostroot"
img=$work/out/power-cut.img
qemu-img create -q -f raw "$work/dut.img" 2G

echo "first boot: killed during run 2"
: >"$work/console1"
sh "$TOP/scripts/boot-appliance.sh" "$img" --serial PCUT-DUT --disk "$work/dut.img" \
	--memory 2048 --timeout 900 --log "$work/console1" >"$work/boot1" 2>&1 &
boot_pid=$!
wait_for_log "$work/console1" 'run 2/4' 900
# The virtual server's QEMU: the one process whose command line names
# this test's image.
qemu=$(pgrep -f "qemu-system.*$work/out/power-cut.img" | head -n 1 || true)
[ -n "$qemu" ] || { cat "$work/console1"; fail "no QEMU running the kit"; }
kill -KILL "$qemu"
wait "$boot_pid" || true
boot_pid=
grep -E 'buildapp-init' "$work/console1" | tail -n 5

echo "second boot: resumes"
sh "$TOP/scripts/boot-appliance.sh" "$img" --serial PCUT-DUT --disk "$work/dut.img" \
	--memory 2048 --timeout 900 --log "$work/console2" >"$work/report" 2>"$work/boot2" ||
	{ cat "$work/console2"; fail "the second boot did not power off with a report"; }
grep -E '^[a-z_]+: ' "$work/report"
grep -q "carries the layout this sweep made on it" "$work/console2" ||
	fail "the second boot does not recognise its own layout"
grep -q '^status: ok' "$work/report" || fail "the second boot's report is not ok"
grep -qE '^sweep: [0-9]+ runs made, 0 failed, [1-9][0-9]* already there' "$work/report" ||
	fail "the second boot did not resume (nothing already there)"
guestfish --ro -a "$img" -m /dev/sda2 cat /runs.jsonl >"$work/runs.jsonl" ||
	fail "no runs.jsonl on RESULTS"
idx=$(sed -n 's/.*"index":\([0-9]*\).*/\1/p' "$work/runs.jsonl" | sort | tr '\n' ' ')
[ "$idx" = "0 1 2 3 " ] || fail "journal run indexes '$idx', expected 0 1 2 3 once each"
echo "the power cut cost nothing but the run under way"
