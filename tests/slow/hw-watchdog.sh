#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The server's hardware watchdog: a kit of four qemu-img bench runs with
# hardware_watchdog = 30 (two cells: the disk's write cache on and off,
# set and read back before each run), booted on the virtual lab server with a
# watchdog (boot-appliance.sh --watchdog: QEMU's i6300esb, whose expiry
# resets the server).  The kit's initramfs gets one file more, a qemu-img
# ahead of the real one in the root's PATH whose second `bench` stops the
# init's worker (SIGSTOP), the feeding thread with it: nothing in the
# sweep runs any more, as after a wedged kernel, and nothing is given up
# by the init's own watchdog, which is stopped too.  The server must be
# reset by the hardware watchdog (the firmware booted twice); the boot
# after it must say so on the console and in appliance.txt, journal the
# run it cut short as failed with the reason, print that run's failed
# result line, and stop as `after = poweroff` says: the two runs after it
# never made, the server powered off.
. "$TOP/tests/lib/common.sh"
command -v supermin >/dev/null || skip "supermin is not installed"
command -v mcopy >/dev/null || skip "mtools is not installed"
work=$(mktemp -d "$CACHE/hwwatchdog.XXXXXX")
trap 'rm -rf "$work"' EXIT
export BUILDAPP_INIT="$TOP/$B/buildapp-init" SOURCE_DATE_EPOCH=1700000000
cat >"$work/hw-watchdog.ini" <<INI
[appliance]
name = hw-watchdog
console = ttyS0
hardware_watchdog = 30
after = poweroff
[host]
disk = HWWD-DUT
write_cache = on, off
[storage]
backends = raw
size = 256M
[guest]
accel = tcg
[workload]
kinds = qemu-img-bench
bench_count = 200000
bench_step = 64K
[sweep]
runs = 2
INI
"$BUILDAPP" "$work/hw-watchdog.ini" -o "$work/out" --cache "$CACHE/hostroot"
img=$work/out/hw-watchdog.img

# The wedge: /usr/sbin comes before /usr/bin in the init's PATH.
mkdir -p "$work/wedge/usr/sbin"
cat >"$work/wedge/usr/sbin/qemu-img" <<'SH'
#!/usr/bin/busybox sh
# This test's wedge: the second qemu-img bench of a boot stops the
# process that started it, the kit's init worker, and never returns.
# (The kit's root has no /bin/sh: busybox's own.)
if [ "$1" = bench ]; then
	n=$(($(/usr/bin/busybox cat /run/wedge-benches 2>/dev/null || echo 0) + 1))
	echo "$n" >/run/wedge-benches
	if [ "$n" = 2 ]; then
		echo "wedge: stopping pid $PPID, the init's worker" >/dev/console
		kill -STOP "$PPID"
		exec /usr/bin/busybox sleep 100000
	fi
fi
exec /usr/bin/qemu-img "$@"
SH
chmod 755 "$work/wedge/usr/sbin/qemu-img"
start=$(partx -g -o START -n 1 "$img")
mcopy -n -i "$img@@$((start * 512))" ::/initrd "$work/initrd"
(cd "$work/wedge" && find . -mindepth 1 | sort | cpio -o -H newc --quiet) | zstd -q -c >>"$work/initrd"
mcopy -o -n -i "$img@@$((start * 512))" "$work/initrd" ::/initrd
qemu-img create -q -f raw "$work/dut.img" 2G

sh "$TOP/scripts/boot-appliance.sh" "$img" --serial HWWD-DUT --disk "$work/dut.img" \
	--memory 2048 --watchdog --reboots --timeout 1800 --log "$work/console" \
	--firmware-log "$work/firmware.log" >"$work/report" 2>"$work/boot.err" ||
	{ cat "$work/boot.err"; tail -n 60 "$work/console"; fail "the kit did not power off with a report"; }
grep -E 'hardware watchdog|wedge:|BUILDAPP-SWEEP|journaled failed' "$work/console" |
	sed 's/^.*buildapp-init[^ ]* //'
grep -E '^[a-z_]+: ' "$work/report"

grep -q 'hardware watchdog: armed: i6300ESB timer (/dev/watchdog), 30 s' "$work/console" ||
	fail "the kit did not arm the server's watchdog"
grep -q 'wedge: stopping pid' "$work/console" || fail "the wedge never came"
fw=$(grep -c '^BUILD: ' "$work/firmware.log")
[ "$fw" -eq 2 ] || fail "the firmware booted $fw times, not twice (one reset by the watchdog)"
grep -Eq "the hardware watchdog \(i6300ESB timer, 30 s\) reset the server during 'run 2/4: " \
	"$work/console" || fail "the boot after the reset does not say the watchdog reset the server"
grep -q '^hardware_watchdog_resets: 1$' "$work/report" ||
	fail "appliance.txt does not count the watchdog's reset"
grep -Eq "^reason: the hardware watchdog \(i6300ESB timer, 30 s\) reset the server during 'run 2/4: " \
	"$work/report" || fail "appliance.txt's reason is not the watchdog's reset"
grep -Eq '^BUILDAPP-SWEEP case=raw/raw/sparse/none/threads/-/qemu-img-bench/wc=o(n|ff)/run-1 result=fail' \
	"$work/console" || fail "no failed result line for the run the reset cut short"
grep -q '^BUILDAPP-SWEEP end result=fail' "$work/console" || fail "no failed end line"

guestfish --ro -a "$img" -m /dev/sda2 cat /runs.jsonl >"$work/runs.jsonl" ||
	fail "no runs.jsonl on RESULTS"
cat "$work/runs.jsonl"
python3 - "$work/runs.jsonl" <<'PY' || fail "the journal is not the first run ok and the second failed by the watchdog"
import json, sys
runs = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
got = [(r["position"], r["status"]) for r in runs]
if got != [(0, "ok"), (1, "failed")]:
    sys.exit(f"journal {got}, expected run 1 ok and run 2 failed, the others not made")
if "hardware watchdog" not in runs[1]["message"]:
    sys.exit("the failed run's message does not name the hardware watchdog: %s" % runs[1]["message"])
# The disk's write cache, an axis: set for the first run's cell and read back.
wc = runs[0]["cell"].get("write_cache")
if wc not in ("on", "off") or runs[0].get("disk_write_cache") != wc:
    sys.exit("the first run's disk write cache was not set and read back as its cell asks: %s" % runs[0])
PY
echo "a sweep that stopped feeding the watchdog: reset, said by the boot after it, and stopped as after = poweroff says"
