#!/bin/sh
# Builds that must fail: an upward #include from each folder, and profile
# keys declared with a type their field does not have.  And what must not
# be linked: the builder-only parts of the key table and the plan in the
# appliance's init.  Each case is also
# built in its control form (every header in reach, the right type),
# which must succeed, so a case fails for the reason it names and for no
# other.  Usage: run.sh FLAGS-FILE (written by the build: the compiler and
# each folder's include paths, tests/module.mk).
set -u
. "$1"
dir=$(dirname "$0")
out=${TMPDIR:-/tmp}/build-fail.$$
trap 'rm -f "$out"' EXIT
fail=0

# must_fail NAME EXPECTED-REGEX FLAGS... -- the flags of the failing build;
# CONTROL_FLAGS: those of the build that must succeed.
must_fail() {
	name=$1 expect=$2
	shift 2
	if $CC $CFLAGS -fsyntax-only "$@" >"$out" 2>&1; then
		echo "FAIL: $name: built, but must not"
		fail=1
	elif ! grep -Eq -- "$expect" "$out"; then
		echo "FAIL: $name: failed, but not with '$expect':"
		sed 's/^/    /' "$out"
		fail=1
	elif ! $CC $CFLAGS -fsyntax-only $CONTROL_FLAGS >"$out" 2>&1; then
		echo "FAIL: $name: its control build fails too:"
		sed 's/^/    /' "$out"
		fail=1
	else
		echo "ok: $name: does not build ($expect)"
	fi
}

upward() { # FOLDER-INCDIRS FOLDER HEADER
	CONTROL_FLAGS="$BUILDER_INCDIRS -DUPWARD=\"$3\" $dir/upward-include.c"
	# gcc: "x.h: No such file or directory"; clang: "'x.h' file not found"
	must_fail "$2 includes $3" "$3: No such file|'$3' file not found" \
		$1 "-DUPWARD=\"$3\"" "$dir/upward-include.c"
}
# One across each boundary, lib < storage < profile < runner < report <
# appliance < builder, and the arrows that once ran upward: the runner
# rendering the report (sweep.c -> report.h) or taking its XML writer
# (domain.c -> report_chart.h), the report reading host.json through the
# appliance (bundle.c -> hostinfo.h), the runner reading the lab server's
# disks (runstate.c read sysfs through the appliance: sysfs.h is lib/'s
# now, disks.h stays above).
upward "$LIB_INCDIRS" lib backend.h             # storage/
upward "$LIB_INCDIRS" lib plan.h                # profile/
upward "$STORAGE_INCDIRS" storage keys.h        # profile/
upward "$STORAGE_INCDIRS" storage journal.h     # runner/
upward "$PROFILE_INCDIRS" profile sweep.h       # runner/
upward "$RUNNER_INCDIRS" runner report.h        # report/
upward "$RUNNER_INCDIRS" runner report_chart.h  # report/
upward "$RUNNER_INCDIRS" runner disks.h         # appliance/
upward "$REPORT_INCDIRS" report hostinfo.h      # appliance/
upward "$APPLIANCE_INCDIRS" appliance kit.h     # builder/
upward "$APPLIANCE_INCDIRS" appliance plantext.h # builder/

CONTROL_FLAGS="$PROFILE_INCDIRS $dir/key-wrong-type.c"
must_fail "[guest] memory (uint64_t) as UINT" "is not of the C type of KEY_UINT" \
	$PROFILE_INCDIRS -DWRONG=1 "$dir/key-wrong-type.c"
must_fail "[guest] accel (enum vm_accel) as cache modes" "is not of the C type of KEY_ENUM" \
	$PROFILE_INCDIRS -DWRONG=2 "$dir/key-wrong-type.c"
must_fail "[host] disk (text) as BOOL" "is not of the C type of KEY_BOOL" \
	$PROFILE_INCDIRS -DWRONG=3 "$dir/key-wrong-type.c"
must_fail "[guest] cache (axis) as KEEP_UINT" "is not of the C type of KEY_KEEP_UINT" \
	$PROFILE_INCDIRS -DWRONG=4 "$dir/key-wrong-type.c"

# The appliance's init reads a plan; the INI loader (and iniparser), the
# planner, the typo hints, the Markdown, the doc strings
# (libprofile-build.a) and the plan's text form
# (builder/plantext.c) are the builder's.  The control: buildapp has them.
for sym in loader_load iniparser_getstring planner_build keyref_nearest keyref_write_markdown \
	keyref_doc plantext_write; do
	if nm "$INIT" | grep -q " $sym\$"; then
		echo "FAIL: $INIT links $sym"
		fail=1
	elif ! nm "$BUILDAPP" | grep -q " $sym\$"; then
		echo "FAIL: $BUILDAPP does not link $sym: this check checks nothing"
		fail=1
	else
		echo "ok: $INIT does not link $sym"
	fi
done
doc="Kit name: output file names"
if grep -q "$doc" "$INIT" || ! grep -q "$doc" "$BUILDAPP"; then
	echo "FAIL: the key doc strings are in $INIT, or not in $BUILDAPP"
	fail=1
else
	echo "ok: $INIT has no key doc strings"
fi
exit $fail
