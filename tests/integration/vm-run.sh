#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Boots tiny busybox guests through libvirt's embedded driver with the vm
# API (runner/vm.c, driven by $B/tests/integration/vm-run):
#   1. a guest that writes its disk and powers off: ok, timed, console
#      captured, cache=unsafe read back as writeback on, direct off,
#      no-flush on (and cache=directsync as off, on, off, with the
#      accelerator chosen by the API and checked by a boot);
#   2. a guest that never powers off: timeout, and the domain is gone;
#   3. a guest whose /init exits (kernel panic): crashed;
#   4. SIGTERM to the runner during a run: its QEMU does not survive it;
#   5. a durability guest's acknowledgements (runner/acklog.h): killed
#      (SIGKILL) at its crash point with each acknowledgement made durable,
#      and one whose channel closes before the crash point (it powers off
#      after 3 of 5): failed with that reason, its 3 still on file.
set -eu
: "${B:=build}"
DRIVER="$B/tests/integration/vm-run"

# The kernel a build takes (one rule, lib/kernel.h).
KVER=$("${BUILDAPP:-$B/buildapp}" kernel 2>/dev/null | cut -d' ' -f2) || KVER=
BUSYBOX=$(command -v busybox || true)
[ -n "$KVER" ] || { echo "no kernel with modules in /boot"; exit 77; }
case $(file -b "$BUSYBOX" 2>/dev/null || echo none) in
*static*) ;;
*) [ -x /bin/busybox ] && BUSYBOX=/bin/busybox || { echo "no static busybox"; exit 77; } ;;
esac
command -v cpio >/dev/null || { echo "cpio is not installed"; exit 77; }
[ -x "$DRIVER" ] || { echo "$DRIVER is not built"; exit 77; }
[ "$(id -u)" -eq 0 ] || { echo "the embedded libvirt driver test needs root"; exit 77; }

T=$(mktemp -d /var/tmp/buildapp-vm.XXXXXX)
[ -n "${KEEP_TMP:-}" ] || trap 'rm -rf "$T"' EXIT
KERNEL=/boot/vmlinuz-$KVER
MODDIR=/lib/modules/$KVER

# make_initrd NAME BODY: an initramfs whose /init loads virtio-blk and
# then runs BODY.
make_initrd() {
	root=$T/root-$1
	mkdir -p "$root/bin" "$root/dev" "$root/proc" "$root/sys" "$root/mod"
	cp "$BUSYBOX" "$root/bin/busybox"
	for m in virtio_ring virtio virtio_pci_legacy_dev virtio_pci_modern_dev \
		virtio_pci virtio_blk; do
		f=$(find "$MODDIR/kernel" -name "$m.ko*" | head -n 1)
		[ -n "$f" ] || continue
		case $f in
		*.xz) xz -dc "$f" >"$root/mod/$m.ko" ;;
		*.zst) zstd -qdc "$f" >"$root/mod/$m.ko" ;;
		*) cp "$f" "$root/mod/$m.ko" ;;
		esac
		echo "$m" >>"$root/mod/order"
	done
	cat >"$root/init" <<INIT
#!/bin/busybox sh
/bin/busybox --install -s /bin
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
for m in \$(cat /mod/order); do insmod /mod/\$m.ko 2>/dev/null; done
i=0
while [ ! -b /dev/vda ] && [ \$i -lt 50 ]; do sleep 0.2; i=\$((i + 1)); done
$2
INIT
	chmod 755 "$root/init"
	(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) >"$T/$1.img"
}

make_initrd ok 'dd if=/dev/zero of=/dev/vda bs=1M count=8 conv=fsync 2>&1
echo BUILDAPP-GUEST-DONE
poweroff -f'
make_initrd hang 'echo BUILDAPP-GUEST-HANGING; while :; do sleep 1; done'
make_initrd panic 'echo BUILDAPP-GUEST-PANICKING; exit 1'
make_initrd acks 'for n in 0 1 2; do echo "BUILDAPP:ACK seq=$n"; done
echo BUILDAPP-GUEST-ACKED
if grep -q acks.hang /proc/cmdline; then while :; do sleep 1; done; fi
poweroff -f'
truncate -s 64M "$T/disk.raw"

