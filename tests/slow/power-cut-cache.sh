#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# What a power cut loses with the disk's write cache on, told from an
# honest disk to a lying one (docs/results.md, "Records that outlive a
# power cut").  A kit of durability runs with crash = power, cache
# writethrough and none, two cuts each on an LVM LV of the disk under
# test whose write cache the kit turns on ([host] write_cache = on), and
# one qemu-img bench run a cache mode, booted on the virtual lab server
# with a BMC (boot-appliance.sh --bmc: OpenIPMI's ipmi_sim, whose power
# cycle, asked in-band by the kit through the server's KCS interface,
# kills the server's QEMU and the disk's nbdkit and starts them again).
# Four fresh copies of the one kit:
#   honest: the disk keeps writes in a volatile cache that a power-off
#     loses and writes back what a flush asks (--dut-cache honest): no
#     acknowledged record may be lost in any cut, by either mode;
#   lying: the same cache, which acknowledges flushes and FUA at once and
#     drops them (--dut-cache lying): writethrough and none must lose
#     acknowledged records in at least one of their cuts;
#   refusing: a BMC that answers but does not control the power
#     (--bmc-refuses): the power-cut runs are not made, each journaled
#     failed with the BMC's reason, the bench runs are, in one boot;
#   absent: no BMC on the server at all: the same, with that reason.
# Every planned run must be journaled once, each cut as one (mechanism
# power, the BMC, the disk's write cache at the cut), the server booted
# through its firmware once a cut more, report.txt must count the loss by
# cut, and no process boot-appliance.sh started may outlive it.
. "$TOP/tests/lib/common.sh"
command -v supermin >/dev/null || skip "supermin is not installed"
command -v ipmi_sim >/dev/null || skip "OpenIPMI's ipmi_sim is not installed (package openipmi)"
command -v nbdkit >/dev/null || skip "nbdkit is not installed"
command -v ipmitool >/dev/null || skip "ipmitool is not installed (the kit's root takes it from this host)"
work=$(mktemp -d "$CACHE/powercut.XXXXXX")
trap 'rm -rf "$work"' EXIT
export BUILDAPP_INIT="$TOP/$B/buildapp-init" SOURCE_DATE_EPOCH=1700000000
cuts=2
cat >"$work/power-cut.ini" <<INI
[appliance]
include = $TOP/profiles/ci-smoke.ini
name = power-cut
console = ttyS0
[host]
disk = PCUT-DUT
write_cache = on
bmc = ipmi
[storage]
backends = lvm
size = 64M
[guest]
cache = writethrough, none
accel = tcg
timeout = 900
[workload]
kinds = durability, qemu-img-bench
durability_records = 200
crash = power
bench_count = 2000
bench_step = 64K
[sweep]
runs = 1
durability_runs = $cuts
[report]
compare = cache:writethrough vs none
INI
"$BUILDAPP" "$work/power-cut.ini" -o "$work/out" --cache "$CACHE/hostroot"
"$BUILDAPP" plan "$work/power-cut.ini" >"$work/plan.txt"
grep -q "^This plan holds $((2 * cuts)) power cuts (durability runs with crash = power), each asked of the server's BMC (in-band IPMI" \
	"$work/plan.txt" || { cat "$work/plan.txt"; fail "buildapp plan does not say how many power cuts the plan holds"; }
grep -q "boots: $((2 * cuts + 1)): the kit's own (through the firmware) and the $((2 * cuts)) power cuts above, each a cold boot" \
	"$work/plan.txt" || fail "buildapp plan does not count a boot a cut"

# Every process a boot started is gone when boot-appliance.sh is: the
# BMC, the disk's nbdkit and its write-back, the server's QEMU.
left_behind() { # DIR
	# shellcheck disable=SC2009
	ps -eo pid=,args= | grep -F "$1" | grep -v -e grep -e "ps -eo" || true
}

