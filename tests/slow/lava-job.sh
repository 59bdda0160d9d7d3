#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The kit as LAVA jobs, run by LAVA's own dispatcher (Debian's
# lava-dispatcher, `lava-run`, no server): the kit of
# tests/e2e/netboot-test.ini (one qemu-img bench run, no nested guest)
# with an upload URL, its NAME.netboot/lava-qemu.yaml run on a qemu device
# rendered from lava-server's qemu.jinja2 with no_kvm (QEMU under TCG),
# its disk under test failing reads of one sector (QEMU's blkdebug; the
# LV's reads hit it): LAVA's results hold one case per planned run, failed,
# not missing, and the job is complete.  (The same job's passing run is
# what the x86 job shows, tests/e2e/lava-x86.sh: the qemu job's own
# passing run is not made again here.)  The kit's x86 jobs, the one for
# any server and the one --lava-server wrote for a server of its own (its
# tags, its disk), are validated by LAVA's job schema and by `lava-run
# --validate` on an x86 device rendered from x86.jinja2; every job's
# timeouts follow from the plan: the test action's is
# scripts/boot-appliance.sh's limit, the boot's (LAVA's monitor's wait
# for its next line) covers a first run after provisioning and the kit's
# own watchdog, and the job's covers its actions.
#
# Slow, not in make check: tests/e2e/lava-x86.sh runs LAVA's dispatcher
# through the x86 job end to end in make check; this adds the qemu job's
# failed case and the jobs' validation.  Cost: the kit (seconds from a
# warm cache), then one TCG boot of the appliance, no nested guest: 100 s
# in .ci/run's log.
. "$TOP/tests/lib/common.sh"
. "$TOP/tests/lib/webdav.sh"
. "$TOP/tests/lib/lava.sh"
[ -f /etc/default/tftpd-hpa ] || skip "tftpd-hpa is not installed: LAVA cannot validate a TFTP job (scripts/install-deps.sh)"
lava_kit --lava-server 'srv-a,ssd=wwn-0x5000c500a1b2c3d4'

# The x86 jobs: LAVA's schema, then the dispatcher's own validation on a
# device of that type (its power and console commands stand-ins).
lava validate "$nb/lava-qemu.yaml" || fail "LAVA's schema refuses lava-qemu.yaml"
id=$(($$ % 100000 + 400000))
for x in lava-x86 lava-x86-srv-a; do
	lava validate "$nb/$x.yaml" || fail "LAVA's schema refuses $x.yaml"
	lava render x86 "$nb/$x.yaml" "$work/$x-device.yaml" "connection_command='cat'" \
		"power_on_command='true'" "power_off_command='true'" "hard_reset_command='true'"
	id=$((id + 1)) ids="${ids:-} $id"
	lava-run --validate --job-id "$id" --output-dir "$work/$x-validate" \
		--device "$work/$x-device.yaml" "$nb/$x.yaml" >"$work/$x-validate.log" 2>&1 ||
		{ tail -n 5 "$work/$x-validate.log"; fail "lava-run --validate refuses $x.yaml"; }
	grep -q '"case": "validate", "definition": "lava", "result": "pass"' "$work/$x-validate.log" ||
		fail "lava-run --validate did not validate $x.yaml"
	echo "$x.yaml: valid (schema and lava-run --validate)"
done
# The device dictionary docs/lab.md gives a lab, rendered with the job's
# context and validated by the dispatcher (its commands are not run).
sed -n "/^    {% extends 'x86.jinja2' %}/,/^\$/p" "$TOP/docs/lab.md" | sed 's/^    //' >"$work/srv-a.jinja2"
grep -q hard_reset_command "$work/srv-a.jinja2" || fail "docs/lab.md has no x86 device dictionary"
lava render-dict "$work/srv-a.jinja2" "$nb/lava-x86.yaml" "$work/srv-a.yaml" ||
	fail "docs/lab.md's device dictionary does not render"
"$py" - "$work/srv-a.yaml" <<'PY' || fail "docs/lab.md's device dictionary: its power commands"
import sys, yaml
d = yaml.safe_load(open(sys.argv[1]))
power = d["commands"]
reset = power["hard_reset"]
assert isinstance(reset, list) and reset[0].endswith("chassis bootdev pxe"), reset
assert reset[-1].endswith("chassis power on") and "-P" not in " ".join(reset).split(), reset
PY
id=$((id + 1)) ids="$ids $id"
lava-run --validate --job-id "$id" --output-dir "$work/srv-a-validate" --device "$work/srv-a.yaml" \
	"$nb/lava-x86.yaml" >"$work/srv-a-validate.log" 2>&1 ||
	{ tail -n 5 "$work/srv-a-validate.log"; fail "lava-run --validate refuses docs/lab.md's device"; }
