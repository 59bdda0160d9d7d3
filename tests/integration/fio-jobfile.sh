#!/bin/sh
# A fio job file swept as a matrix, really run: profiles/fio-matrix-small.ini
# (a 2M file written whole, unreported, then a random reader and a sequential writer,
# each with a ramp and a time basis, at iodepths 1, 2 and 4 under cache none
# and unsafe, in TCG guests and on the host baseline through a loop device)
# with one more job in its job file: a database log's writes, psync at the
# cell's depth (above 1 fio prints a note before its JSON) with an fsync after
# each, and a steady state asked of every timed job.  Every run has every
# job's metrics in the journal, total and completion latency percentiles
# and the log's sync latency, guest and host alike; the host cells' records
# say their image was opened with direct I/O (cache none's guests bypass
# the host's page cache); the runs at depths 2 and 4 keep fio's note; each run
# says which jobs reached their steady state.  The report compares the
# depths and the modes; report.html has the chart of a metric against the
# depth (its screenshot is kept in $B/test-logs/fio-jobfile/).  Then the
# kit of the shipped profile: the manifest lists the job file, and
# `buildapp verify` names it when one byte of it changes inside the
# appliance's initramfs.
set -u
B=${B:-build}
BUILDAPP=${BUILDAPP:-$B/buildapp}
[ "$(id -u)" -eq 0 ] || { echo "needs root (loop devices, libvirt)"; exit 77; }
command -v losetup >/dev/null || { echo "no losetup"; exit 77; }
command -v fio >/dev/null || { echo "fio is not installed (scripts/install-deps.sh)"; exit 77; }
tmp=$(mktemp -d /var/tmp/buildapp-fiojob.XXXXXX)
[ -n "${KEEP_TMP:-}" ] || trap 'rm -rf "$tmp"' EXIT
. "${TOP:-.}/tests/lib/check.sh"
OUT=$B/test-logs/fio-jobfile
rm -rf "$OUT"
mkdir -p "$OUT" "$tmp/target" "$tmp/p"
# The shipped small variant of the fio matrix, as it is.
P="$TOP/profiles/fio-matrix-small.ini"
JOB="$TOP/profiles/jobs/read-then-write.fio"
"$BUILDAPP" plan "$P" >"$tmp/plan.txt" 2>&1
check "plan: 6 guest cells and 3 host cells, 18 runs" grep -q '^Matrix: 9 cells x 2 runs = 18 runs' "$tmp/plan.txt"
check "plan: the prefill is not timed nor reported, as its file says" \
	grep -q '^  prefill (line [0-9]*, group 0, not reported: stats=0): direct=1 (fio_direct); fsync none, end_fsync=1 (fio_fsync); until its size is done (line [0-9]*); ramp none (line [0-9]*)$' "$tmp/plan.txt"
check "plan: the random reader has the profile's ramp and time basis" \
	grep -q '^  randread (line [0-9]*, group 1): direct=1 (fio_direct); fsync none (fio_fsync); 2 s, time-based (fio_runtime); ramp 1 s (fio_ramp)$' "$tmp/plan.txt"
check "plan: the host cells' image with direct I/O" grep -q 'host cells: .* with direct I/O' "$tmp/plan.txt"

cp "$JOB" "$tmp/p/job.fio"
cat >>"$tmp/p/job.fio" <<'EOF'

; a database log's writes: psync, one I/O in flight whatever the cell's
; depth (above 1, fio notes so), an fsync after each
[synclog]
stonewall
ioengine=psync
iodepth=${BUILDAPP_IODEPTH}
rw=randwrite
bs=4k
fsync=1
EOF
cat >"$tmp/p/small.ini" <<EOF
[appliance]
include = $P
[workload]
fio_job = job.fio
fio_steadystate = iops:90%
fio_steadystate_duration = 1
EOF
"$BUILDAPP" run "$tmp/p/small.ini" --target "$tmp/target" --results "$tmp/res" \
	--cache "$B/cache" >"$tmp/out" 2>"$tmp/err"
rc=$?
cat "$tmp/err"
j="$tmp/res/runs.jsonl"
check "run exits 0" test $rc -eq 0
check "18 runs journaled, all ok" sh -c "test \$(grep -c '\"status\":\"ok\"' '$j') -eq 18"
for m in fio_randread_read_iops fio_randread_read_clat_p99 fio_randread_read_lat_p99 \
	fio_randread_read_lat_p50 fio_seqwrite_write_bw fio_seqwrite_write_clat_p99_9 \
	fio_seqwrite_write_lat_p99_9 fio_synclog_write_lat_p99 fio_synclog_sync_lat_p99; do
	check "every run, guest and host, has $m" sh -c "test \$(grep -c '\"name\":\"$m\"' '$j') -eq 18"