# KVM can pass every probe and still hang a kernel (nested setups): use it
# only when the same guest boots with bare QEMU and KVM within 10 s.
ACCEL=${BUILDAPP_ACCEL:-}
if [ -z "$ACCEL" ]; then
	ACCEL=tcg
	if [ -w /dev/kvm ] && timeout 10 qemu-system-x86_64 -accel kvm -cpu host \
		-m 256 -display none -serial "file:$T/probe.log" -no-reboot \
		-kernel "$KERNEL" -initrd "$T/ok.img" -append "console=ttyS0" \
		-drive "file=$T/disk.raw,format=raw,if=virtio" >/dev/null 2>&1 &&
		grep -q BUILDAPP-GUEST-DONE "$T/probe.log"; then
		ACCEL=kvm
	fi
fi
echo "accelerator: $ACCEL"

run() { # name initrd cache timeout [options]
	n=$1 i=$2 c=$3 t=$4
	shift 4
	"$DRIVER" --statedir "$T/state" --kernel "$KERNEL" --initrd "$T/$i.img" \
		--disk "$T/disk.raw" --log "$T/$n.log" --name "bt-$n" \
		--cache "$c" --timeout "$t" --cmdline "console=ttyS0 quiet" \
		--accel "$ACCEL" "$@" 2>"$T/$n.err"
	cat "$T/$n.err" >&2
}
# libvirt's own log lines (conditions it expects and recovers from, at
# error level) go to the state directory's libvirt.log, not stderr.
no_libvirt_lines() { # name
	if grep -E ': (error|warning) : ' "$T/$1.err"; then
		echo "FAIL: $1: libvirt's log lines on stderr"
		exit 1
	fi
	echo "ok: $1: no libvirt log line on stderr"
}
field() { echo "$1" | tr ' ' '\n' | sed -n "s/^$2=//p"; }
check() { # what got want
	if [ "$2" != "$3" ]; then
		echo "FAIL: $1: got '$2', want '$3'"
		exit 1
	fi
	echo "ok: $1 = $2"
}

out=$(run ok ok unsafe 120)
echo "$out"
check "ok guest status" "$(field "$out" status)" ok
check "seconds > 0" "$(field "$out" seconds | awk '{print ($1 > 0)}')" 1
grep -q BUILDAPP-GUEST-DONE "$T/ok.log" || { echo "FAIL: console log lacks the guest's line"; exit 1; }
echo "ok: console log has the guest's line"
check "applied flags known" "$(field "$out" applied_known)" 1
check "unsafe writeback" "$(field "$out" writeback)" 1
check "unsafe direct" "$(field "$out" direct)" 0
check "unsafe no-flush" "$(field "$out" no_flush)" 1
check "domain gone after poweroff" "$(field "$out" exists_after)" 0
check "domain type kvm" "$(field "$out" kvm)" "$([ "$ACCEL" = kvm ] && echo 1 || echo 0)"
no_libvirt_lines ok
grep -q 'error : ' "$T/state/libvirt.log" ||
	{ echo "FAIL: no libvirt.log in the state directory"; exit 1; }
echo "ok: libvirt's own lines are in its libvirt.log"
# A real libvirt error still reaches stderr, once, with its cause.
truncate -s 1M "$T/notakernel"
out=$("$DRIVER" --statedir "$T/state" --kernel "$T/notakernel" --initrd "$T/ok.img" \
	--disk "$T/disk.raw" --log "$T/bad.log" --name bt-bad --cache unsafe \
	--timeout 30 --cmdline "console=ttyS0" --accel tcg 2>"$T/bad.err")
cat "$T/bad.err"
check "guest that cannot start" "$(field "$out" status)" failed
grep -q "cannot start the guest: .*linux kernel too old" "$T/bad.err" ||
	{ echo "FAIL: the error of a guest that cannot start lost its cause"; exit 1; }
no_libvirt_lines bad

