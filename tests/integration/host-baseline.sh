#!/bin/sh
# A host-native baseline cell really runs: [workload] host_baseline = yes
# on a raw file in a directory target gives a guest dd cell and a host dd
# cell; `buildapp run` makes both, and the host cell's journal line says no
# guest was involved (guest false, no cache mode, no accelerator, no boot
# time) and carries the same dd metrics, in the same units, as the guest's.
# The qcow2 cell's L2 cache size is what QEMU's command line really had.
# The volumes are filled and every reset checked (verify_reset): the host
# run's writes to the raw file, traced through its loop device, are undone
# by a fast reset identical to the full one (sha256 of the whole file), as
# the guest run's are.
set -u
B=${B:-build}
BUILDAPP=${BUILDAPP:-$B/buildapp}
[ "$(id -u)" -eq 0 ] || { echo "needs root (loop devices, libvirt)"; exit 77; }
command -v losetup >/dev/null || { echo "no losetup"; exit 77; }
tmp=$(mktemp -d /var/tmp/buildapp-hostbase.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
. "${TOP:-.}/tests/lib/check.sh"
mkdir "$tmp/target"
cat >"$tmp/hb.ini" <<EOF2
[appliance]
include = $TOP/profiles/ci-smoke.ini
[storage]
backends = raw, qcow2
size = 64M
fill = yes
[guest]
cache = unsafe
l2_cache = 256K
[workload]
kinds = dd
dd_count = 256
host_baseline = yes
[sweep]
runs = 2
verify_reset = yes
EOF2

"$BUILDAPP" plan "$tmp/hb.ini" --json >"$tmp/plan.json"
check "plan: the raw host cell" grep -qF '"id": "raw\/raw\/sparse\/-\/-\/host\/dd"' "$tmp/plan.json"
check "plan: the qcow2 cell with its L2 cache" \
	grep -qF '"id": "qcow2\/qcow2\/off\/l2=256K\/unsafe\/threads\/virtio\/dd"' "$tmp/plan.json"
check "plan: the qcow2 host cell left out" grep -qF '"id": "qcow2\/qcow2\/off\/-\/-\/host\/dd"' "$tmp/plan.json"

"$BUILDAPP" run "$tmp/hb.ini" --target "$tmp/target" --results "$tmp/res" \
	--cache "$B/cache" >"$tmp/out" 2>"$tmp/err"
rc=$?
cat "$tmp/err"
j="$tmp/res/runs.jsonl"
host=$(grep '"guest":false' "$j" | head -1)
guest=$(grep '"id":"raw/raw/sparse/unsafe/threads/virtio/dd"' "$j" | head -1)
qcow=$(grep '"id":"qcow2/qcow2/off/l2=256K/unsafe/threads/virtio/dd"' "$j" | head -1)
check "run exits 0" test $rc -eq 0
check "six runs journaled, all ok" sh -c "test \$(grep -c '\"status\":\"ok\"' '$j') -eq 6"
check "the host cell's line: its id" sh -c "echo '$host' | grep -q '\"id\":\"raw/raw/sparse/-/-/host/dd\"'"
check "the host cell's line: no cache mode, no accelerator, no boot time" sh -c \
	"echo '$host' | grep -q '\"cache\":null' && echo '$host' | grep -q '\"accel\":null' && echo '$host' | grep -q '\"boot_seconds\":null'"
# cache unsafe's guests go through the host's page cache: so does the
# host cell's loop device, and its line says so (fio-jobfile.sh has the
# direct case).
check "the host cell's line: the image through the host's page cache" sh -c \
	"echo '$host' | grep -q '\"host_io\":\"buffered\"'"
check "the host cell measured dd in MB/s, as the guest did" sh -c \
	"echo '$host' | grep -q '\"name\":\"dd_mbps\",\"value\":[0-9.]*,\"unit\":\"MB/s\"' && echo '$guest' | grep -q '\"name\":\"dd_mbps\",\"value\":[0-9.]*,\"unit\":\"MB/s\"'"
# 256K of L2 + 4 x 64K clusters of refcount cache = 524288.
check "the qcow2 run's QEMU had cache-size 524288 on its command line" sh -c \
	"echo '$qcow' | grep -q '\"qcow2_cache\":{\"option\":\"cache-size\",\"bytes\":524288,\"source\":\"qemu command line\"}'"
check "the raw runs have no qcow2 cache" sh -c "echo '$guest' | grep -q '\"qcow2_cache\":null'"
grep '"id":"raw/' "$j" >"$tmp/raw.jsonl"
# The host's writes are traced through tracefs (the runner mounts it
# where it is not): a kernel without it resets in full after host runs.
[ -d /sys/kernel/tracing/events/block ] || mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null
traced=yes
[ -d /sys/kernel/tracing/events/block/block_bio_queue ] || traced=no
[ $traced = no ] ||
check "the raw file's resets: none after the fill, fast after each guest and host run, each checked identical" \
	python3 "$TOP/tests/lib/reset-checks.py" --filled "$tmp/raw.jsonl" \
	raw/raw/sparse/unsafe/threads/virtio/dd:dd_mbps raw/raw/sparse/-/-/host/dd:dd_mbps
check "nothing left mounted" sh -c "! grep -q buildapp-host- /proc/mounts"
check "no loop device left on the volumes" sh -c "! losetup -a | grep -q '$tmp'"
check "no trace instance left" sh -c "! ls /sys/kernel/tracing/instances | grep -q buildapp-"
check "summary written" test -s "$tmp/res/summary.json"
if [ $traced = no ] && [ "$fail" -eq 0 ]; then
	echo "skip: this kernel has no tracefs block events: the resets after host runs were not checked"
	exit 77
fi
exit $fail
