#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The kit's x86 LAVA job as a lab runs it, on x86 servers emulated here
# (tests/lib/x86-device.sh): LAVA's own dispatcher (`lava-run`) with a
# device dictionary rendered from lava-server's x86.jinja2, whose power
# commands start and stop a QEMU that boots from the network through
# Debian's iPXE ROM (a typed line of at most 255 characters), whose serial
# console LAVA reaches through ser2net's telnet, listening before the
# power is on, and whose kernel and initrd come from LAVA's TFTP
# deployment (QEMU's user network serving /srv/tftp as 10.0.2.2); under
# UEFI (OVMF), or BIOS (SeaBIOS) with LAVA_X86_FIRMWARE=bios
# (tests/slow/lava-x86-bios.sh).  The kit is tests/e2e/netboot-test.ini's
# (one qemu-img bench run, no nested guest, disk = auto), uploading to the
# tests' WebDAV server.
#
# - The job as the build wrote it ends complete with one case per planned
#   run, the journal's measurement; the appliance's console shows every
#   kernel argument LAVA gave it, and that the kit's arrived whole; the
#   bundle reaches the upload URL, which the console names.
# - A second job on the same server and the same disk under test: the
#   kit finds the layout the first one made (its mark: no RESULTS tells
#   it), lays it out again without wipe, and every run is made.
# - That disk copied with one hex digit of its disk GUID changed (the
#   mark), on another server: refused, nothing written, every planned run
#   a failed case; and a server with two blank disks and disk = auto: it
#   stops before writing, naming both disks on the console and in the
#   appliance.txt it uploads, both disks untouched.
# Two servers at a time: the first job with the two-disk server's, then
# the second with the changed mark's (which needs the first one's disk).
#
# Cost: the kit (seconds from a warm cache), then four TCG boots of the
# appliance through iPXE, two at a time (docs/testing.md).
. "$TOP/tests/lib/common.sh"
. "$TOP/tests/lib/webdav.sh"
. "$TOP/tests/lib/lava.sh"
[ -f /etc/default/tftpd-hpa ] || skip "tftpd-hpa is not installed: LAVA's TFTP deployment needs its configuration (scripts/install-deps.sh)"
for t in ser2net socat telnet sfdisk; do
	command -v "$t" >/dev/null || skip "$t is not installed (scripts/install-deps.sh)"
done
[ -f /usr/lib/ipxe/qemu/efi-e1000.rom ] || skip "QEMU's iPXE ROMs are not installed (ipxe-qemu)"
firmware=${LAVA_X86_FIRMWARE:-uefi}
[ "$firmware" = bios ] || [ -f /usr/share/OVMF/OVMF_CODE_4M.fd ] || skip "OVMF is not installed (ovmf)"
lava_kit
job=$nb/lava-x86.yaml
manifest=$work/out/lava-test.manifest.json
id=$(($$ % 100000 + 500000))

# What the job says of the kit.
"$py" - "$job" "$manifest" <<'PY' || fail "lava-x86.yaml does not name the kit it runs"
import hashlib, json, sys, yaml
job = yaml.safe_load(open(sys.argv[1]))
meta = job["metadata"]
sha = hashlib.sha256(open(sys.argv[2], "rb").read()).hexdigest()
assert meta["buildapp.manifest_sha256"] == sha, (meta, sha)
assert meta["buildapp.kit"] == "lava-test" and meta["buildapp.version"], meta
args = job["context"]["extra_kernel_args"]
assert "initrd=initrd" in args.split() and args.split()[-1] == "buildapp.end", args
print("lava-x86.yaml: kit %s, buildapp %s, manifest %s, kernel arguments: %s"
      % (meta["buildapp.kit"], meta["buildapp.version"], sha[:12], args))
PY

# said NAME: what the appliance of job NAME said went wrong.
said() {
	grep -o 'buildapp-init: [a-z]*[: ]*\(error\|warning\)[^"]*' "$work/lava-$1.log" | tail -n 10
}

