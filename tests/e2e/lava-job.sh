#!/bin/sh
# The kit as LAVA jobs, run by LAVA's own dispatcher (Debian's
# lava-dispatcher, `lava-run`, no server): the kit of
# tests/e2e/netboot-test.ini (one qemu-img bench run, no nested guest)
# with an upload URL, its NAME.netboot/lava-qemu.yaml run as the build
# wrote it on a qemu device rendered from lava-server's qemu.jinja2 with
# no_kvm (QEMU under TCG), and again with its disk under test failing
# reads of one sector (QEMU's blkdebug; the LV's reads hit it).  LAVA's
# results hold one case per planned run: the first with the journal's
# measurement and unit, as uploaded; the second failed, not missing; both
# jobs complete.  The kit's x86 job (TFTP, iPXE) is validated by LAVA's
# job schema and by `lava-run --validate` on an x86 device rendered from
# x86.jinja2; both jobs' timeouts are scripts/boot-appliance.sh's.
#
# Cost: the kit (seconds from the e2e suite's warm cache), then two TCG
# boots of the appliance at once, no nested guest: about 3 minutes.
. "$TOP/tests/lib/common.sh"
. "$TOP/tests/lib/webdav.sh"
command -v supermin >/dev/null || skip "supermin is not installed"
command -v lava-run >/dev/null || skip "lava-run is not installed (lava-dispatcher: scripts/install-deps.sh)"
[ -f /usr/share/lava-server/device-types/qemu.jinja2 ] ||
	skip "lava-server's device-type templates are not installed (scripts/install-deps.sh)"
[ -f /etc/default/tftpd-hpa ] || skip "tftpd-hpa is not installed: LAVA cannot validate a TFTP job (scripts/install-deps.sh)"
# LAVA's modules are Debian's, on the system Python's path.
py=/usr/bin/python3
lava() { "$py" "$TOP/tests/lib/lava-job.py" "$@"; }

