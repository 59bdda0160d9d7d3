#!/bin/sh
# What each cache mode loses when the host dies, counted in crashes, and
# how a crashed host goes down and comes back (docs/results.md).  A kit
# of durability runs with crash = host, cache unsafe and writethrough,
# three crashes each on an LVM LV of the disk under test, booted on the
# virtual lab server with reboots allowed (boot-appliance.sh --reboots),
# the server's own page-cache writeback kept (the kernel's defaults: a
# flusher pass every 5 s, pages older than 30 s written): at each run's
# seeded crash point the kit stops the guest's QEMU and the host's
# writeback, syncs RESULTS, reads what the host holds and jumps without a
# sync into its own kernel and initramfs (kexec, crash_reboot's default),
# boots again, finishes the run by reading its records back and goes on:
# seven boots of one kit, through the firmware once.  Every planned run
# must be journaled, each crash with its mechanism, its steps in their
# order and what the host held; writethrough lost acknowledged writes in
# none of its crashes, unsafe in some, and never more than the host's
# page cache held at the trigger (Dirty and Writeback).  host.json has the
# server's writeback settings.
# Then one crash of unsafe under OVMF with Secure Boot enforcing
# (--secure-boot), the kernel in lockdown (integrity), where only
# kexec_file_load of a kernel whose signature the kernel's keyrings take
# may load: it must go by kexec (a fallback to the firmware fails the test
# with its reason).  That kit turns the periodic writeback off for its run
# (dirty_writeback_centisecs = 0, an hour's expiry), so unsafe's records
# stay in the page cache to the end: the crash must lose every one.
. "$TOP/tests/lib/common.sh"
command -v supermin >/dev/null || skip "supermin is not installed"
command -v kexec >/dev/null || skip "kexec-tools is not installed (the kit's root takes it from this host)"
work=$(mktemp -d "$CACHE/hostcrash.XXXXXX")
trap 'rm -rf "$work"' EXIT
export BUILDAPP_INIT="$TOP/$B/buildapp-init" SOURCE_DATE_EPOCH=1700000000
crashes=3
cat >"$work/host-crash.ini" <<INI
[appliance]
include = $TOP/profiles/ci-smoke.ini
name = host-crash
console = ttyS0
[host]
disk = HCRASH-DUT
; No dirty_* keys: the server's own writeback, as on a real server.
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
runs = $crashes
[report]
compare = cache:unsafe vs writethrough
INI
"$BUILDAPP" "$work/host-crash.ini" -o "$work/out" --cache "$CACHE/hostroot"
"$BUILDAPP" plan "$work/host-crash.ini" >"$work/plan.txt"
grep -q "^This plan holds $((2 * crashes)) host crashes (durability runs with crash = host), each back by kexec" \
	"$work/plan.txt" || fail "buildapp plan does not say how many host crashes the plan holds"
img=$work/out/host-crash.img
qemu-img create -q -f raw "$work/dut.img" 2G

start=$(date +%s)
sh "$TOP/scripts/boot-appliance.sh" "$img" --serial HCRASH-DUT --disk "$work/dut.img" \
	--memory 2048 --reboots --log "$work/console" --firmware-log "$work/firmware.log" \
	>"$work/report" 2>"$work/boot.err" ||
	{ cat "$work/boot.err"; tail -n 80 "$work/console"; fail "the kit did not power off with a report"; }
boots=$(grep -c 'buildapp-init: RESULTS: ' "$work/console")
echo "booted $boots times, crashed and powered off in $(($(date +%s) - start))s"
grep -E 'this plan holds|crash = host|after the host crash|^sweep|kexec' "$work/console" | sed 's/^.*buildapp-init[^ ]* //'
grep -E '^[a-z_]+: ' "$work/report"
grep -q '^status: ok' "$work/report" || fail "the last boot's report is not ok"
[ "$boots" -eq $((2 * crashes + 1)) ] || fail "$boots boots of the kit, expected $((2 * crashes + 1))"
grep -q "this plan holds $((2 * crashes)) host crashes" "$work/console" ||
	fail "the kit's first lines do not say how many host crashes its plan holds"
