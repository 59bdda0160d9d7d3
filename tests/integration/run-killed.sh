#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# SIGKILL of `buildapp run` (no handler runs) while its guest runs.
# With its guardian (buildapp-guard) killed too, the guest's QEMU
# outlives it, with the image file's loop device attached and its
# filesystem mounted under the run's /tmp/buildapp-run-* directory.
# The next `buildapp run` kills that QEMU, unmounts, detaches the loop
# device and removes the directory, says so for each, and touches no
# other sweep's (a live one's state directory, owned, is left alone);
# then it recognises the layout the killed run made on the image file
# (recorded on RESULTS) and resumes without wipe: every planned run once.
# Then a run killed alone: its guardian ends its QEMU, unmounts, detaches
# and removes its state within seconds, with no next run.
set -eu
. "$(dirname "$0")/../lib/run-env.sh"
command -v losetup >/dev/null || { echo "no losetup"; exit 77; }
command -v flock >/dev/null || { echo "no flock"; exit 77; }
command -v sfdisk >/dev/null || { echo "no sfdisk"; exit 77; }
command -v qemu-system-x86_64 >/dev/null || { echo "qemu-system-x86_64 is not installed"; exit 77; }
command -v fio >/dev/null || { echo "fio is not installed (the guest kit needs it)"; exit 77; }

T=$(mktemp -d /var/tmp/buildapp-killed.XXXXXX)
live=$(mktemp -d /tmp/buildapp-run-XXXXXX)
holder= state=
# The killed run's guest, by its pid file (as the next run finds it).
guest_pid() { cat "$state/run/qemu/buildapp-r0.pid" 2>/dev/null || true; }
cleanup() {
	[ -z "$holder" ] || kill "$holder" 2>/dev/null || true
	[ -z "$state" ] || [ -z "$(guest_pid)" ] || kill -KILL "$(guest_pid)" 2>/dev/null || true
	for l in $(losetup -j "$T/disk.img" -O NAME -n 2>/dev/null); do losetup -d "$l"; done
	rm -rf "$live"
	[ -n "${KEEP_TMP:-}" ] || rm -rf "$T"
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; exit 1; }

cat >"$T/one.ini" <<INI
[appliance]
name = run-killed
[storage]
backends = raw
size = 64M
[guest]
memory = 256M
cache = unsafe
timeout = 300
[workload]
kinds = fio
fio_rw = randwrite
fio_bs = 4K
fio_size = 4M
fio_runtime = 0
fio_fsync = 1
[sweep]
runs = 2
INI
# Another sweep's state directory, its owner alive.
: >"$live/.owner"
flock "$live/.owner" sleep 600 &
holder=$!

"$BUILDAPP" run "$T/one.ini" --target "$T/disk.img" --results "$T/res" \
	--cache "$T/cache" >"$T/run1.out" 2>&1 &
pid=$!
# wait_guest IMAGE OUT: until the run $pid's state directory records
# IMAGE's loop device and libvirt has written the guest's pid file; sets
# state.
wait_guest() {
	state= i=0
	while [ -z "$state" ] || [ -z "$(guest_pid)" ]; do
		kill -0 "$pid" 2>/dev/null && [ $i -lt 3000 ] || { cat "$2"; fail "no guest started"; }
		state=$(grep -l "$1" /tmp/buildapp-run-*/loop 2>/dev/null | head -n 1 || true)
		state=${state%/loop}
		sleep 0.2
		i=$((i + 1))
	done
	sleep 2
}
# Killed once its first guest runs, with its guardian.
wait_guest "$T/disk.img" "$T/run1.out"
guard=$(pgrep -P "$pid" -x buildapp-guard) || fail "the run has no guardian"
kill -KILL "$guard" "$pid"
wait "$pid" || true
cat "$T/run1.out"
qemu=$(guest_pid)
kill -0 "$qemu" 2>/dev/null || fail "no QEMU outlived the killed run (the test is moot)"
dev=$(sed -n 1p "$state/loop")
grep -q " $state/" /proc/self/mounts || fail "nothing mounted under $state (the test is moot)"