work=$(mktemp -d "$CACHE/lava-job.XXXXXX")
pids="" ids=""
cleanup() {
	for p in $pids; do kill "$p" 2>/dev/null || true; done
	# lava-run --validate of a TFTP job makes the job's TFTP directory.
	for i in $ids; do rm -rf "/srv/tftp/$i"; done
	webdav_stop
	[ -n "${KEEP_TMP:-}" ] || rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP
webdav_start "$work/w"
dav=$work/w/dav

cat >"$work/lava-test.ini" <<EOF
[appliance]
include = $TOP/tests/e2e/netboot-test.ini
name = lava-test
upload = http://10.0.2.2:$WEBDAV_PORT/rack/
EOF
start=$(date +%s)
"$BUILDAPP" "$work/lava-test.ini" -o "$work/out" --cache "$CACHE/buildapp" || fail "the kit did not build"
echo "kit built in $(($(date +%s) - start))s"
nb=$work/out/lava-test.netboot
for f in lava-x86.yaml lava-qemu.yaml lava-disk.qcow2; do
	[ -s "$nb/$f" ] || fail "the kit wrote no $f in lava-test.netboot/"
done

# The x86 job: LAVA's schema, then the dispatcher's own validation on a
# device of that type (its power and console commands stand-ins).
lava validate "$nb/lava-x86.yaml" || fail "LAVA's schema refuses lava-x86.yaml"
lava validate "$nb/lava-qemu.yaml" || fail "LAVA's schema refuses lava-qemu.yaml"
lava render x86 "$nb/lava-x86.yaml" "$work/x86.yaml" "connection_command='cat'" \
	"power_on_command='true'" "power_off_command='true'" "hard_reset_command='true'"
id=$(($$ % 100000 + 400000)) ids="$ids $id"
lava-run --validate --job-id "$id" --output-dir "$work/x86-validate" --device "$work/x86.yaml" \
	"$nb/lava-x86.yaml" >"$work/x86-validate.log" 2>&1 ||
	{ tail -n 5 "$work/x86-validate.log"; fail "lava-run --validate refuses lava-x86.yaml"; }
grep -q '"case": "validate", "definition": "lava", "result": "pass"' "$work/x86-validate.log" ||
	fail "lava-run --validate did not validate lava-x86.yaml"
grep -q "buildapp.disk=auto .*buildapp.upload=http://10.0.2.2:$WEBDAV_PORT/rack/" "$work/x86.yaml" ||
	fail "the x86 device's iPXE commands lack the kit's settings and upload"
echo "lava-x86.yaml: valid (schema and lava-run --validate)"

# The timeouts: the whole job and a console's silence, as
# boot-appliance.sh derives them from the plan.
limits=$(sh "$TOP/scripts/boot-appliance.sh" "$work/out/lava-test.img" --print-limits) ||
	fail "boot-appliance.sh --print-limits"
"$py" - "$nb/lava-x86.yaml" "$nb/lava-qemu.yaml" $limits <<'PY' || fail "the jobs' timeouts are not boot-appliance.sh's"
import sys, yaml
total, silence = int(sys.argv[3]), int(sys.argv[4])
minutes = lambda s: -(-s // 60)
for path in sys.argv[1:3]:
    job = yaml.safe_load(open(path))
    t = job["timeouts"]
    test = [a["test"] for a in job["actions"] if "test" in a][0]
    boot = [a["boot"] for a in job["actions"] if "boot" in a][0]
    assert test["timeout"]["minutes"] == minutes(total), (path, test, total)
    assert boot["timeout"]["minutes"] == minutes(silence), (path, boot, silence)
    assert t["connection"]["minutes"] == minutes(silence), (path, t, silence)
    assert t["job"]["minutes"] > test["timeout"]["minutes"], (path, t)
PY

# The qemu device, as a lab would add one that has no KVM.
lava render qemu "$nb/lava-qemu.yaml" "$work/qemu.yaml" "no_kvm=True"
grep -q -- "-enable-kvm" "$work/qemu.yaml" && fail "the qemu device still asks for KVM"
# The second server's disk under test fails every read of sector 65536
# (32 MiB in: inside the LV, which starts 2 MiB in); writes pass, so the
# LV is made and filled, and the run's reads fail.
printf '[inject-error]\nevent = "none"\niotype = "read"\nerrno = "5"\nsector = "65536"\n' \
	>"$work/bad-sector.conf"
lava bad-disk "$nb/lava-qemu.yaml" "$work/lava-qemu-bad.yaml" "$work/bad-sector.conf" SRV-BAD

start=$(date +%s)
for job in good bad; do
	id=$((id + 1)) ids="$ids $id"
	src=$nb/lava-qemu.yaml
	[ "$job" = good ] || src=$work/lava-qemu-bad.yaml
	timeout 2400 lava-run --job-id "$id" --output-dir "$work/lava-$job" --device "$work/qemu.yaml" \
		"$src" >"$work/lava-$job.log" 2>&1 &
	pids="$pids $!"
done
rc=0
for p in $pids; do wait "$p" || rc=1; done
pids=""
echo "two LAVA jobs ran in $(($(date +%s) - start))s (lava-run exit: $rc)"
for job in good bad; do
	lava results "$work/lava-$job.log" >"$work/results-$job.json"
	echo "--- LAVA's results of the $job job (buildapp-sweep)"
	grep -o '"lvl": "target", "msg": "BUILDAPP-SWEEP [^"]*' "$work/lava-$job.log" | sed 's/.*"msg": "//'
done

bundle() { # SERIAL: the one bundle uploaded by the server of that DMI serial
	ls -d "$dav/rack/lava-test_$1_BUILDAPP-DUT_"*T*Z 2>/dev/null | head -n 1
}
good=$(bundle unknown) bad=$(bundle SRV-BAD)
[ -n "$good" ] && [ -f "$good/runs.jsonl" ] || { tail -n 20 "$work/lava-good.log"; fail "the good job's server uploaded no bundle"; }
[ -n "$bad" ] && [ -f "$bad/runs.jsonl" ] || { tail -n 20 "$work/lava-bad.log"; fail "the bad disk's server uploaded no bundle"; }

"$py" - "$work/results-good.json" "$good" "$work/results-bad.json" "$bad" <<'PY' || fail "LAVA's results are not the journal's"
import json, re, sys

def check(results_path, bundle, want_ok):
    results = json.load(open(results_path))
    plan = json.load(open(bundle + "/plan.json"))
    runs = [json.loads(l) for l in open(bundle + "/runs.jsonl")]
    cases = {r["extra"]["test_case_id"]: r for r in results
             if r.get("definition") == "buildapp-sweep"}
    job = [r for r in results if r.get("definition") == "lava" and r["case"] == "job"]
    assert job and job[0]["result"] == "pass", ("the job did not end complete", job)
    planned = ["%s/run-%d" % (plan["cells"][r["cell"]]["id"], r["run"] + 1) for r in plan["runs"]]
    run_cases = sorted(c for c in cases if c not in ("sweep", "upload"))
    assert run_cases == sorted(planned), (run_cases, planned)
    for r in runs:
        c = cases["%s/run-%d" % (r["cell"]["id"], r["index"] + 1)]
        # LAVA's case name is the id lowercased, every run of non-word
        # characters one '_' (monitor.py).
        assert c["case"] == re.sub(r"\W+", "_", c["extra"]["test_case_id"].lower()), c
        if want_ok:
            assert r["status"] == "ok", r
            m = r["metrics"][0]
            assert c["result"] == "pass", c
            assert float(c["measurement"]) == m["value"] and c["units"] == m["unit"], (c, m)
        else:
            assert r["status"] != "ok", r
            assert c["result"] == "fail" and c.get("measurement") is None, c
    assert cases["sweep"]["result"] == ("pass" if want_ok else "fail"), cases["sweep"]
    assert cases["upload"]["result"] == "pass", cases["upload"]
    return runs

good = check(sys.argv[1], sys.argv[2], True)
bad = check(sys.argv[3], sys.argv[4], False)
print("good: %s %s %s; bad: %s: %s" % (good[0]["cell"]["id"], good[0]["metrics"][0]["value"],
      good[0]["metrics"][0]["unit"], bad[0]["status"], bad[0]["message"]))
PY
[ "$rc" = 0 ] || fail "lava-run failed"
echo "lava-job: LAVA ran the kit's qemu job: a case per planned run, the journal's measurement; a failing disk's run a failed case; the x86 job valid"
