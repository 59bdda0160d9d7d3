# SPDX-License-Identifier: GPL-2.0-or-later
# Sourced by the netboot tests, after common.sh and webdav.sh: a lab's
# boot server and virtual lab servers booted from it, on this machine.
# The kit's NAME.netboot/ is served over HTTP by the WebDAV server's nginx
# (tests/lib/webdav.sh), which also takes the uploads; each virtual server
# is QEMU's own iPXE (ipxe-qemu's ROM on an e1000 NIC), which gets DHCP and
# a TFTP chain script from QEMU's user-mode network and chains
# http://10.0.2.2:PORT/NAME.netboot/SCRIPT (QEMU hands 10.0.2.2 to the
# host's loopback).
#
# netboot_setup TAG PROFILE: a new work directory (work=, removed at exit
#   unless KEEP_TMP is set, the servers in $pids killed), the WebDAV server
#   (its root dav=), PROFILE's kit built in $work/out and its netboot
#   directory served; sets NETBOOT_NB (the kit's netboot directory),
#   NETBOOT_KIT (NAME) and NETBOOT_URL (the server as the guests see it).
# netboot_script SCRIPT ARGS...: the lab's boot script SCRIPT, the kit's
#   boot.ipxe with ARGS appended to its kernel line (after no_timer_check:
#   a TCG server on a loaded host can fail the kernel's IO-APIC timer
#   check and panic, as any virtual machine can).
# netboot_server ID SCRIPT [QEMU ARGS...]: boots a virtual lab server (DMI
#   serial SRV-ID, a blank NETBOOT_DISK_SIZE disk under test serial DISK-ID
#   on IDE) from SCRIPT, at most NETBOOT_TIMEOUT seconds, NETBOOT_MEM MiB
#   and NETBOOT_SMP CPUs; its console in $work/console-ID.log, QEMU's exit
#   status in $work/rc-ID.
# netboot_check_booted ID: fails unless server ID powered off in time,
#   booted by iPXE, which chained the boot script.
# netboot_check_bundle ID COLLECTION: fails unless server ID kept its
#   results in RAM and uploaded them to COLLECTION (a path under the
#   WebDAV root) as one whole bundle named by its server, disk and boot
#   time; sets bundle= to it.
# netboot_check_rack COLLECTION N: fails unless COLLECTION holds N
#   bundles and no temporary collection.
rom=/usr/lib/ipxe/qemu/efi-e1000.rom
[ -f "$rom" ] || skip "QEMU's iPXE ROMs are not installed (ipxe-qemu)"
: "${NETBOOT_DISK_SIZE:=8G}" "${NETBOOT_TIMEOUT:=3000}" "${NETBOOT_MEM:=3072}" "${NETBOOT_SMP:=2}"

netboot_setup() {
	work=$(mktemp -d "$CACHE/$1.XXXXXX")
	pids=""
	trap netboot_cleanup EXIT
	trap 'exit 1' INT TERM HUP
	webdav_start "$work/w"
	dav=$work/w/dav
	start=$(date +%s)
	"$BUILDAPP" "$2" -o "$work/out" --cache "$CACHE/buildapp" || fail "the kit did not build"
	echo "kit built in $(($(date +%s) - start))s"
	NETBOOT_NB=$(echo "$work/out/"*.netboot)
	NETBOOT_KIT=$(basename "$NETBOOT_NB" .netboot)
	NETBOOT_URL=http://10.0.2.2:$WEBDAV_PORT
	for f in vmlinuz initrd boot.ipxe; do
		[ -s "$NETBOOT_NB/$f" ] || fail "the kit wrote no $f in $NETBOOT_KIT.netboot/"
	done
	cp -r "$NETBOOT_NB" "$dav/$NETBOOT_KIT.netboot"
	# SeaBIOS's output, and so iPXE's, on the serial console too: the
	# port's number (0x3f8) as the little-endian integer SeaBIOS reads.
	printf '\370\003' >"$work/sercon-port"
}

netboot_cleanup() {
	for p in $pids; do kill "$p" 2>/dev/null || true; done
	webdav_stop
	[ -n "${KEEP_TMP:-}" ] || rm -rf "$work"
}