rc=0
"$BUILDAPP" run "$T/one.ini" --target "$T/disk.img" --results "$T/res" \
	--cache "$T/cache" >"$T/run2.out" 2>&1 || rc=$?
cat "$T/run2.out"
grep -q "killed QEMU (pid $qemu) of a sweep that was killed ($state)" "$T/run2.out" ||
	fail "the next run does not say it killed the QEMU"
grep -q "unmounted '$state/" "$T/run2.out" || fail "the next run does not say it unmounted"
grep -q "detached '$dev' ($T/disk.img)" "$T/run2.out" || fail "the next run does not say it detached $dev"
grep -q "removed '$state', left by a sweep that was killed" "$T/run2.out" ||
	fail "the next run does not say it removed $state"
[ ! -e "$state" ] || fail "$state is still there"
! kill -0 "$qemu" 2>/dev/null || fail "the killed run's QEMU (pid $qemu) still runs"
! grep -q " $state/" /proc/self/mounts || fail "still mounted under $state"
grep -q "Failed to get \"write\" lock" "$T/run2.out" && fail "the image is still locked"
[ -e "$live/.owner" ] || fail "a live sweep's state directory was removed"
grep -q "$live" "$T/run2.out" && fail "a live sweep's state directory was touched"
grep -q "carries the layout this sweep made on it" "$T/run2.out" ||
	fail "the next run does not recognise the layout it made"
[ "$rc" -eq 0 ] || fail "the next run exited $rc"
j=$T/res/runs.jsonl
[ "$(sed -n 's/.*"index":\([0-9]*\).*/\1/p' "$j" | sort | tr '\n' ' ')" = "0 1 " ] ||
	fail "journal indexes $(sed -n 's/.*"index":\([0-9]*\).*/\1/p' "$j" | tr '\n' ' '), expected 0 1 once each"
# Another file with a partition table is still refused with these RESULTS.
qemu-img create -q -f raw "$T/other.img" 200M
echo 'label: gpt' | sfdisk -q "$T/other.img"
rc=0
"$BUILDAPP" run "$T/one.ini" --target "$T/other.img" --results "$T/res" \
	--cache "$T/cache" >"$T/run3.out" 2>&1 || rc=$?
cat "$T/run3.out"
[ "$rc" -ne 0 ] && grep -q "carries signatures (gpt) and wipe is not set" "$T/run3.out" ||
	fail "a foreign image file was not refused"

# Killed alone: the guardian cleans up at once.
"$BUILDAPP" run "$T/one.ini" --target "$T/alone.img" --results "$T/res-alone" \
	--cache "$T/cache" >"$T/run4.out" 2>&1 &
pid=$!
wait_guest "$T/alone.img" "$T/run4.out"
qemu=$(guest_pid)
dev=$(sed -n 1p "$state/loop")
guard=$(pgrep -P "$pid" -x buildapp-guard) || fail "the run has no guardian"
kill -KILL "$pid"
wait "$pid" || true
i=0
while { kill -0 "$qemu" 2>/dev/null || kill -0 "$guard" 2>/dev/null; } && [ $i -lt 150 ]; do
	sleep 0.2
	i=$((i + 1))
done
cat "$T/run4.out"
! kill -0 "$qemu" 2>/dev/null || fail "the run killed alone left its QEMU (pid $qemu) running 30 s on"
echo "the guardian ended the killed run's QEMU within $((i / 5)) s"
[ ! -e "$state" ] || fail "the guardian did not remove $state"
! grep -q " $state/" /proc/self/mounts || fail "the guardian left a mount under $state"
! losetup -j "$T/alone.img" -O NAME -n | grep -q . || fail "the guardian left $dev attached"
grep -q "killed QEMU (pid $qemu) of a sweep that was killed ($state)" "$T/run4.out" ||
	fail "the guardian did not say it killed the QEMU"
! kill -0 "$guard" 2>/dev/null || fail "the guardian (pid $guard) is still running 30 s on"
echo "all killed-run checks passed"
