#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Issue 10, item 1: a power cut, then the same kit booted again on the
# same disk under test.  The kit sweeps one cell of host-side qemu-img
# bench runs (no nested guest, so each run takes seconds under TCG): the
# virtual lab server's QEMU is killed (SIGKILL) once the console shows
# the second run started; the second boot recognises the layout it made
# (recorded on RESULTS), resumes without wipe, and the journal ends with
# every planned (cell, run) exactly once.
#
# Issue 24, item 7: then a fresh copy of the same kit booted with its disk
# under test served by qemu-storage-daemon over NBD, and the daemon killed
# once the console shows the third run started: from then on every command
# to the disk fails (EIO), as a dying disk's do.  The runs it stopped are
# journaled failed with the error, the two before it stay ok in the
# journal, the server still writes its report and powers off, and
# appliance.txt counts the disk's I/O errors.
#
# Issue 24, item 7, its second half: the kit's ISO booted from a CD, its
# results on a USB stick labelled RESULTS that qemu-storage-daemon serves,
# the daemon killed once the console shows the third run started: every
# write to RESULTS fails from then on.  The journal on the stick keeps the
# runs before, each line whole, and the console says the sweep stopped
# because RESULTS could not be written.
# These last two boots run at once, on two virtual servers, each fault
# made when its own server starts run 3.
. "$TOP/tests/lib/common.sh"
command -v supermin >/dev/null || skip "supermin is not installed"
command -v qemu-storage-daemon >/dev/null || skip "qemu-storage-daemon is not installed"
work=$(mktemp -d "$CACHE/powercut.XXXXXX")
boot_pid= pids=
trap 'for p in $boot_pid $pids; do kill "$p" 2>/dev/null || true; done; rm -rf "$work"' EXIT
# Serves FILE over NBD at SOCKET as export NAME (writable), in the
# background: its pid in qsd_pid (and in pids, for the cleanup).
serve_nbd() { # file socket name
	qemu-storage-daemon --blockdev "driver=file,node-name=$3,filename=$1" \
		--nbd-server "addr.type=unix,addr.path=$2" \
		--export "type=nbd,id=$3,node-name=$3,name=$3,writable=on" >"$work/qsd-$3.log" 2>&1 &
	qsd_pid=$!
	pids="$pids $qsd_pid"
	i=0
	while [ ! -S "$2" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	[ -S "$2" ] || { cat "$work/qsd-$3.log"; fail "qemu-storage-daemon did not start"; }
}
# Once CONSOLE shows the third run started, kills the NBD server QSD:
# from then on every command to what it serves fails (EIO), as a dying
# disk's do.  WHAT names the boot in a failure.
kill_nbd_at_run3() { # console qsd what
	wait_for_log "$1" 'run 3/4' 900
	grep -q 'run 3/4' "$1" || { tail -n 60 "$1"; fail "the $3 boot never reached run 3"; }
	kill -KILL "$2"
}
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
# The kit as built, with an empty RESULTS, for the fault boot.
cp --sparse=always "$img" "$work/fault.img"

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

# The third and fourth boots run at once, each on its own virtual server.
echo "third boot, a fresh copy of the kit: the disk under test fails during run 3"
qemu-img create -q -f raw "$work/dut-fault.img" 2G
serve_nbd "$work/dut-fault.img" "$work/dut.sock" dut
qsd_dut=$qsd_pid
: >"$work/console3"
sh "$TOP/scripts/boot-appliance.sh" "$work/fault.img" --serial PCUT-DUT \
	--disk "nbd+unix:///dut?socket=$work/dut.sock" --memory 2048 --timeout 1800 \
	--log "$work/console3" >"$work/report3" 2>"$work/boot3" &
boot3=$!
pids="$pids $boot3"

echo "fourth boot, at the same time, the kit's ISO from a CD: the RESULTS stick fails during run 3"
[ -s "$work/out/power-cut.iso" ] || fail "the kit has no ISO"
qemu-img create -q -f raw "$work/stick.img" 256M
echo 'label: gpt
start=2048, type=0FC63DAF-8483-4772-8E79-3D69D8477DE4' | sfdisk -q "$work/stick.img" >/dev/null
mke2fs -q -F -t ext4 -L RESULTS -E offset=1048576 "$work/stick.img" 200M
qemu-img create -q -f raw "$work/dut-stick.img" 2G
serve_nbd "$work/stick.img" "$work/stick.sock" stick
qsd_stick=$qsd_pid
: >"$work/console4"
sh "$TOP/scripts/boot-appliance.sh" "$work/out/power-cut.iso" --cdrom \
	--stick "nbd+unix:///stick?socket=$work/stick.sock" --serial PCUT-DUT \
	--disk "$work/dut-stick.img" --memory 2048 --timeout 1800 \
	--log "$work/console4" >"$work/report4" 2>"$work/boot4" &
boot4=$!
pids="$pids $boot4"

# Each fault when its own server starts run 3, whichever comes first.
(kill_nbd_at_run3 "$work/console3" "$qsd_dut" fault) &
kill3=$!
(kill_nbd_at_run3 "$work/console4" "$qsd_stick" stick) &
kill4=$!
pids="$pids $kill3 $kill4"
wait "$kill3" || fail "the disk under test's fault was not made"
wait "$kill4" || fail "the RESULTS stick's fault was not made"
rc3=0
wait "$boot3" || rc3=$?
# The fourth server powers off; its report cannot be read back from a
# stick whose server is gone, so boot-appliance.sh's own status says
# nothing.
wait "$boot4" || true

[ "$rc3" -eq 0 ] || { cat "$work/boot3"; tail -n 60 "$work/console3"; fail "the server whose disk failed did not power off with a report"; }
grep -E '^[a-z_]+: ' "$work/report3"
grep -E 'I/O error|failed commands|run [0-9]/4' "$work/console3" | grep -v '^\[' | head -n 20
grep -qE '^disk_io_errors: [1-9][0-9]* during the sweep$' "$work/report3" ||
	fail "appliance.txt does not count the disk's I/O errors"
grep -q 'the disk under test (/dev/sd[a-z]) failed [0-9]* commands during the sweep' "$work/console3" ||
	fail "the console does not say the disk failed"
guestfish --ro -a "$work/fault.img" -m /dev/sda2 cat /runs.jsonl >"$work/fault-runs.jsonl" ||
	fail "no runs.jsonl on the fault boot's RESULTS"
cat "$work/fault-runs.jsonl"
ok=$(grep '"status":"ok"' "$work/fault-runs.jsonl" | sed -n 's/.*"index":\([0-9]*\).*/\1/p' | tr '\n' ' ')
[ "$ok" = "0 1 " ] || fail "the runs before the fault are not both ok in the journal (ok: '$ok')"
failed=$(grep -c '"status":"failed"' "$work/fault-runs.jsonl" || true)
[ "$failed" -ge 1 ] || fail "no run journaled failed after the disk failed"
# The first run the fault stopped says the disk's error; the ones after
# it may meet what it left (ext4 read-only after its journal aborted).
grep '"status":"failed"' "$work/fault-runs.jsonl" | head -n 1 | grep -q 'Input/output error' ||
	fail "the run the fault stopped does not carry the disk's I/O error"
echo "a disk that fails mid-sweep: the runs before it kept, the ones it stopped journaled failed with the error"

grep -q 'powered off after' "$work/boot4" ||
	{ cat "$work/boot4"; tail -n 60 "$work/console4"; fail "the server whose RESULTS failed did not power off"; }
grep -E 'buildapp-init' "$work/console4" | tail -n 12
grep -qE 'buildapp-init: error: the sweep stopped: RESULTS \(/dev/[a-z0-9]+\) cannot be written \((Input/output error|Read-only file system)\)' "$work/console4" ||
	fail "the console does not say the sweep stopped because RESULTS failed"
! grep -q 'the disk under test (/dev/sd[a-z]) failed [0-9]* commands' "$work/console4" ||
	fail "the console blames the disk under test for RESULTS' failure"
guestfish --ro --format=raw -a "$work/stick.img" -m /dev/sda1 download /runs.jsonl "$work/stick-runs.jsonl" ||
	fail "no runs.jsonl on the stick"
cat "$work/stick-runs.jsonl"
python3 - "$work/stick-runs.jsonl" <<'PY' || fail "the stick's journal is not whole lines of the runs before the fault"
import json, sys
data = open(sys.argv[1], "rb").read()
assert data.endswith(b"\n"), "the last line is cut short"
runs = [json.loads(l) for l in data.decode().splitlines()]
ok = sorted(r["index"] for r in runs if r["status"] == "ok")
assert ok[:2] == [0, 1], ok
PY
echo "a RESULTS that fails mid-sweep: the journal's lines before it whole, the console says why the sweep stopped"
