#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The virtual lab server's power, as its BMC switches it
# (scripts/boot-appliance.sh --bmc, --dut-cache): the server's QEMU, and
# the disk under test whose volatile write cache goes with the power.
# OpenIPMI's ipmi_sim runs this as its chassis_control program for a
# Chassis Control command (`ipmitool chassis power cycle` in the server,
# through its KCS interface), and boot-appliance.sh for the first power-on
# and its end.
#
# Usage: lab-power.sh DIR get power        prints power:1 or power:0
#        lab-power.sh DIR set power 0|1
#        lab-power.sh DIR refuse get power  a BMC that does not control
#        lab-power.sh DIR refuse set power N  this server's power
#        lab-power.sh DIR stop             everything off (no cut counted)
#
# DIR (made by boot-appliance.sh) holds power.conf (log=, the console log
# QEMU appends to; disk=, the disk under test's file; cache=, honest or
# lying, or empty for none; flush=, seconds between the disk's own
# write-backs) and qemu.args (QEMU's arguments, each ended by a NUL, with
# -pidfile DIR/qemu.pid); here go the pid files, qemu.status (QEMU's exit
# status), cuts (the time of each power-off, a line each) and off (there
# from a power-off to the next power-on).
#
# The disk under test with a volatile cache is nbdkit's cache filter over
# the file (cache=writeback: a write stays in the cache, a temporary file
# in DIR, until a flush or a FUA write; nbdkit 1.32 writes nothing back
# otherwise), served to QEMU over NBD; like a real drive it also writes
# its cache back on its own, every flush= seconds (a flush sent on a
# second connection, so no write is older than that).  The honest disk
# is that alone: a guest's flush or FUA write is on the file when it is
# acknowledged.  The lying disk puts nbdkit's fua filter with
# fuamode=discard in front of it: flushes and FUA are acknowledged at once
# and dropped, so what the last flush= seconds wrote is only in the cache.
# (The cache filter's own cache=unsafe ignores flushes too, but never
# writes anything back: every cut would lose all the disk ever took.)
# A power-off kills the disk's nbdkit first (SIGKILL), so its cache is
# lost as a drive's is, then QEMU (SIGKILL): QEMU exiting on its own would
# flush its drives on the way out, which no cut does.
set -eu

dir=$1
shift
refuse=0
if [ "${1:-}" = refuse ]; then
	refuse=1
	shift
fi
log= disk= cache= flush=1
# shellcheck disable=SC1091
. "$dir/power.conf"

pid_of() { # NAME: the pid in DIR/NAME.pid, if that process lives
	[ -s "$dir/$1.pid" ] || return 1
	p=$(cat "$dir/$1.pid")
	kill -0 "$p" 2>/dev/null || return 1
	echo "$p"
}

# The disk's processes, then QEMU: the order of a real cut.
power_off() {
	for n in lie disk; do
		if p=$(pid_of "$n"); then kill -KILL "$p" 2>/dev/null || true; fi
		rm -f "$dir/$n.pid"
	done
	# Its process group (setsid): the shell, its loop and qemu-io.  dash's
	# kill takes no "--": "kill -KILL -- -PID" fails, and left one a cycle.
	if p=$(pid_of flusher); then kill -KILL "-$p" 2>/dev/null || true; fi
	rm -f "$dir/flusher.pid"
	if p=$(pid_of qemu); then
		kill -KILL "$p" 2>/dev/null || true
		i=0
		while kill -0 "$p" 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
	fi
	rm -f "$dir/qemu.pid" "$dir/dut.sock" "$dir/disk.sock"
}

# nbdkit in the background once its socket listens (its -P pid file is
# written then).
start_nbdkit() { # NAME SOCKET ARGS...
	n=$1 sock=$2
	shift 2
	rm -f "$sock"
	TMPDIR=$dir nbdkit -U "$sock" -P "$dir/$n.pid" "$@" </dev/null >>"$dir/nbdkit.log" 2>&1
}

power_on() {
	pid_of qemu >/dev/null && return 0
	rm -f "$dir/qemu.status"
	if [ -n "$cache" ]; then
		backing=$dir/dut.sock
		[ "$cache" = honest ] || backing=$dir/disk.sock
		start_nbdkit disk "$backing" --filter=cache file "$disk" cache=writeback
		[ "$cache" = honest ] ||
			start_nbdkit lie "$dir/dut.sock" --filter=fua nbd socket="$backing" fuamode=discard
		# The drive's own write-back: a flush every $flush s on a
		# connection of its own, past the fua filter.
		setsid sh -c 'echo $$ >"$1/flusher.pid"; while sleep "$2"; do echo flush; done |
			exec qemu-io -t writeback -f raw "nbd+unix:///?socket=$3"' \
			flusher "$dir" "$flush" "$backing" </dev/null >/dev/null 2>&1 &
	fi
	# QEMU's exit status goes to qemu.status when it ends on its own; a
	# cut's SIGKILL leaves the status of a killed QEMU there.
	setsid sh -c 'xargs -0 -a "$1/qemu.args" qemu-system-x86_64 </dev/null >>"$2" 2>&1
		echo $? >"$1/qemu.status"' qemu "$dir" "$log" </dev/null >/dev/null 2>&1 &
	i=0
	while ! pid_of qemu >/dev/null && [ $i -lt 100 ]; do
		[ ! -s "$dir/qemu.status" ] || break
		sleep 0.1
		i=$((i + 1))
	done
	pid_of qemu >/dev/null || { echo "lab-power: QEMU did not start (see $log)" >&2; return 1; }
	rm -f "$dir/off"
}

case ${1:-}-${2:-}-${3:-} in
get-power-)
	if [ "$refuse" = 1 ]; then
		echo "power:0"
	elif pid_of qemu >/dev/null; then
		echo "power:1"
	else
		echo "power:0"
	fi
	;;
set-power-0 | set-power-1)
	if [ "$refuse" = 1 ]; then
		echo "lab-power: this BMC does not control the server's power" >&2
		exit 1
	fi
	if [ "$3" = 1 ]; then
		power_on
	else
		date +%s >>"$dir/cuts"
		: >"$dir/off"
		power_off
	fi
	;;
stop--)
	power_off
	;;
*)
	sed -n '9,14p' "$0" | sed 's/^# \{0,1\}//' >&2
	exit 2
	;;
esac