done
check "the prefill (stats=0) is not reported: each run's first metric is the random reader's" sh -c \
	"test \$(grep -c '\"metrics\":\[{\"name\":\"fio_randread_read_iops\"' '$j') -eq 18 && ! grep -q fio_prefill '$j'"
check "the host cells ran the job file too" sh -c \
	"test \$(grep '\"guest\":false' '$j' | grep -c 'fio_seqwrite_write_iops') -eq 6"
check "the host cells' records say direct I/O" sh -c \
	"test \$(grep '\"guest\":false' '$j' | grep -c '\"host_io\":\"direct\"') -eq 6"
check "... and the guests' say nothing of it" sh -c "! grep -v '\"guest\":false' '$j' | grep -q host_io"
note='"note: both iodepth >= 1 and synchronous I/O engine are selected, queue depth will be capped at 1"'
check "the runs at depths 2 and 4 keep fio's note" sh -c "test \$(grep 'qd=[24]' '$j' | grep -c '\"notes\":\[.*$note') -eq 12"
check "... the runs at depth 1 do not have it" sh -c "! grep 'qd=1' '$j' | grep -q '$note'"
check "every run says whether each timed job reached its steady state" sh -c \
	"test \$(grep -c '\"steadystate\":{\"fio_randread\":\(true\|false\),\"fio_seqwrite\":\(true\|false\),\"fio_synclog\":\(true\|false\)}' '$j') -eq 18"
check "cell ids name the depth" grep -q '"id":"raw/raw/sparse/unsafe/threads/virtio/fio/qd=4"' "$j"
check "the host cells' ids too" grep -q '"id":"raw/raw/sparse/-/-/host/fio/qd=2"' "$j"
r="$tmp/res/report.txt"
check "the report answers the depth question" grep -q '^fio_iodepth=4 vs 1, fio_randread_read_iops (fio, cache=none)' "$r"
check "the report answers the cache question" grep -q 'unsafe vs none, fio_randread_read_iops' "$r"
h="$tmp/res/report.html"
check "report.html has the chart against the depth" grep -q 'class="chart axischart"' "$h"
check "... one line per cache mode" sh -c "test \$(grep -o 'class=\"series' '$h' | wc -l) -ge 2"
CHROMIUM=$(command -v chromium || true)
if [ -n "$CHROMIUM" ]; then
	timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --no-first-run \
		--user-data-dir="$tmp/chromium" --proxy-server=127.0.0.1:9 \
		--window-size=1200,2400 --screenshot="$OUT/report.png" "file://$h" \
		>"$OUT/chromium.log" 2>&1
	check "screenshot of report.html" test -s "$OUT/report.png"
fi
cp "$h" "$j" "$r" "$OUT/" 2>/dev/null

# The kit (from the host root the kit tests share): its manifest lists
# the job file; an archive appended to the netboot initramfs that gives
# the job file one byte changed (the kernel unpacks the later one over
# it) is named by verify.
export SOURCE_DATE_EPOCH=1700000000 TMPDIR="$tmp"
"$BUILDAPP" "$P" -o "$tmp/kit" --cache "$TOP/$B/test-cache/hostroot" \
	>/dev/null 2>"$tmp/kit.err" || { cat "$tmp/kit.err"; echo "FAILED: kit build"; exit 1; }
m="$tmp/kit/fio-matrix-small.manifest.json"
check "the manifest lists the job file with its sha256" python3 -c '
import hashlib, json, sys
m = json.load(open(sys.argv[1]))
want = hashlib.sha256(open(sys.argv[2], "rb").read()).hexdigest()
f = [f for f in m["files"] if f["path"] == "initrd:/usr/lib/buildapp/kit/job.fio"]
sys.exit(0 if f and f[0]["sha256"] == want else 1)' "$m" "$JOB"
"$BUILDAPP" verify "$tmp/kit/fio-matrix-small.netboot/" >"$tmp/v.out" 2>&1
check "verify: the kit as built is its manifest's" grep -q '^ok       netboot:/initrd' "$tmp/v.out"
mkdir -p "$tmp/over/usr/lib/buildapp/kit"
sed 's/^bs=4k/bs=8k/' "$JOB" >"$tmp/over/usr/lib/buildapp/kit/job.fio"
check "one byte of the copy differs" test "$(cmp -l "$JOB" "$tmp/over/usr/lib/buildapp/kit/job.fio" | wc -l)" -eq 1
(cd "$tmp/over" && find usr | cpio -o -H newc --quiet | zstd -q) >>"$tmp/kit/fio-matrix-small.netboot/initrd"
rc=0
"$BUILDAPP" verify "$tmp/kit/fio-matrix-small.netboot/" --manifest "$m" >"$tmp/v.out" 2>&1 || rc=$?
cat "$tmp/v.out"
check "verify exits 1" test $rc -eq 1
check "verify names the job file" grep -q '^DIFFERS  initrd:/usr/lib/buildapp/kit/job.fio' "$tmp/v.out"
exit $fail
