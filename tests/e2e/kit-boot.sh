#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The README's quick start on a fresh machine, then the whole kit.
#
# A fresh `git clone` of this tree (with the working tree's changes to
# tracked files), HOME and XDG_CACHE_HOME new empty directories, and the
# README's first command as written: `sh scripts/install-deps.sh && make &&
# sh scripts/demo.sh`.  That builds with a cold cache (supermin and the
# guest kit), boots the demo kit under SeaBIOS with its plan's limits, and
# must exit 0 with every planned run journaled and the summary table
# printed, and end with both halves of its question answered: unsafe's
# flushed writes faster than writethrough's, and its acknowledged writes
# lost in more host crashes (six of them, each back by kexec, the
# firmware run once).  (The README's second command, `make check`, is the
# suite this test is part of.)
#
# Then, from the same cache, the kit of tests/e2e/kit-test.ini
# (ci-smoke's guest on an LVM LV, one dd run in a guest and the same dd
# on the lab server itself on the LV mounted there, [sweep] verify_reset
# on; disk under test by serial, write_cache = off), its ISO
# booted from a CD drive under OVMF with Secure Boot enforcing, on a blank
# AHCI disk, a stick for RESULTS: what the appliance left on the stick
# says the disk was found by serial, its write cache turned off, read back
# off and restored; the LV was provisioned on it, the nested run
# journaled with the cache mode QEMU applied and the host-native run with
# none; the guest run's writes, and the host-native run's (traced by the
# appliance's kernel: runner/blocktrace.h), were undone by fast resets of
# the LV that hashed (sha256 of the whole LV) the same as the full reset
# made over it, the pristine image's hash;
# host.json names the disk, its cache, Secure Boot and the kit (whose
# guest kernel the init copied from the ESP: the image stores it once,
# tests/lib/kit-kernel.py).  Two builds from two empty caches giving the
# same bytes are tests/slow/kit-repro.sh's (a cold build more here cost
# about 2.5 minutes); one nested run, not three, because a fresh-clone
# `make check` spent 2729 s in this test on a slow day, past CI's
# 90 minutes.
. "$TOP/tests/lib/common.sh"
command -v supermin >/dev/null || skip "supermin is not installed"
command -v git >/dev/null || skip "git is not installed"
git -C "$TOP" rev-parse --is-inside-work-tree >/dev/null 2>&1 ||
	skip "$TOP is not a git work tree: nothing to clone"
work=$(mktemp -d "$CACHE/kit.XXXXXX")
trap 'rm -rf "$work"' EXIT

clone=$work/clone
git clone -q "$TOP" "$clone"
git -C "$clone" checkout -q "$(git -C "$TOP" rev-parse HEAD)"
git -C "$TOP" diff HEAD --binary >"$work/changes.diff"
[ ! -s "$work/changes.diff" ] || git -C "$clone" apply "$work/changes.diff"
mkdir "$work/home" "$work/xdg-cache"
start=$(date +%s)
(
	cd "$clone"
	export HOME="$work/home" XDG_CACHE_HOME="$work/xdg-cache"
	# As a new user has it: no build tree variables from the suite, and
	# nothing from the make that runs it (MAKEFLAGS carries its options).
	unset B TOP BUILDAPP BUILDAPP_INIT MAKEFLAGS MFLAGS MAKELEVEL
	sh scripts/install-deps.sh && make && sh scripts/demo.sh
) >"$work/demo.out" 2>"$work/demo.err" || {
	tail -n 60 "$work/demo.err"
	fail "the README's first command failed in a fresh clone"
}
echo "README's first command in a fresh clone: $(($(date +%s) - start))s"
grep '^demo: ' "$work/demo.err"
cat "$work/demo.out"
grep -qx 'demo: 12 of 12 planned runs journaled, 0 not ok' "$work/demo.err" ||
	fail "demo: not every planned run journaled and ok"
for w in qemu-img-bench durability; do
	grep -q "^== $w: " "$work/demo.out" || fail "demo printed no $w table"
