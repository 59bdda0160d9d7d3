#!/bin/sh
# Issue 22: what each cache mode loses when the host dies.  A kit of
# durability runs with `crash = host`, cache unsafe and writethrough on an
# LVM LV of the disk under test, booted on the virtual lab server with
# reboots allowed (boot-appliance.sh --reboots): at each run's seeded
# crash point the lab server goes down without a sync and comes back (by
# kexec into the kit's own kernel, crash_reboot's default), finishes the
# run by reading its records back from the LV and goes on.  The report
# read back from RESULTS must say that writethrough lost none of what was
# acknowledged and unsafe lost some: the lab server's page cache held
# what unsafe's guest was told was on disk.  host.json has the
# page-cache writeback settings the kit applied.
. "$TOP/tests/lib/common.sh"
command -v supermin >/dev/null || skip "supermin is not installed"
work=$(mktemp -d "$CACHE/hostcrash.XXXXXX")
trap 'rm -rf "$work"' EXIT
export BUILDAPP_INIT="$TOP/$B/buildapp-init" SOURCE_DATE_EPOCH=1700000000
cat >"$work/host-crash.ini" <<INI
[appliance]
include = $TOP/profiles/ci-smoke.ini
name = host-crash
console = ttyS0
[host]
disk = HCRASH-DUT
; The records are a few hundred KiB, far below the dirty ratios, so only
; their age and the flusher's periodic wake-ups make the lab server write
; them back: an expiry of an hour, longer than a run, and no periodic
; writeback, so that the host's writeback cannot hide what unsafe left in
; its page cache when it goes down.  (With the expiry alone, unsafe lost
; 50 and 5 of 192 in two runs here: the rest had been written back.)
dirty_expire_centisecs = 360000
dirty_writeback_centisecs = 0
[storage]
backends = lvm
size = 64M
[guest]
cache = unsafe, writethrough
; TCG in the TCG lab server: its KVM probe may pass where a nested KVM
; guest never finishes.
accel = tcg
timeout = 900
[workload]
kinds = durability
durability_records = 200
crash = host
[sweep]
runs = 1
[report]
compare = cache:unsafe vs writethrough
INI
"$BUILDAPP" "$work/host-crash.ini" -o "$work/out" --cache "$CACHE/hostroot"
img=$work/out/host-crash.img
qemu-img create -q -f raw "$work/dut.img" 2G

start=$(date +%s)
sh "$TOP/scripts/boot-appliance.sh" "$img" --serial HCRASH-DUT --disk "$work/dut.img" \
	--memory 2048 --reboots --log "$work/console" >"$work/report" 2>"$work/boot.err" ||
	{ cat "$work/boot.err"; tail -n 80 "$work/console"; fail "the kit did not power off with a report"; }
echo "booted, crashed twice and powered off in $(($(date +%s) - start))s"
grep -E 'crash = host|after the host crash|^sweep' "$work/console" | sed 's/^.*buildapp-init[^ ]* //'
grep -E '^[a-z_]+: ' "$work/report"
grep -q '^status: ok' "$work/report" || fail "the last boot's report is not ok"
[ "$(grep -Ec 'crash = host: (kexec into this kit.s kernel|resetting through the firmware) after [0-9]* acknowledgements' "$work/console")" -eq 2 ] ||
	fail "the lab server did not reboot itself once per run"
[ "$(grep -c 'finished after the host crash (back by [a-z]*: .*): lost [0-9]* of [0-9]* acknowledged' "$work/console")" -eq 2 ] ||
	fail "the runs were not finished after the reboots"

guestfish --ro -a "$img" -m /dev/sda2 cat /runs.jsonl >"$work/runs.jsonl" ||
	fail "no runs.jsonl on RESULTS"
cat "$work/runs.jsonl"
metric() { # MODE NAME: the metric's value in MODE's journal line
	grep "\"id\":\"lvm/raw/-/$1/threads/virtio/durability\"" "$work/runs.jsonl" |
		sed -n "s/.*\"name\":\"$2\",\"value\":\([0-9]*\).*/\1/p"
}
[ "$(grep -c '"status":"ok"' "$work/runs.jsonl")" -eq 2 ] || fail "not two ok runs"
[ "$(grep -c '"crash":"host"' "$work/runs.jsonl")" -eq 2 ] || fail "crash not journaled as host"
for mode in unsafe writethrough; do
	echo "$mode: lost $(metric $mode lost) of $(metric $mode acknowledged) acknowledged"
	[ "$(metric $mode acknowledged)" -ge 100 ] || fail "$mode: fewer acknowledged than the crash point"
done
[ "$(metric writethrough lost)" -eq 0 ] || fail "writethrough lost acknowledged records"
[ "$(metric unsafe lost)" -gt 0 ] || fail "unsafe lost nothing: the page cache was written back"

guestfish --ro -a "$img" -m /dev/sda2 cat /report.txt >"$work/report.txt" ||
	fail "no report.txt on RESULTS"
grep -E 'after a host crash' "$work/report.txt"
grep -Eq '^unsafe vs writethrough, after a host crash \(durability\): lost [1-9][0-9]* of [0-9]+ acknowledged \[[0-9.]+%, [0-9.]+%\] vs 0 of [0-9]+ acknowledged \[0(\.0)?%, [0-9.]+%\]' \
	"$work/report.txt" || fail "report.txt does not answer with both sides' loss"
guestfish --ro -a "$img" -m /dev/sda2 cat /host.json >"$work/host.json" ||
	fail "no host.json on RESULTS"
python3 - "$work/host.json" <<'PY' || fail "host.json lacks the page-cache writeback settings"
import json, sys
w = json.load(open(sys.argv[1])).get("page_cache_writeback") or {}
print("page_cache_writeback:", w)
sys.exit(w.get("dirty_expire_centisecs") != 360000 or w.get("dirty_writeback_centisecs") != 0)
PY
echo "after a host crash: writethrough lost none of what it acknowledged, unsafe lost some"
