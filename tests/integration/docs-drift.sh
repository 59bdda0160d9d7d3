#!/bin/sh
# The docs held to the code (tests/lib/docs-check.py says what is
# checked): every metric name in docs' examples is one the code writes;
# every repository path docs/, README, and the comments of scripts/ and
# tests/ name exists, and no link leads out of the tree; the man page's
# FILES names every shipped profile and job file; every command's --help
# describes each option its parser takes; exit statuses come from
# builder/commands.h's one list, and every --help ends with them.
#
# Then the checker's controls: a copy of the tree with one drift of each
# kind planted, which it must refuse, naming it; so this test cannot pass
# by checking nothing.
set -u
B=${B:-build}
BUILDAPP=${BUILDAPP:-$B/buildapp}
TOP=${TOP:-.}
. "$TOP/tests/lib/check.sh"
command -v python3 >/dev/null || { echo "python3 is not installed"; exit 77; }
command -v git >/dev/null || { echo "git is not installed"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
abs_buildapp=$(cd "$(dirname "$BUILDAPP")" && pwd)/$(basename "$BUILDAPP")

docs_check() { # TOP [BUILDAPP]
	python3 "$TOP/tests/lib/docs-check.py" --top "$1" --buildapp "${2:-$abs_buildapp}"
}

docs_check "$TOP" >"$tmp/out" 2>&1
rc=$?
cat "$tmp/out"
check "the docs agree with the code" test $rc -eq 0

# The controls.  The tree as git has it (and the files not yet added),
# copied once; each control starts from a fresh copy of that.
(cd "$TOP" && git ls-files --cached --others --exclude-standard) >"$tmp/files" ||
	{ echo "not a git checkout: the controls need the tree's file list"; exit 77; }
mkdir "$tmp/tree"
(cd "$TOP" && while IFS= read -r f; do [ -e "$f" ] && printf '%s\n' "$f"; done <"$tmp/files" |
	cpio -pdm --quiet "$tmp/tree")
fresh() {
	rm -rf "$tmp/c"
	cp -a "$tmp/tree" "$tmp/c"
}
refused() { # DESCRIPTION PATTERN [BUILDAPP]
	docs_check "$tmp/c" ${3:+"$3"} >"$tmp/out" 2>&1
	rc=$?
	check "control: $1: refused" test $rc -eq 1
	check "control: $1: says '$2'" grep -qF -- "$2" "$tmp/out"
}
edit() { # FILE SED-SCRIPT: must change FILE
	cp "$1" "$tmp/before"
	sed -i "$2" "$1"
	cmp -s "$1" "$tmp/before" && { echo "control: '$2' changed nothing in $1"; fail=1; }
}

fresh
docs_check "$tmp/c" >"$tmp/out" 2>&1
check "control: the copy as it is passes" test $? -eq 0

fresh; edit "$tmp/c/docs/results.md" 's/"name":"fio_write_iops","value"/"name":"iops","value"/'
refused "a metric the code does not write in a journal example" \
	"docs/results.md:47: metric iops is not one the code writes"
fresh; printf '\n    unsafe vs writethrough, fio_JOB_write_iopz (fio): +3%%\n' >>"$tmp/c/docs/report.md"
refused "a metric shape that fits nothing" "the metric shape fio_JOB_write_iopz fits no name"
fresh; printf '\nThe whole kit from two caches: tests/e2e/kit-repro.sh.\n' >>"$tmp/c/docs/kit.md"
refused "a path in docs that is not in the tree" "tests/e2e/kit-repro.sh is not in the tree"
fresh; edit "$tmp/c/scripts/demo.sh" '2s|^#|# (scripts/lib/nothing.sh)|'
refused "a path in a script's comment that is not in the tree" \
	"scripts/demo.sh:2: scripts/lib/nothing.sh is not in the tree"
fresh; edit "$tmp/c/docs/hacking.md" '3s|^|The house style: ../shared/STYLE.md. |'
refused "a path outside the tree" "../shared/STYLE.md (from docs) is not in the tree"
fresh; printf '\nSee [the style](../../STYLE.md).\n' >>"$tmp/c/docs/hacking.md"
refused "a link out of the tree" "the link ../../STYLE.md leads out of the tree"
fresh; cp "$tmp/c/profiles/ci-smoke.ini" "$tmp/c/profiles/ci-smoke-2.ini"
refused "a shipped profile the man page's FILES does not name" \
	"FILES: does not name profiles/ci-smoke-2.ini"
fresh; edit "$tmp/c/builder/cmd_results.c" 's|{"output", required_argument, NULL, .o.},|&\n\t\t{"frobnicate", no_argument, NULL, 0},|'
refused "an option the parser takes that --help does not describe" \
	"buildapp results --help: no word of --frobnicate"
fresh; edit "$tmp/c/builder/cmd_kernel.c" 's|return help ? 0 : EXIT_BAD_INPUT;|return help ? 0 : 4;|'
refused "an exit status as a number" "exit status 4 as a number"
# A buildapp whose results --help lost its exit statuses.
fresh
printf '#!/bin/sh\nif [ "$1" = results ]; then "%s" "$@" | sed "/^Exit status:/,\\$d"; else exec "%s" "$@"; fi\n' \
	"$abs_buildapp" "$abs_buildapp" >"$tmp/buildapp"
chmod +x "$tmp/buildapp"
refused "a --help without its exit statuses" "buildapp results --help: no 'Exit status:' paragraph" \
	"$tmp/buildapp"

exit $fail