done
for cache in unsafe writethrough; do
	grep -q "^lvm/raw/-/$cache/threads/-/qemu-img-bench  *3/3 " "$work/demo.out" &&
		grep -q "^lvm/raw/-/$cache/threads/virtio/durability  *3/3 " "$work/demo.out" ||
		fail "demo: no ok $cache runs in the tables"
done
# The demo ends with the answers it is for, both halves of its question
# ([report] compare: unsafe against writethrough, on the LV): how fast
# writes are when each is flushed (qemu-img bench), a difference shown,
# its interval clear of no change; and what a host crash loses of what
# was acknowledged, counted in crashes: unsafe in each of its three,
# writethrough in none, a difference Boschloo's test shows.
pct='[0-9.]*%'
sed -n '/^== Answers ==$/,/^$/p' "$work/demo.out" >"$work/answers"
cat "$work/answers"
sed -n 2p "$work/answers" | grep -q '^What this profile asks (\[report\] compare), on .*:$' ||
	fail "demo: the answers do not lead with what the profile asks"
grep -Eq "^unsafe vs writethrough, bench_seconds \(qemu-img-bench\): -$pct \[-$pct, -$pct\], n=3 each, better" \
	"$work/answers" || fail "demo: no speed answer of unsafe against writethrough clear of no change"
grep -Eq "after a host crash: lost acknowledged writes in 3 of 3 crashes \[29%, 100%\], $pct (to $pct )?of them per crash, vs 0 of 3 \[0%, 71%\]; unsafe loses them in more crashes \(Boschloo's exact test, p=0\.031\)" \
	"$work/answers" || fail "demo: no loss answer counted in crashes that tells the modes apart"
grep -q "boot-appliance: limit [0-9]*s (plan in $clone/out/lvm-unsafe-demo.manifest.json: 12 runs of at most 900s)" \
	"$work/demo.err" || fail "demo: the limit did not come from the kit's plan"
# Its six host crashes came back by kexec: the lab server went through
# its firmware once, at its first boot (SeaBIOS's log).
grep -qx 'boot-appliance: firmware boots: 1' "$work/demo.err" ||
	fail "demo: the host crashes went through the firmware"
# Each boot with a crash still to make loaded the kernel for it; the last
# one, with none left, did not.
[ "$(grep -c 'host crashes: loading this kit.s kernel and initramfs for kexec' "$work/demo.out")" -eq 6 ] &&
	grep -q "host crashes: all of this plan's are made: nothing to load for them" "$work/demo.out" ||
	fail "demo: the kernel was not loaded for kexec exactly where a crash was still to come"
# PID 1 reaps: libvirt sees each QEMU gone as it exits (an unreaped
# zombie once made every domain destroy wait 40 s, twice a run).
! grep -q "Failed to terminate process" "$work/demo.out" ||
	fail "demo: libvirt waited for a QEMU that had exited (PID 1 did not reap it)"
# libvirt's lines for conditions it expects (no access manager, a QEMU
# binary it cannot probe) are in its own log file, not on the console.
! grep -E '[0-9]+: (error|warning) : ' "$work/demo.out" "$work/demo.err" ||
	fail "demo: libvirt log lines on the console"
results=$clone/out/lvm-unsafe-demo.results
[ "$(grep -c '"status":"ok"' "$results/runs.jsonl")" -eq 12 ] || fail "demo journal"
[ "$(grep -c '"host_crash":{"mechanism":"kexec","fallback":null' "$results/runs.jsonl")" -eq 6 ] ||
	fail "demo journal: not six host crashes by kexec"
grep -qx 'firmware: bios' "$results/appliance.txt" || fail "demo did not boot under SeaBIOS"
# Its guests under TCG, the kit unloaded KVM: nothing made a KVM VM on
# the TCG lab server, where they wedge its kernel now and then
# (docs/testing.md, "The virtual lab server's CPU").
grep -q "guests run under TCG here (\[guest\] accel = tcg): KVM's modules unloaded" \
	"$work/demo.out" && grep -qx 'kvm: absent (TCG)' "$results/appliance.txt" ||
	fail "the demo's virtual lab server kept its /dev/kvm under TCG guests"
