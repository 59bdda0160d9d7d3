#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Boots a buildapp image in qemu as a virtual lab server: q35, the image on
# its own disk, a blank disk under test on AHCI (an emulated ATA disk, so
# hdparm -W really talks to a drive), serial console on stdout.  Waits for
# the appliance to power off, then prints the appliance.txt it left on RESULTS
# (read back read-only with guestfish).
#
# Usage: boot-appliance.sh IMAGE [--uefi|--secure-boot] [--cdrom [--stick FILE]]
#            [--disk-size SIZE] [--disk FILE]
#            [--plan FILE] [--timeout SECONDS] [--silence SECONDS]
#            [--memory MB] [--smp N] [--boot-bus virtio|sata|nvme|usb]
#            [--accel auto|kvm|tcg] [--cpu MODEL] [--serial SERIAL]
#            [--dut-bus ahci|scsi|nvme] [--report NAME] [--log FILE] [--reboots]
#            [--firmware-log FILE] [--bmc|--bmc-refuses] [--dut-cache honest|lying]
#            [--watchdog]
#        boot-appliance.sh --probe-accel
#        boot-appliance.sh IMAGE [--plan FILE] --print-limits
# --report names the file on RESULTS printed at the end (appliance.txt);
# --log is where the console goes (kept on failure); --reboots lets the
# server reboot in the same QEMU, as a real one does (a kit whose host
# crashes come back through the firmware, crash_reboot = firmware or
# kexec's fallback; by kexec it never resets), where otherwise QEMU exits
# at a reboot as it does at a power-off.  Under
# SeaBIOS its log (QEMU's debug port 0x402) goes to --firmware-log FILE,
# and the number of firmware boots is printed at the end: a kit whose
# host crashes come back by kexec goes through the firmware once.
# --cpu is the server's QEMU CPU model: default max under KVM, and
# max,erms=off,fsrm=off under TCG, where its nested guests then start
# about three times as fast (scripts/bench-nested-cpu.sh).
# --secure-boot is UEFI with Secure Boot enforcing (OVMF's secboot code
# with Microsoft's keys enrolled).  --cdrom boots IMAGE (NAME.iso) from
# a CD drive, with a USB stick holding a RESULTS partition plugged in,
# from which the report is read (--stick FILE: that stick, made when
# missing and kept; or an nbd+unix:// export of one, used as it is).
# --print-limits prints the two limits below ("TIMEOUT SILENCE", seconds)
# and boots nothing: the kit's LAVA jobs take theirs from the same rule.
# --bmc gives the server a BMC (OpenIPMI's ipmi_sim, reached in-band
# through an IPMI KCS interface, /dev/ipmi0 in the server) whose Chassis
# Control powers it off and on: a power cycle kills the server's QEMU and
# starts it again on the same disks (scripts/lab-power.sh); the server is
# done when it powers itself off.  --bmc-refuses: a BMC that answers but
# does not control the server's power (its chassis reads off, a Chassis
# Control fails).  --dut-cache gives the disk under test (a file) a
# volatile write cache that a power-off loses, honest or lying about
# flushes (nbdkit: scripts/lab-power.sh).  --watchdog gives the server a
# hardware watchdog (an Intel 6300ESB, i6300esb), whose expiry resets it.
# Exit status: 0 powered off and the report was read, 1 failure or timeout,
# 2 bad usage.
#
# How long the server may take follows from the plan in the kit (--plan: a
# NAME.manifest.json or plan.json; default: the manifest next to IMAGE,
# else the plan inside it): every run it may make at its [guest] timeout,
# plus time to boot, provision and power off.  A console silent for longer
# than a run may take means a hung server, which is stopped then.  On
# failure the console log is kept and its path printed.
set -eu

prog=boot-appliance
usage() { # [STATUS]: 0 prints to stdout
	if [ "${1:-2}" = 0 ]; then
		sed -n '/^# Usage:/,/^set -eu$/{/^#/p}' "$0" | sed 's/^# \{0,1\}//'
		exit 0
	fi
	sed -n '/^# Usage:/,/^set -eu$/{/^#/p}' "$0" | sed 's/^# \{0,1\}//' >&2
	exit 2
}
die() { echo "$prog: error: $*" >&2; exit 1; }

