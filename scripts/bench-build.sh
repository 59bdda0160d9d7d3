#!/bin/sh
# Build-time benchmark: a cold kit build (empty host-root cache), a warm
# rebuild, and a bare libguestfs launch for scale; prints the figures and
# the image size.
# Usage: bench-build.sh [PROFILE.ini]   (run from the source tree, after make)
# Without a profile (or while buildapp has no profile loader) the kit of
# tests/tools/kit_build.c is built.
set -eu
B=${B:-build}
profile=${1:-}
out=$(mktemp -d "${TMPDIR:-/var/tmp}/bench-build.XXXXXX")
trap 'rm -rf "$out"' EXIT
export BUILDAPP_INIT="$(pwd)/$B/buildapp-init"
accel=$(sh scripts/boot-appliance.sh --probe-accel)
[ "$accel" = kvm ] || export LIBGUESTFS_BACKEND_SETTINGS=force_tcg

build() { # OUTDIR
	if [ -n "$profile" ]; then
		"$B/buildapp" "$profile" -o "$1" --cache "$out/cache"
	else
		"$B/tests/tools/kit-build" "$1" "$out/cache"
	fi
}
secs() { # command...: prints the seconds it took
	start=$(date +%s.%N)
	"$@" >"$out/log" 2>&1 || { cat "$out/log" >&2; exit 1; }
	awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { print b - a }'
}

bare=$(secs guestfish -a /dev/null run)
cold=$(secs build "$out/cold")
warm=$(secs build "$out/warm")
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
