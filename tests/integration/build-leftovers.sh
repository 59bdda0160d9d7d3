#!/bin/sh
# Temporaries of interrupted builds (a guest image for qemu-img-bench
# cells, a fresh cache each time):
#   a. SIGTERM during the libguestfs launch: nothing left in the cache
#      and no temporary directory of the build (the one libguestfs keeps
#      its own in, and its socket directory, always in /tmp for root,
#      included);
#   b. SIGKILL there (no handler runs) leaves disk.img.tmpPID and the
#      build's directory: the next build removes both and says so, and,
#      finishing, leaves no temporary directory of its own;
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
size = 64M
[workload]
kinds = qemu-img-bench
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
	echo "SIG$sig during the libguestfs launch"
	before=$(scratch)
	kit_bg "$T/c-$sig"
	# Mid-launch: libguestfs' QEMU, a child of the build, runs (its
	# command line names the launch's socket directory in /tmp).
	i=0 sockdir=
	while [ -z "$sockdir" ] && kill -0 "$pid" 2>/dev/null && [ $i -lt 600 ]; do
		sleep 0.2
		i=$((i + 1))
		sockdir=$(ps --ppid "$pid" -o args= 2>/dev/null |
			grep -o 'path=/tmp/libguestfs[A-Za-z0-9]\{6\}/' | head -n 1 || true)
	done
	sockdir=${sockdir#path=}
	sockdir=${sockdir%/}
	[ -n "$sockdir" ] || { cat "$T/log"; fail "SIG$sig: no libguestfs launch seen"; }
	sleep 1
	kill -"$sig" "$pid"
	wait "$pid" || true
	cat "$T/log"
	grep -q "^$T/kit/disk.img" "$T/log" && fail "SIG$sig: the build finished before the signal"
	d=$(image_dir "$T/c-$sig")
	left=$(ls -d "$d"/disk.img.tmp* 2>/dev/null || true)
	if [ "$sig" = TERM ]; then
		[ -z "$left" ] || fail "SIGTERM: left in the cache: $left"
		[ ! -e "$sockdir" ] || fail "SIGTERM: libguestfs' socket directory $sockdir is left"
		[ -z "$(new_scratch "$before")" ] || fail "SIGTERM: temporary directory left: $(new_scratch "$before")"
		continue
	fi
	[ -n "$left" ] || fail "SIGKILL: no disk.img.tmpPID to clean up (killed too early?)"
	new=$(new_scratch "$before")
	[ -n "$new" ] || fail "SIGKILL: no build directory in /tmp to clean up"
	before=$(scratch)
	"$BUILDAPP" kit "$T/bench.ini" -o "$T/kit" --cache "$T/c-$sig" >"$T/log2" 2>&1 ||
		{ cat "$T/log2"; fail "SIGKILL: the next build failed"; }
	cat "$T/log2"
	[ -z "$(new_scratch "$before")" ] ||
		fail "a finished build left a temporary directory: $(new_scratch "$before")"
	for f in $left $new; do
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