ls -d "$work/xdg-cache/buildapp"/hostroot-* >/dev/null ||
	fail "no host root in the new XDG_CACHE_HOME"

# The kit of kit-test.ini, from the clone and the now warm cache.
export HOME="$work/home" XDG_CACHE_HOME="$work/xdg-cache" SOURCE_DATE_EPOCH=1700000000
export BUILDAPP_INIT="$clone/build/buildapp-init"
BUILDAPP=$clone/build/buildapp
"$BUILDAPP" "$TOP/tests/e2e/kit-test.ini" -o "$work/out"
for f in kit-test.img kit-test.manifest.json kit-test.netboot/vmlinuz \
	kit-test.netboot/initrd kit-test.netboot/boot.ipxe; do
	[ -s "$work/out/$f" ] || fail "kit lacks $f"
done
[ -z "$(ls -A "$work/out" | grep '^\.')" ] || fail "temporaries left in the output directory"
for key in '"builder"' '"packages"' '"qemu-utils"' '"ESP:/initrd"' '"initrd:/init"' \
	'"plan"' '"total_runs":2' '"initrd:/usr/lib/buildapp/kit/disk.qcow2"' \
	'"initrd:/usr/lib/buildapp/kit/buildapp-agent"'; do
	grep -q "$key" "$work/out/kit-test.manifest.json" || fail "manifest lacks $key"
done
# The size breakdown adds up (tests/lib/kit-sizes.py).
base=$(ls "$work/xdg-cache/buildapp"/hostroot-*.cpio.zst | head -n 1)
zstd -dc "$base" | cpio -itv --quiet 2>/dev/null |
	awk '/^-/ { n += $5 } END { print n }' >"$work/cpio-bytes"
python3 "$TOP/tests/lib/kit-sizes.py" "$work/out/kit-test.manifest.json" "$base" \
	"$work/cpio-bytes" "$(du -B1 "$work/out/kit-test.img" | cut -f1)" ||
	fail "the size breakdown does not add up"
# The guest kernel is the ESP's, stored once (tests/lib/kit-kernel.py).
python3 "$TOP/tests/lib/kit-kernel.py" "$work/out/kit-test.img" "$work/out/kit-test.netboot" \
	"$work/out/kit-test.manifest.json" || fail "the guest kernel is not stored once"
sha=$(sha256sum "$work/out/kit-test.img" | cut -d' ' -f1)
grep -q "\"$sha\"" "$work/out/kit-test.manifest.json" || fail "manifest image sha256"
grep -q '^kernel vmlinuz initrd=initrd .*buildapp.disk=KIT-TEST-DUT' \
	"$work/out/kit-test.netboot/boot.ipxe" || fail "iPXE script"

# The demo's image, booted: no longer the manifest's bytes (RESULTS holds
# the sweep), but each file of the kit in it still is.
"$BUILDAPP" verify "$clone/out/lvm-unsafe-demo.img" >"$work/verify" ||
	{ cat "$work/verify"; fail "buildapp verify: the booted kit's files are not the manifest's"; }
grep -q "^note .*not the manifest's" "$work/verify" && grep -q '^ok       ESP:/initrd' "$work/verify" ||
	{ cat "$work/verify"; fail "buildapp verify did not check the booted image's files"; }

# The kit as a BMC's virtual CD: NAME.iso from a CD drive under OVMF with
# Secure Boot enforcing (Microsoft's keys, as servers ship; the demo
# booted the image under SeaBIOS), RESULTS on a USB stick plugged in; a
# copy without its manifest: the limit comes from the plan inside the ISO.
expect() { grep -qx "$2" "$1" || fail "report lacks '$2'"; }
iso=$work/cd.iso stick=$work/stick.raw
cp "$work/out/kit-test.iso" "$iso"
"$BUILDAPP" verify "$iso" --manifest "$work/out/kit-test.manifest.json" >"$work/verify" ||
	{ cat "$work/verify"; fail "buildapp verify: the ISO is not the manifest's"; }
