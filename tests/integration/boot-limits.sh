#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# scripts/boot-appliance.sh's limits, on a server that never boots (a
# blank disk: the firmware finds nothing and the console stays silent):
# the limit printed follows from the plan given, the console-silence
# watchdog stops the server, so does the overall limit, and either way the
# console log is kept and its path printed.
set -u
command -v qemu-system-x86_64 >/dev/null || { echo "no qemu-system-x86_64"; exit 77; }
command -v python3 >/dev/null || { echo "no python3"; exit 77; }
tmp=$(mktemp -d "${TOP:-.}/${B:-build}/boot-limits.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
. "${TOP:-.}/tests/lib/check.sh"
boot() { # expected exit status, then boot-appliance.sh options
	want=$1
	shift
	TMPDIR=$tmp/work sh scripts/boot-appliance.sh "$tmp/blank.img" --accel tcg \
		--disk-size 16M --memory 128 --smp 1 "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	cat "$tmp/err"
	check "exit status $want (got $rc)" test "$rc" -eq "$want"
}
kept_log() { sed -n 's/^boot-appliance: console log kept: //p' "$tmp/err"; }

qemu-img create -q -f raw "$tmp/blank.img" 16M
# Two cells of 3 runs that may grow to 5 (target_ci), 600 s each.
cat >"$tmp/kit.manifest.json" <<'JSON'
{"plan": {"cells": [{"id": "a"}, {"id": "b"}], "runs_per_cell": 3,
 "max_runs_per_cell": 5, "profile": {"guest": {"timeout": 600}}}}
JSON

boot 1 --plan "$tmp/kit.manifest.json" --silence 3
check "limit from the plan: 10 runs x (600 + 120) s + 900 s" \
	grep -q "limit 8100s (plan in $tmp/kit.manifest.json: 10 runs of at most 600s), console silence limit 3s" "$tmp/err"
check "the watchdog stopped the silent server" grep -q 'console silent for 3s: the server was stopped' "$tmp/err"
log=$(kept_log)
check "console log kept ($log)" test -n "$log" -a -f "$log"
check "nothing else kept" test "$(ls "$(dirname "$log")")" = "$(basename "$log")"
rm -rf "$tmp/work"

# The manifest next to the image is the default plan; the silence limit
# is what a run may take (at least the boot margin).
sed 's/600/1200/' "$tmp/kit.manifest.json" >"$tmp/blank.manifest.json"
boot 1 --timeout 3
check "manifest next to the image read" \
	grep -q "limit 3s (plan in $tmp/blank.manifest.json: 10 runs of at most 1200s), console silence limit 1320s" "$tmp/err"
check "the overall limit stopped the server" grep -q 'no power-off after 3s (console log: ' "$tmp/err"
log=$(kept_log)
check "console log kept ($log)" test -n "$log" -a -f "$log"
rm -rf "$tmp/work" "$tmp/blank.manifest.json"

# No plan anywhere: the boot margin alone.
boot 1 --silence 2
check "no plan: boot margin" grep -q "limit 900s (no plan in $tmp/blank.img: 0 runs of at most 0s)" "$tmp/err"

# A plan that cannot be read is bad input, not a guess.
echo '{' >"$tmp/bad.json"
boot 2 --plan "$tmp/bad.json"
check "unreadable plan named" grep -q "plan '$tmp/bad.json': cannot read it" "$tmp/err"
exit $fail