[ "$(grep -c "crash = host: kexec into this kit's kernel after [0-9]* acknowledgements" "$work/console")" -eq $((2 * crashes)) ] ||
	fail "the lab server did not go down by kexec once per run"
[ "$(grep -c 'finished after the host crash (back by kexec: [0-9?]* s to the next kernel, [0-9?]* s to here): lost [0-9]* of [0-9]* acknowledged' "$work/console")" -eq $((2 * crashes)) ] ||
	fail "the runs were not finished after the reboots"
# Through the firmware once: kexec skips it (SeaBIOS's log, one BUILD
# line a boot of it).
fw=$(grep -c '^BUILD: ' "$work/firmware.log")
[ "$fw" -eq 1 ] || fail "the lab server went through its firmware $fw times, not once"
grep -q 'firmware boots: 1$' "$work/boot.err" || fail "boot-appliance.sh does not count one firmware boot"

guestfish --ro -a "$img" -m /dev/sda2 cat /runs.jsonl >"$work/runs.jsonl" ||
	fail "no runs.jsonl on RESULTS"
cat "$work/runs.jsonl"
# Every planned run journaled, ok, as a host crash by kexec with its
# steps in their order, what the host held and how long its way back
# took; writethrough lost nothing, unsafe lost in at least one crash and
# never more than the page cache held at the trigger.
python3 - "$work/runs.jsonl" "$work/out/host-crash.manifest.json" <<'PY' || fail "the journal is not every planned run, crashed by kexec"
import json, sys
runs = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
plan = json.load(open(sys.argv[2]))["plan"]
record_kib = plan["profile"]["workload"]["durability_record_size"] / 1024
planned = {(plan["cells"][r["cell"]]["id"], r["run"]) for r in plan["runs"]}
got = {(r["cell"]["id"], r["index"]) for r in runs}
if got != planned or len(runs) != len(planned):
    sys.exit(f"journaled {sorted(got)}, planned {sorted(planned)}")
lost = {}
for r in runs:
    h = r.get("host_crash") or {}
    m = {x["name"]: x["value"] for x in r["metrics"]}
    print(r["cell"]["cache"], r["status"], "lost", m.get("lost"), "of", m.get("acknowledged"), h)
    if r["status"] != "ok" or r["crash"] != "host" or h.get("mechanism") != "kexec" or h.get("fallback"):
        sys.exit("not an ok run crashed by kexec: %s" % r)
    if not isinstance(h.get("dirty_kib"), int) or not isinstance(h.get("writeback_kib"), int):
        sys.exit("no page-cache facts at the trigger: %s" % h)
    if h.get("disk_write_cache") not in ("on", "off"):
        sys.exit("no write cache state at the trigger: %s" % h)
    if not (0 <= h["to_kernel_seconds"] <= h["to_sweep_seconds"]):
        sys.exit("the way back is not timed: %s" % h)
    steps = [h.get(k) for k in ("qemu_stopped_seconds", "writeback_stopped_seconds",
                                "results_synced_seconds", "facts_read_seconds")]
    if None in steps or steps != sorted(steps) or steps[0] < 0:
        sys.exit("the steps before the trigger are not all there in their order: %s" % h)
    if m["acknowledged"] < 100:
        sys.exit("fewer acknowledged than the crash point: %s" % m)
    if m["lost"] * record_kib > h["dirty_kib"] + h["writeback_kib"]:
        sys.exit("lost more than the page cache held at the trigger: %s, %s" % (m, h))
    lost.setdefault(r["cell"]["cache"], []).append(m["lost"])
if any(lost["writethrough"]):
    sys.exit(f"writethrough lost acknowledged records: {lost}")
if not any(lost["unsafe"]):
    sys.exit(f"unsafe lost nothing: the page cache was written back: {lost}")
PY

guestfish --ro -a "$img" -m /dev/sda2 cat /report.txt >"$work/report.txt" ||
	fail "no report.txt on RESULTS"
grep -E 'after a host crash' "$work/report.txt"
grep -Eq "^unsafe vs writethrough, after a host crash( \([^)]*\))?: lost acknowledged writes in [1-9][0-9]* of $crashes crashes \[[0-9.]+%, [0-9.]+%\].*, vs 0 of $crashes \[0%, [0-9.]+%\]" \
	"$work/report.txt" || fail "report.txt does not answer with both sides' loss, counted in crashes"
guestfish --ro -a "$img" -m /dev/sda2 cat /host.json >"$work/host.json" ||
	fail "no host.json on RESULTS"
python3 - "$work/host.json" <<'PY' || fail "host.json lacks the server's page-cache writeback settings"
import json, sys
w = json.load(open(sys.argv[1])).get("page_cache_writeback") or {}
print("page_cache_writeback:", w)
sys.exit(w.get("dirty_expire_centisecs") != 3000 or w.get("dirty_writeback_centisecs") != 500)
PY
echo "after $((2 * crashes)) host crashes by kexec under the server's writeback: writethrough lost none of what it acknowledged, unsafe lost some, never more than the page cache held"

# --- Secure Boot: one crash of a kit like it under OVMF, enforcing, with
# the periodic writeback off for its run.
sed -e 's/^name = host-crash$/name = host-crash-sb/' -e 's/^cache = unsafe, writethrough$/cache = unsafe/' \
	-e 's/^runs = .*/runs = 1/' -e '/^compare = /d' \
	-e 's/^; No dirty_\* keys.*/dirty_expire_centisecs = 360000\ndirty_writeback_centisecs = 0/' \
	"$work/host-crash.ini" >"$work/sb.ini"
grep -q '^dirty_writeback_centisecs = 0$' "$work/sb.ini" || fail "the Secure Boot kit's profile was not made"
"$BUILDAPP" "$work/sb.ini" -o "$work/out" --cache "$CACHE/hostroot"
qemu-img create -q -f raw "$work/dut-sb.img" 2G
sh "$TOP/scripts/boot-appliance.sh" "$work/out/host-crash-sb.img" --secure-boot \
	--serial HCRASH-DUT --disk "$work/dut-sb.img" --memory 2048 --reboots \
	--log "$work/console-sb" >"$work/report-sb" 2>"$work/boot-sb.err" ||
	{ cat "$work/boot-sb.err"; tail -n 80 "$work/console-sb"; fail "the Secure Boot kit did not power off with a report"; }
grep -E 'crash = host|after the host crash|kexec' "$work/console-sb" | sed 's/^.*buildapp-init[^ ]* //'
grep -q '^secure_boot: on (kernel lockdown: integrity)$' "$work/report-sb" ||
	fail "the kit did not run under Secure Boot with the kernel in lockdown"
guestfish --ro -a "$work/out/host-crash-sb.img" -m /dev/sda2 cat /runs.jsonl >"$work/runs-sb.jsonl" ||
	fail "no runs.jsonl on the Secure Boot kit's RESULTS"
guestfish --ro -a "$work/out/host-crash-sb.img" -m /dev/sda2 cat /host.json >"$work/host-sb.json" ||
	fail "no host.json on the Secure Boot kit's RESULTS"
python3 - "$work/runs-sb.jsonl" "$work/host-sb.json" <<'PY' || fail "the crash under Secure Boot did not go by kexec, or did not lose what the page cache held"
import json, sys
runs = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
host = json.load(open(sys.argv[2]))
print("host.json: secure_boot", host.get("secure_boot"), "lockdown", host.get("lockdown"))
if host.get("secure_boot") is not True or host.get("lockdown") != "integrity":
    sys.exit("host.json does not say Secure Boot on, lockdown integrity")
if len(runs) != 1 or runs[0]["status"] != "ok":
    sys.exit(f"not one ok run: {runs}")
h = runs[0]["host_crash"]
m = {x["name"]: x["value"] for x in runs[0]["metrics"]}
print("under Secure Boot:", h, "lost", m.get("lost"), "of", m.get("acknowledged"))
if h["mechanism"] != "kexec" or h["fallback"]:
    sys.exit("the crash went by %s, not by kexec: %s" % (h["mechanism"], h["fallback"]))
if m["lost"] != m["acknowledged"]:
    sys.exit("with no writeback during the run, unsafe lost %d of %d acknowledged, not all"
             % (m["lost"], m["acknowledged"]))
PY
echo "under Secure Boot (lockdown integrity): the crash went by kexec and lost every record unsafe left in the page cache"
