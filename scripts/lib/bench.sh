# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=sh
# Sourced by scripts/bench-*.sh, which run from the tree's top as
# docs/performance.md shows them.  Sets B (the build directory, default build) and buildapp
# (BUILDAPP when given, else $B/buildapp), and builds what a benchmark
# runs: the programs (`make all`: buildapp, the appliance's init and
# agent) and the test programs it names, so a benchmark needs no build
# step of its own (make is incremental: nothing when all is up to date).
# With BUILDAPP given, only those test programs.
# Usage: bench_setup [CHECK_PROGRAM...]
B=${B:-build}
bench_setup() {
	if [ -n "${BUILDAPP:-}" ]; then
		buildapp=$BUILDAPP
		[ $# -eq 0 ] && return 0
	else
		buildapp=$B/buildapp
		set -- all "$@"
	fi
	make -s B="$B" "$@" >&2 ||
		{ echo "$(basename "$0"): cannot build $* (make B=$B $*)" >&2; exit 1; }
}

# For the benchmarks that boot a benchmark guest with bare QEMU: the
# clock, the median, and the guest as the runner's domain boots it, so
# that the baselines they measure stay one machine.

now() { date +%s.%N; }
median() { sort -n | awk '{ v[NR] = $1 } END {
	if (NR % 2) printf "%.2f", v[(NR + 1) / 2];
	else printf "%.2f", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# The guest kit of PROFILE built (or found in CACHE) into DIR.
build_kit() { # buildapp profile dir cache
	echo "building (or finding) the guest kit..." >&2
	"$1" kit "$2" -o "$3" --cache "$4" >/dev/null
}

# The kernel the runner boots from the kit in DIR: the PVH ELF when the
# kit has one (runner/pvhkernel.h), else the bzImage.
kit_kernel() { # dir
	if [ -f "$1/vmlinux" ]; then echo "$1/vmlinux"; else echo "$1/vmlinuz"; fi
}

# A benchmark guest under bare QEMU: q35, one vCPU, MEMORY of RAM, the
# accelerator options ACCEL (a list), the raw DISK on virtio-blk with
# aio=threads and cache mode CACHE, the console on SERIAL (QEMU's -serial:
# file:LOG, stdio); QEMU's stdin is /dev/null.
bare_guest() { # accel memory kernel initrd cmdline disk cache serial
	# shellcheck disable=SC2086 # accel is a list of options
	qemu-system-x86_64 $1 -machine q35 -m "$2" -smp 1 \
		-nodefaults -no-user-config -display none -no-reboot \
		-kernel "$3" -initrd "$4" -append "$5" -serial "$8" \
		-drive "file=$6,format=raw,if=none,id=disk0,cache=$7,aio=threads" \
		-device virtio-blk-pci,drive=disk0,serial=buildapp-test </dev/null
}

# REPS rounds of FUNCTION SIDE REP for each SIDE, every other round in
# the reverse order, so that load on the host hits the sides alike.
alternate() { # reps function side...
	_reps=$1 _fn=$2
	shift 2
	_fwd=$* _rev=
	for _s in "$@"; do _rev="$_s${_rev:+ $_rev}"; done
	_i=1
	while [ "$_i" -le "$_reps" ]; do
		echo "repetition $_i/$_reps..." >&2
		if [ $((_i % 2)) -eq 1 ]; then _order=$_fwd; else _order=$_rev; fi
		for _s in $_order; do "$_fn" "$_s" "$_i"; done
		_i=$((_i + 1))
	done
}

# The values of a file of numbers, one a line: their median, each of
# them (one decimal), and the ratio of two files' medians.
median_of() { median <"$1"; }
values_of() { awk '{ printf "%.1f ", $1 }' "$1" | sed 's/ $//'; }
median_ratio() { awk -v a="$(median_of "$1")" -v b="$(median_of "$2")" 'BEGIN { printf "%.2f", a / b }'; }

# The nested benchmark of scripts/bench-nested*.sh: a profile with keys
# every tree since 0571248^ knows (one LVM LV, cache unsafe, an 8M
# generated tarball written RUNS times in a TCG guest, as the demo), and
# the numbers of a journal of its runs appended, one a line, to
# PREFIX.boot (boot to shutdown less the agent's workload_seconds),
# PREFIX.total (boot to shutdown), PREFIX.work (workload_seconds), and,
# from journals that have it, PREFIX.start (libvirt's start of the
# guest's QEMU, phases.guest_start) of each boot's first run and
# PREFIX.later_start of the others.
nested_profile() { # file runs
	cat >"$1" <<INI
[appliance]
name = bench-nested
size = 1G
[storage]
backends = lvm
size = 256M
[guest]
memory = 384M
cache = unsafe
aio = threads
bus = virtio
accel = tcg
timeout = 900
[workload]
kinds = tarball-write
tarball = generated
tarball_size = 8M
[sweep]
runs = $2
INI
}
nested_runs() { # runs.jsonl prefix
	python3 - "$1" "$2" <<'PY'
import json, sys
prefix = sys.argv[2]
def put(name, value):
    with open(f"{prefix}.{name}", "a") as f:
        print(f"{value:.3f}", file=f)
for i, line in enumerate(open(sys.argv[1])):
    r = json.loads(line)
    if r["status"] != "ok":
        sys.exit(f"a run is {r['status']}: {r.get('message')}")
    work = next(m["value"] for m in r["metrics"] if m["name"] == "workload_seconds")
    put("boot", r["boot_seconds"] - work)
    put("total", r["boot_seconds"])
    put("work", work)
    start = (r.get("phases") or {}).get("guest_start")
    if start is not None:
        put("start" if i == 0 else "later_start", start)
PY
}

# Two sides A and B of a nested benchmark: their files emptied
# (nested_sides_init, in WORK), and one table row of MEASURE (a file
# suffix in the current directory) with each side's median and values and
# B's median over A's (nested_row).
nested_sides_init() { # work a b
	for _s in "$2" "$3"; do
		for _f in boot total work wall start later_start; do : >"$1/$_s.$_f"; done
	done
}
nested_row() { # label measure a b
	printf '| %s | %s | %s | %s | %s | %s |\n' "$1" "$(median_of "$3.$2")" "$(values_of "$3.$2")" \
		"$(median_of "$4.$2")" "$(values_of "$4.$2")" "$(median_ratio "$4.$2" "$3.$2")"
}