image= uefi=0 disk_size=8G disk= timeout= silence= plan= memory=3072 smp=2
boot_bus=virtio accel=${BUILDAPP_ACCEL:-auto} serial=BUILDAPP-DUT-0001
report=appliance.txt log= probe_only=0 dut_bus=ahci reboot=-no-reboot
secure_boot=0 cdrom=0 stick= cpu= fwlog= print_limits=0 bmc= dut_cache= watchdog=0
while [ $# -gt 0 ]; do
	case $1 in
	--uefi) uefi=1 ;;
	--secure-boot) uefi=1 secure_boot=1 ;;
	--cdrom) cdrom=1 ;;
	--stick) stick=$2; shift ;;
	--disk-size) disk_size=$2; shift ;;
	--disk) disk=$2; shift ;;
	--timeout) timeout=$2; shift ;;
	--silence) silence=$2; shift ;;
	--plan) plan=$2; shift ;;
	--memory) memory=$2; shift ;;
	--smp) smp=$2; shift ;;
	--boot-bus) boot_bus=$2; shift ;;
	--accel) accel=$2; shift ;;
	--cpu) cpu=$2; shift ;;
	--serial) serial=$2; shift ;;
	--dut-bus) dut_bus=$2; shift ;;
	--report) report=$2; shift ;;
	--log) log=$2; shift ;;
	--reboots) reboot= ;;
	--firmware-log) fwlog=$2; shift ;;
	--bmc) bmc=on ;;
	--bmc-refuses) bmc=refuse ;;
	--dut-cache) dut_cache=$2; shift ;;
	--watchdog) watchdog=1 ;;
	--probe-accel) probe_only=1 ;;
	--print-limits) print_limits=1 ;;
	-h|--help) usage 0 ;;
	-*) echo "$prog: unknown option '$1'" >&2; usage ;;
	*) [ -z "$image" ] || usage; image=$1 ;;
	esac
	shift
done

# KVM is usable when a kernel really boots under it: /dev/kvm can accept
# KVM_CREATE_VM on hosts where a guest then crawls (nested without the
# needed features).  The kernel is booted without a root and panics at
# once; under a working KVM that takes a second or two.
probe_accel() {
	[ -c /dev/kvm ] && [ -r /dev/kvm ] && [ -w /dev/kvm ] || { echo tcg; return; }
	# The kernel the builder takes (one rule: `buildapp kernel`).
	b=${BUILDAPP:-$(dirname "$0")/../build/buildapp}
	[ -x "$b" ] || b=buildapp
	kernel=$("$b" kernel 2>/dev/null | cut -d' ' -f1)
	[ -n "$kernel" ] || { echo tcg; return; }
	out=$(timeout 20 qemu-system-x86_64 -accel kvm -M q35 -m 256 \
		-nodefaults -display none -no-reboot -serial stdio \
		-kernel "$kernel" -append "console=ttyS0 panic=-1 root=/dev/nonexistent" \
		2>/dev/null || true)
	case $out in
	*"Kernel panic"*) echo kvm ;;
	*) echo tcg ;;
	esac
}

if [ "$probe_only" = 1 ]; then
	probe_accel
	exit 0
fi
[ -n "$image" ] || usage
[ -f "$image" ] || die "image '$image': no such file"
case $accel in
auto) accel=$(probe_accel) ;;
kvm|tcg) ;;
*) usage ;;
esac
case $boot_bus in virtio|sata|nvme|usb) ;; *) usage ;; esac
case $dut_bus in ahci|scsi|nvme) ;; *) usage ;; esac
case $dut_cache in ""|honest|lying) ;; *) usage ;; esac

format=$(qemu-img info --output=json "$image" | sed -n 's/.*"format": "\([a-z0-9]*\)".*/\1/p' | head -n 1)
[ -n "$format" ] || die "image '$image': cannot tell its format"

# libguestfs's own qemu must not try a KVM that does not work.
[ "$accel" = kvm ] || export LIBGUESTFS_BACKEND_SETTINGS=force_tcg

# Seconds for firmware, kernel, init, provisioning, the summary and
# power-off on a busy 2-core host under TCG; and for what a run costs
# beyond its guest (volume reset, page cache drop, domain start, journal).
boot_margin=900 run_margin=120