# The API's own choice, with its boot check, must come to the same verdict.
out=$(run directsync ok directsync 120 --accel auto --check-boot 10)
echo "$out"
check "accelerator chosen by vm_host_check_boot" "$(field "$out" kvm)" \
	"$([ "$ACCEL" = kvm ] && echo 1 || echo 0)"
check "directsync status" "$(field "$out" status)" ok
check "directsync writeback" "$(field "$out" writeback)" 0
check "directsync direct" "$(field "$out" direct)" 1
check "directsync no-flush" "$(field "$out" no_flush)" 0
no_libvirt_lines directsync

start=$(date +%s)
# Long enough for the guest to reach its /init on a loaded 2-core host.
out=$(run hang hang unsafe 45)
echo "$out"
check "hanging guest status" "$(field "$out" status)" timeout
check "domain gone after timeout" "$(field "$out" exists_after)" 0
elapsed=$(($(date +%s) - start))
[ "$elapsed" -lt 90 ] || { echo "FAIL: the timeout took ${elapsed}s"; exit 1; }
grep -q BUILDAPP-GUEST-HANGING "$T/hang.log" ||
	{ echo "FAIL: the hanging guest never reached its init"; exit 1; }
pgrep -f 'guest=bt-hang' >/dev/null && { echo "FAIL: QEMU of bt-hang still runs"; exit 1; }

out=$(run panic panic unsafe 90)
echo "$out"
check "panicking guest status" "$(field "$out" status)" crashed
check "domain gone after crash" "$(field "$out" exists_after)" 0

# SIGTERM during a run: the driver dies of it, and takes QEMU along.
"$DRIVER" --statedir "$T/state" --kernel "$KERNEL" --initrd "$T/hang.img" \
	--disk "$T/disk.raw" --log "$T/sig.log" --name bt-sig --timeout 120 \
	--cmdline "console=ttyS0 quiet" --accel "$ACCEL" >"$T/sig.out" 2>&1 &
pid=$!
i=0
while ! grep -q BUILDAPP-GUEST-HANGING "$T/sig.log" 2>/dev/null && [ $i -lt 600 ]; do
	sleep 0.1
	i=$((i + 1))
done
pgrep -f 'guest=bt-sig' >/dev/null || { echo "FAIL: bt-sig did not start"; exit 1; }
kill -TERM "$pid"
rc=0
wait "$pid" || rc=$?
check "driver killed by SIGTERM" "$rc" 143
sleep 1
if pgrep -f 'guest=bt-sig' >/dev/null; then
	echo "FAIL: QEMU of bt-sig outlived the runner"
	pkill -f 'guest=bt-sig'
	exit 1
fi
echo "ok: no QEMU left after SIGTERM"

# The acknowledgements: a guest killed at its crash point, then one that
# stops short of it.
out=$(run ackkill acks unsafe 90 --cmdline "console=ttyS0 quiet acks.hang" \
	--ack-log "$T/ackkill.acks" --crash-after 2)
echo "$out"
check "guest at its crash point: status" "$(field "$(echo "$out" | head -n 1)" status)" ok
check "... killed" "$(field "$(echo "$out" | sed -n 2p)" killed)" 1
check "... acknowledgements counted" "$(field "$(echo "$out" | sed -n 2p)" acks)" 3
check "... each on file" "$(tr '\n' ' ' <"$T/ackkill.acks")" "0 1 2 "
pgrep -f 'guest=bt-ackkill' >/dev/null && { echo "FAIL: QEMU of bt-ackkill still runs"; exit 1; }
out=$(run ackshort acks unsafe 90 --ack-log "$T/ackshort.acks" --crash-after 5)
echo "$out"
check "channel closed early: status" "$(field "$(echo "$out" | head -n 1)" status)" failed
check "... not killed" "$(field "$(echo "$out" | sed -n 2p)" killed)" 0
check "... the reason" "$(echo "$out" | sed -n 's/^message: //p')" \
	"the guest stopped after 3 of the 5 acknowledgements its crash waits for"
check "... the 3 it made still on file" "$(wc -l <"$T/ackshort.acks")" 3
