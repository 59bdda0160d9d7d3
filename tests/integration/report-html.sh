#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# report.html in a real browser: the fixture report models
# (tests/unit/data/report-*.json) rendered and opened in headless
# Chromium with the network off (every request goes to a dead proxy and
# is logged).  Each page must render without console messages, fetch
# nothing, and its DOM must hold one bar per cell and one dot per run of
# the model.  Screenshots at desktop and phone width and a PDF (with the
# print CSS: a page per workload) are kept in $B/test-logs/report-html/.
# A canary page first proves that a console error and a fetch would be
# seen.
set -eu
: "${B:=build}" "${TOP:=$(pwd)}" "${BUILDAPP:=$B/buildapp}"
# Renders a hand-made model (edge cases a sweep rarely makes): RENDER MODEL OUT.
RENDER="$B/tests/integration/report-html-render"
PY=/usr/bin/python3
OUT=$B/test-logs/report-html

[ -x "$RENDER" ] || { echo "$RENDER is not built"; exit 77; }
CHROMIUM=$(command -v chromium || true)
[ -n "$CHROMIUM" ] || { echo "chromium is not installed (scripts/install-deps.sh)"; exit 77; }
"$PY" -c 'import html5lib' 2>/dev/null || { echo "python3-html5lib is not installed"; exit 77; }
[ "$(id -u)" -ne 0 ] || SANDBOX=--no-sandbox
rm -rf "$OUT"
mkdir -p "$OUT"
T=$(mktemp -d /tmp/buildapp-report-html.XXXXXX)
[ -n "${KEEP_TMP:-}" ] || trap 'rm -rf "$T"' EXIT

# browser NAME ARGS...: one headless Chromium with a new empty profile,
# no network (a dead proxy), its log in $OUT/NAME.log and its network
# log in $T/NAME.net.json.
browser() {
	name=$1
	shift
	rm -rf "$T/profile"
	mkdir "$T/profile"
	timeout 120 "$CHROMIUM" --headless ${SANDBOX:-} --disable-gpu --no-first-run \
		--disable-background-networking --disable-component-update \
		--disable-sync --disable-quic --disable-extensions \
		--user-data-dir="$T/profile" --proxy-server=127.0.0.1:9 \
		--enable-logging=stderr --v=0 --log-net-log="$T/$name.net.json" \
		--hide-scrollbars "$@" 2>"$OUT/$name.log"
}

# Requests the page made: the browser's own services (update, time,
# accounts) are asked for whatever the flags say, and die at the proxy.
page_requests() {
	grep -o '"url":"[a-z]*://[^"]*"' "$T/$1.net.json" |
		grep -Ev '"url":"https?://[a-z0-9.-]*(google\.com|googleapis\.com|gstatic\.com)[/"]' |
		grep -v '"url":"file://' | sort -u || true
}

console_lines() {
	grep ':CONSOLE' "$OUT/$1.log" || true
}

# The canary: a console error and a fetch must both show.
cat >"$T/canary.html" <<'EOF'
<!DOCTYPE html><html lang="en"><head><title>canary</title></head><body>
<img src="http://192.0.2.1/canary.png" alt=""><script>console.error("canary-error")</script>
</body></html>
EOF
browser canary --dump-dom "file://$T/canary.html" >"$T/canary.dom" ||
	{ echo "chromium cannot run here: $(tail -n 3 "$OUT/canary.log")"; exit 77; }
console_lines canary | grep -q canary-error || { echo "FAIL: console errors are not seen"; exit 1; }
page_requests canary | grep -q 192.0.2.1 || { echo "FAIL: requests are not seen"; exit 1; }

