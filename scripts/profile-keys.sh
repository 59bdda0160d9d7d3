#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Writes the profile key table that `buildapp keys` prints into
# docs/profile-keys.md, between its <!-- keys:begin --> and
# <!-- keys:end --> lines (tests/integration/readme.sh fails when they
# differ).  Run from the tree's top after changing profile/keys_list.h.
# Usage: profile-keys.sh [FILE]   (default docs/profile-keys.md; uses
# $BUILDAPP, else build/buildapp)
set -eu
doc=${1:-docs/profile-keys.md}
buildapp=${BUILDAPP:-build/buildapp}
grep -qx '<!-- keys:begin -->' "$doc" && grep -qx '<!-- keys:end -->' "$doc" ||
	{ echo "profile-keys: $doc has no <!-- keys:begin --> and <!-- keys:end --> lines" >&2; exit 1; }
tmp=$(mktemp)
trap 'rm -f "$tmp" "$tmp.keys"' EXIT
"$buildapp" keys >"$tmp.keys"
awk -v keys="$tmp.keys" '
	$0 == "<!-- keys:end -->" { skip = 0 }
	!skip { print }
	$0 == "<!-- keys:begin -->" { while ((getline l < keys) > 0) print l; skip = 1 }
' "$doc" >"$tmp"
cat "$tmp" >"$doc"
