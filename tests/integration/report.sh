#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# buildapp report on journals made here: the answer and its files (the
# CSV read back by python3's csv module), two bundles as two hosts, the
# baseline check's exit status 3, bad input (a truncated journal, one of
# another version, a directory with no results, an image with no RESULTS
# partition: exit 2, one message, nothing at the output path), and an
# image's RESULTS partition read through libguestfs.
set -u
B=${B:-build}
BUILDAPP=${BUILDAPP:-$B/buildapp}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "${TOP:-.}/tests/lib/check.sh"

# journal DIR UNSAFE_SCALE [VERSION [ALL]]: 2 backends x unsafe/directsync
# x 5 fio runs; unsafe's IOPS about 3x directsync's, times UNSAFE_SCALE;
# run 4 of raw/directsync timed out (with ALL = all, every run of it).
journal() {
	python3 - "$@" <<'PY'
import json, os, random, sys
d, scale = sys.argv[1], float(sys.argv[2])
version = int(sys.argv[3]) if len(sys.argv) > 3 else 1
every = len(sys.argv) > 4 and sys.argv[4] == "all"
os.makedirs(os.path.join(d, "console"), exist_ok=True)
rnd = random.Random(7)
pos = 0
with open(os.path.join(d, "runs.jsonl"), "w") as f:
    for i in range(5):
        for backend in ("raw", "qcow2"):
            for cache in ("directsync", "unsafe"):
                cid = "%s/%s/-/%s/threads/virtio/fio" % (backend, backend, cache)
                iops = (3000 * scale if cache == "unsafe" else 1000) * rnd.uniform(0.95, 1.05)
                failed = backend == "raw" and cache == "directsync" and (i == 4 or every)
                run = {"version": version,
                       "cell": {"id": cid, "backend": backend, "format": backend,
                                "preallocation": None, "cache": cache, "aio": "threads",
                                "bus": "virtio", "workload": "fio"},
                       "index": i, "position": pos, "start_time": "2026-12-01T10:00:00Z",
                       "status": "timeout" if failed else "ok",
                       "message": "still running after 60 s" if failed else None,
                       "boot_seconds": 20.0 + rnd.random(), "accel": "tcg",
                       "applied_cache": None, "host_kernel": "6.1.0", "guest_kernel": "6.1.0",
                       "metrics": [] if failed else
                                  [{"name": "fio_write_iops", "value": iops, "unit": "IOPS"}]}
                if failed:
                    open(os.path.join(d, "console", "run-%04d.log" % pos), "w").write("boot\n")
                f.write(json.dumps(run) + "\n")
                pos += 1
PY
}

journal "$tmp/a" 1
journal "$tmp/slow" 0.5
"$BUILDAPP" report "$tmp/a" -o "$tmp/out" >"$tmp/stdout" 2>"$tmp/err"
rc=$?
cat "$tmp/err"
check "report exits 0" test $rc -eq 0
for f in report.txt report.csv report.json; do
	check "$f written" test -s "$tmp/out/$f"
done
check "no temporary file left" sh -c '! ls -A "$1" | grep -q tmp' - "$tmp/out"
check "the answers come first: unsafe faster than directsync, pooled over backend" \
	sh -c 'sed -n "/^== Answers ==$/,/^$/p" "$1" | grep -q "^unsafe vs directsync, fio_write_iops (fio, pooled over 2 settings of backend): +[0-9]*% \[+[0-9]*%, +[0-9]*%\], n=10 vs 9, better$"' \
	- "$tmp/out/report.txt"
check "the timed-out run is listed with its console log" \
	grep -q "raw/raw/-/directsync/threads/virtio/fio run 4: timeout: still running after 60 s; console: console/run-0016.log" \
	"$tmp/out/report.txt"
check "report.csv: RFC 4180, one row per run and per cell x metric, units in the header" \
	python3 - "$tmp/out/report.csv" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
head, body = rows[0], rows[1:]
assert all(len(r) == len(head) for r in body), "ragged rows"
assert "value (unit)" in head and "unit" in head
k = head.index("kind")
runs = [r for r in body if r[k] == "run"]
cells = [r for r in body if r[k] == "cell"]
# 19 ok runs x 2 metrics (fio_write_iops, boot_to_shutdown), 1 timeout
assert len(runs) == 19 * 2 + 1, len(runs)
assert len(cells) == 4 * 2, len(cells)
u = head.index("unit")
assert {r[u] for r in cells} == {"IOPS", "s"}
PY

