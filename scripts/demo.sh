#!/bin/sh
# The main job, end to end on this machine: build a profile's kit
# (default profiles/lvm-unsafe-demo.ini), boot it in qemu as a virtual lab
# server with a blank disk under test, let it run its sweep, and print the
# report and the results it left on its RESULTS partition.
#
# Usage: demo.sh [PROFILE.ini] [OUTDIR]
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
profile=${1:-$top/profiles/lvm-unsafe-demo.ini}
out=${2:-$top/out}
buildapp=${BUILDAPP:-$top/build/buildapp}

# Where /dev/kvm exists but does not boot a guest (nested setups), both
# libguestfs and libvirt must be told to use TCG.
accel=${BUILDAPP_ACCEL:-$(sh "$top/scripts/boot-appliance.sh" --probe-accel)}
export BUILDAPP_ACCEL="$accel"
[ "$accel" = kvm ] || export LIBGUESTFS_BACKEND_SETTINGS=force_tcg
echo "demo: accelerator $accel" >&2

"$buildapp" "$profile" -o "$out"
name=$("$buildapp" plan --json "$profile" | sed -n 's/^ *"name": "\(.*\)",$/\1/p' | head -n 1)
sh "$top/scripts/boot-appliance.sh" "$out/$name.img" --disk-size 4G
rm -rf "$out/$name.results"
"$buildapp" results "$out/$name.img" -o "$out/$name.results"
echo "demo: results in $out/$name.results:" >&2
cat "$out/$name.results/summary.txt" 2>/dev/null || true