# check_console NAME: the kernel got every word LAVA gave it, and said so.
check_console() {
	log=$work/lava-$1.log
	line=$(grep -o 'buildapp-init: kernel command line: [^"]*' "$log" | head -n 1)
	[ -n "$line" ] || fail "job $1: the appliance did not show its kernel command line"
	echo "job $1: ${line#buildapp-init: }"
	for w in $(lava kernel-words "$work/$1.yaml"); do
		case " ${line#*: kernel command line: } " in
		*" $w "*) ;;
		*) fail "job $1: the kernel did not get '$w' (iPXE cut the line short?)" ;;
		esac
	done
	grep -q "buildapp-init: kernel command line: the kit's words arrived whole" "$log" ||
		fail "job $1: the appliance did not say the kit's words arrived whole"
}

# run_two NAME ID NAME ID: jobs on two servers at once.
run_two() {
	ids="${ids:-} $2 $4" # for lava_cleanup: lava_run runs in a subshell
	start=$(date +%s)
	lava_run "$2" "$job" "$1" &
	pids="$pids $!"
	lava_run "$4" "$job" "$3" &
	pids="$pids $!"
	# shellcheck disable=SC2086 # the two pids
	wait $pids
	pids=""
	echo "$1 and $3 at once ($firmware): $(($(date +%s) - start))s, lava-run exit $(cat "$work/rc-$1") and $(cat "$work/rc-$3")"
}

# The first job, as the build wrote it; with it, the server with two
# blank disks and disk = auto.
lava_x86 srv "$firmware"
lava_x86_device srv "$job"
lava_x86 auto "$firmware" DISK-AUTO-A DISK-AUTO-B
# Untouched: a write would change a disk's modification time, if not its
# allocation (qemu-img create allocates a raw file's first block).
stat -c '%n %b %Y' "$work/auto/"*.raw >"$work/auto-before.stat"
lava_x86_device auto "$job"
run_two srv "$id" auto $((id + 1))

lava results "$work/lava-srv.log" >"$work/results-1.json"
grep -oE 'BUILDAPP-SWEEP (start|case|end)[ =][^"]*' "$work/lava-srv.log"
first=$(lava_bundle SRV-srv DISK-SRV-srv)
[ -n "$first" ] && [ -f "$first/runs.jsonl" ] || { said srv; fail "job 1: no bundle with a journal uploaded"; }
lava check "$work/results-1.json" "$first" ok || { said srv; fail "job 1: LAVA's results are not its journal's"; }
check_console srv
grep -q "buildapp-init: uploaded to http://10.0.2.2:$WEBDAV_PORT/rack/$(basename "$first")/" "$work/lava-srv.log" ||
	fail "job 1: the console does not name the bundle's URL"
[ "$(cat "$work/rc-srv")" = 0 ] || fail "job 1: lava-run failed"
cp --sparse=always "$work/srv/DISK-SRV-srv.raw" "$work/laid-out.raw"

log=$work/lava-auto.log
lava results "$log" >"$work/results-4.json"
said=$(grep -o "disk under test 'auto': 2 disks could be it ([^\"]*" "$log" | head -n 1)
echo "job 4: $said"
# The kernel names the two AHCI disks in the order their ports answer,
# which differs from boot to boot, as on a real server: either is right.
both='sd[ab]: 8G, model QEMU HARDDISK, identities: DISK-AUTO-[AB]'
case $said in
*"(sda: 8G, model QEMU HARDDISK, identities: DISK-AUTO-A; sdb: 8G, model QEMU HARDDISK, identities: DISK-AUTO-B)"*"nothing was written"*) ;;
*"(sda: 8G, model QEMU HARDDISK, identities: DISK-AUTO-B; sdb: 8G, model QEMU HARDDISK, identities: DISK-AUTO-A)"*"nothing was written"*) ;;
*) grep -o 'buildapp-init: [^"]*' "$log" | tail -n 20; fail "job 4: the console does not name both disks" ;;
esac
auto=$(lava_bundle SRV-auto nodisk)
[ -n "$auto" ] || fail "job 4: no bundle uploaded"
grep -E "^disk_candidates: 2 \($both; $both\)" "$auto/appliance.txt" | grep -F DISK-AUTO-A | grep -F DISK-AUTO-B ||
	fail "job 4: appliance.txt: $(cat "$auto/appliance.txt")"