# A cell with no ok run: listed as such, and what it would have answered
# said to be not measured, not left out.
journal "$tmp/nook" 1 1 all
"$BUILDAPP" report "$tmp/nook" -o "$tmp/nookout" --format txt,json >/dev/null 2>"$tmp/err"
check "a cell with no ok run: exit 0" test $? -eq 0
check "a cell with no ok run: its row says so, with its failed runs" \
	grep -q "^raw / directsync .*  0  no ok run  *5 failed; $" "$tmp/nookout/report.txt"
check "a cell with no ok run: the answer it would give is not measured" \
	sh -c 'sed -n "/^== Answers ==$/,/^$/p" "$1" | grep -qx "unsafe vs directsync, fio_write_iops (fio, backend=raw): not measured, raw / directsync had no ok run (5 failed)"' \
	- "$tmp/nookout/report.txt"
check "a cell with no ok run: the other backend is still compared, alone" \
	sh -c 'sed -n "/^== Answers ==$/,/^$/p" "$1" | grep -q "^unsafe vs directsync, fio_write_iops (fio, backend=qcow2): +[0-9]*% \[+[0-9]*%, +[0-9]*%\], n=5 each, better$"' \
	- "$tmp/nookout/report.txt"
check "a cell with no ok run: report.json has it with n 0 and its comparison unmeasured" \
	python3 - "$tmp/nookout/report.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
m = r["workloads"][0]["metrics"][0]
cell = [c for c in m["cells"] if c["id"].startswith("raw/raw/-/directsync/")]
assert len(cell) == 1 and cell[0]["n"] == 0 and cell[0]["failed"] == 5, cell
assert cell[0]["mean"] is None and cell[0]["display"] == "no ok run", cell
no = [c for c in m["comparisons"] if c.get("measured") is False]
assert len(no) == 2 and all(c["ratio"] is None and not c["shown"] for c in no), no
PY

# Two hosts; the baseline check.
"$BUILDAPP" report "$tmp/a" "$tmp/a" -o "$tmp/two" --format txt,json >/dev/null 2>"$tmp/err"
check "same bundle twice: exit 0" test $? -eq 0
check "same bundle twice: the host comparison shows no difference" \
	grep -q "^a#2 vs a, fio_write_iops (fio, pooled over 4 settings of backend, cache): no difference shown at n=19 each" \
	"$tmp/two/report.txt"
check "--format: only the formats asked for" test ! -e "$tmp/two/report.csv"
"$BUILDAPP" report "$tmp/slow" --baseline "$tmp/a" -o "$tmp/base" >/dev/null 2>"$tmp/err"
check "--baseline: a cell significantly worse exits 3" test $? -eq 3
check "--baseline: the worse cells are listed" \
	sh -c '[ "$(grep -c "^worse: slow .*/unsafe/.* fio_write_iops: -50%" "$1")" -eq 2 ]' - "$tmp/base/report.txt"
"$BUILDAPP" report "$tmp/a" --baseline "$tmp/a" -o "$tmp/base2" >/dev/null 2>"$tmp/err"
check "--baseline: itself is not worse (exit 0)" test $? -eq 0

# The plan: [report] baseline names the reference level; bundles whose
# plans differ say which keys differ.
cp -r "$tmp/a" "$tmp/p"
cp -r "$tmp/a" "$tmp/p3"
printf '[appliance]\ninclude = %s/profiles/ci-smoke.ini\n[report]\nbaseline = cache:unsafe\n' \
	"$TOP" >"$tmp/p.ini"
printf '[appliance]\ninclude = %s/profiles/ci-smoke.ini\n[sweep]\nruns = 3\n' "$TOP" >"$tmp/p3.ini"
printf '[appliance]\ninclude = %s/profiles/ci-smoke.ini\n[report]\nbaseline = cache:writethrough\n' \
	"$TOP" >"$tmp/bad.ini"
"$BUILDAPP" plan "$tmp/bad.ini" >/dev/null 2>"$tmp/err"
check "[report] baseline: a level the sweep does not run is refused (exit 2)" test $? -eq 2
check "[report] baseline: the message names the key" \
	grep -q "bad.ini:4: \[report\] baseline: must be axis:level, a level the sweep runs" "$tmp/err"
