#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The bundle upload against a real WebDAV server (nginx-core's dav module
# on 127.0.0.1): a bundle arrives whole under its name with a SHA256SUMS
# that sha256sum -c accepts and no temporary collection left; the same
# name again is not overwritten; a refused PUT (405) and a closed
# location (403) fail at once with the status; a wrong port fails after
# its retries; an upload killed midway leaves only its hidden temporary
# collection, which `buildapp report DIR` over the rack leaves out, and
# the next try of the same bundle replaces it; the rack's report shows
# the two servers that arrived side by side; credentials in the URL are
# never printed.  Over TLS: the server's certificate verifies with the
# CA given (the kit's [appliance] upload_ca), and without it, or with
# another CA, the upload is refused at once with the certificate error.
# Cost: about 15 s (one nginx, no guest).
set -u
B=${B:-build}
BUILDAPP=${BUILDAPP:-$B/buildapp}
HELPER=$B/tests/upload-helper
tmp=$(mktemp -d)
. "${TOP:-.}/tests/lib/check.sh"
. "${TOP:-.}/tests/lib/webdav.sh"
trap 'webdav_stop; [ -n "${KEEP_TMP:-}" ] || rm -rf "$tmp"' EXIT

# bundle DIR SERVER SCALE: a results directory of 3 fio runs per cell.
bundle() {
	python3 - "$@" <<'PY'
import json, os, random, sys
d, server, scale = sys.argv[1], sys.argv[2], float(sys.argv[3])
os.makedirs(os.path.join(d, "console"), exist_ok=True)
rnd = random.Random(server)
with open(os.path.join(d, "host.json"), "w") as f:
    json.dump({"version": 1, "hostname": "(none)", "label": server + "_DISK",
               "bundle": "ci-smoke_%s_DISK_20261201T100000Z" % server}, f)
pos = 0
with open(os.path.join(d, "runs.jsonl"), "w") as f:
    for i in range(3):
        for cache in ("directsync", "unsafe"):
            cid = "raw/raw/-/%s/threads/virtio/fio" % cache
            iops = (3000 if cache == "unsafe" else 1000) * scale * rnd.uniform(0.97, 1.03)
            run = {"version": 1,
                   "cell": {"id": cid, "backend": "raw", "format": "raw",
                            "preallocation": None, "cache": cache, "aio": "threads",
                            "bus": "virtio", "workload": "fio"},
                   "index": i, "position": pos, "start_time": "2026-12-01T10:00:00Z",
                   "status": "ok", "message": None, "boot_seconds": 20.0, "accel": "tcg",
                   "applied_cache": None, "host_kernel": "6.1.0", "guest_kernel": "6.1.0",
                   "metrics": [{"name": "fio_write_iops", "value": iops, "unit": "IOPS"}]}
            open(os.path.join(d, "console", "run-%04d.log" % pos), "w").write("boot\n")
            f.write(json.dumps(run) + "\n")
            pos += 1
PY
}

webdav_start "$tmp/w"
rack=$tmp/w/dav/rack
bundle "$tmp/a" SRV-A 1
bundle "$tmp/b" SRV-B 0.5
A=ci-smoke_SRV-A_DISK_20261201T100000Z
B2=ci-smoke_SRV-B_DISK_20261201T100000Z

out=$("$HELPER" "$tmp/a" "$WEBDAV_URL/rack" "$A" 2>&1)
rc=$?
echo "$out"
check "upload exits 0" test $rc -eq 0
check "it says where and how much" sh -c 'echo "$1" | grep -q "sent to http://127.0.0.1:.*/rack/'"$A"'/: 9 files"' - "$out"
check "every file arrived" sh -c 'cd "$1/a" && for f in runs.jsonl host.json console/run-0000.log console/run-0005.log SHA256SUMS; do cmp "$f" "$2/$f" || exit 1; done' - "$tmp" "$rack/$A"
check "SHA256SUMS verifies what arrived" sh -c 'cd "$1" && sha256sum --quiet -c SHA256SUMS && grep -q "  console/run-0003.log$" SHA256SUMS && ! grep -q SHA256SUMS SHA256SUMS' - "$rack/$A"
check "no temporary collection left" test -z "$(ls -A "$rack" | grep '^\.')"

out=$("$HELPER" "$tmp/a" "$WEBDAV_URL/rack/" "$A" 2>&1)
rc=$?
echo "$out"
check "the same name again is refused" test $rc -eq 1
check "... saying it is already there" sh -c 'echo "$1" | grep -q "is already there: not overwritten"' - "$out"

start=$(date +%s)
out=$("$HELPER" "$tmp/a" "$WEBDAV_URL/ro/" "$A" 3 2>&1)
rc=$?
echo "$out"
check "a refused PUT fails" test $rc -eq 1
check "... naming the method and the status" sh -c 'echo "$1" | grep -q "refused: HTTP 405"' - "$out"
check "... at once, without retries" test $(($(date +%s) - start)) -lt 3
out=$("$HELPER" "$tmp/a" "$WEBDAV_URL/closed/" "$A" 3 2>&1)
echo "$out"
check "a forbidden location says 403" sh -c 'echo "$1" | grep -q "refused: HTTP 403"' - "$out"

