#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The durability workload with `crash = guest` under `buildapp run`, all
# five cache modes on a raw file: each run writes self-checking records,
# the host makes each acknowledgement durable as the console shows it,
# kills the guest's QEMU (SIGKILL) at the seeded crash point, reads the
# acknowledged records back from the volume through qemu-nbd and journals
# what it found; the report gives each cell's loss by crash (its crashes
# that lost any acknowledged record, k of n with the exact interval, and
# each crash's lost of acknowledged), and the question the profile asks
# (unsafe vs writethrough) both sides' loss in crashes.  Every mode is recorded with its counts (what each lost
# is measured, not asserted: docs/results.md).  A record size that is not
# a multiple of 512 is refused naming file, section and key, and so is
# `crash = host` (it reboots the machine it runs on: a booted kit's).
set -u
B=${B:-build}
BUILDAPP=${BUILDAPP:-$B/buildapp}
[ "$(id -u)" -eq 0 ] || { echo "needs root (libvirt's embedded driver)"; exit 77; }
tmp=$(mktemp -d /var/tmp/buildapp-durability.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
. "${TOP:-.}/tests/lib/check.sh"
mkdir "$tmp/target"
cat >"$tmp/d.ini" <<EOF2
[appliance]
include = $TOP/profiles/ci-smoke.ini
[storage]
backends = raw
size = 32M
[guest]
cache = none, writethrough, writeback, directsync, unsafe
[workload]
kinds = durability
durability_records = 200
[sweep]
runs = 1
[report]
compare = cache:unsafe vs writethrough
EOF2

sed 's/^durability_records = 200/&\ndurability_record_size = 1000/' "$tmp/d.ini" >"$tmp/bad.ini"
"$BUILDAPP" plan "$tmp/bad.ini" >/dev/null 2>"$tmp/bad.err"
rc=$?
cat "$tmp/bad.err"
check "a record size not a multiple of 512: exit 2" test $rc -eq 2
check "... naming file, section and key" grep -q "bad.ini.*\[workload\] durability_record_size" "$tmp/bad.err"

sed 's/^durability_records = 200/&\ncrash = host/' "$tmp/d.ini" >"$tmp/host.ini"
"$BUILDAPP" run "$tmp/host.ini" --target "$tmp/target" --results "$tmp/host-res" \
	--cache "$B/cache" >/dev/null 2>"$tmp/host.err"
rc=$?
cat "$tmp/host.err"
check "crash = host under buildapp run: exit 2" test $rc -eq 2
check "... in one line naming the file, section and key" sh -c \
	"test \$(wc -l <'$tmp/host.err') -eq 1 && grep -q 'host.ini: \\[workload\\] crash = host' '$tmp/host.err'"
check "... with nothing written" test ! -e "$tmp/host-res"

"$BUILDAPP" run "$tmp/d.ini" --target "$tmp/target" --results "$tmp/res" \
	--cache "$B/cache" >"$tmp/out" 2>"$tmp/err"
rc=$?
cat "$tmp/err"
j="$tmp/res/runs.jsonl"
check "run exits 0" test $rc -eq 0
check "no libvirt log line on the console of a run going well" \
	sh -c "! grep -E '[0-9]+: (info|warning|error) : ' '$tmp/err'"
check "five runs journaled, all ok" sh -c "test \$(grep -c '\"status\":\"ok\"' '$j') -eq 5"
for mode in none writethrough writeback directsync unsafe; do
	line=$(grep "\"id\":\"raw/raw/sparse/$mode/threads/virtio/durability\"" "$j")
	acked=$(echo "$line" | sed -n 's/.*"name":"acknowledged","value":\([0-9]*\).*/\1/p')
	lost=$(echo "$line" | sed -n 's/.*"name":"lost","value":\([0-9]*\).*/\1/p')
	pos=$(echo "$line" | sed -n 's/.*"position":\([0-9]*\).*/\1/p')
	echo "$mode: acknowledged ${acked:-?}, lost ${lost:-?}"
	check "$mode: the crash is journaled as guest" sh -c "echo '$line' | grep -q '\"crash\":\"guest\"'"
	check "$mode: at least the crash point's 100 of 200 acknowledged" test "${acked:-0}" -ge 100
	check "$mode: lost counted" test -n "$lost"
	acks=$(printf '%s/res/console/run-%04u.acks' "$tmp" "${pos:-0}")
	check "$mode: the acknowledgements file holds every one acknowledged" \
		test "$(wc -l <"$acks")" -eq "${acked:-0}"
	check "$mode: report.txt gives its loss by crash, k of n with its exact interval" \
		grep -Eq "^ +$mode .* lost acknowledged writes in [01] of 1 crash \[[0-9.]+%, [0-9.]+%\]" \
		"$tmp/res/report.txt"
	check "$mode: ... and the crash's lost of acknowledged" sh -c \
		"grep -A1 '^  crashes of $mode on ' '$tmp/res/report.txt' | grep -q '^    run 0: lost ${lost:-x} of ${acked:-x} acknowledged ('"
done
check "the asked question's answer has the loss of both sides in crashes, with intervals" \
	grep -Eq "^unsafe vs writethrough, after a guest crash: lost acknowledged writes in [01] of 1 crash \[[0-9.]+%, [0-9.]+%\].*, vs [01] of 1 \[[0-9.]+%, [0-9.]+%\]" \
	"$tmp/res/report.txt"
check "summary.txt has each cell's loss by crash" \
	test "$(grep -c '^  loss by crash: lost acknowledged writes in [01] of 1 crash ' "$tmp/res/summary.txt")" -eq 5
check "no QEMU left" sh -c "! pgrep -f '[q]emu-system.*buildapp-r' >/dev/null"
check "summary written" test -s "$tmp/res/summary.json"
exit $fail
