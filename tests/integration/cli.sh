#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The buildapp CLI: exit statuses, messages and output of plan and --help
# (the key reference and the synopses: readme.sh).
set -u
B=${B:-build}
BUILDAPP=${BUILDAPP:-$B/buildapp}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "${TOP:-.}/tests/lib/check.sh"

# Every shipped profile plans, as text and as JSON.
for p in profiles/*.ini; do
	check "plan $p" sh -c '"$1" plan "$2" >"$3/out" 2>"$3/err"' - "$BUILDAPP" "$p" "$tmp"
	check "plan --json $p" sh -c '"$1" plan --json "$2" >"$3/json" 2>"$3/err"' - "$BUILDAPP" "$p" "$tmp"
	check "json of $p names its format" grep -q '"format": "buildapp-plan"' "$tmp/json"
done
check "lvm-unsafe plan shows the unsafe row of the cache table" \
	sh -c "'$BUILDAPP' plan profiles/lvm-unsafe.ini | grep -q 'unsafe .*on .*off .*on .*used, flushes ignored'"

# The five studies: each names its published table and has a small variant;
# the L2 cache axis and the host baseline show in their plans.
for s in kvm-perf-2011 bonnie-qcow2-vs-raw cache-modes-lvm qcow2-l2-cache guest-vs-host; do
	check "$s names its study" sh -c "'$BUILDAPP' plan --json profiles/$s.ini | grep -q '\"reference\": \"$s\"'"
	check "$s-small includes it and names the same study" \
		sh -c "'$BUILDAPP' plan --json profiles/$s-small.ini | grep -q '\"reference\": \"$s\"'"
done
"$BUILDAPP" plan --json profiles/qcow2-l2-cache.ini >"$tmp/l2.json"
check "qcow2-l2-cache: qcow2 cells at 1M and 8M of L2 cache" \
	sh -c "grep -c '\"l2_cache\": 1048576' '$tmp/l2.json' | grep -qx 2 && grep -c '\"l2_cache\": 8388608' '$tmp/l2.json' | grep -qx 2"
check "qcow2-l2-cache: one raw cell per workload, with no L2 cache" \
	sh -c "grep -c '\"id\": \"raw.*\"' '$tmp/l2.json' | grep -qx 2 && grep -c '\"l2_cache\": null' '$tmp/l2.json' | grep -qx 2"
check "guest-vs-host: a host cell per workload, in text and JSON" \
	sh -c "'$BUILDAPP' plan profiles/guest-vs-host.ini | grep -c ' host  *d*[a-z]*\$' | grep -qx 2 && '$BUILDAPP' plan --json profiles/guest-vs-host.ini | grep -c '\"guest\": false' | grep -qx 2"
printf '[storage]\nbackends = qcow2\n[guest]\nl2_cache = 1M, 1M\n' >"$tmp/l2bad.ini"
"$BUILDAPP" plan "$tmp/l2bad.ini" >"$tmp/out" 2>"$tmp/err"
check "an l2_cache size listed twice exits 2 naming the key" \
	sh -c "test $? -eq 2 && grep -q 'l2bad.ini:4: \[guest\] l2_cache:' '$tmp/err'"

# Bad input: exit 2, one message naming file:line: [section] key, no output.
printf '[guest]\ncache = wirteback\n' >"$tmp/bad.ini"
"$BUILDAPP" plan "$tmp/bad.ini" >"$tmp/out" 2>"$tmp/err"
check "bad profile exits 2" test $? -eq 2
check "bad profile writes nothing to stdout" test ! -s "$tmp/out"
check "message names file, line, section, key and the fix" \
	grep -q "bad.ini:2: \[guest\] cache: unknown value 'wirteback' (did you mean 'writeback'?)" "$tmp/err"
check "message is one line" test "$(wc -l <"$tmp/err")" -eq 1

# The disk's write cache as an axis: a list with an unknown value exits 2
# naming file, line, section and key, and a build of it writes nothing; a
# good list makes a cell per setting, each with its wc= in the id.
printf '[host]\nwrite_cache = on, of\n[storage]\nbackends = raw\n' >"$tmp/wc.ini"
"$BUILDAPP" plan "$tmp/wc.ini" >"$tmp/out" 2>"$tmp/err"
check "a write_cache list with an unknown value exits 2" test $? -eq 2
check "... writes nothing to stdout" test ! -s "$tmp/out"
check "... in one line naming file, line, section, key and the fix" sh -c \
	"test \$(wc -l <'$tmp/err') -eq 1 && grep -q \"wc.ini:2: \[host\] write_cache: unknown value 'of' (did you mean 'on'?)\" '$tmp/err'"
"$BUILDAPP" "$tmp/wc.ini" -o "$tmp/wc-out" >"$tmp/out" 2>"$tmp/err"
check "... a build of it exits 2 and writes nothing" sh -c \
	"test $? -eq 2 && test ! -e '$tmp/wc-out' && grep -q 'wc.ini:2: \[host\] write_cache' '$tmp/err'"
printf '[host]\nwrite_cache = on, off\n[storage]\nbackends = raw\n[workload]\nkinds = dd\n' >"$tmp/wc.ini"
check "a write_cache list makes a cell per setting" sh -c \
	"'$BUILDAPP' plan --json '$tmp/wc.ini' | grep -c '\"id\": \".*dd.*wc=o[nf]*\"' | grep -qx 2"

# The BMC of crash = power: a Redfish endpoint without the account, an
# unknown bmc, one with its account in the URL: exit 2 in one line naming
# file, line, section and key, nothing written by plan or by a build, the
# password in no message; with the account in its file, the plan counts a
# boot a cut and says what the BMC must do, and never says the password.
printf 'admin:Sup3rSecret\n' >"$tmp/bmc-account"
bmc_bad() { # description, the bmc line, the key the message names, what it holds
	printf '[host]\n%s\n[storage]\nbackends = raw\n[workload]\nkinds = durability\ncrash = power\n' \
		"$2" >"$tmp/bmc.ini"
	rm -rf "$tmp/bmc-out"
	"$BUILDAPP" plan "$tmp/bmc.ini" >"$tmp/out" 2>"$tmp/err"
	check "$1 exits 2" test $? -eq 2
	check "... writes nothing to stdout" test ! -s "$tmp/out"
	check "... in one line naming file, line, section and key" sh -c \
		'test "$(wc -l <"$1")" -eq 1 && grep -qF "$2" "$1"' - "$tmp/err" "bmc.ini:2: [host] $3: $4"
	check "... never the password" sh -c "! grep -q Sup3rSecret '$tmp/err'"
	"$BUILDAPP" "$tmp/bmc.ini" -o "$tmp/bmc-out" >"$tmp/out" 2>"$tmp/err"
	check "... a build of it exits 2 and writes nothing" sh -c \
		"test $? -eq 2 && test ! -e '$tmp/bmc-out' && grep -qF 'bmc.ini:2: [host] $3' '$tmp/err'"
}
bmc_bad "crash = power with a Redfish endpoint and no bmc_credentials" "bmc = https://10.0.0.5" \
	bmc "a Redfish endpoint needs the account the kit signs in with"
bmc_bad "an unknown bmc" "bmc = ipmi-lan" bmc "'ipmi-lan' is neither ipmi (in-band) nor a Redfish"
bmc_bad "a Redfish endpoint over http" "bmc = http://10.0.0.5" bmc "'http://10.0.0.5': Redfish's Basic"
bmc_bad "a Redfish endpoint with its account in the URL" \
	"bmc = https://admin:Sup3rSecret@10.0.0.5" bmc "must not carry credentials (user:password@)"
printf '[host]\nbmc = https://10.0.0.5/redfish/v1/Systems/1\nbmc_credentials = %s\n[storage]\nbackends = raw\n[workload]\nkinds = durability\ncrash = power\n[sweep]\nruns = 2\n' \
	"$tmp/bmc-account" >"$tmp/bmc.ini"
"$BUILDAPP" plan "$tmp/bmc.ini" >"$tmp/out" 2>"$tmp/err"
check "a Redfish bmc with its account plans" test $? -eq 0
check "... a boot a power cut, and what the BMC must do" sh -c \
	"grep -q '^  boots: 3: the kit.s own (through the firmware) and the 2 power cuts above, each a cold boot' '$tmp/out' && grep -q '^  BMC: a Redfish service at https://10.0.0.5/redfish/v1/Systems/1 that lists PowerCycle' '$tmp/out'"
"$BUILDAPP" plan --json "$tmp/bmc.ini" >>"$tmp/out" 2>>"$tmp/err"
check "... the password in neither plan" sh -c "! grep -q Sup3rSecret '$tmp/out' '$tmp/err'"

# The durability cells' own number of runs: out of its range, exit 2
# naming file, line, section and key, and nothing written by plan or by
# a build.
printf '[workload]\nkinds = durability\n[sweep]\ndurability_runs = 1001\n' >"$tmp/druns.ini"
"$BUILDAPP" plan "$tmp/druns.ini" >"$tmp/out" 2>"$tmp/err"
check "durability_runs out of range exits 2" test $? -eq 2
check "... writes nothing to stdout" test ! -s "$tmp/out"
check "... in one line naming file, line, section and key" sh -c \
	"test \$(wc -l <'$tmp/err') -eq 1 && grep -q 'druns.ini:4: \[sweep\] durability_runs: .*out of range' '$tmp/err'"
"$BUILDAPP" "$tmp/druns.ini" -o "$tmp/druns-out" >"$tmp/out" 2>"$tmp/err"
check "... a build of it exits 2 and writes nothing" sh -c \
	"test $? -eq 2 && test ! -e '$tmp/druns-out' && grep -q 'druns.ini:4: \[sweep\] durability_runs' '$tmp/err'"
printf '[workload]\nkinds = fio, durability\n[sweep]\nruns = 3\ndurability_runs = 6\n' >"$tmp/druns.ini"
check "durability_runs: the plan says each count" sh -c \
	"'$BUILDAPP' plan '$tmp/druns.ini' | grep -q '^Matrix: 2 cells: 1 x 3 runs, 1 durability cell x 6 runs (durability_runs) = 9 runs\$'"

# A 100,000-character name on line 7: the message still names where.
{ printf '; long\n\n[storage]\nsize = 1G\n\n[appliance]\nname = '
  head -c 100000 /dev/zero | tr '\0' n; echo; } >"$tmp/long.ini"
"$BUILDAPP" plan "$tmp/long.ini" >"$tmp/out" 2>"$tmp/err"
check "long line exits 2" test $? -eq 2
check "long line writes nothing to stdout" test ! -s "$tmp/out"
check "long line message names file, line, section and key" \
	grep -qx "buildapp: error: $tmp/long.ini:7: \[appliance\] name: line longer than 1000 characters" "$tmp/err"

# Bad fio input to a kit build: exit 2, one message naming file, line,
# section and key, and nothing written (no output directory).
fio_bad() { # description, the [workload] lines, what the message must hold
	printf '[workload]\nkinds = fio\n%s\n' "$2" >"$tmp/fio.ini"
	"$BUILDAPP" "$tmp/fio.ini" -o "$tmp/fio-out" >"$tmp/out" 2>"$tmp/err"
	check "$1: exit 2" test $? -eq 2
	check "$1: the message" grep -qF "$3" "$tmp/err"
	check "$1: one line" test "$(wc -l <"$tmp/err")" -eq 1
	check "$1: nothing written" test ! -e "$tmp/fio-out"
}
fio_bad "a missing job file" "fio_job = nosuch.fio" \
	"fio.ini:3: [workload] fio_job: '$tmp/nosuch.fio': No such file or directory"
fio_bad "an engine the guests' fio lacks" "fio_ioengine = libaio, windowsaio" \
	"fio.ini:3: [workload] fio_ioengine: unknown value 'windowsaio'"
fio_bad "an iodepth list with a zero" "fio_iodepth = 1, 0, 32" \
	"fio.ini:3: [workload] fio_iodepth: '0' is out of range 1..1024"
{ printf '[j]\nfilename=${BUILDAPP_TARGET}\n'; head -c 70000 /dev/zero | tr '\0' ';'; echo; } >"$tmp/big.fio"
fio_bad "a job file over 64 KiB" "fio_job = big.fio" \
	"fio.ini:3: [workload] fio_job: '$tmp/big.fio': 70033 bytes: a job file has at most 65536"

"$BUILDAPP" plan "$tmp/missing.ini" >"$tmp/out" 2>"$tmp/err"
check "missing profile exits 2" test $? -eq 2
"$BUILDAPP" plan >"$tmp/out" 2>"$tmp/err"
check "missing argument exits 2" test $? -eq 2
"$BUILDAPP" frobnicate >"$tmp/out" 2>"$tmp/err"
check "unknown command exits 2" test $? -eq 2
check "--help exits 0" "$BUILDAPP" --help >/dev/null
check "plan --help exits 0" "$BUILDAPP" plan --help >/dev/null

# A kit's LAVA URL that cannot be one: exit 2 naming the option and why,
# before anything is built.
for url in "ftp://10.0.0.5/kits/" "http://10.0.0.5/my kits/" "http://" 'http://x/"y'; do
	"$BUILDAPP" profiles/ci-smoke.ini -o "$tmp/lava-out" --lava-url "$url" >"$tmp/out" 2>"$tmp/err"
	check "--lava-url '$url' exits 2" test $? -eq 2
	check "--lava-url '$url': one line naming the option and why" \
		sh -c "grep -q \"^buildapp: error: --lava-url '.*': \" '$tmp/err' && test \$(wc -l <'$tmp/err') -eq 1"
	check "--lava-url '$url': nothing written" test ! -e "$tmp/lava-out"
done

# Host crashes by kexec asked of a kernel without kexec_file_load (its
# config beside it says CONFIG_KEXEC_FILE is not set): exit 2 naming
# [workload] crash_reboot, nothing written.  The control: the same kernel
# with it set gets past that check (its build then fails on the fake
# kernel, exit 1, not 2); and crash_reboot = firmware asks nothing of it.
mkdir "$tmp/kx"
: >"$tmp/kx/vmlinuz-9.9.9-kx"
kx_profile() { # CRASH_REBOOT
	printf '[appliance]
name = kx
kernel = %s
[workload]
kinds = durability
crash = host
crash_reboot = %s
' \
		"$tmp/kx/vmlinuz-9.9.9-kx" "$1" >"$tmp/kx.ini"
}
printf 'CONFIG_KEXEC=y\n# CONFIG_KEXEC_FILE is not set\n' >"$tmp/kx/config-9.9.9-kx"
kx_profile kexec
"$BUILDAPP" "$tmp/kx.ini" -o "$tmp/kx-out" >"$tmp/out" 2>"$tmp/err"
check "crash_reboot = kexec with a kernel without kexec_file_load exits 2" test $? -eq 2
check "... naming the profile, [workload] crash_reboot and the kernel's config" \
	grep -q "^buildapp: error: profile '$tmp/kx.ini': \[workload\] crash_reboot = kexec: the kernel 9.9.9-kx has no kexec_file_load (CONFIG_KEXEC_FILE is not set in $tmp/kx/config-9.9.9-kx)" "$tmp/err"
check "... and writes nothing" test ! -e "$tmp/kx-out"
printf 'CONFIG_KEXEC=y\nCONFIG_KEXEC_FILE=y\n' >"$tmp/kx/config-9.9.9-kx"
"$BUILDAPP" "$tmp/kx.ini" -o "$tmp/kx-out" >"$tmp/out" 2>"$tmp/err"
check "control: with CONFIG_KEXEC_FILE=y the check passes (the fake kernel fails later, exit 1)" \
	sh -c "test $? -eq 1 && ! grep -q crash_reboot '$tmp/err'"
printf 'CONFIG_KEXEC=y\n# CONFIG_KEXEC_FILE is not set\n' >"$tmp/kx/config-9.9.9-kx"
kx_profile firmware
"$BUILDAPP" "$tmp/kx.ini" -o "$tmp/kx-out" >"$tmp/out" 2>"$tmp/err"
check "control: crash_reboot = firmware asks nothing of the kernel's kexec" \
	sh -c "test $? -eq 1 && ! grep -q crash_reboot '$tmp/err'"
rm -rf "$tmp/kx-out"

# Every command answers --help with its usage, exit 0 (readme.sh holds
# the usage to the man page and README).
for c in $("$BUILDAPP" --help | sed -n '/^Commands:/,/^$/s/^  \([a-z]*\) .*/\1/p'); do
	check "$c --help exits 0 with its usage" \
		sh -c 'out=$("$1" "$2" --help) && printf "%s\n" "$out" | grep -q "^Usage: buildapp"' \
		- "$BUILDAPP" "$c"
done

exit $fail