# boot NAME OPTIONS...: a fresh copy of the kit booted on the lab server.
boot() {
	name=$1
	shift
	cp --sparse=always "$work/out/power-cut.img" "$work/$name.img"
	qemu-img create -q -f raw "$work/$name-dut.img" 2G
	mkdir -p "$work/$name-tmp"
	start=$(date +%s)
	TMPDIR=$work/$name-tmp sh "$TOP/scripts/boot-appliance.sh" "$work/$name.img" \
		--plan "$work/out/power-cut.manifest.json" --serial PCUT-DUT \
		--disk "$work/$name-dut.img" --memory 2048 --log "$work/$name.console" \
		--firmware-log "$work/$name.firmware" "$@" >"$work/$name.report" 2>"$work/$name.err" ||
		{ cat "$work/$name.err"; tail -n 80 "$work/$name.console"; fail "$name: the kit did not power off with a report"; }
	echo "== $name: powered off in $(($(date +%s) - start)) s"
	sleep 1
	left=$(left_behind "$work/$name-tmp")
	[ -z "$left" ] || { echo "$left"; fail "$name: boot-appliance.sh left processes behind"; }
	grep -E 'power cut|this plan holds|BMC|after the power cut' "$work/$name.console" |
		sed 's/^.*buildapp-init[^ ]* //'
	grep -E '^[a-z_]+: ' "$work/$name.report"
	guestfish --ro -a "$work/$name.img" -m /dev/sda2 cat /runs.jsonl >"$work/$name.jsonl" ||
		fail "$name: no runs.jsonl on RESULTS"
	guestfish --ro -a "$work/$name.img" -m /dev/sda2 cat /report.txt >"$work/$name.txt" ||
		fail "$name: no report.txt on RESULTS"
}

# check NAME KIND: NAME's journal is every planned run once; KIND honest:
# no cut lost a record; lying: some cut lost one; refused or absent (no
# BMC): no cut made, each with that reason, the bench runs made.
check() {
	python3 - "$work/$1.jsonl" "$work/out/power-cut.manifest.json" "$2" <<'PY' || fail "$1: the journal is not what a $2 disk's cuts make"
import json, sys
runs = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
plan = json.load(open(sys.argv[2]))["plan"]
kind = sys.argv[3]
planned = sorted((plan["cells"][r["cell"]]["id"], r["run"]) for r in plan["runs"])
got = sorted((r["cell"]["id"], r["index"]) for r in runs)
if got != planned:
    sys.exit(f"journaled {got}, planned {planned}: each planned run once")
lost = {}
for r in runs:
    m = {x["name"]: x["value"] for x in r["metrics"]}
    cell = r["cell"]
    if cell["workload"] != "durability":
        if r["status"] != "ok":
            sys.exit("a bench run was not made: %s" % r)
        continue
    h = r.get("host_crash") or {}
    print(cell["cache"], r["status"], r.get("crash"), "lost", m.get("lost"), "of",
          m.get("acknowledged"), h or r.get("message"))
    if r.get("crash") != "power":
        sys.exit("a durability run not recorded as a power cut: %s" % r)
    why = {"refused": "does not control this server's power",
           "absent": "no BMC answers in-band"}.get(kind)
    if why:
        if r["status"] != "failed" or "not made: crash = power" not in r["message"] \
                or why not in r["message"]:
            sys.exit("a power-cut run made, or failed without the reason (%s): %s" % (why, r))
        continue
    if r["status"] != "ok" or h.get("mechanism") != "power" or "in-band IPMI" not in h.get("bmc", ""):
        sys.exit("not an ok run ended by the BMC's power cut: %s" % r)
    if h.get("disk_write_cache") != "on":
        sys.exit("the disk's write cache was not on at the cut: %s" % h)
    if not (0 <= h["to_kernel_seconds"] <= h["to_sweep_seconds"]):
        sys.exit("the way back is not timed: %s" % h)
    if m["acknowledged"] < 100:
        sys.exit("fewer acknowledged than the crash point: %s" % m)
    lost.setdefault(cell["cache"], []).append(m["lost"])
print(kind, "lost by cut:", lost)
if kind == "honest" and any(any(v) for v in lost.values()):
    sys.exit(f"an honest disk's cut lost acknowledged records: {lost}")
if kind == "lying" and not any(any(v) for v in lost.values()):
    sys.exit(f"a lying disk's cuts lost no acknowledged record in any cut: {lost}")
PY
}

boot honest --bmc --dut-cache honest
boots=$(grep -c 'buildapp-init: RESULTS: ' "$work/honest.console")
[ "$boots" -eq $((2 * cuts + 1)) ] || fail "honest: $boots boots of the kit, expected $((2 * cuts + 1))"
grep -q "power cuts by the BMC: $((2 * cuts))\$" "$work/honest.err" ||
	fail "honest: the BMC did not cut the power once a durability run"