netboot_script() {
	d=$dav/$NETBOOT_KIT.netboot
	s=$1
	shift
	# cryptomgr.notests: a virtual server's kernel once hung in a crypto
	# self-test under TCG (-cpu max; "soft lockup ... cryptomgr_test" for
	# 17 minutes, one of four servers booted at once): nothing here tests
	# the kernel's crypto.
	sed "s|^kernel .*|& no_timer_check cryptomgr.notests=1 $*|" "$d/boot.ipxe" >"$d/$s"
	chmod -R a+rX "$d"
}

# An i440FX machine and an e1000 NIC: the pair whose iPXE ROM this QEMU's
# SeaBIOS runs every time (on q35, or with virtio-net, it did not).
netboot_server() {
	id=$1 script=$2
	shift 2
	mkdir -p "$work/tftp-$id"
	printf '#!ipxe\nchain %s/%s.netboot/%s\n' "$NETBOOT_URL" "$NETBOOT_KIT" "$script" \
		>"$work/tftp-$id/chain.ipxe"
	qemu-img create -q -f raw "$work/dut-$id.raw" "$NETBOOT_DISK_SIZE"
	rc=0
	timeout "$NETBOOT_TIMEOUT" qemu-system-x86_64 -accel tcg -M pc -m "$NETBOOT_MEM" \
		-smp "$NETBOOT_SMP" -cpu max -nodefaults -display none -no-reboot -serial stdio \
		-fw_cfg "name=etc/sercon-port,file=$work/sercon-port" \
		-smbios "type=1,manufacturer=buildapp-test,product=netboot,serial=SRV-$id" \
		-netdev "user,id=net0,tftp=$work/tftp-$id,bootfile=chain.ipxe" \
		-device "e1000,netdev=net0,romfile=$rom,bootindex=0" \
		-drive "file=$work/dut-$id.raw,format=raw,if=none,id=dut,cache=none,aio=threads" \
		-device "ide-hd,drive=dut,bus=ide.0,serial=DISK-$id" \
		"$@" </dev/null >"$work/console-$id.log" 2>&1 || rc=$?
	echo "$rc" >"$work/rc-$id"
}

netboot_check_booted() {
	log=$work/console-$1.log
	rc=$(cat "$work/rc-$1")
	[ "$rc" = 0 ] || fail "server $1: qemu exit $rc (no power-off in ${NETBOOT_TIMEOUT}s?)"
	grep -q "iPXE (PCI .*) starting execution" "$log" || fail "server $1: not booted by iPXE"
	grep -q "^$NETBOOT_URL/$NETBOOT_KIT.netboot/.*\.ipxe\.\.\. ok" "$log" ||
		fail "server $1: iPXE did not chain the boot script"
}

netboot_check_bundle() {
	log=$work/console-$1.log
	grep -q "no partition labelled RESULTS: the results stay in RAM" "$log" ||
		fail "server $1: did not keep its results in RAM"
	name=${NETBOOT_KIT}_SRV-${1}_DISK-${1}_
	grep -q "uploaded to $NETBOOT_URL/$2/$name" "$log" || fail "server $1: no upload on its console"
	bundle=$(ls -d "$dav/$2/$name"*T*Z 2>/dev/null || true)
	[ -n "$bundle" ] && [ -d "$bundle" ] || fail "server $1: no bundle named by server, disk and boot time"
	(cd "$bundle" && sha256sum --quiet -c SHA256SUMS) || fail "server $1: SHA256SUMS does not check"
	grep -qx "results: RAM (no RESULTS partition)" "$bundle/appliance.txt" ||
		fail "server $1: appliance.txt: $(cat "$bundle/appliance.txt")"
}

netboot_check_rack() {
	[ -z "$(ls -A "$dav/$1" | grep '^\.')" ] || fail "a temporary collection was left: $(ls -A "$dav/$1")"
	[ "$(ls "$dav/$1" | wc -l)" -eq "$2" ] || fail "$1/ holds other than the $2 bundles: $(ls "$dav/$1")"
}