# "RUNS TIMEOUT" of a plan: the most runs it may make (every cell at
# max_runs_per_cell, a durability cell at its own durability_runs_per_cell)
# and its [guest] timeout.  FILE is a manifest or a
# plan.json, or '-': the appliance's initrd (newc cpio) on stdin.
plan_limits() {
	python3 -c '
import json, sys
src = sys.argv[1]
if src == "-":
    # The initrd is several cpio archives one after another: find the
    # plan by its newc header rather than by walking them.
    data = sys.stdin.buffer.read()
    name = b"usr/lib/buildapp/kit/plan.json\0"
    at = data.find(name)
    while at >= 110 and data[at - 110:at - 104] not in (b"070701", b"070702"):
        at = data.find(name, at + 1)
    if at < 110:
        sys.exit(1)
    head = data[at - 110:at]
    size = int(head[54:62], 16)
    start = (at + len(name) + 3) & ~3
    doc = json.loads(data[start:start + size])
else:
    with open(src) as f:
        doc = json.load(f)
plan = doc.get("plan", doc)
most = max(plan["runs_per_cell"], plan["max_runs_per_cell"])
crashes = plan.get("durability_runs_per_cell", plan["runs_per_cell"])
runs = sum(crashes if c.get("workload") == "durability" else most for c in plan["cells"])
print(runs, plan["profile"]["guest"]["timeout"])
' "$1"
}

# The initrd on IMAGE's ESP (partition 1), or at the root of an ISO
# image, on stdout.
image_initrd() {
	if [ "$(dd if="$image" bs=1 skip=32769 count=5 2>/dev/null)" = CD001 ]; then
		t=$(mktemp "${TMPDIR:-/tmp}/boot-appliance-initrd.XXXXXX") &&
			xorriso -osirrox on -indev "$image" -extract /initrd "$t" >/dev/null 2>&1 &&
			cat "$t"
		rc=$?
		rm -f "$t"
		return $rc
	elif [ "$format" = raw ]; then
		start=$(partx -g -o START -n 1 "$image") &&
			mcopy -n -i "$image@@$((start * 512))" ::/initrd -
	else
		guestfish --ro --format="$format" -a "$image" -m /dev/sda1 download /initrd -
	fi
}

if [ -z "$plan" ] && [ -f "${image%.*}.manifest.json" ]; then
	plan=${image%.*}.manifest.json
fi
if [ -n "$plan" ]; then
	limits=$(plan_limits "$plan" 2>/dev/null) || {
		echo "$prog: error: plan '$plan': cannot read it (a NAME.manifest.json or plan.json)" >&2
		exit 2
	}
	from="plan in $plan"
else
	limits=$(image_initrd 2>/dev/null | zstd -dcq 2>/dev/null | plan_limits -) || limits=
	from="plan in $image"
	[ -n "$limits" ] || limits="0 0" from="no plan in $image"
