# Sourced by the LAVA tests, after common.sh and webdav.sh: what they need
# of LAVA (Debian's lava-dispatcher, lava-server's device-type templates),
# and a kit whose server uploads to the tests' WebDAV server.
# lava_kit [BUILD OPTIONS]: a new work directory (work=, removed at exit unless KEEP_TMP
#   is set, with the processes in $pids killed and the commands in
#   $on_exit run), the WebDAV server (its root dav=), and the kit of
#   tests/e2e/netboot-test.ini named lava-test, uploading to
#   http://10.0.2.2:PORT/rack/ (the host as QEMU's user network shows it),
#   built in $work/out; sets nb= to its netboot directory.
# lava_bundle SERIAL [DISK]: the bundle the server of DMI serial SERIAL
#   ("unknown": QEMU's default) uploaded for its disk under test of serial
#   DISK (default BUILDAPP-DUT, the qemu job's), or nothing.
# lava ARGS: tests/lib/lava-job.py with the Python that has LAVA's modules.
# lava_x86 NAME FIRMWARE [DISK...]: an x86 server emulated here
#   (tests/lib/x86-device.sh: FIRMWARE bios or uefi, DMI serial SRV-NAME,
#   blank disks under test of serials DISK..., default DISK-SRV-NAME) in
#   $work/NAME, its console server listening on a free port from now on,
#   stopped at exit.
# lava_x86_device NAME JOB: that server as a LAVA device of type x86 for
#   JOB, $work/NAME.yaml, rendered from lava-server's x86.jinja2 as a lab's
#   dictionary sets it (the console server's telnet, power commands as a
#   list: off, then on).
# lava_run ID JOB NAME: lava-run of JOB (job id ID) on the device
#   $work/NAME.yaml, the dispatcher at 10.0.2.2 as the server sees it; its
#   log in $work/lava-NAME.log, its exit status in $work/rc-NAME.
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
	"$BUILDAPP" "$work/lava-test.ini" -o "$work/out" --cache "$CACHE/buildapp" "$@" ||
		fail "the kit did not build"
	echo "kit built in $(($(date +%s) - start))s"
	nb=$work/out/lava-test.netboot
	for f in lava-x86.yaml lava-qemu.yaml lava-disk.qcow2; do
		[ -s "$nb/$f" ] || fail "the kit wrote no $f in lava-test.netboot/"
	done
}

lava_cleanup() {
	for p in $pids; do kill "$p" 2>/dev/null || true; done
	for d in ${x86_devices:-}; do sh "$TOP/tests/lib/x86-device.sh" stop "$d"; done
	for i in ${ids:-}; do rm -rf "/srv/tftp/$i"; done
	eval "$on_exit"
	webdav_stop
	[ -n "${KEEP_TMP:-}" ] || rm -rf "$work"
}

lava_bundle() {
	ls -d "$dav/rack/lava-test_$1_${2:-BUILDAPP-DUT}_"*T*Z 2>/dev/null | head -n 1
}

lava_x86() {
	x86_name=$1 x86_fw=$2
	shift 2
	x86_port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	x86_devices="${x86_devices:-} $work/$x86_name"
	sh "$TOP/tests/lib/x86-device.sh" setup "$work/$x86_name" "$x86_fw" "SRV-$x86_name" \
		"$x86_port" "$@" || fail "the emulated x86 server $x86_name did not start"
	echo "$x86_port" >"$work/$x86_name/port"
	printf 'dispatcher_ip: 10.0.2.2\n' >"$work/dispatcher.yaml"
}

# The typing delay is the dictionary's (boot_character_delay, 500 ms
# unless set): this console takes iPXE's typed lines at 50 ms a character.
lava_x86_device() {
	d=$work/$1 dev="sh $TOP/tests/lib/x86-device.sh"
	lava render x86 "$2" "$work/$1.yaml" \
		"connection_command='telnet 127.0.0.1 $(cat "$d/port")'" \
		"power_on_command='$dev on $d'" "power_off_command='$dev off $d'" \
		"hard_reset_command=['$dev off $d', '$dev on $d']" "boot_character_delay=50"
}

lava_run() {
	ids="${ids:-} $1"
	rc=0
	timeout 2400 lava-run --job-id "$1" --output-dir "$work/lava-$3" --device "$work/$3.yaml" \
		--dispatcher "$work/dispatcher.yaml" "$2" >"$work/lava-$3.log" 2>&1 || rc=$?
	echo "$rc" >"$work/rc-$3"
}
