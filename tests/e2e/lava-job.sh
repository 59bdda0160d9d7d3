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
. "$TOP/tests/lib/lava.sh"
[ -f /etc/default/tftpd-hpa ] || skip "tftpd-hpa is not installed: LAVA cannot validate a TFTP job (scripts/install-deps.sh)"
lava_kit
ids=""
# lava-run --validate of a TFTP job makes the job's TFTP directory.
on_exit='for i in $ids; do rm -rf "/srv/tftp/$i"; done'

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
	grep -oE 'BUILDAPP-SWEEP (start|case|end)[ =][^"]*' "$work/lava-$job.log"
done

good=$(lava_bundle unknown) bad=$(lava_bundle SRV-BAD)
[ -n "$good" ] && [ -f "$good/runs.jsonl" ] || { tail -n 20 "$work/lava-good.log"; fail "the good job's server uploaded no bundle"; }
[ -n "$bad" ] && [ -f "$bad/runs.jsonl" ] || { tail -n 20 "$work/lava-bad.log"; fail "the bad disk's server uploaded no bundle"; }
lava check "$work/results-good.json" "$good" ok || fail "LAVA's results of the good job are not its journal's"
lava check "$work/results-bad.json" "$bad" failed || fail "LAVA's results of the bad disk's job are not its journal's"
[ "$rc" = 0 ] || fail "lava-run failed"
echo "lava-job: LAVA ran the kit's qemu job: a case per planned run, the journal's measurement; a failing disk's run a failed case; the x86 job valid"