fi
runs=${limits% *} run_timeout=${limits#* }
[ -n "$timeout" ] || timeout=$((boot_margin + runs * (run_timeout + run_margin)))
if [ -z "$silence" ]; then
	silence=$((run_timeout + run_margin))
	[ "$silence" -ge "$boot_margin" ] || silence=$boot_margin
fi
if [ "$print_limits" = 1 ]; then
	echo "$timeout $silence"
	exit 0
fi

work=$(mkdir -p "${TMPDIR:-/var/tmp}" && mktemp -d "${TMPDIR:-/var/tmp}/boot-appliance.XXXXXX")
qpid= finished=0 power= bmc_pid=
# What failed is in the console log: it stays, the rest goes.
cleanup() {
	[ -z "$qpid" ] || kill "$qpid" 2>/dev/null || true
	# ipmi_sim's process group, with a chassis_control lab-power.sh it
	# may be running, before the power goes off for good: what that one
	# started (setsid, by pid file) the stop below ends.
	[ -z "$bmc_pid" ] || kill -TERM "-$bmc_pid" 2>/dev/null || true
	[ -z "$power" ] || sh "$(dirname "$0")/lab-power.sh" "$power" stop || true
	if [ "$finished" = 1 ] || [ -z "$log" ] || [ "${log#"$work"/}" = "$log" ]; then
		rm -rf "$work"
	else
		find "$work" -mindepth 1 ! -path "$log" -delete
		echo "$prog: console log kept: $log" >&2
	fi
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

if [ -z "$disk" ]; then
	disk=$work/disk-under-test.raw
	qemu-img create -q -f raw "$disk" "$disk_size"
fi
# A BMC or a disk whose cache goes with the power: the server's QEMU, and
# the disk's nbdkit, are started and cut by scripts/lab-power.sh.
dut_drive=$disk
if [ -n "$bmc" ] || [ -n "$dut_cache" ]; then
	power=$work/power
	mkdir "$power"
	if [ -n "$dut_cache" ]; then
		case $disk in nbd*://*) die "--dut-cache needs the disk under test in a file" ;; esac
		command -v nbdkit >/dev/null || die "--dut-cache needs nbdkit (package nbdkit)"
		dut_drive="nbd+unix:///?socket=$power/dut.sock"
	fi
	# A server that reboots stays on (QEMU's reset), as a real one does.
	reboot=
fi

machine=q35
[ "$secure_boot" = 0 ] || machine=q35,smm=on
# Under TCG the server's kernel clears and copies pages with rep stosq and
# movsq, not the byte-wise stosb and movsb it picks on a CPU that offers
# ERMS or FSRM: QEMU emulates each iteration as a store, and a store to a
# page it has translated code from (a page the previous guest's QEMU ran
# its own translated code in, freed and then cleared for the next one)
# takes its slow path.  With the byte-wise forms a nested guest's QEMU
# took 10-17 s to start after the first run of a sweep, 3-5 s without
# them (scripts/bench-nested-cpu.sh).  It still offers SVM: with svm=off
# a static glibc program (busybox) aborts in _dl_get_origin on such a
# server.  The kit, seeing itself emulated, unloads KVM instead
# (docs/testing.md, "The virtual lab server's CPU").  A KVM server gets
# the host's CPU as it is.
if [ -z "$cpu" ]; then
	cpu=max
	[ "$accel" = kvm ] || cpu=max,erms=off,fsrm=off
fi
set -- -accel "$accel" -M "$machine" -m "$memory" -smp "$smp" -cpu "$cpu" \
	-nodefaults -display none $reboot -serial stdio \
	-drive "file=$dut_drive,format=raw,if=none,id=dut,cache=none,aio=threads" \
	-drive "file=$image,format=$format,if=none,id=boot,cache=unsafe$([ "$cdrom" = 0 ] || echo ,media=cdrom,readonly=on)"
# The disk under test: an emulated ATA disk on q35's AHCI by default, so
# hdparm talks to a drive; SCSI (sdparm) and NVMe (nvme-cli) likewise.
case $dut_bus in
ahci) set -- "$@" -device "ide-hd,drive=dut,bus=ide.0,serial=$serial" ;;
scsi) set -- "$@" -device virtio-scsi-pci,id=dutscsi \
	-device "scsi-hd,drive=dut,bus=dutscsi.0,serial=$serial" ;;
nvme) set -- "$@" -device "nvme,drive=dut,serial=$serial" ;;
esac
# From a CD: the drive on AHCI, a USB stick with RESULTS beside it.
if [ "$cdrom" = 1 ]; then
	[ -n "$stick" ] || stick=$work/stick.raw
	# An NBD export (nbd+unix://...) is a stick served by another
	# process (a test's qemu-storage-daemon): used as it is.
	case $stick in nbd*://*) ;; *) if [ ! -e "$stick" ]; then
		qemu-img create -q -f raw "$stick" 256M
		echo 'label: gpt
start=2048, type=0FC63DAF-8483-4772-8E79-3D69D8477DE4' | sfdisk -q "$stick" >/dev/null
		mke2fs -q -F -t ext4 -L RESULTS -E offset=1048576 "$stick" 200M ||
			die "cannot make the RESULTS stick"
	fi ;; esac
	set -- "$@" -drive "file=$stick,format=raw,if=none,id=stick,cache=unsafe" \
		-device qemu-xhci -device usb-storage,drive=stick,serial=RESULTS-STICK
	boot_bus=cdrom
fi
case $boot_bus in
cdrom) set -- "$@" -device ide-cd,drive=boot,bus=ide.1,bootindex=0 ;;
virtio) set -- "$@" -device virtio-blk-pci,drive=boot,bootindex=0 ;;
sata) set -- "$@" -device ide-hd,drive=boot,bus=ide.1,bootindex=0 ;;
nvme) set -- "$@" -device nvme,drive=boot,serial=BUILDAPP-BOOT,bootindex=0 ;;
usb) set -- "$@" -device qemu-xhci -device usb-storage,drive=boot,bootindex=0 ;;
esac
if [ "$secure_boot" = 1 ]; then
	code=/usr/share/OVMF/OVMF_CODE_4M.secboot.fd vars=/usr/share/OVMF/OVMF_VARS_4M.ms.fd
	[ -f "$code" ] && [ -f "$vars" ] || die "OVMF with Secure Boot not found ($code, $vars: package ovmf)"
	# The secboot build keeps its variables in SMM-protected flash.
	set -- "$@" -global driver=cfi.pflash01,property=secure,value=on
	cp "$vars" "$work/vars.fd"
	set -- "$@" -drive "if=pflash,format=raw,unit=0,readonly=on,file=$code" \
		-drive "if=pflash,format=raw,unit=1,file=$work/vars.fd"
