#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# SIGTERM to buildapp while a storage tool runs (the qemu-img convert that
# fills a volume: storage/tool.c, the same runner as a reset's convert)
# stops that tool: buildapp dies of the signal (status 143) and no
# qemu-img is left writing to the volume.  The cheapest real case: an 8G
# raw file filled by the native executor, no libguestfs launch, no guest;
# the signal comes a second into the fill, so a few hundred MB are
# written.  About 3 s.
set -u
. "$TOP/tests/lib/common.sh"
command -v qemu-img >/dev/null || { echo "qemu-img is not installed"; exit 77; }
command -v pgrep >/dev/null || { echo "no pgrep (procps)"; exit 77; }

T=$(mktemp -d /var/tmp/buildapp-interrupt.XXXXXX) || exit 1
tool=
cleanup() {
	# Only the qemu-img this test made, by its pid.
	[ -z "$tool" ] || kill -KILL "$tool" 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT

cat >"$T/fill.ini" <<INI
[appliance]
name = interrupt
[storage]
backends = raw
size = 8G
fill = yes
INI
mkdir "$T/dir"
"$BUILDAPP" provision "$T/fill.ini" --target "$T/dir" --executor native \
	>"$T/log" 2>&1 &
pid=$!
# buildapp's own child writing the volume.
for _ in $(seq 1 300); do
	tool=$(pgrep -P "$pid" -x qemu-img) && grep -q convert "/proc/$tool/cmdline" 2>/dev/null && break
	tool=
	kill -0 "$pid" 2>/dev/null || break
	sleep 0.1
done
[ -n "$tool" ] || { cat "$T/log"; fail "no qemu-img convert started by buildapp"; }
sleep 1
interrupt TERM "$pid" "$T/log"
[ "$rc" -eq 143 ] || fail "buildapp exited $rc, not 143 (killed by SIGTERM)"
# A zombie waiting for init is dead too.
for _ in $(seq 1 50); do
	state=$(sed 's/.*) \(.\).*/\1/' "/proc/$tool/stat" 2>/dev/null) || break
	[ "$state" = Z ] && break
	sleep 0.1
done
if state=$(sed 's/.*) \(.\).*/\1/' "/proc/$tool/stat" 2>/dev/null) && [ "$state" != Z ]; then
	fail "qemu-img ($tool) still runs after buildapp died of SIGTERM"
fi
left=$(pgrep -f -x "qemu-img convert .*$T/dir/.*" || true)
[ -z "$left" ] || fail "a qemu-img on $T/dir is left: $left"
tool=
echo "SIGTERM during qemu-img convert: buildapp died of it, qemu-img with it"
