#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# report.html is valid HTML5: the fixture report models
# (tests/unit/data/report-*.json) rendered and checked by two validators
# from Debian: html5lib's parser in strict mode (any parse error of the
# WHATWG algorithm fails: a self-closed <td/>, a stray end tag, a bad
# character reference) and HTML Tidy (content models: a table in a <p>,
# an empty element that should not be).  Each is first shown a broken
# page, so a validator that accepts anything is caught.
set -eu
: "${B:=build}" "${TOP:=$(pwd)}"
# Until `buildapp report` renders a model: RENDER MODEL OUT.
RENDER="$B/tests/integration/report-html-render"
PY=/usr/bin/python3
[ -x "$RENDER" ] || { echo "$RENDER is not built"; exit 77; }
"$PY" -c 'import html5lib' 2>/dev/null || { echo "python3-html5lib is not installed"; exit 77; }
command -v tidy >/dev/null || { echo "tidy is not installed"; exit 77; }
T=$(mktemp -d /tmp/buildapp-report-valid.XXXXXX)
[ -n "${KEEP_TMP:-}" ] || trap 'rm -rf "$T"' EXIT

strict() {
	"$PY" - "$1" <<'EOF'
import sys, html5lib
p = html5lib.HTMLParser(strict=True)
try:
    p.parse(open(sys.argv[1], encoding="utf-8").read())
except Exception as e:
    print(f"{sys.argv[1]}: {e} (line {p.errors[-1][0][0] if p.errors else '?'})")
    sys.exit(1)
EOF
}

printf '<!DOCTYPE html><html lang="en"><head><title>x</title></head><body><table><tr><td/></tr></table></body></html>' >"$T/bad-parse.html"
printf '<!DOCTYPE html><html lang="en"><head><title>x</title></head><body><p><table><tr><td>1</td></tr></table></p></body></html>' >"$T/bad-model.html"
! strict "$T/bad-parse.html" >/dev/null || { echo "FAIL: html5lib accepted <td/>"; exit 1; }
! tidy -errors -q "$T/bad-model.html" 2>/dev/null || { echo "FAIL: tidy accepted a table in a p"; exit 1; }

failed=0
for model in "$TOP"/tests/unit/data/report-*.json; do
	html=$T/$(basename "$model" .json).html
	"$RENDER" "$model" "$html"
	strict "$html" || failed=1
	tidy -errors -q "$html" || { echo "FAIL: tidy: $model"; failed=1; }
	echo "$(basename "$html"): valid"
done
exit $failed
