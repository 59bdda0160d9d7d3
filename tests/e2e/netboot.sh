#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Netboot as a lab does it, on this machine: the kit of
# tests/e2e/netboot-test.ini (kit-test's host settings, a one-run
# qemu-img bench sweep on the disk under test, disk under test auto), its
# NAME.netboot/ served over HTTP by a real nginx on 127.0.0.1 (which also
# takes the uploads, its dav module), and virtual lab servers netbooted
# by QEMU's own iPXE (tests/lib/netboot.sh), the lab's boot scripts made
# from the kit's with buildapp.upload= appended.
#
# Two servers (DMI serials SRV-A and SRV-B, disk serials DISK-A and
# DISK-B, no stick) run their sweeps with their bundles in RAM and upload
# them; a fourth (SRV-D, no stick) runs its sweep and its upload is
# refused: it says so, does not power off (its bundle in RAM is the only
# copy) and says how to get the bundle; a stick with an ext4 partition
# labelled RESULTS, plugged in (USB, through QEMU's monitor) once it says
# so, gets the bundle, and then it powers off; a third, whose script names a location that refuses uploads, says
# so on its console and in appliance.txt on the RESULTS stick it has (a
# small disk with a partition labelled RESULTS, made here), read back after
# it powered off, and still powers off.  The third is netbooted with the
# ESP's initrd alone, without the archive that carries the guest kernel,
# and its stick's partition 1 is a FAT labelled BUILDAPP whose /vmlinuz is
# not the kit's: it refuses to run its sweep, saying why in one line.  The
# kit stores the guest kernel once (tests/lib/kit-kernel.py), and the two
# that ran their sweeps name the kit in host.json as the manifest's hashes
# give it.  What arrived: two bundles under their servers' names, whole
# (SHA256SUMS checks, no temporary collection left), each saying it was
# kept in RAM; `buildapp report` over the directory shows both servers
# side by side.  Their disk's LV is filled ([storage] fill) with the
# pristine image from the kit's disk.qcow2 at provisioning, so their run's
# reset is none, checked against a full reset before and after the run.  An upload cut short is tests/integration/upload-webdav.sh's.
#
# Cost: the kit build (a minute from a warm cache), then the three servers
# at once: three TCG boots of the appliance, no nested guest; 5.7 minutes
# measured at load 10-17 on 2 cores (kit 56 s, servers 281 s); with server
# C's stick 4.5 minutes at load 12-15 (kit 6 s from a warm cache, servers
# 257 s): the stick costs nothing measurable.  With server C refusing its
# stick's kernel (no sweep to run, as before with a disk it lacked): 5
# minutes at load 1-5 (kit 12 s, servers 83 s; the kernel checks 4 s).
. "$TOP/tests/lib/common.sh"
. "$TOP/tests/lib/webdav.sh"
command -v supermin >/dev/null || skip "supermin is not installed"
. "$TOP/tests/lib/netboot.sh"
netboot_setup netboot "$TOP/tests/e2e/netboot-test.ini"
nb=$NETBOOT_NB
grep -q '^kernel vmlinuz initrd=initrd .*buildapp.disk=auto' "$nb/boot.ipxe" ||
	fail "boot.ipxe: $(cat "$nb/boot.ipxe")"

manifest=$work/out/$NETBOOT_KIT.manifest.json
python3 "$TOP/tests/lib/kit-kernel.py" "$work/out/$NETBOOT_KIT.img" "$nb" "$manifest" ||
	fail "the guest kernel is not stored once"

