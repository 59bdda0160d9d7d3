#!/bin/sh
# An x86 lab server as LAVA drives one, emulated on this machine: the
# chassis is a QEMU started and stopped by the device's power commands; its
# serial port stays on a console server that listens whether the server is
# on or off, as a lab's does.
#
#   x86-device.sh setup DIR FIRMWARE SERIAL PORT [DISK...]
#       A new device in DIR: FIRMWARE bios (SeaBIOS) or uefi (OVMF), DMI
#       serial SERIAL, one blank 8 GiB disk under test per DISK (its
#       serial; none: DISK-SERIAL), the console on telnet port PORT of
#       127.0.0.1, started now (DIR/console.pids).
#   x86-device.sh on DIR       power on: boots from the network (below)
#   x86-device.sh off DIR      power off (nothing when it is off)
#   x86-device.sh stop DIR     power off and stop the console
#
# The console: ser2net (Debian's) with a telnet accepter, which offers
# character mode (WILL ECHO, WILL SGA: LAVA's Ctrl-B reaches iPXE as it is
# typed), on one end of a pair of pseudo-terminals that socat joins; QEMU's
# serial port opens the other end at each power-on.  Each end is also
# held open by an idle process, so that neither side closing (QEMU powered
# off, LAVA disconnected) ends the pair.
#
# The server: Debian's iPXE ROM for QEMU's e1000 (ipxe-qemu's efi-e1000.rom,
# legacy and EFI images, iPXE 1.0.0+git-20190125: a typed line holds at
# most 255 characters), SeaBIOS's output and keyboard on the serial port
# (etc/sercon-port) or OVMF's console, QEMU's user network whose DHCP and
# TFTP (root /srv/tftp, LAVA's TFTP deployments) answer as 10.0.2.2, the
# dispatcher's address in the tests' dispatcher configuration; it reaches
# the host's 127.0.0.1 (the tests' WebDAV server) as 10.0.2.2 too.
set -eu
cmd=$1 dir=$2
rom=/usr/lib/ipxe/qemu/efi-e1000.rom

case $cmd in
setup)
	firmware=$3 serial=$4 port=$5
	shift 5
	mkdir -p "$dir"
	printf 'firmware=%s\nserial=%s\n' "$firmware" "$serial" >"$dir/device.env"
	[ $# -gt 0 ] || set -- "DISK-$serial"
	: >"$dir/disks"
	for d in "$@"; do
		qemu-img create -q -f raw "$dir/$d.raw" 8G
		echo "$d" >>"$dir/disks"
	done
	if [ "$firmware" = uefi ]; then
		cp /usr/share/OVMF/OVMF_VARS_4M.fd "$dir/vars.fd"
	fi
	# SeaBIOS's console on the serial port: its port (0x3f8), as the
	# little-endian number SeaBIOS reads.
	printf '\370\003' >"$dir/sercon-port"
	cat >"$dir/ser2net.yaml" <<EOF
%YAML 1.1
---
connection: &server
  accepter: telnet,tcp,127.0.0.1,$port
  connector: serialdev,$dir/tty-console,115200n81,local
  options:
    kickolduser: true
EOF
	setsid socat "PTY,link=$dir/tty-console,rawer" "PTY,link=$dir/tty-server,rawer" \
		</dev/null >"$dir/socat.log" 2>&1 &
	echo $! >"$dir/console.pids"
	for _ in $(seq 50); do
		[ -e "$dir/tty-console" ] && [ -e "$dir/tty-server" ] && break
		sleep 0.1
	done
	setsid sleep 100000 <"$dir/tty-console" >/dev/null 2>&1 &
	echo $! >>"$dir/console.pids"
	setsid sleep 100000 <"$dir/tty-server" >/dev/null 2>&1 &
	echo $! >>"$dir/console.pids"
	setsid ser2net -n -c "$dir/ser2net.yaml" -P "$dir/ser2net.pid" \
		</dev/null >"$dir/ser2net.log" 2>&1 &
	echo $! >>"$dir/console.pids"
	for _ in $(seq 50); do
		python3 -c 'import socket, sys; socket.create_connection(("127.0.0.1", int(sys.argv[1])), 1)' \
			"$port" 2>/dev/null && exit 0
		sleep 0.2
	done
	echo "the console server does not listen on 127.0.0.1:$port: $(cat "$dir/ser2net.log")" >&2
	exit 1
	;;
on)
	. "$dir/device.env"
	pid=$(cat "$dir/qemu.pid" 2>/dev/null || true)
	[ -z "$pid" ] || ! kill -0 "$pid" 2>/dev/null || { echo "already on"; exit 0; }
	# SeaBIOS on an i440FX machine with the e1000: the pair whose iPXE ROM
	# this QEMU's SeaBIOS runs every time (tests/lib/netboot.sh); OVMF on a
	# q35, whose disks are on its AHCI (on an i440FX, OVMF's kernel found
	# no disk on the PIIX IDE within the init's 20 s).
	machine=pc
	set --
	if [ "$firmware" = uefi ]; then
		machine=q35
		set -- -drive "if=pflash,format=raw,readonly=on,file=/usr/share/OVMF/OVMF_CODE_4M.fd" \
			-drive "if=pflash,format=raw,file=$dir/vars.fd"
	fi
	n=0
	while read -r d; do
		set -- "$@" -drive "file=$dir/$d.raw,format=raw,if=none,id=d$n,cache=none,aio=threads" \
			-device "ide-hd,drive=d$n,bus=ide.$n,serial=$d"
		n=$((n + 1))
	done <"$dir/disks"
	echo "power on $(date +%T)" >>"$dir/power.log"
	setsid qemu-system-x86_64 -accel tcg -M "$machine" -m 3072 -smp 2 -cpu max,erms=off,fsrm=off \
		-nodefaults -display none -no-reboot \
		-chardev "serial,id=console,path=$dir/tty-server" -serial chardev:console \
		-fw_cfg "name=etc/sercon-port,file=$dir/sercon-port" \
		-smbios "type=1,manufacturer=buildapp-test,product=x86-device,serial=$serial" \
		-netdev user,id=net0,tftp=/srv/tftp \
		-device "e1000,netdev=net0,romfile=$rom,bootindex=0" \
		-pidfile "$dir/qemu.pid" "$@" </dev/null >>"$dir/qemu.log" 2>&1 &
	for _ in $(seq 50); do
		[ -s "$dir/qemu.pid" ] && exit 0
		sleep 0.1
	done
	echo "QEMU did not start: $(tail -n 5 "$dir/qemu.log")" >&2
	exit 1
	;;
off | stop)
	# QEMU removes its pid file when it exits (the kit powers off); a pid
	# is this device's QEMU only while its command line names the device.
	pid=$(cat "$dir/qemu.pid" 2>/dev/null || true)
	if [ -n "$pid" ] && tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -qF "$dir/" &&
		kill "$pid" 2>/dev/null; then
		echo "power off $(date +%T)" >>"$dir/power.log"
		for _ in $(seq 50); do
			kill -0 "$pid" 2>/dev/null || break
			sleep 0.1
		done
	fi
	rm -f "$dir/qemu.pid"
	if [ "$cmd" = stop ] && [ -s "$dir/console.pids" ]; then
		for p in $(cat "$dir/console.pids"); do kill "$p" 2>/dev/null || true; done
		rm -f "$dir/console.pids"
	fi
	;;
*)
	echo "usage: x86-device.sh setup|on|off|stop DIR ..." >&2
	exit 2
	;;
esac
