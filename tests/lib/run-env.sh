# SPDX-License-Identifier: GPL-2.0-or-later
# Sourced by the tests of `buildapp run`: the binary, and TCG unless the
# caller says otherwise (KVM can pass every probe and still hang guests).
: "${B:=build}"
: "${BUILDAPP:=$B/buildapp}"
: "${LIBGUESTFS_BACKEND:=direct}"
: "${LIBGUESTFS_BACKEND_SETTINGS:=force_tcg}"
: "${BUILDAPP_ACCEL:=tcg}"
export LIBGUESTFS_BACKEND LIBGUESTFS_BACKEND_SETTINGS BUILDAPP_ACCEL

[ -x "$BUILDAPP" ] || { echo "$BUILDAPP is not built"; exit 77; }
[ "$(id -u)" -eq 0 ] || { echo "the embedded libvirt driver needs root"; exit 77; }
BUILDAPP=$(realpath "$BUILDAPP")
