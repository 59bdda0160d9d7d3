#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Every backend x preallocation on one image in one libguestfs launch,
# checked in a second launch (see storage_guestfs.c).
set -u
export LIBGUESTFS_BACKEND=${LIBGUESTFS_BACKEND:-direct}
# /dev/kvm can be present yet hang the appliance (seen here): TCG unless
# the caller says otherwise.
export LIBGUESTFS_BACKEND_SETTINGS=${LIBGUESTFS_BACKEND_SETTINGS:-force_tcg}
command -v debugfs >/dev/null || { echo "debugfs (e2fsprogs) missing"; exit 77; }
work=$(mktemp -d "$TOP/$B/storage-guestfs.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
"$B/tests/integration/storage_guestfs" "$work"
