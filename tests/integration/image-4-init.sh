#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The appliance init as PID 1: a kit whose initramfs is buildapp-init (with
# busybox modprobe, hdparm, sdparm, nvme-cli and the disk modules) boots,
# coldplugs, finds RESULTS and the disk under test by its serial, turns its
# write cache off, reads it back, restores it, writes appliance.txt: on an ATA
# disk (hdparm), then a SCSI disk (sdparm) and an NVMe namespace (nvme-cli).
# Then a step that never ends (an hdparm that never returns, run through
# the same spawner): the console names the step, the watchdog says what it
# waits for half-way to its limit and, at the limit, writes why to RESULTS
# and powers the server off.
. "$TOP/tests/lib/common.sh"
work=$(mktemp -d "$CACHE/init.XXXXXX")
trap 'rm -rf "$work"' EXIT
[ -x "$B/buildapp-init" ] || fail "$B/buildapp-init not built"

sh "$TOP/tests/lib/busybox-initrd.sh" "$KVER" "$work/initrd.gz" "$B/buildapp-init"
"$BUILDAPP" image --kernel "$KERNEL" --initrd "$work/initrd.gz" --name init-test \
	--cmdline "console=ttyS0 buildapp.disk=INIT-TEST-DUT buildapp.write_cache=off buildapp.read_ahead_kb=512" \
	-o "$work/kit.img"
sh "$TOP/scripts/boot-appliance.sh" "$work/kit.img" --serial INIT-TEST-DUT \
	--disk-size 1G --memory 512 --timeout 300 >"$work/out"
grep -E '^buildapp-init|^[a-z_]+: ' "$work/out"
expect() { grep -qx "$1" "$work/out" || fail "report lacks '$1'"; }
expect 'firmware: bios'
expect 'boot_disk: vda'
expect 'disk_under_test: sda'
expect 'disk_serial: INIT-TEST-DUT'
expect 'disk_protocol: ata'
expect 'write_cache_original: on'
expect 'write_cache_effective: off'
expect 'write_cache_after_restore: on'
expect 'read_ahead_kb_effective: 512'
expect 'sweep: not run: no plan in this appliance'
expect 'status: ok'

for bus in scsi nvme; do
	cp --sparse=always "$work/kit.img" "$work/$bus.img"
	sh "$TOP/scripts/boot-appliance.sh" "$work/$bus.img" --serial INIT-TEST-DUT \
		--dut-bus "$bus" --disk-size 1G --memory 512 --timeout 300 >"$work/out"
	grep -E '^buildapp-init|^[a-z_]+: ' "$work/out"
	expect 'disk_serial: INIT-TEST-DUT'
	expect "disk_protocol: $bus"
	expect 'write_cache_effective: off'
	expect 'status: ok'
done

HANG_TOOL=hdparm sh "$TOP/tests/lib/busybox-initrd.sh" "$KVER" "$work/hang.gz" "$B/buildapp-init"
"$BUILDAPP" image --kernel "$KERNEL" --initrd "$work/hang.gz" --name init-hang \
	--cmdline "console=ttyS0 buildapp.disk=INIT-TEST-DUT buildapp.write_cache=off buildapp.stall_timeout=30" \
	-o "$work/hang.img"
rc=0
sh "$TOP/scripts/boot-appliance.sh" "$work/hang.img" --serial INIT-TEST-DUT \
	--disk-size 1G --memory 512 --timeout 300 --log "$work/hang.log" >"$work/out" || rc=$?
grep -E '^buildapp-init|^[a-z_]+: ' "$work/hang.log" "$work/out"
[ "$rc" -eq 0 ] || fail "the server with a hung step did not power off with a report (exit $rc)"
step="applying the host settings to /dev/sda"
grep -q "^buildapp-init: $step (write cache off" "$work/hang.log" ||
	fail "the console does not name the step that hangs"
grep -Eq "^buildapp-init: warning: still at '$step .*' after 1[5-9] s \(half its limit of 30 s\); waiting for: pid [0-9]+ '/bin/busybox sh /bin/hdparm -W /dev/sda' S in [a-z_]+; pid [0-9]+ '/bin/busybox sleep 1000000' S in [a-z_]+" \
	"$work/hang.log" || fail "the watchdog did not say what the step waits for half-way"
expect 'status: failed'
grep -Eq "^reason: the watchdog stopped this boot's work: '$step .*' did not end within 30 s; waiting for: pid [0-9]+ '/bin/busybox sh /bin/hdparm -W /dev/sda'" \
	"$work/out" || fail "appliance.txt does not say why the boot's work stopped"
grep -q "^sweep: stopped by the watchdog: '$step" "$work/out" ||
	fail "appliance.txt's sweep line does not say the watchdog stopped it"
# Beside it, every process and where it waits: the hung tool's kernel
# stack among them.
guestfish --ro -a "$work/hang.img" -m /dev/sda2 cat /watchdog.txt >"$work/watchdog.txt" ||
	fail "no watchdog.txt on RESULTS"
grep -Eq "^  [0-9]+ [0-9]+ S [a-z_]+ /bin/busybox sleep 1000000$" "$work/watchdog.txt" &&
	grep -Eq "^  pid [0-9]+, kernel stack:$" "$work/watchdog.txt" ||
	{ cat "$work/watchdog.txt"; fail "watchdog.txt does not list the hung tool and its kernel stack"; }
echo "a step that never ends: named, its wait described, its reason on RESULTS, powered off"