# The page `buildapp report` writes for a bundle made here: two backends x
# unsafe/directsync x 3 fio runs, one run failed; and three host crashes
# of a durability cell at either cache mode, drawn by crash, with their
# host crash records (one line from before them has none).
mkdir -p "$T/bundle/console"
"$PY" - "$T/bundle/runs.jsonl" <<'EOF'
import json, random, sys
rnd, pos = random.Random(3), 0
with open(sys.argv[1], "w") as f:
    for i in range(3):
        for backend in ("raw", "qcow2"):
            for cache in ("directsync", "unsafe"):
                failed = backend == "qcow2" and cache == "unsafe" and i == 2
                f.write(json.dumps({"version": 1,
                    "cell": {"id": "%s/%s/-/%s/threads/virtio/fio" % (backend, backend, cache),
                             "backend": backend, "format": backend, "preallocation": None,
                             "cache": cache, "aio": "threads", "bus": "virtio", "workload": "fio"},
                    "index": i, "position": pos, "start_time": "2026-12-01T10:00:00Z",
                    "status": "timeout" if failed else "ok",
                    "message": "still running after 60 s" if failed else None,
                    "boot_seconds": 20 + rnd.random(), "accel": "tcg", "applied_cache": None,
                    "host_kernel": "6.1.0", "guest_kernel": "6.1.0",
                    "metrics": [] if failed else [{"name": "fio_write_iops", "unit": "IOPS",
                        "value": (3000 if cache == "unsafe" else 1000) * rnd.uniform(0.9, 1.1)}]}) + "\n")
                if failed:
                    open("%s/console/run-%04d.log" % (sys.argv[1].rsplit("/", 1)[0], pos), "w").write("boot\n")
                pos += 1
    for i, (unsafe_lost, mechanism) in enumerate(((192, "kexec"), (0, "firmware"), (40, None))):
        for cache in ("directsync", "unsafe"):
            line = {"version": 1,
                "cell": {"id": "raw/raw/-/%s/threads/virtio/durability" % cache, "backend": "raw",
                         "format": "raw", "preallocation": None, "cache": cache, "aio": "threads",
                         "bus": "virtio", "workload": "durability"},
                "index": i, "position": pos, "start_time": "2026-12-01T10:00:00Z", "status": "ok",
                "message": None, "boot_seconds": None, "accel": "tcg", "applied_cache": None,
                "host_kernel": "6.1.0", "guest_kernel": None, "crash": "host",
                "metrics": [{"name": "acks_per_second", "unit": "1/s", "value": 30 + rnd.random()},
                            {"name": "lost", "unit": "records lost",
                             "value": unsafe_lost if cache == "unsafe" else 0},
                            {"name": "acknowledged", "unit": "records", "value": 192}]}
            if mechanism:
                line["host_crash"] = {"mechanism": mechanism,
                    "fallback": "kexec_file_load: Key was rejected by service" if mechanism == "firmware" else None,
                    "dirty_kib": 2048 + i, "writeback_kib": 0, "disk_write_cache": "off",
                    "to_kernel_seconds": 3.5 if mechanism == "kexec" else None, "to_sweep_seconds": 58.25}
                if mechanism == "kexec":
                    line["host_crash"].update({"qemu_stopped_seconds": 0.004 + i / 1000,
                        "writeback_stopped_seconds": 0.005 + i / 1000,
                        "results_synced_seconds": 0.015 + i / 1000,
                        "facts_read_seconds": 0.017 + i / 1000})
            f.write(json.dumps(line) + "\n")
            pos += 1
EOF
"$BUILDAPP" report "$T/bundle" -o "$T/cli" --format html,json >"$OUT/cli-report.log" 2>&1 ||
	{ echo "FAIL: buildapp report: $(tail -n 3 "$OUT/cli-report.log")"; exit 1; }

failed=0
for model in one-host two-hosts references rack loss cli; do
	html=$OUT/report-$model.html
	json=$TOP/tests/unit/data/report-$model.json
	if [ "$model" = cli ]; then
		json=$T/cli/report.json
		cp "$T/cli/report.html" "$html"
	else
		"$RENDER" "$json" "$html"
	fi
	browser "$model-dom" --dump-dom "file://$TOP/$html" >"$OUT/report-$model.dom.html"
	if [ -n "$(console_lines "$model-dom")" ]; then
		echo "FAIL: $model: console messages:"; console_lines "$model-dom"; failed=1
	fi
	if [ -n "$(page_requests "$model-dom")" ]; then
		echo "FAIL: $model: the page fetched:"; page_requests "$model-dom"; failed=1
	fi
	# The rendered DOM against the model: a bar per cell, a dot per run,
	# a first-run dot per cell with runs, the marks; nothing external.
	"$PY" - "$json" "$OUT/report-$model.dom.html" <<'EOF' || failed=1