elif [ "$uefi" = 1 ]; then
	code=/usr/share/OVMF/OVMF_CODE_4M.fd vars=/usr/share/OVMF/OVMF_VARS_4M.fd
	[ -f "$code" ] || code=/usr/share/OVMF/OVMF_CODE.fd vars=/usr/share/OVMF/OVMF_VARS.fd
	[ -f "$code" ] || die "OVMF not found in /usr/share/OVMF (package ovmf)"
	cp "$vars" "$work/vars.fd"
	set -- "$@" -drive "if=pflash,format=raw,unit=0,readonly=on,file=$code" \
		-drive "if=pflash,format=raw,unit=1,file=$work/vars.fd"
fi

[ -n "$log" ] || log=$work/console.log
# SeaBIOS writes its log to QEMU's debug port, with one "BUILD:" line a
# firmware boot (its banner comes twice).  OVMF's release build writes
# none.
if [ "$uefi" = 0 ]; then
	[ -n "$fwlog" ] || fwlog=$work/firmware.log
	: >"$fwlog"
	set -- "$@" -chardev "file,id=fwlog,path=$fwlog,append=on" -device isa-debugcon,iobase=0x402,chardev=fwlog
fi
[ "$watchdog" = 0 ] || set -- "$@" -device i6300esb -action watchdog=reset
# A free TCP port on 127.0.0.1 (for the BMC's two).
free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# The server's power domain (scripts/lab-power.sh), with QEMU's
# arguments ARGS: its BMC listening first when there is one, then the
# first power-on.
start_power_domain() { # ARGS...
	cat >"$power/power.conf" <<CONF
log='$log'
disk='$disk'
cache='$dut_cache'
flush=1
CONF
	if [ -n "$bmc" ]; then
		command -v ipmi_sim >/dev/null || die "--bmc needs OpenIPMI's ipmi_sim (package openipmi)"
		serial_port=$(free_port) lan_port=$(free_port)
		set -- "$@" -chardev "socket,id=bmc,host=127.0.0.1,port=$serial_port,reconnect=1" \
			-device ipmi-bmc-extern,id=bmc0,chardev=bmc -device isa-ipmi-kcs,bmc=bmc0
		refuse=
		[ "$bmc" = on ] || refuse=" refuse"
		mkdir -p "$power/bmc-state"
		cat >"$power/lan.conf" <<CONF
name "buildapp-lab"
set_working_mc 0x20
  startlan 1
    addr 127.0.0.1 $lan_port
    priv_limit admin
    allowed_auths_callback md5
    allowed_auths_user md5
    allowed_auths_operator md5
    allowed_auths_admin md5
    guid a123456789abcdefa123456789abcdef
  endlan
  chassis_control "sh '$(cd "$(dirname "$0")" && pwd)/lab-power.sh' '$power'$refuse"
  serial 15 127.0.0.1 $serial_port codec VM
  user 2 true "admin" "buildapp" admin 10 md5
CONF
		cat >"$power/bmc.emu" <<EMU
mc_setbmc 0x20
mc_add 0x20 0 no-device-sdrs 0x23 9 8 0x9f 0x1291 0xf02
sel_enable 0x20 1000 0x0a
sensor_add 0x20 0 0 35 0x6f event-only
sensor_set_event_support 0x20 0 0 enable scanning per-state 000000000001111 000000000000000 000000000001111 000000000000000
mc_enable 0x20
EMU
		setsid ipmi_sim -c "$power/lan.conf" -f "$power/bmc.emu" -s "$power/bmc-state" -n \
			</dev/null >"$power/bmc.log" 2>&1 &
		bmc_pid=$!
		i=0
		# Listening: 127.0.0.1:PORT in state 0A of /proc/net/tcp.
		while ! grep -qi "0100007F:$(printf %04X "$serial_port") 00000000:0000 0A" /proc/net/tcp &&
			[ $i -lt 50 ]; do
			sleep 0.1
			i=$((i + 1))
		done
		echo "$prog: BMC (ipmi_sim$([ -z "$refuse" ] || echo ", refusing power control")): in-band on the server's KCS interface, out of band ipmitool -I lanplus -H 127.0.0.1 -p $lan_port -U admin -P buildapp" >&2
	fi
	[ -z "$dut_cache" ] || echo "$prog: the disk under test has a volatile write cache, $dut_cache about flushes (nbdkit; written back every 1 s), lost at a power-off" >&2
	set -- "$@" -pidfile "$power/qemu.pid"
	printf '%s\0' "$@" >"$power/qemu.args"
	sh "$(dirname "$0")/lab-power.sh" "$power" set power 1 || die "the server did not power on"
}

