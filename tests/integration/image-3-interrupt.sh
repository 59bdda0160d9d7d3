#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A build killed midway (SIGTERM, then SIGINT) leaves nothing at the output
# path and no temporaries; so does a build that fails.
. "$TOP/tests/lib/common.sh"
work=$(mktemp -d "$CACHE/interrupt.XXXXXX")
trap 'rm -rf "$work"' EXIT

# An initramfs big enough that placing it on the ESP (mcopy) takes a
# while: the whole build runs on the host, in seconds.
big=$work/big-initrd
truncate -s 768M "$big" # sparse: only its copy on the ESP is written
for sig in TERM INT; do
	# Not through build_image: $! must be buildapp itself.
	"$BUILDAPP" image --kernel "$KERNEL" --initrd "$big" -o "$work/kit.img" \
		>"$work/log" 2>&1 &
	pid=$!
	# Mid-build: the ESP is being made.
	wait_for_log "$work/log" 'making the ESP' 60
	interrupt "$sig" "$pid" "$work/log"
	[ "$rc" -ne 0 ] || fail "SIG$sig: the build finished before the signal"
	[ ! -e "$work/kit.img" ] || fail "SIG$sig: output left at the output path"
	left=$(ls -A "$work" | grep -v '^log$\|^big-initrd$' || true)
	[ -z "$left" ] || fail "SIG$sig: temporaries left: $left"
	echo "SIG$sig: nothing left behind"
done

# A failing build (missing initramfs) leaves nothing either.
if "$BUILDAPP" image --kernel "$KERNEL" --initrd "$work/missing" -o "$work/kit.img"; then
	fail "a build with a missing initramfs succeeded"
fi
[ -z "$(ls -A "$work" | grep -v '^log$\|^big-initrd$' || true)" ] || fail "failed build left files"
