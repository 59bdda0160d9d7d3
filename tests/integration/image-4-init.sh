#!/bin/sh
# The appliance init as PID 1: a kit whose initramfs is buildapp-init (with
# busybox modprobe, hdparm, sdparm, nvme-cli and the disk modules) boots,
# coldplugs, finds RESULTS and the disk under test by its serial, turns its
# write cache off, reads it back, restores it, writes appliance.txt: on an ATA
# disk (hdparm), then a SCSI disk (sdparm) and an NVMe namespace (nvme-cli).
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
