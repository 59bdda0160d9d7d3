#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Issue 11's "done when", as a lab would do it: one `buildapp
# profiles/ci-smoke.ini` (as it is: [host] disk auto, the whole sweep of 2
# backends x 2 cache modes x 2 runs of the nested fio guest), its
# ci-smoke.netboot/ served by a real nginx on 127.0.0.1 (tests/lib/
# webdav.sh), two virtual lab servers netbooted by QEMU's iPXE
# (tests/lib/netboot.sh: DMI serials SRV-A and SRV-B, one blank disk under
# test each, serials DISK-A and DISK-B), the kit's boot script with only
# what a lab appends (no_timer_check, buildapp.upload=URL).  Both keep
# their bundles in RAM and upload them; every planned run is journaled in
# each bundle (a run that outlasts ci-smoke's 300 s guest timeout, nested
# TCG in a TCG server, is journaled as a timeout: that is what happened
# and it is printed, not failed); `buildapp report` over what arrived has
# both servers and every cell for both (its values, or, when none of its
# runs was ok, its runs among the failures), and its table is printed.
#
# Cost: a kit build (a few minutes from a cold cache), then the two
# servers at once, -smp 1 each (two TCG servers on 2 cores), each running
# its eight nested guests: 23-25 minutes measured here at load 10-19 (kit
# 2-7 s from a warm cache, servers 1356-1488 s).  Not in make check (make
# check-slow); tests/e2e/netboot.sh covers the netboot path with one
# qemu-img bench run a server.
. "$TOP/tests/lib/common.sh"
. "$TOP/tests/lib/webdav.sh"
command -v supermin >/dev/null || skip "supermin is not installed"
NETBOOT_SMP=1
. "$TOP/tests/lib/netboot.sh"
netboot_setup netboot-ci-smoke "$TOP/profiles/ci-smoke.ini"
manifest=$work/out/ci-smoke.manifest.json
# The servers' limit as scripts/boot-appliance.sh reckons it: every
# planned run at its guest timeout plus 120 s, plus 900 s.
NETBOOT_TIMEOUT=$(python3 -c '
import json, sys
p = json.load(open(sys.argv[1]))["plan"]
print(900 + p["total_runs"] * (p["profile"]["guest"]["timeout"] + 120))' "$manifest")
echo "servers' limit: ${NETBOOT_TIMEOUT}s"

netboot_script rack.ipxe "buildapp.upload=$NETBOOT_URL/rack/"

start=$(date +%s)
netboot_server A rack.ipxe & pids="$pids $!"
netboot_server B rack.ipxe & pids="$pids $!"
wait
pids=""
echo "two servers powered off after $(($(date +%s) - start))s"
for s in A B; do
	log=$work/console-$s.log
	echo "--- console of server $s (last lines)"
	tail -n 30 "$log"
	netboot_check_booted "$s"
	netboot_check_bundle "$s" rack
	grep -Eq "(done|failed); poweroff" "$log" || fail "server $s: did not power off as the profile says"
	# Every planned (cell, run) journaled once, whatever its status.
	python3 - "$manifest" "$bundle/runs.jsonl" "$s" <<'PY' || fail "server $s: not every planned run is journaled"
import collections, json, sys
plan = json.load(open(sys.argv[1]))["plan"]
want = {(plan["cells"][r["cell"]]["id"], r["run"]) for r in plan["runs"]}
runs = [json.loads(l) for l in open(sys.argv[2]) if l.strip()]
got = collections.Counter((r["cell"]["id"], r["index"]) for r in runs)
assert set(got) == want and max(got.values()) == 1, (sorted(want), got)
st = collections.Counter(r["status"] for r in runs)
secs = sorted(round(r.get("boot_seconds") or 0) for r in runs)
print("server %s: %d planned runs journaled: %s; boot to shutdown %s s" % (
    sys.argv[3], len(runs), ", ".join("%d %s" % (n, k) for k, n in sorted(st.items())), secs))
PY
	grep -E "^(sweep|status|upload):" "$bundle/appliance.txt"
done
netboot_check_rack rack 2

"$BUILDAPP" report "$dav/rack" -o "$work/report" || fail "buildapp report over the rack failed"
# Both servers, and every planned cell of each: a cell with ok runs has
# its values (and so a bar); one whose runs all failed or timed out has
# none, and its runs are listed among the report's failures.
python3 - "$work/report/report.json" "$manifest" <<'PY' || fail "the rack's report does not show both servers, every cell"
import json, sys
r = json.load(open(sys.argv[1]))
plan = json.load(open(sys.argv[2]))["plan"]
labels = sorted(h["label"] for h in r["hosts"])
assert labels == ["SRV-A_DISK-A", "SRV-B_DISK-B"], labels
host_axis = [a for a in r["axes"] if a["name"] == "host"]
assert host_axis and sorted(host_axis[0]["levels"]) == labels, r["axes"]
shown = {(c["host"], c["id"]) for w in r["workloads"] for m in w["metrics"] for c in m["cells"]}
failed = {}
for f in r["failures"]:
    failed.setdefault((f["host"], f["cell"]), set()).add(f["index"])
runs = {c["id"]: {x["run"] for x in plan["runs"] if plan["cells"][x["cell"]]["id"] == c["id"]}
        for c in plan["cells"]}
for h in labels:
    for cell, want in sorted(runs.items()):
        if (h, cell) in shown:
            continue
        assert failed.get((h, cell)) == want, ("neither values nor failures", h, cell, failed)
        print("report: %s %s: no ok run, its %d runs among the failures" % (h, cell, len(want)))
PY
cat "$work/report/report.txt"
echo "netboot-ci-smoke: two netbooted servers ran ci-smoke's sweep and uploaded; one report over both"
