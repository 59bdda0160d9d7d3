#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# What the appliance init refuses, it says on the console and in
# appliance.txt, touches nothing, and powers off as the profile says:
#   a. a hostile plan (`{"format": null, ...}`, which once crashed the
#      init): the member named, the disk under test left alone;
#   b. a disk under test that carries a partition table, with wipe not
#      set: the safety rule's reason, the way out and the disk's
#      identities and signatures in appliance.txt; the table still there.
# Both start and end the sweep's result lines (docs/kit.md) as a failed
# sweep, the refused disk's planned runs each a failed case, not made.
# The kits are the init's busybox initramfs plus a plan as a second
# archive (the kernel unpacks both).
. "$TOP/tests/lib/common.sh"
work=$(mktemp -d "$CACHE/refusals.XXXXXX")
trap 'rm -rf "$work"' EXIT
[ -x "$B/buildapp-init" ] || fail "$B/buildapp-init not built"
command -v sfdisk >/dev/null || skip "sfdisk is not installed"
plan=/usr/lib/buildapp/kit/plan.json

sh "$TOP/tests/lib/busybox-initrd.sh" "$KVER" "$work/init.gz" "$B/buildapp-init"

# kit NAME PLAN-FILE: $work/NAME.img, the init with PLAN-FILE as its plan.
kit() {
	mkdir -p "$work/$1/usr/lib/buildapp/kit"
	cp "$2" "$work/$1$plan"
	(cd "$work/$1" && find . | sort | cpio -o -H newc --quiet --reproducible) |
		gzip -n -9 >"$work/$1.gz"
	cat "$work/init.gz" "$work/$1.gz" >"$work/$1-initrd.gz"
	"$BUILDAPP" image --kernel "$KERNEL" --initrd "$work/$1-initrd.gz" --name "$1" \
		--cmdline "console=ttyS0 buildapp.disk=REFUSAL-DUT" -o "$work/$1.img"
}

# boot NAME DISK: boots $work/NAME.img with DISK under test; console and
# report in $work/NAME.out.
boot() {
	rc=0
	sh "$TOP/scripts/boot-appliance.sh" "$work/$1.img" --serial REFUSAL-DUT \
		--disk "$2" --memory 512 --timeout 300 >"$work/$1.out" 2>&1 || rc=$?
	grep -E '^buildapp-init|^[a-z_]+: ' "$work/$1.out" || true
	[ "$rc" -eq 0 ] || fail "$1: the appliance did not power off with a report (exit $rc)"
}
expect() { grep -qx "$2" "$work/$1.out" || fail "$1: report lacks '$2'"; }

echo "a. a hostile plan"
printf '{"format": null, "version": 1, "profile": null}\n' >"$work/bad.json"
kit badplan "$work/bad.json"
qemu-img create -q -f raw "$work/blank.img" 1G
boot badplan "$work/blank.img"
grep -q "buildapp-init: error: '$plan' is not a buildapp plan" "$work/badplan.out" ||
	fail "badplan: the console does not say what is wrong with the plan"
expect badplan 'sweep: not run: the plan of this appliance is invalid'
expect badplan 'status: failed'
expect badplan "reason: '$plan' is not a buildapp plan"
expect badplan 'disk_under_test: none found'
grep -q "^BUILDAPP-SWEEP start kit=- runs=0" "$work/badplan.out" ||
	fail "badplan: no start line for a lab's engine"
grep -q "^BUILDAPP-SWEEP case=sweep result=fail measurement=0 units=failed_runs" "$work/badplan.out" &&
	grep -q "^BUILDAPP-SWEEP end result=fail made=0 failed=0 upload=none" "$work/badplan.out" ||
	fail "badplan: the result lines do not end as a failed sweep"

echo "b. a disk with a partition table, wipe not set"
"$BUILDAPP" plan "$TOP/profiles/ci-smoke.ini" --json >"$work/good.json"
kit refused "$work/good.json"
qemu-img create -q -f raw "$work/used.img" 1G
echo 'label: gpt' | sfdisk -q "$work/used.img"
sfdisk -d "$work/used.img" >"$work/table-before"
boot refused "$work/used.img"
why="refusing to write '/dev/sda': disk 'sda' carries signatures (gpt) and wipe is not set: to erase it, set \[host\] wipe = yes"
grep -q "buildapp-init: error: $why" "$work/refused.out" ||
	fail "refused: the console does not give the safety rule's reason"
grep -q "^sweep: failed: $why" "$work/refused.out" ||
	fail "refused: appliance.txt's sweep line lacks the reason"
grep -q "^reason: $why.*buildapp.wipe=yes buildapp.disk=ID" "$work/refused.out" ||
	fail "refused: appliance.txt's reason lacks the way out"
grep -q '^disk_identities: .*REFUSAL-DUT' "$work/refused.out" ||
	fail "refused: appliance.txt does not list the disk's identities"
expect refused 'disk_signatures: gpt'
expect refused 'status: failed'
sfdisk -d "$work/used.img" | cmp -s - "$work/table-before" ||
	fail "refused: the disk's partition table changed"
runs=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["total_runs"])' "$work/good.json")
grep -q "^BUILDAPP-SWEEP start kit=ci-smoke runs=$runs" "$work/refused.out" ||
	fail "refused: no start line naming the kit and its $runs runs"
[ "$(grep -c '^BUILDAPP-SWEEP case=[^ ]*/run-[0-9]* result=fail units= not made' "$work/refused.out")" -eq "$runs" ] ||
	fail "refused: not every planned run is a failed case: $(grep '^BUILDAPP-SWEEP' "$work/refused.out")"
grep -q "^BUILDAPP-SWEEP end result=fail made=0 failed=0 upload=none" "$work/refused.out" ||
	fail "refused: no end line saying the sweep failed"
echo "all refusal checks passed"
