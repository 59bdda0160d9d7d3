# Sourced by the LAVA tests, after common.sh and webdav.sh: what they need
# of LAVA (Debian's lava-dispatcher, lava-server's device-type templates),
# and a kit whose server uploads to the tests' WebDAV server.
# lava_kit: a new work directory (work=, removed at exit unless KEEP_TMP
#   is set, with the processes in $pids killed and the commands in
#   $on_exit run), the WebDAV server (its root dav=), and the kit of
#   tests/e2e/netboot-test.ini named lava-test, uploading to
#   http://10.0.2.2:PORT/rack/ (the host as QEMU's user network shows it),
#   built in $work/out; sets nb= to its netboot directory.
# lava_bundle SERIAL: the bundle the server of DMI serial SERIAL uploaded
#   ("unknown": QEMU's default), or nothing.
# lava ARGS: tests/lib/lava-job.py with the Python that has LAVA's modules.
command -v supermin >/dev/null || skip "supermin is not installed"
command -v lava-run >/dev/null || skip "lava-run is not installed (lava-dispatcher: scripts/install-deps.sh)"
[ -f /usr/share/lava-server/device-types/qemu.jinja2 ] ||
	skip "lava-server's device-type templates are not installed (scripts/install-deps.sh)"
# LAVA's modules are Debian's, on the system Python's path.
py=/usr/bin/python3
lava() { "$py" "$TOP/tests/lib/lava-job.py" "$@"; }

lava_kit() {
	work=$(mktemp -d "$CACHE/lava.XXXXXX")
	pids="" on_exit=""
	trap lava_cleanup EXIT
	trap 'exit 1' INT TERM HUP
	webdav_start "$work/w"
	dav=$work/w/dav
	cat >"$work/lava-test.ini" <<INI
[appliance]
include = $TOP/tests/e2e/netboot-test.ini
name = lava-test
upload = http://10.0.2.2:$WEBDAV_PORT/rack/
INI
	start=$(date +%s)
	"$BUILDAPP" "$work/lava-test.ini" -o "$work/out" --cache "$CACHE/buildapp" ||
		fail "the kit did not build"
	echo "kit built in $(($(date +%s) - start))s"
	nb=$work/out/lava-test.netboot
	for f in lava-x86.yaml lava-qemu.yaml lava-disk.qcow2; do
		[ -s "$nb/$f" ] || fail "the kit wrote no $f in lava-test.netboot/"
	done
}

lava_cleanup() {
	for p in $pids; do kill "$p" 2>/dev/null || true; done
	eval "$on_exit"
	webdav_stop
	[ -n "${KEEP_TMP:-}" ] || rm -rf "$work"
}

lava_bundle() {
	ls -d "$dav/rack/lava-test_$1_BUILDAPP-DUT_"*T*Z 2>/dev/null | head -n 1
}