echo "docs/lab.md's device dictionary: renders, validates; $(grep 'hard_reset:' "$work/srv-a.yaml" | sed 's/^ *//')"
# What iPXE is typed: the few arguments of the job, then LAVA's ip=.
grep -q "set extraargs quiet initrd=initrd buildapp.end ip=dhcp" "$work/lava-x86-device.yaml" ||
	fail "the x86 device's iPXE commands: $(grep extraargs "$work/lava-x86-device.yaml")"
grep -q "set extraargs quiet initrd=initrd buildapp.disk=wwn-0x5000c500a1b2c3d4 buildapp.end ip=dhcp" \
	"$work/lava-x86-srv-a-device.yaml" || fail "the server's job does not name its disk"
"$py" - "$nb/lava-x86-srv-a.yaml" <<'PY' || fail "lava-x86-srv-a.yaml does not ask for its server"
import sys, yaml
job = yaml.safe_load(open(sys.argv[1]))
assert job["tags"] == ["srv-a", "ssd"], job.get("tags")
assert job["job_name"].endswith(" on srv-a)"), job["job_name"]
assert job["metadata"]["buildapp.disk"] == "wwn-0x5000c500a1b2c3d4", job["metadata"]
PY

# The timeouts, from the plan: the test action's as boot-appliance.sh
# derives its limit, the boot's (how long the monitor waits for a line),
# and the job's over them all.
limits=$(sh "$TOP/scripts/boot-appliance.sh" "$work/out/lava-test.img" --print-limits) ||
	fail "boot-appliance.sh --print-limits"
"$py" - "$work/out/lava-test.manifest.json" $limits "$nb/lava-x86.yaml" "$nb/lava-x86-srv-a.yaml" \
	"$nb/lava-qemu.yaml" <<'PY' || fail "the jobs' timeouts"
import json, sys, yaml
profile = json.load(open(sys.argv[1]))["profile"]
total = int(sys.argv[2])
minutes = lambda s: -(-s // 60)
# The monitor's wait for the start line's next match: boot and
# provisioning (boot-appliance.sh's boot margin, 900 s), then a run that
# the kit's watchdog ends after [guest] timeout and stall_timeout.
deadline = 900 + profile["guest"]["timeout"] + max(120, profile["appliance"]["stall_timeout"])
for path in sys.argv[4:]:
    job = yaml.safe_load(open(path))
    t = job["timeouts"]
    actions = {k: a[k] for a in job["actions"] for k in a}
    assert actions["test"]["timeout"]["minutes"] == minutes(total), (path, actions["test"], total)
    assert actions["boot"]["timeout"]["minutes"] == minutes(deadline), (path, actions["boot"], deadline)
    assert t["connection"]["minutes"] == minutes(deadline), (path, t, deadline)
    spent = sum(a["timeout"]["minutes"] for a in actions.values())
    assert t["job"]["minutes"] > spent, (path, t, spent)
    print("%s: job %d min > deploy + boot + test %d min; the monitor waits %d min for a line"
          % (path.split("/")[-1], t["job"]["minutes"], spent, actions["boot"]["timeout"]["minutes"]))
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
id=$((id + 1)) ids="$ids $id"
rc=0
timeout 2400 lava-run --job-id "$id" --output-dir "$work/lava-bad" --device "$work/qemu.yaml" \
	"$work/lava-qemu-bad.yaml" >"$work/lava-bad.log" 2>&1 || rc=$?
echo "LAVA ran the qemu job in $(($(date +%s) - start))s (lava-run exit: $rc)"
lava results "$work/lava-bad.log" >"$work/results-bad.json"
echo "--- LAVA's results of the job (buildapp-sweep)"
grep -oE 'BUILDAPP-SWEEP (start|case|end)[ =][^"]*' "$work/lava-bad.log"

bad=$(lava_bundle SRV-BAD)
[ -n "$bad" ] && [ -f "$bad/runs.jsonl" ] || { tail -n 20 "$work/lava-bad.log"; fail "the bad disk's server uploaded no bundle"; }
lava check "$work/results-bad.json" "$bad" failed || fail "LAVA's results of the bad disk's job are not its journal's"
[ "$rc" = 0 ] || fail "lava-run failed"
echo "lava-job: LAVA ran the kit's qemu job: a failing disk's run a failed case; the x86 jobs valid, their timeouts the plan's"
