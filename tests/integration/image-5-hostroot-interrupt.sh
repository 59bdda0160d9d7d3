#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# SIGTERM while supermin builds the host root: the tool and its children
# are killed, the half-built root is removed, no initramfs is left.
. "$TOP/tests/lib/common.sh"
command -v supermin >/dev/null || skip "supermin is not installed"
work=$(mktemp -d "$CACHE/hrint.XXXXXX")
trap 'rm -rf "$work"' EXIT

BUILDAPP_INIT="$TOP/$B/buildapp-init" "$BUILDAPP" hostroot -o "$work/initrd" \
	--cache "$work/cache" >"$work/log" 2>&1 &
pid=$!
wait_for_log "$work/log" 'supermin --build'
sleep 3
interrupt TERM "$pid" "$work/log"
[ "$rc" -ne 0 ] || fail "the host root build finished before the signal"
sleep 1
[ ! -e "$work/initrd" ] && [ ! -e "$work/initrd.tmp" ] || fail "initramfs left behind"
left=$(ls -A "$work/cache")
[ -z "$left" ] || fail "cache holds leftovers: $left"
if ps -eo args | grep -v grep | grep -q "supermin.*$work"; then
	fail "supermin still running"
fi
echo "nothing left behind"
