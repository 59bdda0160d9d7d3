#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Runs the test suites: unit (cmocka programs and the fuzz corpus replay),
# integration (tests/integration/*.sh) and e2e (tests/e2e/*.sh); slow
# (tests/slow/*.sh: what another suite already covers, at a cost make
# check should not pay every time) only when asked for.
# A script exiting 77 is skipped, with the reason it printed.  On CI
# (CI=true) a skip is a failure unless tests/allowed-skips.txt lists the
# test with its reason.
# Usage: run-tests.sh BUILDDIR unit|integration|e2e|slow|all
set -u
B=${1:-build}
what=${2:-all}
export B BUILDAPP="$B/buildapp" TOP="$(pwd)"
# Guests run under TCG unless the caller says otherwise: on the machines
# these tests run on, /dev/kvm exists but hangs Linux guests (nested
# virtualization), and both libguestfs and libvirt would pick it.
: "${LIBGUESTFS_BACKEND_SETTINGS:=force_tcg}"
: "${BUILDAPP_ACCEL:=tcg}"
export LIBGUESTFS_BACKEND_SETTINGS BUILDAPP_ACCEL
pass=0 fail=0 skip=0 failed=""

# Whether test NAME may skip on CI (tests/allowed-skips.txt).
allowed_skip() {
	grep -q "^$1: ." tests/allowed-skips.txt
}

run() { # name command...
	name=$1
	shift
	log="$B/test-logs/$(echo "$name" | tr '/' '_').log"
	mkdir -p "$B/test-logs"
	start=$(date +%s)
	"$@" >"$log" 2>&1
	rc=$?
	secs=$(($(date +%s) - start))
	case $rc in
	0) pass=$((pass + 1)); echo "PASS: $name (${secs}s)" ;;
	77) if [ "${CI:-}" = true ] && ! allowed_skip "$name"; then
		fail=$((fail + 1)); failed="$failed $name"
		echo "FAIL: $name skipped on CI and is not in tests/allowed-skips.txt: $(tail -n 1 "$log")"
	    else
		skip=$((skip + 1)); echo "SKIP: $name: $(tail -n 1 "$log")"
	    fi ;;
	*) fail=$((fail + 1)); failed="$failed $name"
	   echo "FAIL: $name (exit $rc, ${secs}s), last lines of $log:"
	   tail -n 30 "$log" | sed 's/^/    /' ;;
	esac
}

if [ "$what" = unit ] || [ "$what" = all ]; then
	for t in "$B"/tests/unit/test_*; do
		[ -x "$t" ] || continue
		case $t in *.o|*.d) continue ;; esac
		run "unit/$(basename "$t")" "$t"
	done
	run "unit/build-fail" sh tests/build-fail/run.sh "$B/tests/build-fail/flags"
	run "fuzz/replay-profile" "$B/tests/fuzz/replay-profile" tests/fuzz/corpus profiles
	for t in plan results; do
		run "fuzz/replay-$t" "$B/tests/fuzz/replay-$t" "tests/fuzz/corpus-$t"
	done
fi
for suite in integration e2e slow; do
	if [ "$what" = "$suite" ] || { [ "$what" = all ] && [ $suite != slow ]; }; then
		for t in tests/$suite/*.sh; do
			[ -f "$t" ] || continue
			run "$suite/$(basename "$t" .sh)" sh "$t"
		done
	fi
done

echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ] || { echo "failed:$failed"; exit 1; }