# Whether the server is on: its QEMU runs, or its BMC cut its power less
# than 30 s ago (a power cycle: on again a second later).
server_on() {
	if [ -z "$power" ]; then
		kill -0 "$qpid" 2>/dev/null
		return
	fi
	[ -s "$power/qemu.pid" ] && kill -0 "$(cat "$power/qemu.pid")" 2>/dev/null && return 0
	[ -e "$power/off" ] && [ $(($(date +%s) - $(tail -n 1 "$power/cuts"))) -lt 30 ]
}

echo "$prog: booting $image ($format$([ "$cdrom" = 1 ] && echo ", CD"), $([ "$secure_boot" = 1 ] && echo "UEFI Secure Boot" || { [ "$uefi" = 1 ] && echo UEFI || echo BIOS; }), $accel, boot disk on $boot_bus, disk under test $disk_size on $dut_bus serial $serial)" >&2
echo "$prog: limit ${timeout}s ($from: $runs run$([ "$runs" = 1 ] || echo s) of at most ${run_timeout}s), console silence limit ${silence}s, console log $log" >&2
start=$(date +%s)
: >"$log" # exists before tail starts
if [ -n "$power" ]; then
	start_power_domain "$@"
else
	qemu-system-x86_64 "$@" </dev/null >>"$log" 2>&1 &
	qpid=$!
fi
# Show the console while waiting; stop at power-off, at the limit, or
# when the console has been silent for longer than a run may take.
tail -n +1 -f "$log" --pid=$$ &
tpid=$!
now=$start heard=$start size=0
while server_on; do
	if [ $((now - start)) -ge "$timeout" ]; then
		kill "$tpid" 2>/dev/null || true
		die "no power-off after ${timeout}s (console log: $log)"
	fi
	if [ $((now - heard)) -ge "$silence" ]; then
		kill "$tpid" 2>/dev/null || true
		die "console silent for ${silence}s: the server was stopped (console log: $log)"
	fi
	sleep 1
	now=$(date +%s)
	n=$(stat -c %s "$log")
	[ "$n" = "$size" ] || size=$n heard=$now
done
rc=0
if [ -n "$power" ]; then
	rc=$(cat "$power/qemu.status" 2>/dev/null || echo "unknown")
	[ ! -e "$power/off" ] || rc="none: its BMC powered it off and not on again"
else
	wait "$qpid" || rc=$?
fi
qpid=
# The console's last lines out before tail goes (it follows this shell,
# not the server's QEMU, which the BMC may have started anew).
sleep 1
kill "$tpid" 2>/dev/null || true
wait "$tpid" 2>/dev/null || true
[ "$rc" = 0 ] || die "qemu exited with status $rc"
echo "$prog: powered off after $(($(date +%s) - start))s" >&2
[ -z "$power" ] || echo "$prog: power cuts by the BMC: $(cat "$power/cuts" 2>/dev/null | wc -l)" >&2
[ -z "$fwlog" ] || echo "$prog: firmware boots: $(grep -c '^BUILD: ' "$fwlog")" >&2

echo "$prog: report from RESULTS ($report):" >&2
# RESULTS is partition 2 of every buildapp image, and the stick's only
# one after a CD boot.
if [ "$cdrom" = 1 ]; then
	guestfish --ro --format=raw -a "$stick" -m /dev/sda1 cat "/$report" ||
		die "no /$report on the RESULTS stick"
else
	guestfish --ro --format="$format" -a "$image" -m /dev/sda2 cat "/$report" ||
		die "no /$report on RESULTS"
fi
finished=1
