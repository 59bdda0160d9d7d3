#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The fast reset (only what the run wrote, read from QEMU's dirty bitmap)
# leaves a volume byte for byte as the full reset does: for a filled raw
# file and a filled qcow2 (whose whole file, metadata included, is
# hashed), after a fio, a tarball-write and a bonnie++ guest run of the
# real guest kit, each run's reset being the next run's starting point.
# Each run must have written something the reset undid, and a fast reset
# that leaves out one of the ranges must be seen to differ.  The runner's
# own check ([sweep] verify_reset: volreset_run() with a check, its
# journal line's reset_check) must say identical with the script's own
# hashes, and not identical, naming both hashes, for the reset missing a
# range.  A guest that only reads its disk (fio randread on the device)
# gets it read-only, and the reset after it is none, checked the same way.
# Costs the kit (one libguestfs launch, shared through $B/cache) and eight
# small TCG guests: 13.5 minutes here at a load average of 15-18 (the
# guests are most of it) before the `buildapp run` below, which adds
# 2.5 minutes at a load of 12 (two guests, one provisioning).
set -u
B=${B:-build}
BUILDAPP=${BUILDAPP:-$B/buildapp}
DRIVER=$B/tests/integration/fast-reset
TOP=${TOP:-.}
[ "$(id -u)" -eq 0 ] || { echo "needs root (libvirt's embedded driver)"; exit 77; }
[ -x "$DRIVER" ] || { echo "$DRIVER is not built"; exit 77; }
command -v qemu-nbd >/dev/null || { echo "no qemu-nbd"; exit 77; }
: "${LIBGUESTFS_BACKEND_SETTINGS:=force_tcg}" "${BUILDAPP_ACCEL:=tcg}"
export LIBGUESTFS_BACKEND_SETTINGS BUILDAPP_ACCEL
. "$TOP/tests/lib/check.sh"
tmp=$(mktemp -d /var/tmp/buildapp-fastreset.XXXXXX)
[ -n "${KEEP_TMP:-}" ] || trap 'rm -rf "$tmp"' EXIT

"$BUILDAPP" kit "$TOP/tests/integration/fast-reset.ini" -o "$tmp/kit" \
	--cache "$B/cache" >"$tmp/kit.log" 2>&1 || { cat "$tmp/kit.log"; exit 1; }
K=$tmp/kit
P=$K/disk.img
sha() { sha256sum "$1" | cut -d' ' -f1; }
# reset_check LINE IDENTICAL FAST FULL: the journal line's fast reset and
# its check as given.
reset_check() {
	python3 -c 'import json, sys
r = json.load(open(sys.argv[1])); c = r.get("reset_check") or {}
sys.exit(not (r["reset"] == "fast" and c.get("identical") is (sys.argv[2] == "true")
              and c.get("fast") == sys.argv[3] and c.get("full") == sys.argv[4]))' "$@"
}

