#!/bin/sh
# A build killed midway (SIGTERM, then SIGINT) leaves nothing at the output
# path and no temporaries; so does a build that fails.
. "$TOP/tests/lib/common.sh"
work=$(mktemp -d "$CACHE/interrupt.XXXXXX")
trap 'rm -rf "$work"' EXIT

for sig in TERM INT; do
	initrd=$(busybox_initrd)
	# Not through build_image: $! must be buildapp itself.
	"$BUILDAPP" image --kernel "$KERNEL" --initrd "$initrd" -o "$work/kit.img" \
		>"$work/log" 2>&1 &
	pid=$!
	# Wait until the libguestfs appliance is starting: mid-build.
	wait_for_log "$work/log" 'starting the libguestfs' 60
	sleep 3
	interrupt "$sig" "$pid" "$work/log"
	[ "$rc" -ne 0 ] || fail "SIG$sig: the build finished before the signal"
	[ ! -e "$work/kit.img" ] || fail "SIG$sig: output left at the output path"
	left=$(ls -A "$work" | grep -v '^log$' || true)
	[ -z "$left" ] || fail "SIG$sig: temporaries left: $left"
	echo "SIG$sig: nothing left behind"
done

# A failing build (missing initramfs) leaves nothing either.
if "$BUILDAPP" image --kernel "$KERNEL" --initrd "$work/missing" -o "$work/kit.img"; then
	fail "a build with a missing initramfs succeeded"
fi
[ -z "$(ls -A "$work" | grep -v '^log$' || true)" ] || fail "failed build left files"
