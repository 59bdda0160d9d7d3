#!/bin/sh
# Bad fio input, as a user meets it: a job file that would reach outside
# its target (each unsafe option of tests/unit/data/fio-jobs/), an engine
# the kit does not carry, a steadystate spec fio rejects.  `buildapp plan`
# and a kit build each exit 2 with one line naming the profile's file,
# line, section and key (and the job file's line and option), and write
# nothing; the same profile with a file the check accepts plans (the
# control: the refusals are the option's, not the profile's).
set -u
B=${B:-build}
BUILDAPP=${BUILDAPP:-$B/buildapp}
command -v fio >/dev/null || { echo "fio is not installed (scripts/install-deps.sh)"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "${TOP:-.}/tests/lib/check.sh"
D="${TOP:-$PWD}/tests/unit/data/fio-jobs"

# refused DESCRIPTION PROFILE-LINES MESSAGE: plan and a kit build of a
# profile whose [workload] is PROFILE-LINES exit 2 with MESSAGE, in one
# line, and write nothing.
refused() {
	printf '[workload]\nkinds = fio\n%s\n' "$2" >"$tmp/p.ini"
	"$BUILDAPP" plan "$tmp/p.ini" >"$tmp/out" 2>"$tmp/err"
	check "$1: plan exits 2" test $? -eq 2
	check "$1: the message" grep -qF "$3" "$tmp/err"
	check "$1: one line" test "$(wc -l <"$tmp/err")" -eq 1
	check "$1: plan prints nothing" test ! -s "$tmp/out"
	"$BUILDAPP" "$tmp/p.ini" -o "$tmp/kit" >"$tmp/out" 2>"$tmp/err"
	check "$1: a kit build exits 2" test $? -eq 2
	check "$1: ... with the same message" grep -qF "$3" "$tmp/err"
	check "$1: ... and writes nothing" test ! -e "$tmp/kit"
}

for c in "opendir:7:opendir: refused: it adds every file under a directory" \
	"mem-mmap:4:mem=mmap:/var/tmp/victim: refused" \
	"engine-so:4:ioengine=/var/tmp/x.so: refused: fio would load it as a shared object" \
	"late-global:3:job 'j' names no target the kit can fill in" \
	"engine-net:4:ioengine=net: refused: it reaches another machine over the network" \
	"engine-rbd:4:ioengine=rbd: refused: it reaches another machine over the network" \
	"group-merged:12:with group_reporting, job 'reader' joins the reporting group of job 'writer'" \
	"unified:4:unified_rw_reporting: refused" \
	"trim:4:rw=trim: refused" \
	"blank-lines:15:exec_prerun: refused: it runs a program" \
	"randreed:4:rw=randreed: not a kind of I/O fio knows (did you mean 'randread'?)" \
	"filename-format:4:filename_format: refused" \
	"write-log:5:write_lat_log: refused"; do
	f=${c%%:*}; rest=${c#*:}; line=${rest%%:*}; msg=${rest#*:}
	refused "$f.fio" "fio_job = $D/$f.fio" \
		"p.ini:3: [workload] fio_job: '$D/$f.fio' line $line: $msg"
done

# An engine the kit does not carry, as a job file names it and as the
# profile's axis does.
printf '[j]\nfilename=${BUILDAPP_TARGET}\nioengine=windowsaio\nrw=write\n' >"$tmp/win.fio"
refused "a job file's engine the kit does not carry" "fio_job = $tmp/win.fio" \
	"p.ini:3: [workload] fio_job: '$tmp/win.fio' line 3: ioengine=windowsaio: refused: the engines a job file may name are"
refused "the axis's engine the kit does not carry" "fio_ioengine = libaio, windowsaio" \
	"p.ini:3: [workload] fio_ioengine: unknown value 'windowsaio'"

# steadystate specs fio rejects (fio --parse-only: "failed parsing
# steadystate=iops:abc"), and one without the time it needs.
refused "a steadystate threshold that is not a number" \
	"fio_runtime = 30
fio_steadystate_duration = 10
fio_steadystate = iops:abc" \
	"p.ini:5: [workload] fio_steadystate: 'iops:abc': the threshold after ':' is a number"
refused "a steadystate of something fio does not measure" \
	"fio_runtime = 30
fio_steadystate_duration = 10
fio_steadystate = clat:5%" \
	"p.ini:5: [workload] fio_steadystate: 'clat:5%': a steadystate spec is iops, iops_slope, bw or bw_slope"
refused "a steadystate longer than the run" \
	"fio_runtime = 5
fio_steadystate_duration = 10
fio_steadystate = iops_slope:0.1%" \
	"p.ini:5: [workload] fio_steadystate: 'iops_slope:0.1%' needs fio_steadystate_duration (10 s)"

# The controls: the same profile with a file the check accepts, and a
# steady state fio takes, plan (exit 0) and say what each job will do.
printf '[workload]\nkinds = fio\nfio_job = %s\nfio_iodepth = 1, 4\nfio_runtime = 30\nfio_steadystate_duration = 10\nfio_steadystate = iops_slope:0.1%%\n' \
	"$D/psync-note.fio" >"$tmp/p.ini"
"$BUILDAPP" plan "$tmp/p.ini" >"$tmp/out" 2>"$tmp/err"
check "control: an accepted job file and steady state plan" test $? -eq 0
check "control: ... saying what the job will do" \
	grep -q '^  j (line 3, group 0): direct=1 (fio_direct); fsync none (fio_fsync); 30 s, time-based (fio_runtime); ramp none (fio_ramp); steady state iops_slope:0.1% (fio_steadystate)$' "$tmp/out"
exit $fail