import json, re, sys, html5lib
model = json.load(open(sys.argv[1]))
dom = html5lib.parse(open(sys.argv[2], encoding="utf-8").read(), namespaceHTMLElements=False)
def classes(e):
    return set((e.get("class") or "").split())
def count(tag, *want):
    return sum(1 for e in dom.iter() if isinstance(e.tag, str) and e.tag.split("}")[-1] == tag
               and set(want) <= classes(e))
cells = [c for w in model["workloads"] for m in w["metrics"] for c in m["cells"]]
# A loss is drawn by crash: a dot per crash.
def dots(c):
    return c["loss"]["runs"] if c.get("loss") else c["runs"]
expect = {
    "bars": (count("rect", "bar"), len(cells)),
    "runs": (count("circle", "run"), sum(len(dots(c)) for c in cells)),
    "first runs": (count("circle", "run", "first"), sum(1 for c in cells if dots(c))),
    "crashes": (sum(1 for e in dom.iter("table") if "crashes" in classes(e)),
                sum(1 for w in model["workloads"] for m in w["metrics"] if any(c.get("loss") for c in m["cells"]))),
    "mismatched": (count("rect", "bar", "mismatch"), sum(1 for c in cells if c["cache_mismatches"])),
    "worse": (count("rect", "bar", "worse"),
              sum(1 for c in cells if c.get("baseline") and c["baseline"]["worse"])),
    "outliers": (count("rect", "bar", "outlier"),
                 sum(len(m.get("outliers", [])) for w in model["workloads"] for m in w["metrics"])),
    "charts": (count("svg", "chart"), sum(1 for w in model["workloads"] for m in w["metrics"] if m["cells"])),
    # Each crash's steps before its trigger, where the journal has them.
    "crash steps": (sum(1 for e in dom.iter("td") if re.fullmatch(r"[0-9.]+ / [0-9.]+ / [0-9.]+ / [0-9.]+ ms", e.text or "")),
                    sum(1 for c in cells if c.get("loss") for r in c["loss"]["runs"]
                        if (r.get("host_crash") or {}).get("qemu_stopped_seconds") is not None)),
    "failures": (sum(1 for e in dom.iter("td") if (e.text or "").startswith("console/")),
                 len(model["failures"])),
    "external": (sum(1 for e in dom.iter() if isinstance(e.tag, str)
                     and (e.get("src") or e.get("href") or e.tag.endswith(("link", "img", "iframe", "script")))), 0),
}
bad = [f"{k}: {got} in the DOM, {want} expected" for k, (got, want) in expect.items() if got != want]
for b in bad:
    print(f"FAIL: {sys.argv[1]}: {b}")
print(", ".join(f"{k} {got}" for k, (got, _) in expect.items()))
sys.exit(1 if bad else 0)
EOF
done

# What a person sees: desktop and phone width, and printed.
for model in one-host two-hosts rack loss cli; do
	url="file://$TOP/$OUT/report-$model.html"
	json=$TOP/tests/unit/data/report-$model.json
	[ "$model" != cli ] || json=$T/cli/report.json
	browser "$model-desktop" --window-size=1280,3600 --screenshot="$OUT/$model-desktop.png" "$url" >/dev/null
	browser "$model-phone" --window-size=390,7000 --screenshot="$OUT/$model-phone.png" "$url" >/dev/null
	browser "$model-pdf" --no-pdf-header-footer --print-to-pdf="$OUT/$model.pdf" "$url" >/dev/null
	for f in "$OUT/$model-desktop.png" "$OUT/$model-phone.png" "$OUT/$model.pdf"; do
		[ -s "$f" ] || { echo "FAIL: $f was not written"; failed=1; }
	done
	# The print CSS starts each workload on a page of its own.
	if command -v pdfinfo >/dev/null && [ -s "$OUT/$model.pdf" ]; then
		pages=$(pdfinfo "$OUT/$model.pdf" | awk '/^Pages:/ {print $2}')
		workloads=$("$PY" -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["workloads"]))' \
			"$json")
		[ "$pages" -gt "$workloads" ] ||
			{ echo "FAIL: $model.pdf: $pages pages for $workloads workloads and the header"; failed=1; }
		pdftoppm -png -r 50 -f 1 -l 2 "$OUT/$model.pdf" "$OUT/$model-print"
		echo "$model.pdf: $pages pages"
	fi
done
ls "$OUT"
exit $failed
