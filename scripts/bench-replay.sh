#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Runs until the questions are answered, replayed: the rule of
# report/precision.h ([sweep] target_ci with [report] compare: one more
# run a side while a comparison's 95% interval is wider than the target,
# up to max_runs) drawn from the runs of journals of real sweeps recorded
# here (scripts/replay/*.jsonl, from the profiles beside them), against
# the fixed number of runs a side that answers every comparison of the
# journal to the same width on average.  Per comparison and in all: runs
# used and the coverage of the intervals (the share holding the ratio of
# all the journal's runs), over many replays (tests/helpers/replay_helper.c).
# Goal: coverage within a point of 95%, runs at most 0.6 of the fixed.
# Usage: scripts/bench-replay.sh [REPS (default 4000)] [TARGET points (default 10)]
#        scripts/bench-replay.sh --record
# --record: sweeps scripts/replay/*.ini again with `buildapp run` (TCG,
# root) and writes their journals over scripts/replay/*.jsonl.
# Env: BUILDAPP (default build/buildapp), WORK (default a temp dir).
set -eu
. "$(dirname "$0")/lib/bench.sh"
bench_setup "$B/tests/replay-helper"
dir=$(dirname "$0")/replay

if [ "${1:-}" = --record ]; then
	: "${LIBGUESTFS_BACKEND_SETTINGS:=force_tcg}" "${BUILDAPP_ACCEL:=tcg}"
	export LIBGUESTFS_BACKEND_SETTINGS BUILDAPP_ACCEL
	work=${WORK:-$(mktemp -d /var/tmp/bench-replay.XXXXXX)}
	[ -n "${KEEP_WORK:-}" ] || trap 'rm -rf "$work"' EXIT
	for ini in "$dir"/*.ini; do
		name=$(basename "$ini" .ini)
		mkdir -p "$work/$name.target"
		"$buildapp" run "$ini" --target "$work/$name.target" --results "$work/$name.res" \
			--cache "$work/cache" >"$work/$name.out" 2>&1 ||
			{ tail -20 "$work/$name.out"; echo "bench-replay.sh: the $name sweep failed" >&2; exit 1; }
		cp "$work/$name.res/runs.jsonl" "$dir/$name.jsonl"
		echo "recorded $dir/$name.jsonl: $(grep -c '"status":"ok"' "$dir/$name.jsonl") ok runs"
	done
	exit 0
fi

reps=${1:-4000}
target=${2:-10}
helper=$B/tests/replay-helper
# FIRST is the sweep's planned runs a cell ([sweep] runs): the replays
# start from each.
for first in 3 5; do
	echo "== replays of the runs-until-answered rule: target +/- $target points, $first runs a side first ([sweep] runs), at most 30"
	echo "bench.jsonl (qemu-img bench, bench_seconds: the qcow2 L2 cache question, raw against qcow2):"
	"$helper" --target "$target" --first "$first" --max 30 --reps "$reps" "$dir/bench.jsonl" bench_seconds \
		"qcow2/qcow2/off/l2=1M/none/native/-/qemu-img-bench:qcow2/qcow2/off/l2=16K/none/native/-/qemu-img-bench" \
		"raw/raw/sparse/none/native/-/qemu-img-bench:qcow2/qcow2/off/l2=1M/none/native/-/qemu-img-bench"
	echo "guest.jsonl (a TCG guest's tarball write, write_seconds: the demo's question):"
	"$helper" --target "$target" --first "$first" --max 30 --reps "$reps" "$dir/guest.jsonl" write_seconds \
		"raw/raw/sparse/unsafe/threads/virtio/tarball-write:raw/raw/sparse/writethrough/threads/virtio/tarball-write"
done