"$BUILDAPP" plan --json "$tmp/p.ini" >"$tmp/p/plan.json"
"$BUILDAPP" plan --json "$tmp/p3.ini" >"$tmp/p3/plan.json"
"$BUILDAPP" report "$tmp/p" -o "$tmp/pout" --format txt 2>/dev/null
check "the title is the profile's name" grep -q '^buildapp report: ci-smoke$' "$tmp/pout/report.txt"
check "[report] baseline = cache:unsafe: the answer is directsync vs unsafe" \
	sh -c 'sed -n "/^== Answers ==$/,/^$/p" "$1" | grep -q "^directsync vs unsafe, fio_write_iops (fio, pooled over 2 settings of backend): -[0-9.]*% \[-[0-9.]*%, -[0-9.]*%\], n=9 vs 10, worse$"' \
	- "$tmp/pout/report.txt"
"$BUILDAPP" report "$tmp/p" "$tmp/p3" -o "$tmp/p3out" --format txt 2>/dev/null
check "plans that differ: the keys are listed" \
	grep -q '^p3: \[sweep\] runs = 3 (first bundle: 2)$' "$tmp/p3out/report.txt"
check "plans that differ: the baseline key too" \
	grep -q '^p3: \[report\] baseline = "" (first bundle: "cache:unsafe")$' "$tmp/p3out/report.txt"

# A sweep that stopped before its end (its server powered off, its stick
# pulled): the report says how many of the plan's runs it holds, in
# every format; a bundle with all of them says nothing of the kind.
cp -r "$tmp/a" "$tmp/cut10"
printf '[appliance]\ninclude = %s/profiles/ci-smoke.ini\n[sweep]\nruns = 10\n' "$TOP" >"$tmp/p10.ini"
"$BUILDAPP" plan --json "$tmp/p10.ini" >"$tmp/cut10/plan.json"
planned=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["total_runs"])' "$tmp/cut10/plan.json")
"$BUILDAPP" report "$tmp/cut10" -o "$tmp/cutout" 2>/dev/null
check "unfinished: report.txt says so under the title" \
	grep -q "^Unfinished: cut10 did not finish its sweep: its journal holds 20 of the $planned runs its plan holds; what follows is from the runs it made\.$" \
	"$tmp/cutout/report.txt"
check "unfinished: the host line counts the planned runs" \
	grep -q "^cut10 (.*): 20 runs (plan: $planned), 1 failed" "$tmp/cutout/report.txt"
check "unfinished: report.json has planned_runs" \
	python3 -c 'import json, sys; h = json.load(open(sys.argv[1]))["hosts"][0]; sys.exit(not (h["runs"] == 20 and h["planned_runs"] == int(sys.argv[2])))' \
	"$tmp/cutout/report.json" "$planned"
check "unfinished: report.html says so in its header" \
	grep -q '<p class="differs">cut10 did not finish its sweep: its journal holds 20 of the' "$tmp/cutout/report.html"
check "finished: no such line when the journal holds the plan's runs" \
	sh -c '! grep -q "^Unfinished" "$1" && grep -q "^p (.*): 20 runs (plan: 8), " "$1"' - "$tmp/pout/report.txt"

# Bad input: exit 2, one message, nothing written.
bad() { # description, expected message, INPUT...
	bdesc=$1 msg=$2
	shift 2
	rm -rf "$tmp/badout"
	"$BUILDAPP" report "$@" -o "$tmp/badout" >"$tmp/out.bad" 2>"$tmp/err"
	rc=$?
	check "$bdesc: exit 2 (got $rc)" test $rc -eq 2
	check "$bdesc: says '$msg'" grep -q "$msg" "$tmp/err"
	check "$bdesc: one message" test "$(grep -c 'error' "$tmp/err")" -eq 1
	check "$bdesc: no report at the output path" test ! -e "$tmp/badout"
}
mkdir "$tmp/empty"
bad "a directory with no results" "no results" "$tmp/empty"
journal "$tmp/cut" 1
head -c -30 "$tmp/a/runs.jsonl" >"$tmp/cut/runs.jsonl"
bad "a truncated journal" "is truncated: its last line is cut short" "$tmp/cut"
journal "$tmp/v2" 1 2
bad "a journal of another version" "is version 2; this buildapp reads version 1" "$tmp/v2"
bad "one bad bundle among good ones" "no results" "$tmp/a" "$tmp/empty"
bad "an unknown format" "unknown format 'pdf'" "$tmp/a" --format pdf
bad "a missing input" "No such file or directory" "$tmp/missing"

# Images: one without a RESULTS partition, one with (libguestfs).
if ! command -v guestfish >/dev/null; then
	image_cases_skipped="no guestfish: the image cases are not run"