fw=$(grep -c '^BUILD: ' "$work/honest.firmware")
[ "$fw" -eq $((2 * cuts + 1)) ] || fail "honest: the firmware booted $fw times, not once a cut more"
[ "$(grep -c "crash = power: cutting the power through the BMC, in-band IPMI (/dev/ipmi0).* after [0-9]* acknowledgements, without a sync" "$work/honest.console")" -eq $((2 * cuts)) ] ||
	fail "honest: the kit did not say before each cut that the BMC cuts the power"
[ "$(grep -c 'finished after the power cut (back by a cold boot: [0-9?]* s to the next kernel, [0-9?]* s to here): lost [0-9]* of [0-9]* acknowledged' "$work/honest.console")" -eq $((2 * cuts)) ] ||
	fail "honest: the runs were not finished after the power cuts"
grep -q "^power_cuts: all $((2 * cuts)) made" "$work/honest.report" ||
	fail "honest: the last boot's appliance.txt does not say every power cut is made"
grep -q "power cuts: this plan's $((2 * cuts)) (the durability runs of .*; $((2 * cuts)) left to make) go through the BMC, in-band IPMI (/dev/ipmi0)" \
	"$work/honest.console" || fail "honest: the first boot did not say before the sweep that the BMC makes the cuts"
check honest honest
grep -E 'after a power cut' "$work/honest.txt"
grep -Eq "^ *writethrough vs none, after a power cut( \([^)]*\))?: lost acknowledged writes in 0 of $cuts cuts \[0%, [0-9.]+%\], vs 0 of $cuts " \
	"$work/honest.txt" || fail "honest: report.txt does not say neither mode lost a record, counted by cut"

boot lying --bmc --dut-cache lying
grep -q "power cuts by the BMC: $((2 * cuts))\$" "$work/lying.err" ||
	fail "lying: the BMC did not cut the power once a durability run"
grep -E 'after a power cut' "$work/lying.txt"
grep -Eq "^ *writethrough vs none, after a power cut( \([^)]*\))?: lost acknowledged writes in [0-9]+ of $cuts cuts" \
	"$work/lying.txt" || fail "lying: report.txt does not count the loss by cut"
check lying lying

boot refused --bmc-refuses
boots=$(grep -c 'buildapp-init: RESULTS: ' "$work/refused.console")
[ "$boots" -eq 1 ] || fail "refused: $boots boots, expected one (no cut made)"
grep -q "power cuts by the BMC: 0\$" "$work/refused.err" || fail "refused: the BMC cut the power"
grep -q "^power_cuts: not made: the BMC .* does not control this server's power" "$work/refused.report" ||
	fail "refused: appliance.txt does not say why no power cut was made"
grep -q "^sweep: 2 runs made, 0 failed, $((2 * cuts)) not made (each journaled failed with its reason), 0 already there\$" "$work/refused.report" ||
	fail "refused: appliance.txt does not count the power-cut runs apart, as not made: $(grep '^sweep:' "$work/refused.report")"
grep -q "power cuts: the BMC cannot cut this server's power: " "$work/refused.console" ||
	fail "refused: the console does not say before the sweep that no power cut can be made"
check refused refused

# No BMC at all: nothing answers in-band once ipmi_si and ipmi_devintf
# are loaded.
boot absent
boots=$(grep -c 'buildapp-init: RESULTS: ' "$work/absent.console")
[ "$boots" -eq 1 ] || fail "absent: $boots boots, expected one (no cut made)"
grep -q "^power_cuts: not made: no BMC answers in-band: /dev/ipmi0 is absent after loading ipmi_si and ipmi_devintf" "$work/absent.report" ||
	fail "absent: appliance.txt does not say no BMC answered"
grep -q "^sweep: 2 runs made, 0 failed, $((2 * cuts)) not made (each journaled failed with its reason), 0 already there\$" "$work/absent.report" ||
	fail "absent: appliance.txt does not count the power-cut runs as not made"
check absent absent
echo "power cuts through the BMC: an honest disk lost nothing, a lying one lost acknowledged writes; a BMC that refuses, or none: those runs not made, the others made"
