#!/bin/sh
# Captures fio's own output for each job file here that the profile's
# check accepts (tests/unit/test_jobfile.c says which): NAME.out is what
# fio 3.33 prints on stdout for NAME.fio, notes and JSON, run as the kit
# runs it: the variables of lib/guestproto.h in its environment and the
# kit's settings of the default profile before the job file (lib/fioargs.c:
# --direct=1 --lat_percentiles=1).  tests/unit/test_results_fio.c reads them.
set -eu
cd "$(dirname "$0")"
fio --version | grep -qx 'fio-3.33' || { echo "needs fio 3.33, not $(fio --version)"; exit 1; }
work=$(mktemp -d /var/tmp/fio-capture.XXXXXX)
trap 'rm -rf "$work"' EXIT
export BUILDAPP_TARGET="$work/fio.dat" BUILDAPP_DIR="$work" BUILDAPP_SIZE=4194304 \
	BUILDAPP_IODEPTH=4 BUILDAPP_BS=4096 BUILDAPP_NUMJOBS=1 BUILDAPP_IOENGINE=libaio \
	BUILDAPP_RW=randwrite BUILDAPP_RWMIXREAD=50 BUILDAPP_RUNTIME=0 BUILDAPP_DIRECT=1 \
	BUILDAPP_FSYNC=0 BUILDAPP_RAMP=0
for f in group-stonewall gtod-reduce disable-clat psync-note seq-names prefill \
	seq-names-reversed fsync steadystate; do
	rm -f "$work/fio.dat"
	fio --output-format=json --direct=1 --lat_percentiles=1 "$f.fio" >"$f.out"
done
