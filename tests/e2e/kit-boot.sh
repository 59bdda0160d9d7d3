#!/bin/sh
# The whole kit: host root (supermin, cached between runs in the test
# cache), image, netboot directory and manifest of tests/e2e/kit-test.ini
# (ci-smoke's guest, one run; disk under test by serial, write_cache = off),
# built twice and compared byte for byte.
# Boots it under SeaBIOS and under OVMF on a blank AHCI disk, and checks
# what the appliance left on RESULTS: the disk was found by serial, its
# write cache turned off, read back off and restored; the backend was
# provisioned on it and the nested sweep's run journaled, with the cache
# mode QEMU applied; host.json names the disk, its cache and the kit.
. "$TOP/tests/lib/common.sh"
command -v supermin >/dev/null || skip "supermin is not installed"
work=$(mktemp -d "$CACHE/kit.XXXXXX")
trap 'rm -rf "$work"' EXIT
export BUILDAPP_INIT="$TOP/$B/buildapp-init" SOURCE_DATE_EPOCH=1700000000

"$BUILDAPP" "$TOP/tests/e2e/kit-test.ini" -o "$work/out" --cache "$CACHE/hostroot"
# A second build (warm host root cache) gives the same bytes.
"$BUILDAPP" "$TOP/tests/e2e/kit-test.ini" -o "$work/again" --cache "$CACHE/hostroot"
for f in kit-test.img kit-test.manifest.json kit-test.netboot/initrd; do
	cmp "$work/out/$f" "$work/again/$f" || fail "$f differs between two builds"
done
rm -rf "$work/again"
echo "two kit builds are byte-identical"
for f in kit-test.img kit-test.manifest.json kit-test.netboot/vmlinuz \
	kit-test.netboot/initrd kit-test.netboot/boot.ipxe; do
	[ -s "$work/out/$f" ] || fail "kit lacks $f"
done
[ -z "$(ls -A "$work/out" | grep '^\.')" ] || fail "temporaries left in the output directory"
for key in '"builder"' '"packages"' '"qemu-utils"' '"ESP:/initrd"' '"initrd:/init"' \
	'"plan"' '"total_runs":1' '"initrd:/usr/lib/buildapp/kit/disk.qcow2"'; do
	grep -q "$key" "$work/out/kit-test.manifest.json" || fail "manifest lacks $key"
done
sha=$(sha256sum "$work/out/kit-test.img" | cut -d' ' -f1)
grep -q "\"$sha\"" "$work/out/kit-test.manifest.json" || fail "manifest image sha256"
grep -q '^kernel vmlinuz initrd=initrd .*buildapp.disk=KIT-TEST-DUT' \
	"$work/out/kit-test.netboot/boot.ipxe" || fail "iPXE script"

expect() { grep -qx "$2" "$1" || fail "report lacks '$2'"; }
cp --sparse=always "$work/out/kit-test.img" "$work/uefi.img"
for firmware in bios uefi; do
	img=$work/out/kit-test.img opt=
	[ "$firmware" = bios ] || img=$work/uefi.img opt=--uefi
	sh "$TOP/scripts/boot-appliance.sh" "$img" $opt --serial KIT-TEST-DUT \
		--disk-size 2G --memory 2048 --timeout 900 >"$work/report"
	grep -E '^[a-z_]+: ' "$work/report"
	expect "$work/report" 'profile: kit-test'
	expect "$work/report" "firmware: $firmware"
	expect "$work/report" 'disk_serial: KIT-TEST-DUT'
	expect "$work/report" 'write_cache_effective: off'
	expect "$work/report" 'write_cache_after_restore: on'
	expect "$work/report" 'status: ok'
	expect "$work/report" 'sweep: 1 runs made, 0 failed, 0 already there'
	# The journal the nested sweep left on RESULTS: the run, its cache
	# mode as QEMU applied it, the backend provisioned on the disk.
	guestfish --ro -a "$img" -m /dev/sda2 cat /runs.jsonl >"$work/runs.jsonl" ||
		fail "no runs.jsonl on RESULTS"
	cat "$work/runs.jsonl"
	# guestfish's cat ends the text with a newline of its own: count runs.
	[ "$(grep -c '^{"version":' "$work/runs.jsonl")" -eq 1 ] ||
		fail "runs.jsonl: not one run"
	grep -q '"status":"ok"' "$work/runs.jsonl" || fail "the run is not ok"
	grep -q '"id":"raw/raw/sparse/unsafe/threads/virtio/fio"' "$work/runs.jsonl" ||
		fail "the run is not ci-smoke's raw/unsafe cell"
	grep -q '"applied_cache":{"writeback":true,"direct":false,"no-flush":true}' \
		"$work/runs.jsonl" || fail "QEMU did not apply cache=unsafe"
	grep -q '"name":"fio_write_iops"' "$work/runs.jsonl" || fail "no fio result"
	guestfish --ro -a "$img" -m /dev/sda2 is-file /summary.json | grep -qx true ||
		fail "no summary.json on RESULTS"
	# host.json: the disk under test as the appliance found it, its write
	# cache as set and read back, the firmware, and the kit's identity as
	# the manifest's hashes of the kit's files give it (docs/report.md).
	guestfish --ro -a "$img" -m /dev/sda2 cat /host.json >"$work/host.json" ||
		fail "no host.json on RESULTS"
	python3 - "$work/host.json" "$work/out/kit-test.manifest.json" "$firmware" <<'EOF' ||
import hashlib, json, sys
h = json.load(open(sys.argv[1]))
files = {f["path"]: f["sha256"] for f in json.load(open(sys.argv[2]))["files"]}
listing = "".join(f'{files["initrd:/usr/lib/buildapp/kit/" + n]}  {n}\n'
                  for n in ("plan.json", "vmlinuz", "initrd.img", "disk.qcow2"))
kit = {"profile": "kit-test", "sha256": hashlib.sha256(listing.encode()).hexdigest()}
d = h.get("disk") or {}
ok = (h["firmware"] == sys.argv[3] and h["kit"] == kit and d.get("serial") == "KIT-TEST-DUT"
      and d.get("write_cache_requested") == "off" and d.get("write_cache_read_back") == "off"
      and d.get("logical_sector_bytes") == 512 and h["qemu_version"] and h["libvirt_version"]
      and len(h["plan"]["sha256"]) == 64)
if not ok:
    sys.exit(f"want kit {kit}, got {json.dumps(h)}")
EOF
		fail "host.json is not what the appliance saw"
done