else
	truncate -s 16M "$tmp/blank.img"
	bad "an image with no RESULTS partition" "no RESULTS partition" "$tmp/blank.img"
	guestfish -N "$tmp/kit.img=fs:ext4:32M" -m /dev/sda1 <<EOF
set-label /dev/sda1 RESULTS
copy-in $tmp/a/runs.jsonl $tmp/a/console /
EOF
	before=$(ls -d "${TMPDIR:-/tmp}"/buildapp-report.* 2>/dev/null | wc -l)
	"$BUILDAPP" report "$tmp/kit.img" -o "$tmp/fromimg" --format txt >/dev/null 2>"$tmp/err"
	rc=$?
	cat "$tmp/err"
	check "an image's RESULTS: exit 0" test $rc -eq 0
	check "an image's RESULTS: the same answer" \
		sh -c 'sed -n "/^== Answers ==$/,/^$/p" "$1" | grep -q "^unsafe vs directsync, fio_write_iops"' - "$tmp/fromimg/report.txt"
	check "an image's RESULTS: the temporary copy is removed" \
		test "$(ls -d "${TMPDIR:-/tmp}"/buildapp-report.* 2>/dev/null | wc -l)" -eq "$before"
fi
# Speed and loss in one answer: the fio bundle with a durability cell at
# either level (crash = host), asked unsafe vs directsync; all of unsafe's
# lost, whose interval ends at 100% (not "1e+02%").  One crash a side:
# the loss is counted in crashes (1 of 1 against 0 of 1), which resolve
# nothing, and the answer says how many would.
cp -r "$tmp/a" "$tmp/both"
python3 - "$tmp/both/runs.jsonl" <<'PY'
import json, sys
with open(sys.argv[1], "a") as f:
    for pos, (cache, acked, lost) in enumerate((("unsafe", 192, 192), ("directsync", 165, 0)), 20):
        f.write(json.dumps({"version": 1,
            "cell": {"id": "raw/raw/-/%s/threads/virtio/durability" % cache, "backend": "raw",
                     "format": "raw", "preallocation": None, "cache": cache, "aio": "threads",
                     "bus": "virtio", "workload": "durability"},
            "index": 0, "position": pos, "start_time": "2026-12-01T10:00:00Z", "status": "ok",
            "message": None, "boot_seconds": None, "accel": "tcg", "applied_cache": None,
            "host_kernel": "6.1.0", "guest_kernel": None, "crash": "host",
            "metrics": [{"name": "acks_per_second", "value": 30.0, "unit": "1/s"},
                        {"name": "lost", "value": lost, "unit": "records lost"},
                        {"name": "acknowledged", "value": acked, "unit": "records"}]}) + "\n")
PY
"$BUILDAPP" report "$tmp/both" -o "$tmp/both-out" --format txt \
	--compare 'cache:unsafe vs directsync' >/dev/null 2>"$tmp/err"
rc=$?
cat "$tmp/err"
sed -n '/^== Answers ==$/,/^$/p' "$tmp/both-out/report.txt"
check "speed and loss: exit 0" test $rc -eq 0
check "the speed answer of the other workload carries the loss after the host crash, by crash" \
	grep -Eq '^unsafe vs directsync, fio_write_iops \(fio, pooled over 2 settings of backend\): \+[0-9]+% .*, better; after a host crash \(backend=raw\): lost acknowledged writes in 1 of 1 crash \[2\.5%, 100%\], 100% of them, vs 0 of 1 \[0%, 98%\]; no difference shown at n=1 crash each \(Boschloo.s exact test, p=0\.5\): about 3 crashes a side would show one if each lost as these did$' \
	"$tmp/both-out/report.txt"
check "... and says it once among the answers" \
	test "$(sed -n '/^== Answers ==$/,/^$/p' "$tmp/both-out/report.txt" | grep -c 'after a host crash')" -eq 1
check "... and the loss's own list has it too, with each crash" sh -c \
	'grep -q "^  unsafe vs directsync, after a host crash (backend=raw): lost acknowledged writes in 1 of 1 crash" "$1" &&
	 grep -q "^    run 0: lost 192 of 192 acknowledged (100%)$" "$1"' - "$tmp/both-out/report.txt"
check "no interval over the records" sh -c '! grep -q "of 192 acknowledged \[" "$1"' - "$tmp/both-out/report.txt"

# A failure stays a failure; a part not run makes the test a skip.
[ "$fail" -eq 0 ] || exit 1
[ -z "${image_cases_skipped:-}" ] || { echo "$image_cases_skipped"; exit 77; }
exit 0
