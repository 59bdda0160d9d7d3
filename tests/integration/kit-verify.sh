#!/bin/sh
# `buildapp verify`: a kit built with --sign is its manifest's, as an
# image, a directory and netboot files; the signature is good with its key
# (also to ssh-keygen alone, as docs/kit.md says), not with another, and
# not on a changed manifest; one flipped byte of the initramfs inside the
# image (raw, and the same image as qcow2) is named; --rebuild reports the
# same bytes, and names the embedded plan when the manifest's profile was
# changed.  One kit build from the shared test cache, its rebuilds from
# the same cache; no boot.
. "$TOP/tests/lib/common.sh"
command -v ssh-keygen >/dev/null || skip "ssh-keygen is not installed (openssh-client)"
work=$(mktemp -d "$CACHE/verify.XXXXXX")
trap 'rm -rf "$work"' EXIT
export SOURCE_DATE_EPOCH=1700000000 TMPDIR="$work"
verify() { # expected exit status, then verify's arguments; output in $work/out
	want=$1
	shift
	rc=0
	"$BUILDAPP" verify "$@" >"$work/out" 2>"$work/err" || rc=$?
	cat "$work/out"
	[ "$rc" = "$want" ] || { cat "$work/err"; fail "verify $*: exit $rc, not $want"; }
}
has() { grep -q -- "$1" "$work/out" || fail "verify output lacks '$1'"; }

ssh-keygen -q -t ed25519 -N '' -C team -f "$work/team"
ssh-keygen -q -t ed25519 -N '' -C other -f "$work/other"
rc=0; "$BUILDAPP" profiles/ci-smoke.ini -o "$work/bad" --sign "$work/nokey" 2>"$work/err" || rc=$?
[ "$rc" = 2 ] && grep -q "nokey" "$work/err" && [ ! -e "$work/bad" ] ||
	fail "--sign with a missing key: exit $rc, not 2 before building"
"$BUILDAPP" profiles/ci-smoke.ini -o "$work/kit" --cache "$CACHE/hostroot" \
	--sign "$work/team" 2>"$work/build.err" || { cat "$work/build.err"; fail "kit build"; }
[ -s "$work/kit/ci-smoke.manifest.json.sig" ] || fail "no signature beside the manifest"
# What the kit carries, by license (docs/kit.md, the manifest's licenses):
# the host root's packages, the kernel's and the loaders', each with the
# names its copyright file gives.
python3 - "$work/kit/ci-smoke.manifest.json" <<'PY' || fail "the manifest's licenses"
import json, sys
l = json.load(open(sys.argv[1]))["licenses"]
p = l["packages"]
assert l["buildapp"] == "GPL-2.0-or-later", l["buildapp"]
for name in ("qemu-system-x86", "busybox-static", "fio", "shim-signed", "grub-efi-amd64-signed",
             "syslinux-common"):
    assert name in p, "no %s" % name
    assert p[name]["copyright"] == "/usr/share/doc/%s/copyright" % name, p[name]
    assert p[name]["licenses"], "%s: no license named" % name
assert [n for n in p if n.startswith("linux-image-")], "no kernel package"
assert sorted(p) == list(p), "packages not in name order"
print("licenses: %d packages" % len(p))
PY

verify 0 "$work/kit" --key "$work/team.pub"
has '^ok       signature: good'
has "^ok       $work/kit/ci-smoke.img: the manifest's sha256"
has "^ok       $work/kit/ci-smoke.iso: the manifest's sha256"
has '^ok       netboot:/initrd'
has '^ok       netboot:/boot.ipxe'
verify 0 "$work/kit/ci-smoke.netboot/"
has 'not checked (give --key)'
cp "$work/kit/ci-smoke.iso" "$work/flip.iso"
printf 'x' | dd of="$work/flip.iso" bs=1 seek=40000000 conv=notrunc 2>/dev/null
verify 1 "$work/flip.iso" --manifest "$work/kit/ci-smoke.manifest.json"
has "^DIFFERS  $work/flip.iso: sha256"
rm "$work/flip.iso"
verify 1 "$work/kit/ci-smoke.img" --key "$work/other.pub"
has '^DIFFERS  signature: not good'
# The receiving side, without buildapp.
echo "team@lab $(cat "$work/team.pub")" >"$work/allowed_signers"
ssh-keygen -Y verify -f "$work/allowed_signers" -I team@lab -n buildapp-kit \
	-s "$work/kit/ci-smoke.manifest.json.sig" <"$work/kit/ci-smoke.manifest.json" ||
	fail "ssh-keygen does not accept the signature"
# A changed manifest keeps its old signature, which no longer holds.
sed 's/"runs_per_cell":2/"runs_per_cell":5/' "$work/kit/ci-smoke.manifest.json" \
	>"$work/changed.json"