# The lab's two boot scripts, settings appended to the kit's kernel line;
# server C's loads the ESP's initrd only (the netboot initrd's first part).
netboot_script rack.ipxe "buildapp.upload=$NETBOOT_URL/rack/"
netboot_script refused.ipxe "buildapp.upload=$NETBOOT_URL/ro/"
netboot_script ram-refused.ipxe "buildapp.upload=$NETBOOT_URL/ro/ buildapp.upload_retry=0"
d=$dav/$NETBOOT_KIT.netboot
esp_size=$(python3 -c 'import json, sys
print({f["path"]: f["size"] for f in json.load(open(sys.argv[1]))["files"]}["ESP:/initrd"])' "$manifest")
head -c "$esp_size" "$d/initrd" >"$d/initrd.esp"
sed -i 's/initrd=initrd /initrd=initrd.esp /; s/^initrd initrd$/initrd initrd.esp/' "$d/refused.ipxe"
chmod -R a+rX "$d"
grep -q '^initrd initrd.esp$' "$d/refused.ipxe" || fail "refused.ipxe: $(cat "$d/refused.ipxe")"

# Server C's RESULTS stick, as a lab writes one by hand: a GPT partition
# named RESULTS holding an ext4 labelled RESULTS (what the kit's image
# has, builder/image.c), made here with sfdisk and mke2fs, after a FAT
# labelled BUILDAPP (mtools) holding a /vmlinuz that is not the kit's.
stick=$work/stick-C.raw
results_at=$((34816 * 512))
truncate -s 64M "$stick"
printf 'label: gpt\nstart=2048, size=32768, type=uefi, name="ESP"\nstart=34816, name="RESULTS"\n' |
	sfdisk --quiet "$stick"
echo "not the kit's kernel" >"$work/wrong-vmlinuz"
mformat -C -i "$work/esp-C.fat" -T 32768 -v BUILDAPP ::
mcopy -i "$work/esp-C.fat" "$work/wrong-vmlinuz" ::/vmlinuz
dd if="$work/esp-C.fat" of="$stick" bs=512 seek=2048 conv=notrunc status=none
mke2fs -q -F -t ext4 -L RESULTS -E offset=$results_at "$stick" 46M
kernel_sha=$(python3 -c 'import json, sys
print({f["path"]: f["sha256"] for f in json.load(open(sys.argv[1]))["files"]}["ESP:/vmlinuz"])' "$manifest")
wrong_sha=$(sha256sum "$work/wrong-vmlinuz" | cut -d' ' -f1)
refusal="sweep: not run: guest kernel: no ESP with /vmlinuz of sha256 $kernel_sha on sd[a-z] (/dev/sd[a-z]1:/vmlinuz has sha256 $wrong_sha)"

# Server D's stick, plugged in later: one GPT partition, an ext4
# labelled RESULTS.
stick_d=$work/stick-D.raw
truncate -s 64M "$stick_d"
printf 'label: gpt\nstart=2048, name="RESULTS"\n' | sfdisk --quiet "$stick_d"
mke2fs -q -F -t ext4 -L RESULTS -E offset=$((2048 * 512)) "$stick_d" 60M

start=$(date +%s)
netboot_server A rack.ipxe & pids="$pids $!"
netboot_server B rack.ipxe & pids="$pids $!"
netboot_server C refused.ipxe \
	-drive "file=$stick,format=raw,if=none,id=stick,cache=none,aio=threads" \
	-device "ide-hd,drive=stick,bus=ide.1,serial=STICK-C" & pids="$pids $!"
abc=$pids
netboot_server D ram-refused.ipxe -device qemu-xhci,id=xhci \
	-monitor "unix:$work/monitor-D.sock,server=on,wait=off" & pid_d=$!
pids="$pids $pid_d"
# shellcheck disable=SC2086 # the three pids
wait $abc
echo "three servers powered off after $(($(date +%s) - start))s"

# Server D holds its only copy: up, saying how to get it.
log=$work/console-D.log
while kill -0 "$pid_d" 2>/dev/null && ! grep -q "this server stays up" "$log"; do
	sleep 1
done
kill -0 "$pid_d" 2>/dev/null || { tail -n 30 "$log"; fail "server D powered off with its only copy in RAM"; }
grep -q "this sweep's only copy is in RAM (/results): this server stays up. Plug in a stick with an ext4 partition labelled RESULTS" "$log" ||
	fail "server D: no line saying it stays up and how to get the bundle"
grep -q "the upload was refused (failed: .*refused: HTTP 405): no retry can change that" "$log" ||
	fail "server D: no line saying its refusal is not retried"
sleep 10
kill -0 "$pid_d" 2>/dev/null || fail "server D did not stay up"
echo "server D is up with its bundle in RAM $(($(date +%s) - start))s in; plugging in its stick"
python3 - "$work/monitor-D.sock" "$stick_d" <<'PY' || fail "server D: QEMU's monitor did not take the stick"
import socket, sys, time
s = socket.socket(socket.AF_UNIX)
s.connect(sys.argv[1])
for cmd in ("drive_add 0 if=none,id=stick,format=raw,cache=none,aio=threads,file=" + sys.argv[2],
            "device_add usb-storage,bus=xhci.0,drive=stick,id=stickdev,serial=STICK-D"):
    s.sendall(cmd.encode() + b"\n")
    time.sleep(1)
out = s.recv(65536).decode(errors="replace")
print(out)
assert "Error" not in out and "error" not in out, out
PY
wait "$pid_d"
pids=$abc
grep -q "the bundle is on the stick /dev/sd[a-z]1, in netboot-test_SRV-D_DISK-D_.*: it can be unplugged" "$log" ||
	fail "server D: no line saying the bundle is on the stick"
grep -q "failed; poweroff\|done; poweroff" "$log" || fail "server D: did not power off once its bundle was on the stick"
debugfs -R "ls -p /" "$stick_d?offset=$((2048 * 512))" 2>/dev/null | tr '/' '\n' |
	grep '^netboot-test_SRV-D_DISK-D_' >"$work/stick-D.ls" || fail "server D: no bundle directory on its stick"
sdir=$(head -n 1 "$work/stick-D.ls")
for f in runs.jsonl appliance.txt host.json summary.txt; do
	debugfs -R "cat /$sdir/$f" "$stick_d?offset=$((2048 * 512))" >"$work/stick-D-$f" 2>/dev/null
	[ -s "$work/stick-D-$f" ] || fail "server D: the stick's bundle lacks $f"
done
[ "$(grep -c '"status":"ok"' "$work/stick-D-runs.jsonl")" -eq 1 ] || fail "server D: its run is not on the stick"
grep -q "^upload: failed: .*refused: HTTP 405; the bundle was written to the stick /dev/sd[a-z]1 as $sdir" "$work/stick-D-appliance.txt" ||
	fail "server D: the stick's appliance.txt: $(cat "$work/stick-D-appliance.txt")"
echo "server D wrote its bundle to the stick plugged in and powered off ($(($(date +%s) - start))s)"
for s in A B C D; do
	echo "--- console of server $s (last lines)"
	tail -n 25 "$work/console-$s.log"
	netboot_check_booted "$s"
done

for s in A B; do
	netboot_check_bundle "$s" rack
	b=$bundle
	grep -q "network: eth0 configured by DHCP" "$work/console-$s.log" || fail "server $s: no DHCP lease"
	grep -q "done; poweroff" "$work/console-$s.log" || fail "server $s: its sweep did not end well"
	grep -q "^upload: sending to http://10.0.2.2:$WEBDAV_PORT/rack/ as $(basename "$b")" "$b/appliance.txt" ||
		fail "server $s: appliance.txt has no upload line"
	[ "$(grep -c '"status":"ok"' "$b/runs.jsonl")" -eq 1 ] || fail "server $s: its run is not journaled ok"
	# The filled LV held the pristine image from provisioning on: no reset,
	# and the check of it (sha256 of the LV, a full reset, sha256 again)
	# identical, before the run and after it.
	python3 - "$b/runs.jsonl" <<'PY' || fail "server $s: the filled LV's resets"
import json, sys
r = json.loads(open(sys.argv[1]).readline())
checks = [r.get("reset_check"), r.get("reset_check_after")]
assert r["reset"] == "none", r["reset"]
assert all(c and c["identical"] and c["fast"] == c["full"] for c in checks), checks
assert checks[0]["full"] == checks[1]["full"], checks
PY
	python3 - "$b/host.json" "$s" "$manifest" <<'PY' || fail "server $s: host.json does not name it or the kit"
import hashlib, json, sys
h, s = json.load(open(sys.argv[1])), sys.argv[2]
# The kit's identity: the guest kernel, from the netboot initrd's last
# archive, hashed as the ESP's (the same bytes).
files = {f["path"]: f["sha256"] for f in json.load(open(sys.argv[3]))["files"]}
files["initrd:/usr/lib/buildapp/kit/vmlinuz"] = files["ESP:/vmlinuz"]
listing = "".join(f'{files["initrd:/usr/lib/buildapp/kit/" + n]}  {n}\n'
                  for n in ("plan.json", "vmlinuz", "initrd.img", "disk.qcow2"))
assert h["kit"]["sha256"] == hashlib.sha256(listing.encode()).hexdigest(), h["kit"]
assert h["server"]["serial"] == "SRV-" + s, h["server"]
assert h["disk"]["serial"] == "DISK-" + s, h["disk"]
assert h["label"] == "SRV-%s_DISK-%s" % (s, s), h["label"]
assert h["boot_time"], h
PY
done
netboot_check_rack rack 2

log=$work/console-C.log
grep -q "upload to http://10.0.2.2:$WEBDAV_PORT/ro/ failed: .*refused: HTTP 405" "$log" ||
	fail "server C: no clear line for the refused upload"
grep -q "failed; poweroff" "$log" || fail "server C: did not power off as the profile says"
grep -q "RESULTS: /dev/sd[a-z]2 " "$log" || fail "server C: did not take its RESULTS stick"
grep -q "$refusal" "$log" || fail "server C: no clear line refusing the ESP's wrong kernel"
# Read back off the stick, powered off: the refusal is in appliance.txt.
debugfs -R "cat /appliance.txt" "$stick?offset=$results_at" >"$work/appliance-C.txt" 2>/dev/null ||
	fail "server C: no appliance.txt on its RESULTS stick"
echo "--- appliance.txt on server C's RESULTS stick"
cat "$work/appliance-C.txt"
grep -q "^upload: failed: .*refused: HTTP 405" "$work/appliance-C.txt" ||
	fail "server C: its RESULTS stick's appliance.txt does not say the upload was refused"
grep -qx "$refusal" "$work/appliance-C.txt" ||
	fail "server C: appliance.txt does not say why its sweep was not run"
grep -q "^results: /dev/sd[a-z]2$" "$work/appliance-C.txt" ||
	fail "server C: appliance.txt does not name its RESULTS stick"
grep -q "iPXE/.*" "$work/w/nginx/access.log" || fail "nginx served nothing to iPXE"
[ -z "$(ls -A "$dav/ro")" ] || fail "server C: something was written where uploads are refused"

"$BUILDAPP" report "$dav/rack" -o "$work/report" || fail "buildapp report over the rack failed"
python3 - "$work/report/report.json" <<'PY' || fail "the rack's report does not show both servers"
import json, sys
r = json.load(open(sys.argv[1]))
labels = sorted(h["label"] for h in r["hosts"])
# The report names a server by its DMI product and serial.
assert labels == ["netboot SRV-A", "netboot SRV-B"], labels
cells = [c for w in r["workloads"] for m in w["metrics"] for c in m["cells"]]
assert {c["host"] for c in cells} == set(labels), cells
host_axis = [a for a in r["axes"] if a["name"] == "host"]
assert host_axis and sorted(host_axis[0]["levels"]) == labels, r["axes"]
PY
grep -E "netboot SRV-[AB]" "$work/report/report.txt" | head -n 8
echo "netboot: two servers uploaded, the refused one said so and powered off, the one with its only copy in RAM stayed up until a stick took it"