stat -c '%n %b %Y' "$work/auto/"*.raw | cmp -s - "$work/auto-before.stat" ||
	fail "job 4: a disk was written: $(stat -c '%n %b %y' "$work/auto/"*.raw) (before: $(cat "$work/auto-before.stat"))"
lava check "$work/results-4.json" "$manifest" notmade || fail "job 4: LAVA's results"
[ "$(cat "$work/rc-auto")" = 0 ] || fail "job 4: lava-run failed"

# The second job on the same server and disk: the first one's layout is
# a kit's (its mark), laid out again without wipe; with it, the same
# layout with one hex digit of its mark changed, on a server of its own.
mv "$work/lava-srv.log" "$work/lava-srv-1.log"
lava_x86 mark "$firmware" DISK-MARK
cp --sparse=always "$work/laid-out.raw" "$work/mark/DISK-MARK.raw"
guid=$(sfdisk --disk-id "$work/mark/DISK-MARK.raw")
last=$(printf '%s' "$guid" | tail -c 1)
changed=$(printf '%s' "$guid" | sed "s/.\$/$([ "$last" = 0 ] && echo 1 || echo 0)/")
sfdisk -q --disk-id "$work/mark/DISK-MARK.raw" "$changed" || fail "sfdisk could not change the disk GUID"
sfdisk --dump "$work/mark/DISK-MARK.raw" >"$work/mark-before.dump"
stat -c '%n %b %Y' "$work/mark/DISK-MARK.raw" >"$work/mark-before.stat"
echo "the mark's disk GUID: $guid; the copy's: $changed"
lava_x86_device mark "$job"
run_two srv $((id + 2)) mark $((id + 3))

lava results "$work/lava-srv.log" >"$work/results-2.json"
grep -oE "buildapp-init: '/dev/sd[a-z]' carries a layout a kit made[^\"]*" "$work/lava-srv.log" ||
	{ grep -o 'buildapp-init: [^"]*' "$work/lava-srv.log" | tail -n 20; fail "job 2: the kit did not take the first one's layout for a kit's"; }
second=$(ls -d "$dav/rack/lava-test_SRV-srv_DISK-SRV-srv_"*T*Z | grep -vx "$first" | head -n 1)
[ -n "$second" ] && [ -f "$second/runs.jsonl" ] || { said srv; fail "job 2: no second bundle uploaded"; }
lava check "$work/results-2.json" "$second" ok || { said srv; fail "job 2: not every run was made"; }
[ "$(cat "$work/rc-srv")" = 0 ] || fail "job 2: lava-run failed"

log=$work/lava-mark.log
lava results "$log" >"$work/results-3.json"
grep -o "refusing to write '/dev/sd[a-z]': [^\"]*" "$log" | head -n 1 |
	grep "carries signatures (gpt) and wipe is not set; its partitions are named as a kit's layout, but its disk GUID is not that layout's mark" ||
	{ grep -o 'buildapp-init: [^"]*' "$log" | tail -n 20; fail "job 3: the changed mark was not refused"; }
sfdisk --dump "$work/mark/DISK-MARK.raw" | cmp -s - "$work/mark-before.dump" ||
	fail "job 3: the refused disk's partition table changed"
stat -c '%n %b %Y' "$work/mark/DISK-MARK.raw" | cmp -s - "$work/mark-before.stat" ||
	fail "job 3: the refused disk was written"
lava check "$work/results-3.json" "$manifest" notmade || fail "job 3: LAVA's results"
[ "$(cat "$work/rc-mark")" = 0 ] || fail "job 3: lava-run failed"
echo "lava-x86 ($firmware): the x86 job complete twice on one server, the kernel's arguments whole, a changed mark refused, two candidate disks named and left alone"