out=$("$HELPER" "$tmp/a" "http://lab:s3cret@127.0.0.1:$WEBDAV_PORT/ro/" "$A" 1 2>&1)
echo "$out"
check "credentials in the URL are never printed" sh -c 'echo "$1" | grep -q "http://\*\*\*@127.0.0.1" && ! echo "$1" | grep -q s3cret' - "$out"

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
out=$("$HELPER" "$tmp/a" "http://127.0.0.1:$port/rack/" "$A" 2 2>&1)
rc=$?
echo "$out"
check "a wrong port fails" test $rc -eq 1
check "... after its retries, saying why" sh -c 'echo "$1" | grep -q "retrying in 1 s (2 of 2)" && echo "$1" | grep -qi "connect.*after 2 attempts"' - "$out"
out=$("$HELPER" "$tmp/a" "ftp://127.0.0.1/rack/" "$A" 2>&1)
check "not an http URL: refused before anything is sent" sh -c 'echo "$1" | grep -q "is not an http:// or https:// URL"' - "$out"

# TLS: the CA that issued the server's certificate, none (libcurl's
# system CAs), another CA.
bundle "$tmp/t" SRV-T 1
T=ci-smoke_SRV-T_DISK_20261201T100000Z
out=$(UPLOAD_CA=$WEBDAV_CA "$HELPER" "$tmp/t" "$WEBDAV_TLS_URL/rack/" "$T" 3 2>&1)
rc=$?
echo "$out"
check "https with the server's CA: sent" sh -c 'test $1 -eq 0 && echo "$2" | grep -q "sent to https://127.0.0.1:.*/rack/'"$T"'/: 9 files"' - $rc "$out"
check "... and it arrived whole" sh -c 'cd "$1" && sha256sum --quiet -c SHA256SUMS' - "$rack/$T"
start=$(date +%s)
out=$(env -u UPLOAD_CA "$HELPER" "$tmp/t" "$WEBDAV_TLS_URL/rack/" "$T.2" 3 2>&1)
rc=$?
echo "$out"
check "https without its CA: refused" test $rc -eq 1
check "... with the certificate error" sh -c 'echo "$1" | grep -q "the server.s certificate is not trusted: SSL certificate problem"' - "$out"
check "... at once, without retries" sh -c 'test $1 -lt 3 && ! echo "$2" | grep -q retrying' - $(($(date +%s) - start)) "$out"
check "... and nothing arrived" test ! -e "$rack/$T.2" -a -z "$(ls -A "$rack" | grep "^\.$T")"
openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=another CA" \
	-keyout "$tmp/other.key" -out "$tmp/other.pem" 2>/dev/null
out=$(UPLOAD_CA=$tmp/other.pem "$HELPER" "$tmp/t" "$WEBDAV_TLS_URL/rack/" "$T.3" 3 2>&1)
rc=$?
echo "$out"
check "https with another CA: refused with the certificate error" sh -c 'test $1 -eq 1 && echo "$2" | grep -q "certificate is not trusted"' - $rc "$out"
rm -rf "$rack/$T" # the rack's report below is of two servers

# Killed midway: a 64 MiB console log sent at 4 MiB/s.
bundle "$tmp/b" SRV-B 0.5 2>/dev/null || true
head -c 67108864 /dev/urandom >"$tmp/b/console/big.log"
"$HELPER" "$tmp/b" "$WEBDAV_URL/rack/" "$B2" 1 4194304 >"$tmp/killed.out" 2>&1 &
pid=$!
for _ in $(seq 1 40); do
	[ -d "$rack/.$B2.partial" ] && break
	sleep 0.25
done
sleep 2
kill -9 $pid
wait $pid 2>/dev/null
check "killed midway: its temporary collection is there" test -d "$rack/.$B2.partial"
check "... and nothing under the bundle's name" test ! -e "$rack/$B2"
"$BUILDAPP" report "$rack" -o "$tmp/r1" --format txt,json >"$tmp/r1.out" 2>&1
rc=$?
cat "$tmp/r1.out"
check "the rack's report reads the one whole bundle" sh -c 'test $1 -eq 0 && grep -q "report of 1 bundle" "$2"' - $rc "$tmp/r1.out"

rm "$tmp/b/console/big.log"
out=$("$HELPER" "$tmp/b" "$WEBDAV_URL/rack/" "$B2" 2>&1)
rc=$?
echo "$out"
check "the next try of that bundle arrives" sh -c 'test $1 -eq 0 && test -s "$2/SHA256SUMS" && test ! -e "$2/console/big.log"' - $rc "$rack/$B2"
check "... and the leftover is gone" test ! -e "$rack/.$B2.partial"

"$BUILDAPP" report "$rack" -o "$tmp/r2" --format txt,json >"$tmp/r2.out" 2>&1
rc=$?
cat "$tmp/r2.out"
check "the rack's report: both servers" sh -c 'test $1 -eq 0 && grep -q "report of 2 bundles" "$2"' - $rc "$tmp/r2.out"
check "... side by side as hosts, named by server" python3 - "$tmp/r2/report.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
labels = [h["label"] for h in r["hosts"]]
assert labels == ["SRV-A_DISK", "SRV-B_DISK"], labels
hosts = {c["host"] for w in r["workloads"] for m in w["metrics"] for c in m["cells"]}
assert hosts == set(labels), hosts
assert any("SRV-B_DISK vs SRV-A_DISK" in h for h in r["headlines"]), r["headlines"]
PY
exit $fail
