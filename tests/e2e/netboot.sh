#!/bin/sh
# Netboot as a lab does it, on this machine: the kit of
# tests/e2e/netboot-test.ini (kit-test's host settings, a one-run
# qemu-img bench sweep on the disk under test, disk under test auto), its NAME.netboot/ served over HTTP by a real nginx on 127.0.0.1
# (which also takes the uploads, its dav module), and virtual lab servers
# with no disk but the one under test and no stick: QEMU's own iPXE
# (ipxe-qemu's ROM on an e1000 NIC) gets DHCP and a TFTP chain script from
# QEMU's user-mode network, which chains http://10.0.2.2:PORT/...boot.ipxe
# (QEMU hands 10.0.2.2 to the host's loopback), the lab's one boot script
# with buildapp.upload= appended.
#
# Two servers (DMI serials SRV-A and SRV-B, disk serials DISK-A and
# DISK-B) run their sweeps with their bundles in RAM and upload them; a
# third, whose script names a location that refuses uploads (and a disk
# it does not have, so it has no sweep to run), says so on its console
# and still powers off.  What arrived: two bundles under their servers'
# names, whole (SHA256SUMS checks, no temporary collection left), each
# saying it was kept in RAM; `buildapp report` over the directory shows
# both servers side by side.  An upload cut short is
# tests/integration/upload-webdav.sh's.
#
# Cost: the kit build (a minute from a warm cache), then the three servers
# at once: three TCG boots of the appliance, no nested guest; 5.7 minutes
# measured at load 10-17 on 2 cores (kit 56 s, servers 281 s).
. "$TOP/tests/lib/common.sh"
. "$TOP/tests/lib/webdav.sh"
rom=/usr/lib/ipxe/qemu/efi-e1000.rom
[ -f "$rom" ] || skip "QEMU's iPXE ROMs are not installed (ipxe-qemu)"
command -v supermin >/dev/null || skip "supermin is not installed"
work=$(mktemp -d "$CACHE/netboot.XXXXXX")
pids=""
cleanup() {
	for p in $pids; do kill "$p" 2>/dev/null || true; done
	webdav_stop
	[ -n "${KEEP_TMP:-}" ] || rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

webdav_start "$work/w"
dav=$work/w/dav
start=$(date +%s)
"$BUILDAPP" "$TOP/tests/e2e/netboot-test.ini" -o "$work/out" --cache "$CACHE/buildapp" ||
	fail "the kit did not build"
echo "kit built in $(($(date +%s) - start))s"
nb=$work/out/netboot-test.netboot
for f in vmlinuz initrd boot.ipxe; do
	[ -s "$nb/$f" ] || fail "the kit wrote no $f in netboot-test.netboot/"
done
grep -q '^kernel vmlinuz initrd=initrd .*buildapp.disk=auto' "$nb/boot.ipxe" ||
	fail "boot.ipxe: $(cat "$nb/boot.ipxe")"

# The lab's HTTP server: the netboot directory, and two boot scripts made
# from the kit's, settings appended to its kernel command line.  A TCG
# server on a loaded host can fail the kernel's IO-APIC timer check and
# panic: no_timer_check, as for any virtual machine.
cp -r "$nb" "$dav/netboot-test.netboot"
url=http://10.0.2.2:$WEBDAV_PORT
sed "s|^kernel .*|& no_timer_check buildapp.upload=$url/rack/|" "$nb/boot.ipxe" \
	>"$dav/netboot-test.netboot/rack.ipxe"
sed "s|^kernel .*|& no_timer_check buildapp.disk=NO-SUCH-DISK buildapp.upload=$url/ro/|" \
	"$nb/boot.ipxe" >"$dav/netboot-test.netboot/refused.ipxe"
chmod -R a+rX "$dav/netboot-test.netboot"

# SeaBIOS's output, and so iPXE's, on the serial console too: the port's
# number (0x3f8) as the little-endian integer SeaBIOS reads.
printf '\370\003' >"$work/sercon-port"

# server NAME SCRIPT: boots a virtual lab server (DMI serial SRV-NAME, a
# blank 8G disk under test serial DISK-NAME on IDE) from the network: an
# i440FX machine and an e1000 NIC, the pair whose iPXE ROM this QEMU's
# SeaBIOS runs every time (on q35, or with virtio-net, it did not).
server() {
	mkdir -p "$work/tftp-$1"
	printf '#!ipxe\nchain %s/netboot-test.netboot/%s\n' "$url" "$2" >"$work/tftp-$1/chain.ipxe"
	qemu-img create -q -f raw "$work/dut-$1.raw" 8G
	timeout 3000 qemu-system-x86_64 -accel tcg -M pc -m 3072 -smp 2 -cpu max \
		-nodefaults -display none -no-reboot -serial stdio \
		-fw_cfg "name=etc/sercon-port,file=$work/sercon-port" \
		-smbios "type=1,manufacturer=buildapp-test,product=netboot,serial=SRV-$1" \
		-netdev "user,id=net0,tftp=$work/tftp-$1,bootfile=chain.ipxe" \
		-device "e1000,netdev=net0,romfile=$rom,bootindex=0" \
		-drive "file=$work/dut-$1.raw,format=raw,if=none,id=dut,cache=none,aio=threads" \
		-device "ide-hd,drive=dut,bus=ide.0,serial=DISK-$1" \
		</dev/null >"$work/console-$1.log" 2>&1
	echo $? >"$work/rc-$1"
}

start=$(date +%s)
server A rack.ipxe & pids="$pids $!"
server B rack.ipxe & pids="$pids $!"
server C refused.ipxe & pids="$pids $!"
wait
pids=""
echo "three servers powered off after $(($(date +%s) - start))s"
for s in A B C; do
	echo "--- console of server $s (last lines)"
	tail -n 25 "$work/console-$s.log"
	[ "$(cat "$work/rc-$s")" = 0 ] || fail "server $s: qemu exit $(cat "$work/rc-$s") (no power-off in time?)"
	grep -q "iPXE (PCI .*) starting execution" "$work/console-$s.log" ||
		fail "server $s: not booted by iPXE"
	grep -q "^http://10.0.2.2:$WEBDAV_PORT/netboot-test.netboot/.*\.ipxe\.\.\. ok" \
		"$work/console-$s.log" || fail "server $s: iPXE did not chain the boot script"
done

for s in A B; do
	log=$work/console-$s.log
	grep -q "no partition labelled RESULTS: the results stay in RAM" "$log" ||
		fail "server $s: did not keep its results in RAM"
	grep -q "network: eth0 configured by DHCP" "$log" || fail "server $s: no DHCP lease"
	grep -q "uploaded to http://10.0.2.2:$WEBDAV_PORT/rack/netboot-test_SRV-${s}_DISK-${s}_" "$log" ||
		fail "server $s: no upload on its console"
	grep -q "done; poweroff" "$log" || fail "server $s: its sweep did not end well"
	b=$(ls -d "$dav/rack/netboot-test_SRV-${s}_DISK-${s}_"*T*Z 2>/dev/null)
	[ -n "$b" ] && [ -d "$b" ] || fail "server $s: no bundle named by server, disk and boot time"
	(cd "$b" && sha256sum --quiet -c SHA256SUMS) || fail "server $s: SHA256SUMS does not check"
	grep -qx "results: RAM (no RESULTS partition)" "$b/appliance.txt" ||
		fail "server $s: appliance.txt: $(cat "$b/appliance.txt")"
	grep -q "^upload: sending to http://10.0.2.2:$WEBDAV_PORT/rack/ as $(basename "$b")" "$b/appliance.txt" ||
		fail "server $s: appliance.txt has no upload line"
	[ "$(grep -c '"status":"ok"' "$b/runs.jsonl")" -eq 1 ] || fail "server $s: its run is not journaled ok"
	python3 - "$b/host.json" "$s" <<'PY' || fail "server $s: host.json does not name it"
import json, sys
h, s = json.load(open(sys.argv[1])), sys.argv[2]
assert h["server"]["serial"] == "SRV-" + s, h["server"]
assert h["disk"]["serial"] == "DISK-" + s, h["disk"]
assert h["label"] == "SRV-%s_DISK-%s" % (s, s), h["label"]
assert h["boot_time"], h
PY
done
[ -z "$(ls -A "$dav/rack" | grep '^\.')" ] || fail "a temporary collection was left: $(ls -A "$dav/rack")"
[ "$(ls "$dav/rack" | wc -l)" -eq 2 ] || fail "the rack holds more than the two bundles: $(ls "$dav/rack")"

log=$work/console-C.log
grep -q "upload to http://10.0.2.2:$WEBDAV_PORT/ro/ failed: .*refused: HTTP 405" "$log" ||
	fail "server C: no clear line for the refused upload"
grep -q "failed; poweroff" "$log" || fail "server C: did not power off as the profile says"
grep -q "iPXE/.*" "$work/w/nginx/access.log" || fail "nginx served nothing to iPXE"
[ -z "$(ls -A "$dav/ro")" ] || fail "server C: something was written where uploads are refused"

"$BUILDAPP" report "$dav/rack" -o "$work/report" || fail "buildapp report over the rack failed"
python3 - "$work/report/report.json" <<'PY' || fail "the rack's report does not show both servers"
import json, sys
r = json.load(open(sys.argv[1]))
labels = sorted(h["label"] for h in r["hosts"])
assert labels == ["SRV-A_DISK-A", "SRV-B_DISK-B"], labels
cells = [c for w in r["workloads"] for m in w["metrics"] for c in m["cells"]]
assert {c["host"] for c in cells} == set(labels), cells
host_axis = [a for a in r["axes"] if a["name"] == "host"]
assert host_axis and sorted(host_axis[0]["levels"]) == labels, r["axes"]
PY
grep -E "SRV-A_DISK-A|SRV-B_DISK-B" "$work/report/report.txt" | head -n 8
echo "netboot: two servers uploaded, the refused one said so and powered off"
