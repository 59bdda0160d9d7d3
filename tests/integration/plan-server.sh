#!/bin/sh
# What `buildapp plan` says the lab server must give, held to the code
# that acts on it: for every shipped profile, the disk under test's
# minimum size is the one `buildapp provision --dry-run --json` lays the
# backends out on (disk_size), and the boots are the kit's own and one a
# host crash; and the reference levels it names are the first listed
# (cache = unsafe, writethrough: unsafe).  No guest is booted and nothing
# is written: a dry run touches no disk.
set -u
B=${B:-build}
BUILDAPP=${BUILDAPP:-$B/buildapp}
TOP=${TOP:-.}
. "$TOP/tests/lib/check.sh"
command -v python3 >/dev/null || { echo "python3 is not installed"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# PLAN_TEXT PROVISION_JSON PLAN_JSON: the plan's disk line against the dry
# run's disk_size, its boots against the plan's host crashes.
agree() {
	python3 - "$@" <<'PY'
import json, re, sys
text = open(sys.argv[1]).read()
provision = json.load(open(sys.argv[2]))
plan = json.load(open(sys.argv[3]))
ok = True
m = re.search(r"^  disk under test: at least \S+ \((\d+) bytes\)", text, re.M)
if not m or int(m.group(1)) != provision["disk_size"]:
    print("disk: plan says %s, provision --dry-run lays out %d bytes"
          % (m.group(1) if m else "nothing", provision["disk_size"]))
    ok = False
crash = plan["profile"]["workload"]["crash"] == "host"
cells = plan["cells"]
crashes = sum(1 for r in plan["runs"] if crash and cells[r["cell"]]["workload"] == "durability")
m = re.search(r"^  boots: (\d+): the kit's own", text, re.M)
if not m or int(m.group(1)) != 1 + crashes:
    print("boots: plan says %s, its runs hold %d host crashes"
          % (m.group(1) if m else "nothing", crashes))
    ok = False
if crashes and ("and the %d host crash" % crashes) not in text:
    print("boots: the %d host crashes are not named" % crashes)
    ok = False
m = re.search(r"^  time: (\d+) runs", text, re.M)
if not m or int(m.group(1)) != plan["total_runs"]:
    print("time: plan says %s runs, its JSON %d" % (m.group(1) if m else "no", plan["total_runs"]))
    ok = False
sys.exit(0 if ok else 1)
PY
}

for p in "$TOP"/profiles/*.ini; do
	n=$(basename "$p" .ini)
	"$BUILDAPP" plan "$p" >"$tmp/$n.txt" 2>"$tmp/err" &&
		"$BUILDAPP" plan --json "$p" >"$tmp/$n.json" 2>>"$tmp/err" &&
		"$BUILDAPP" provision "$p" --target "$tmp/$n.img" --dry-run --json \
			>"$tmp/$n.provision" 2>>"$tmp/err" ||
		{ cat "$tmp/err"; check "$n: plan and provision --dry-run run" false; continue; }
	check "$n: the plan's disk size is provision --dry-run's, its boots its crashes" \
		agree "$tmp/$n.txt" "$tmp/$n.provision" "$tmp/$n.json"
	check "$n: the dry run wrote nothing" test ! -e "$tmp/$n.img"
done
check "lvm-unsafe: 41 boots (40 host crashes)" grep -q "^  boots: 41: the kit's own" "$tmp/lvm-unsafe.txt"
check "lvm-unsafe: the console's ETA line named" grep -q "ETA H:MM:SS" "$tmp/lvm-unsafe.txt"

printf '[storage]\nbackends = lvm\n[guest]\ncache = unsafe, writethrough\n[workload]\nkinds = tarball-write\n' \
	>"$tmp/order.ini"
"$BUILDAPP" plan "$tmp/order.ini" >"$tmp/order.txt"
check "cache = unsafe, writethrough: unsafe is the reference" grep -qx "  cache: unsafe" "$tmp/order.txt"
check "cache = unsafe, writethrough: unsafe's cell first" \
	sh -c 'sed -n "/^Matrix/,/^\$/p" "$1" | sed -n 3p | grep -q " unsafe "' - "$tmp/order.txt"

# The control: a plan whose disk line is off by a byte is refused, so the
# comparison above cannot pass by reading nothing.
sed 's/^\(  disk under test: at least [^ ]* (\)\([0-9]*\)/\1\21/' "$tmp/lvm-unsafe.txt" >"$tmp/off.txt"
check "control: the edited plan differs" sh -c '! cmp -s "$1" "$2"' - "$tmp/lvm-unsafe.txt" "$tmp/off.txt"
refused() { ! agree "$@" >/dev/null; }
check "control: a disk size off from provision's is refused" \
	refused "$tmp/off.txt" "$tmp/lvm-unsafe.provision" "$tmp/lvm-unsafe.json"
exit $fail