! cmp -s "$work/changed.json" "$work/kit/ci-smoke.manifest.json" || fail "the manifest was not changed"
cp "$work/kit/ci-smoke.manifest.json.sig" "$work/changed.json.sig"
verify 1 "$work/kit/ci-smoke.img" --manifest "$work/changed.json" --key "$work/team.pub"
has '^DIFFERS  signature: not good'
echo "signature: good with its key, refused with another and on a changed manifest"

# One byte of the initramfs flipped on the image's ESP.
cp --sparse=always "$work/kit/ci-smoke.img" "$work/flip.img"
cp "$work/kit/ci-smoke.manifest.json" "$work/flip.manifest.json"
start=$(sfdisk -J "$work/flip.img" | python3 -c \
	'import json, sys; print(json.load(sys.stdin)["partitiontable"]["partitions"][0]["start"])')
esp="$work/flip.img@@$((start * 512))"
MTOOLS_SKIP_CHECK=1 mcopy -n -i "$esp" ::/initrd "$work/initrd"
python3 - "$work/initrd" <<'EOF'
import os, sys
with open(sys.argv[1], "r+b") as f:
    f.seek(os.path.getsize(sys.argv[1]) - 4096)
    b = f.read(1)
    f.seek(-1, 1)
    f.write(bytes([b[0] ^ 0x20]))
EOF
MTOOLS_SKIP_CHECK=1 mcopy -o -n -i "$esp" "$work/initrd" ::/initrd
verify 1 "$work/flip.img"
has '^DIFFERS  ESP:/initrd: sha256'
has '^ok       ESP:/vmlinuz'
has '^ok       MBR:gptmbr.bin'
has '^ok       ESP:/EFI/BOOT/BOOTX64.EFI'
grep -q "'ESP:/initrd': archive 2 .*cannot be decompressed" "$work/err" ||
	fail "the unreadable archive of the initramfs is not named"
qemu-img convert -q -O qcow2 "$work/flip.img" "$work/flip.qcow2"
verify 1 "$work/flip.qcow2" --manifest "$work/flip.manifest.json"
has '^DIFFERS  ESP:/initrd: sha256'
has '^ok       ESP:/vmlinuz'
# An initramfs that differs but whose archives all read (zeros after
# them, which the kernel skips): each of the appliance's files in it is
# checked, and each is the manifest's.
cp -r "$work/kit/ci-smoke.netboot" "$work/padded.netboot"
head -c 512 /dev/zero >>"$work/padded.netboot/initrd"
verify 1 "$work/padded.netboot" --manifest "$work/kit/ci-smoke.manifest.json"
has '^DIFFERS  netboot:/initrd: sha256'
has '^ok       initrd:/init$'
has '^ok       initrd:/usr/lib/buildapp/kit/plan.json$'
! grep -q '^DIFFERS  initrd:' "$work/out" || fail "an appliance file of a readable initramfs differs"
echo "a flipped byte of the initramfs is named, in the raw image and as qcow2"

# Rebuilt from the manifest: the same bytes; from a changed profile, the
# plan inside the initramfs is named.
verify 0 "$work/kit" --rebuild --cache "$CACHE/hostroot"
has '^ok       packages: the manifest'
has '^ok       rebuild: byte-identical'
python3 - "$work/kit/ci-smoke.manifest.json" "$work/other.json" <<'EOF'
import json, sys
m = json.load(open(sys.argv[1]))
m["plan"]["profile"]["sweep"]["runs"] = 3
m["packages"]["fio"] = "0.0-other"
json.dump(m, open(sys.argv[2], "w"))
EOF
verify 1 "$work/kit/ci-smoke.img" --manifest "$work/other.json" --rebuild \
	--cache "$CACHE/hostroot"
has '^note     package fio: the manifest.s 0.0-other, here '
has '^DIFFERS  rebuild: not identical; differ: .*initrd:/usr/lib/buildapp/kit/plan.json'
[ -z "$(ls -d "$work"/buildapp-verify-* 2>/dev/null)" ] || fail "the rebuild's directory is left"
echo "--rebuild: byte-identical, and the changed plan named"

# A build without --sign drops the older signature; bad usage is exit 2.
"$BUILDAPP" profiles/ci-smoke.ini -o "$work/kit" --cache "$CACHE/hostroot" 2>"$work/build.err" ||
	{ cat "$work/build.err"; fail "kit build"; }
[ ! -e "$work/kit/ci-smoke.manifest.json.sig" ] || fail "an older signature is left"
verify 1 "$work/kit" --key "$work/team.pub"
has '^DIFFERS  signature: the manifest is not signed'
verify 2
verify 2 "$work/nothing.img"
verify 2 "$work/initrd"
grep -q "manifest '$work/initrd.manifest.json'" "$work/err" || fail "the missing manifest is not named"
echo '{' >"$work/broken.json"
verify 2 "$work/kit/ci-smoke.img" --manifest "$work/broken.json"
echo ok