for fmt in raw qcow2; do
	v=$tmp/vol.$fmt
	"$DRIVER" make "$v" $fmt 67108864 >/dev/null &&
		"$DRIVER" full "$v" $fmt "$P" >/dev/null ||
		{ echo "FAILED: $fmt: provisioning and first full reset"; fail=1; continue; }
	for kind in fio tarball-write bonnie; do
		t="$fmt after $kind"
		if ! "$DRIVER" run "$v" $fmt "$K/vmlinuz" "$K/initrd.img" \
			"$(cat "$K/cmdline-$kind")" "$tmp/$fmt-$kind.log" "$tmp/state" \
			"$tmp/written" >"$tmp/run.out"; then
			cat "$tmp/run.out"; tail -20 "$tmp/$fmt-$kind.log"
			echo "FAILED: $t: the tracked run"; fail=1; continue 2
		fi
		echo "$t: $(cat "$tmp/run.out")"
		check "$t: the guest's END line is on its console" grep -q '^BUILDAPP:END status=0' "$tmp/$fmt-$kind.log"
		check "$t: its writes were read back" test -s "$tmp/written"
		dirty=$(sha "$v")
		cp --sparse=always "$v" "$v.full"
		cp --sparse=always "$v" "$v.miss"
		cp --sparse=always "$v" "$v.chk"
		cp --sparse=always "$v" "$v.chkmiss"
		"$DRIVER" full "$v.full" $fmt "$P" >/dev/null
		"$DRIVER" fast "$v" $fmt "$P" "$tmp/written" >"$tmp/fast.out"
		"$DRIVER" fast "$v.miss" $fmt "$P" "$tmp/written" 0 >/dev/null
		full=$(sha "$v.full")
		echo "$t: $(cat "$tmp/fast.out"), $(wc -l <"$tmp/written") ranges"
		check "$t: the run changed the volume" test "$dirty" != "$full"
		check "$t: fast reset = full reset (sha256 of the whole file)" test "$(sha "$v")" = "$full"
		check "$t: a fast reset missing a range differs" test "$(sha "$v.miss")" != "$full"
		"$DRIVER" checked "$v.chk" $fmt "$P" "$tmp/written" >"$tmp/chk.json" 2>"$tmp/chk.err"
		"$DRIVER" checked "$v.chkmiss" $fmt "$P" "$tmp/written" 0 >"$tmp/chkmiss.json" 2>"$tmp/chkmiss.err"
		check "$t: the runner's checked fast reset: identical, the full reset's sha256" \
			reset_check "$tmp/chk.json" true "$full" "$full"
		check "$t: the runner's check of a reset missing a range: not identical" \
			reset_check "$tmp/chkmiss.json" false "$(sha "$v.miss")" "$full"
		check "$t: and it says so loudly" grep -q "THE FAST RESET DIFFERS" "$tmp/chkmiss.err"
		check "$t: after the check the volume is the full reset's" test "$(sha "$v.chkmiss")" = "$full"
		rm -f "$v.full" "$v.miss" "$v.chk" "$v.chkmiss"
	done
done

# The same check made by `buildapp run` itself ([sweep] verify_reset,
# fast-reset-run.ini: a filled raw file, a tarball-write and a fio run on
# the guest's disk itself, fio_target = device):
# the first run's reset none (provisioning filled the volume with the
# pristine image), the second's fast, both checked identical, the last
# run's writes a checked reset after it, every hash the same: the pristine
# image's (the volume is its size).
"$BUILDAPP" run "$TOP/tests/integration/fast-reset-run.ini" --target "$tmp/run" \
	--results "$tmp/results" --cache "$B/cache" >"$tmp/run.log" 2>&1 ||
	{ tail -30 "$tmp/run.log"; echo "FAILED: buildapp run with verify_reset"; fail=1; }
check "buildapp run: fio ran on the guest's disk itself (fio_target = device)" \
	grep -q 'BUILDAPP:INFO fio_target=device file=/dev/vda' "$tmp"/results/console/*.log
check "buildapp run: each run's writes undone by a checked fast reset" \
	python3 "$TOP/tests/lib/reset-checks.py" --filled --pristine="$(sha "$P")" "$tmp/results/runs.jsonl" \
	raw/raw/sparse/unsafe/threads/virtio/tarball-write:write_seconds \
	raw/raw/sparse/unsafe/threads/virtio/fio:fio_write_iops

# A guest that only reads its disk (fio randread on the device,
# fast-reset-read.ini) has it read-only: each reset after one is none,
# checked by the runner against a full reset, and the guest could not
# have written (QEMU opened the volume read-only: a write fails in it).
"$BUILDAPP" run "$TOP/tests/integration/fast-reset-read.ini" --target "$tmp/read" \
	--results "$tmp/read-results" --cache "$B/cache" >"$tmp/read.log" 2>&1 ||
	{ tail -30 "$tmp/read.log"; echo "FAILED: buildapp run of a read-only sweep"; fail=1; }
check "buildapp run: the guest that only reads had its disk read-only, the others not" \
	sh -c "grep -l 'BUILDAPP:INFO fio_target=device file=/dev/vda read_only=1' \
		'$tmp'/read-results/console/*.log | wc -l | grep -qx 2 &&
		grep -q 'BUILDAPP:INFO fio_target=device file=/dev/vda read_only=0' \
		'$tmp'/results/console/*.log"
check "buildapp run: after the fill and after a run that only read, each reset none, checked identical" \
	python3 "$TOP/tests/lib/reset-checks.py" --filled --reads-only "$tmp/read-results/runs.jsonl" \
	raw/raw/sparse/unsafe/threads/virtio/fio:fio_read_iops
exit $fail