sh "$clone/scripts/boot-appliance.sh" "$iso" --cdrom --secure-boot --stick "$stick" \
	--serial KIT-TEST-DUT --disk-size 2G --memory 2048 >"$work/report" 2>"$work/boot.err" ||
	{ cat "$work/boot.err"; fail "boot-appliance.sh failed"; }
cat "$work/boot.err"
grep -q "boot-appliance: limit [0-9]*s (plan in $iso: 2 runs of at most 900s)" "$work/boot.err" ||
	fail "the limit did not come from the plan in the ISO"
grep -E '^[a-z_]+: ' "$work/report"
expect "$work/report" 'profile: kit-test'
expect "$work/report" 'firmware: uefi'
expect "$work/report" 'secure_boot: on (kernel lockdown: integrity)'
expect "$work/report" 'disk_serial: KIT-TEST-DUT'
expect "$work/report" 'write_cache_effective: off'
expect "$work/report" 'write_cache_after_restore: on'
expect "$work/report" 'status: ok'
expect "$work/report" 'sweep: 2 runs made, 0 failed, 0 already there'
grep -q '^results: /dev/sd[a-z]1$' "$work/report" ||
	fail "appliance.txt does not say the results went to the stick's partition"
# The journal the sweep left on RESULTS: the runs on the LV (the nested
# guest's, its cache mode as QEMU applied it, and the lab server's own),
# their results, and their resets.
guestfish --ro -a "$stick" -m /dev/sda1 cat /runs.jsonl >"$work/runs.jsonl" ||
	fail "no runs.jsonl on RESULTS"
cat "$work/runs.jsonl"
# The LV is the pristine image's size: after a reset it holds that image,
# byte for byte (its guest kit from the warm cache: no build).
"$BUILDAPP" kit "$TOP/tests/e2e/kit-test.ini" -o "$work/guestkit" >/dev/null
pristine=$(sha256sum "$work/guestkit/disk.img" | cut -d' ' -f1)
python3 "$TOP/tests/lib/reset-checks.py" --pristine="$pristine" "$work/runs.jsonl" \
	lvm/raw/-/unsafe/threads/virtio/dd:dd_mbps lvm/raw/-/-/-/host/dd:dd_mbps ||
	fail "the journal of the LV's sweep is not what it should be"
guestfish --ro -a "$stick" -m /dev/sda1 is-file /summary.json | grep -qx true ||
	fail "no summary.json on RESULTS"
# host.json: the disk under test as the appliance found it, its write
# cache as set and read back, the firmware, and the kit's identity as
# the manifest's hashes of the kit's files give it (docs/report.md).
guestfish --ro -a "$stick" -m /dev/sda1 cat /host.json >"$work/host.json" ||
	fail "no host.json on RESULTS"
python3 - "$work/host.json" "$work/out/kit-test.manifest.json" uefi <<'EOF' ||
import hashlib, json, sys
h = json.load(open(sys.argv[1]))
files = {f["path"]: f["sha256"] for f in json.load(open(sys.argv[2]))["files"]}
# The guest kernel the init copied from the ESP (docs/kit.md) is hashed as
# it was when the root carried it.
files.setdefault("initrd:/usr/lib/buildapp/kit/vmlinuz", files["ESP:/vmlinuz"])
listing = "".join(f'{files["initrd:/usr/lib/buildapp/kit/" + n]}  {n}\n'
                  for n in ("plan.json", "vmlinuz", "initrd.img", "disk.qcow2"))
kit = {"profile": "kit-test", "sha256": hashlib.sha256(listing.encode()).hexdigest()}
d = h.get("disk") or {}
ok = (h["firmware"] == sys.argv[3] and h["secure_boot"] is True and h["lockdown"] == "integrity"
      and h["kit"] == kit and d.get("serial") == "KIT-TEST-DUT"
      and d.get("write_cache_requested") == "off" and d.get("write_cache_read_back") == "off"
      and d.get("logical_sector_bytes") == 512 and h["qemu_version"] and h["libvirt_version"]
      and len(h["plan"]["sha256"]) == 64)
if not ok:
    sys.exit(f"want kit {kit}, got {json.dumps(h)}")
EOF
	fail "host.json is not what the appliance saw"
