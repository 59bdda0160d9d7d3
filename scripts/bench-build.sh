#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Build-time benchmark: a cold kit build (empty caches), a warm rebuild,
# and a bare libguestfs launch for scale, in one run; prints the figures,
# the image size and the build's breakdown of the kit's bytes.
# Usage: bench-build.sh [PROFILE.ini]   (run from the source tree; it
# builds what it needs; default profiles/lvm-unsafe.ini)
set -eu
. "$(dirname "$0")/lib/bench.sh"
bench_setup
profile=${1:-profiles/lvm-unsafe.ini}
out=$(mktemp -d "${TMPDIR:-/var/tmp}/bench-build.XXXXXX")
trap 'rm -rf "$out"' EXIT
export BUILDAPP_INIT="$(pwd)/$B/buildapp-init"
accel=$(sh scripts/boot-appliance.sh --probe-accel)
[ "$accel" = kvm ] || export LIBGUESTFS_BACKEND_SETTINGS=force_tcg

build() { # OUTDIR
	"$buildapp" "$profile" -o "$1" --cache "$out/cache"
}
secs() { # command...: prints the seconds it took
	start=$(date +%s.%N)
	"$@" >"$out/log" 2>&1 || { cat "$out/log" >&2; exit 1; }
	awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { print b - a }'
}

# The baseline is measured before and after the builds, and averaged.
bare1=$(secs guestfish -a /dev/null run)
cold=$(secs build "$out/cold")
warm=$(secs build "$out/warm")
cp "$out/log" "$out/warm.log"
bare2=$(secs guestfish -a /dev/null run)
bare=$(awk -v a="$bare1" -v b="$bare2" 'BEGIN { print (a + b) / 2 }')
img=$(ls "$out/warm"/*.img)
size=$(stat -c %s "$img")
used=$(du -k "$img" | cut -f1)
echo "accelerator:                 $accel"
printf 'bare guestfish launch:       %.1f s\n' "$bare"
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
printf 'cold build:                  %.1f s (%sx the bare launch)\n' "$cold" "$(ratio "$cold" "$bare")"
printf 'warm rebuild:                %.1f s (%sx the bare launch)\n' "$warm" "$(ratio "$warm" "$bare")"
echo "image size:                  $((size / 1048576)) MiB apparent, $((used / 1024)) MiB allocated"
echo "host root cache:             $(du -sh "$out/cache" | cut -f1)"
echo "kit size breakdown (the warm build's own):"
sed -n 's/^buildapp: //p' "$out/warm.log" | sed -n '/^kit size:/,/^wrote /p' | grep -v '^wrote '
