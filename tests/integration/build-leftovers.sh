#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Temporaries of interrupted builds (the pristine guest disk of a
# tarball-read profile, made on the host: a staging tree, a debugfs
# script and the image; a fresh cache each time):
#   a. SIGTERM while the disk is being made: nothing left in the cache;
#   b. SIGKILL there (no handler runs) leaves them: the next build
#      removes each and says so, and, finishing, leaves no temporary
#      directory of its own;
#   c. a kit build removes the work directories (.NAME.kit-XXXXXX) that
#      killed builds left in the output directory, not a live one's.
. "$TOP/tests/lib/common.sh"
command -v flock >/dev/null || skip "flock is not installed"
T=$(mktemp -d "$CACHE/leftovers.XXXXXX")
holder=
trap '[ -z "$holder" ] || kill "$holder" 2>/dev/null; rm -rf "$T"' EXIT
cat >"$T/bench.ini" <<INI
[appliance]
name = leftovers
[storage]
backends = raw
[workload]
kinds = tarball-read
tarball = generated
tarball_size = 48M
INI
scratch() { ls -d /tmp/buildapp-tmp.* 2>/dev/null | sort || true; }
# new_scratch BEFORE: the build directories in /tmp not in BEFORE.
new_scratch() { scratch | grep -vxF "$1" || true; }
# kit_bg CACHE: buildapp kit in the background, its pid in $pid.
kit_bg() {
	"$BUILDAPP" kit "$T/bench.ini" -o "$T/kit" --cache "$1" >"$T/log" 2>&1 &
	pid=$!
}
image_dir() { ls -d "$1"/image-* 2>/dev/null | head -n 1; }

for sig in TERM KILL; do
	echo "SIG$sig while the pristine disk is being made"
	kit_bg "$T/c-$sig"
	# Mid-build: the staging tree is being filled (the tarball extracted).
	i=0 stage=
	while [ -z "$stage" ] && kill -0 "$pid" 2>/dev/null && [ $i -lt 600 ]; do
		sleep 0.1
		i=$((i + 1))
		d=$(image_dir "$T/c-$sig")
		[ -z "$d" ] || stage=$(ls -d "$d"/stage.tmp* 2>/dev/null || true)
	done
	[ -n "$stage" ] || { cat "$T/log"; fail "SIG$sig: no staging tree seen"; }
	kill -"$sig" "$pid"
	wait "$pid" || true
	cat "$T/log"
	grep -q "^$T/kit/disk.img" "$T/log" && fail "SIG$sig: the build finished before the signal"
	left=$(ls -d "$d"/*.tmp* 2>/dev/null || true)
	if [ "$sig" = TERM ]; then
		[ -z "$left" ] || fail "SIGTERM: left in the cache: $left"
		continue
	fi
	[ -n "$left" ] || fail "SIGKILL: nothing to clean up (killed too early?)"
	before=$(scratch)
	"$BUILDAPP" kit "$T/bench.ini" -o "$T/kit" --cache "$T/c-$sig" >"$T/log2" 2>&1 ||
		{ cat "$T/log2"; fail "SIGKILL: the next build failed"; }
	cat "$T/log2"
	[ -z "$(new_scratch "$before")" ] ||
		fail "a finished build left a temporary directory: $(new_scratch "$before")"
	for f in $left; do
		[ ! -e "$f" ] || fail "SIGKILL: '$f' is still there after the next build"
		grep -qF "removed '$f', left by a build that was killed" "$T/log2" ||
			fail "SIGKILL: the next build does not say it removed '$f'"
	done
done

echo "c. work directories of killed kit builds"
mkdir -p "$T/out/.dead.kit-AAAAAA/initrd" "$T/out/.live.kit-BBBBBB"
: >"$T/out/.dead.kit-AAAAAA/.owner"
: >"$T/out/.live.kit-BBBBBB/.owner"
flock "$T/out/.live.kit-BBBBBB/.owner" sleep 600 &
holder=$!
sleep 1
"$BUILDAPP" "$T/bench.ini" -o "$T/out" --cache "$T/c-KILL" >"$T/log" 2>&1 &
pid=$!
wait_for_log "$T/log" "removed '$T/out/.dead.kit-AAAAAA'" 120
kill -TERM "$pid" 2>/dev/null || true
wait "$pid" || true
cat "$T/log"
[ ! -e "$T/out/.dead.kit-AAAAAA" ] || fail "c: a dead build's work directory is still there"
[ -e "$T/out/.live.kit-BBBBBB/.owner" ] || fail "c: a live build's work directory was removed"
left=$(ls -A "$T/out" | grep -vx '.live.kit-BBBBBB' || true)
[ -z "$left" ] || fail "c: left in the output directory: $left"
echo "all leftover checks passed"
