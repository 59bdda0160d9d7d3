#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Provisioning time per storage backend.  Each backend is provisioned by
# `buildapp provision` (one libguestfs launch) onto a fresh image file and
# timed against a bare libguestfs launch measured in the same run (the
# ratio is what carries over between machines); the file backends are also
# timed with the native executor on a directory (no launch).
# Usage: scripts/bench-provision.sh [SIZE (default 256M)] [fill yes|no (default no)]
# Env: BUILDAPP (default build/buildapp), WORK (default a temp dir).
set -eu
size=${1:-256M}
fill=${2:-no}
. "$(dirname "$0")/lib/bench.sh"
bench_setup
export LIBGUESTFS_BACKEND=${LIBGUESTFS_BACKEND:-direct}
# /dev/kvm can be present yet hang libguestfs's appliance (seen here).
export LIBGUESTFS_BACKEND_SETTINGS=${LIBGUESTFS_BACKEND_SETTINGS:-force_tcg}
work=${WORK:-$(mktemp -d /var/tmp/bench-provision.XXXXXX)}
trap 'rm -rf "$work"' EXIT

now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b - a }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }

profile() { # backend -> profile path
	p="$work/$1.ini"
	cat >"$p" <<INI
[storage]
backends = $1
size = $size
qcow2_preallocation = off, metadata, falloc, full
raw_preallocation = sparse, falloc, full
cluster_size = 64K
fill = $fill
INI
	echo "$p"
}

truncate -s 1G "$work/bare.img"
t0=$(now)
guestfish -a "$work/bare.img" run
t1=$(now)
base=$(elapsed "$t0" "$t1")

printf '%-10s %-26s %12s %14s %12s\n' backend volumes guestfs_s ratio_to_launch native_dir_s
printf '%-10s %-26s %12.1f %14.2f %12s\n' "(launch)" "bare guestfish run" "$base" 1 -
for b in ext4-file lvm qcow2 raw; do
	p=$(profile "$b")
	case $b in
	qcow2) vols="off,metadata,falloc,full" ;;
	raw) vols="sparse,falloc,full" ;;
	*) vols=1 ;;
	esac
	rm -f "$work/$b.img"
	t0=$(now)
	"$buildapp" provision "$p" --target "$work/$b.img" >/dev/null 2>"$work/$b.log"
	t1=$(now)
	g=$(elapsed "$t0" "$t1")
	n=-
	if [ "$b" != lvm ]; then
		mkdir -p "$work/dir-$b"
		t0=$(now)
		"$buildapp" provision "$p" --target "$work/dir-$b" --executor native >/dev/null 2>>"$work/$b.log"
		t1=$(now)
		n=$(printf '%.2f' "$(elapsed "$t0" "$t1")")
	fi
	printf '%-10s %-26s %12.1f %14.2f %12s\n' "$b" "$vols" "$g" \
		"$(ratio "$g" "$base")" "$n"
done
echo "size $size per volume, fill=$fill, $(nproc) cores, $(date -u +%Y-%m-%dT%H:%MZ)"
