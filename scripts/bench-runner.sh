#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Wall time of one benchmark run made by the runner (`buildapp run`, the
# whole command: kit lookup, provisioning, libvirt, reset, page-cache
# drop, guest, parse, journal, summary) against bare qemu-system-x86_64
# booting the same kernel, initramfs and disk with the same cache mode,
# machine, memory and accelerator.  The two alternate (runner then bare,
# bare then runner, ...) so load changes on the host hit both alike;
# medians are reported.  The bare side's disk reset and page-cache drop
# are not timed, the runner's are.  The workload is a small flush-heavy
# fio job like ci-smoke's.  With a new KIT_CACHE the first repetition
# also pays for libvirt's QEMU probe (kept in the cache afterwards).
# Usage: scripts/bench-runner.sh [REPS (default 5)] [CACHE unsafe|... (default unsafe)]
# Env: BUILDAPP (default build/buildapp), KIT_CACHE (guest kit cache,
# default a directory in WORK), WORK (default a temp dir),
# BUILDAPP_ACCEL (tcg|kvm, default tcg: KVM hangs guests on some hosts).
set -eu
reps=${1:-5}
cache=${2:-unsafe}
. "$(dirname "$0")/lib/bench.sh"
bench_setup
: "${LIBGUESTFS_BACKEND:=direct}"
: "${LIBGUESTFS_BACKEND_SETTINGS:=force_tcg}"
: "${BUILDAPP_ACCEL:=tcg}"
export LIBGUESTFS_BACKEND LIBGUESTFS_BACKEND_SETTINGS BUILDAPP_ACCEL
memory=256M
case $BUILDAPP_ACCEL in
kvm) accel="-accel kvm -cpu host" ;;
*) accel="-accel tcg -cpu qemu64" ;;
esac
[ "$(id -u)" -eq 0 ] || { echo "bench-runner.sh: needs root (embedded libvirt driver)" >&2; exit 1; }
work=${WORK:-$(mktemp -d /var/tmp/bench-runner.XXXXXX)}
kitcache=${KIT_CACHE:-$work/cache}
[ -n "${KEEP_WORK:-}" ] || trap 'rm -rf "$work"' EXIT
mkdir -p "$work/target" "$kitcache"

elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }

prof=$work/bench.ini
cat >"$prof" <<INI
[appliance]
name = bench-runner
[storage]
backends = raw
size = 64M
raw_preallocation = sparse
[guest]
memory = $memory
bus = virtio
cache = $cache
aio = threads
timeout = 600
[workload]
kinds = fio
fio_rw = randwrite
fio_bs = 4K
fio_size = 4M
fio_direct = no
fio_fsync = 1
[sweep]
runs = 1
INI

kit=$work/kit
build_kit "$buildapp" "$prof" "$kit" "$kitcache"
cmdline=$(cat "$kit/cmdline-fio")
# libvirt adds panic=-1 when the command line has no panic= of its own.
case $cmdline in *panic=*) ;; *) cmdline="$cmdline panic=-1" ;; esac

# The runner: one `buildapp run` of one run, timed as a whole, and each
# output line stamped as it comes: the run itself is the time from its
# progress line to its result line (reset, page-cache drop, libvirt
# domain, guest, parse, journal); before it is the start of the command
# (kit and image lookup, provisioning, the embedded libvirt driver).
stamp() { while IFS= read -r line; do printf '%s %s\n' "$(now)" "$line"; done; }
runner() { # rep
	res=$work/res-$1
	log=$work/runner-$1.log
	rm -rf "$res"
	t0=$(now)
	"$buildapp" run "$prof" --target "$work/target" --results "$res" \
		--cache "$kitcache" 2>&1 | stamp >"$log"
	t1=$(now)
	grep -q '"status":"ok"' "$res/runs.jsonl" 2>/dev/null ||
		{ echo "runner run $1 failed, see $log" >&2; tail "$log" >&2; exit 1; }
	elapsed "$t0" "$t1" >>"$work/runner.times"
	echo >>"$work/runner.times"
	a=$(awk '/buildapp: run 1\/1:/ { print $1; exit }' "$log")
	z=$(awk '/buildapp:   ok/ { print $1; exit }' "$log")
	elapsed "$a" "$z" >>"$work/run.times"
	echo >>"$work/run.times"
	elapsed "$t0" "$a" >>"$work/start.times"
	echo >>"$work/start.times"
	sed -n 's/.*"boot_seconds":\([0-9.]*\).*/\1/p' "$res/runs.jsonl" >>"$work/boot.times"
}

# Bare QEMU: the same guest; the disk reset and page-cache drop the
# runner does are done here too, outside the timed part.
bare() { # rep
	cp --sparse=always "$kit/disk.img" "$work/bare.raw"
	sync
	echo 3 >/proc/sys/vm/drop_caches 2>/dev/null || true
	log=$work/bare-$1.log
	rm -f "$log"
	t0=$(now)
	bare_guest "$accel" "$memory" "$(kit_kernel "$kit")" "$kit/initrd.img" "$cmdline" \
		"$work/bare.raw" "$cache" "file:$log" >"$work/bare-$1.out" 2>&1 ||
		{ echo "bare qemu failed: $(cat "$work/bare-$1.out")" >&2; exit 1; }
	t1=$(now)
	grep -q 'BUILDAPP:END status=0' "$log" ||
		{ echo "bare run $1: no successful END line in $log" >&2; tail "$log" >&2; exit 1; }
	elapsed "$t0" "$t1" >>"$work/bare.times"
	echo >>"$work/bare.times"
}

for f in runner run start boot bare; do : >"$work/$f.times"; done
i=1
while [ "$i" -le "$reps" ]; do
	echo "repetition $i/$reps..." >&2
	if [ $((i % 2)) -eq 1 ]; then runner "$i"; bare "$i"; else bare "$i"; runner "$i"; fi
	i=$((i + 1))
done

med() { grep . "$work/$1.times" | median; }
all() { grep . "$work/$1.times" | awk '{ printf "%.1f ", $1 }' | sed 's/ $//'; }
row() { # label file
	printf '| %s | %s | %s | %s |\n' "$1" "$(med "$2")" "$(all "$2")" \
		"$(awk -v a="$(med "$2")" -v b="$(med bare)" 'BEGIN { printf "%.2f", a / b }')"
}
echo
echo "runner vs bare QEMU: fio randwrite 4K fsync=1 4M on a raw 64M volume,"
echo "cache=$cache, $memory guest, $BUILDAPP_ACCEL, $reps repetitions each, interleaved;"
echo "$(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg) at the end"
echo
echo "| measure | median s | each repetition s | ratio to bare |"
echo "|---|---:|---|---:|"
row "bare qemu-system-x86_64, process wall time" bare
row "runner, one run (progress line to result line)" run
row "runner, guest boot to shutdown (libvirt events)" boot
row "buildapp run, whole command for a 1-run sweep" runner
row "buildapp run start-up before the run (once per sweep)" start
# Pairs (the runner's run and the bare run of the same repetition ran
# back to back) are less sensitive to the host's load than the medians.
paste "$work/run.times" "$work/bare.times" | grep . | awk '{ print $1 / $2 }' | median >"$work/pair"
echo
echo "median of the per-repetition ratios (runner run / bare): $(cat "$work/pair")"
