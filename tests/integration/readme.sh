#!/bin/sh
# README.md and the docs held to the binary and to each other
# (tests/lib/readme-check.py says what is checked): README at most LIMIT
# lines, no date or commit hash in it; every command, option and profile
# key it names is one the binary has; every copy of the key table in docs
# is what `buildapp keys` prints, and docs/profile-keys.md's cache-mode
# table what `buildapp plan` prints; each command's synopsis is the same
# in its --help, the man page and README; the man page's exit statuses
# are the code's; README's first command is the quick start kit-boot.sh
# runs, and README gives the command .ci/run runs.
#
# Then the checker's controls: the same files with one thing broken, in a
# copy, each of which it must refuse, naming what is wrong; so this test
# cannot pass by checking nothing.
set -u
B=${B:-build}
BUILDAPP=${BUILDAPP:-$B/buildapp}
TOP=${TOP:-.}
. "$TOP/tests/lib/check.sh"
command -v python3 >/dev/null || { echo "python3 is not installed"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# README's length: what a newcomer reads before the docs.
LIMIT=250

readme_check() { # README DOCS MAN COMMANDS_H CI_RUN QUICK_START_TEST
	python3 "$TOP/tests/lib/readme-check.py" --buildapp "$BUILDAPP" --limit "$LIMIT" \
		--readme "$1" --docs "$2" --man "$3" --commands-h "$4" --ci-run "$5" \
		--quick-start-test "$6" --all-modes-profile "$TOP/profiles/full-sweep.ini"
}

readme_check "$TOP/README.md" "$TOP/docs" "$TOP/docs/buildapp.1" "$TOP/builder/commands.h" \
	"$TOP/.ci/run" "$TOP/tests/e2e/kit-boot.sh" >"$tmp/out" 2>&1
rc=$?
cat "$tmp/out"
check "README.md and docs/ agree with the binary and each other" test $rc -eq 0
check "README.md is at most $LIMIT lines ($(wc -l <"$TOP/README.md"))" \
	test "$(wc -l <"$TOP/README.md")" -le $LIMIT

# The controls.  Each makes copies of the files, breaks one thing, and
# wants the checker to exit 1 with a line holding PATTERN.
fresh() {
	rm -rf "$tmp/c"
	mkdir -p "$tmp/c"
	cp "$TOP/README.md" "$TOP/docs/buildapp.1" "$TOP/builder/commands.h" "$TOP/.ci/run" \
		"$TOP/tests/e2e/kit-boot.sh" "$tmp/c/"
	cp -r "$TOP/docs" "$tmp/c/docs"
}
refused() { # DESCRIPTION PATTERN
	readme_check "$tmp/c/README.md" "$tmp/c/docs" "$tmp/c/buildapp.1" "$tmp/c/commands.h" \
		"$tmp/c/run" "$tmp/c/kit-boot.sh" >"$tmp/out" 2>&1
	rc=$?
	check "control: $1: refused" test $rc -eq 1
	check "control: $1: says '$2'" grep -qF -- "$2" "$tmp/out"
}
append() { # TEXT: a paragraph of its own at README's end
	printf '\n%s\n' "$1" >>"$tmp/c/README.md"
}
edit() { # FILE SED-SCRIPT: must change FILE
	cp "$1" "$tmp/before"
	sed -i "$2" "$1"
	cmp -s "$1" "$tmp/before" && { echo "control: '$2' changed nothing in $1"; fail=1; }
}

fresh; yes '' | head -n $LIMIT >>"$tmp/c/README.md"
refused "README over $LIMIT lines" "more than $LIMIT"
fresh; append "Measured here on 2026-12-04."
refused "a date in README" "a date, 2026-12-04"
fresh; append "The tree at 2b1e9e8 took longer."
refused "a commit hash in README" "a commit hash, 2b1e9e8"
fresh; append 'Or `buildapp frobnicate lab7.ini`.'
refused "a command buildapp does not have" "no command 'frobnicate'"
fresh; edit "$tmp/c/README.md" 's/`buildapp plan lab7.ini`/`buildapp plan --jsn lab7.ini`/'
refused "an option the command does not have" "option --jsn is not in \`buildapp plan --help\`"
fresh; append 'Or `buildapp --verison`.'
refused "an option buildapp itself does not have" "option --verison is not in \`buildapp --help\`"
fresh; append 'Then `--sing KEY`.'
refused "an option no command has" "no command has the option --sing"
fresh; append 'Set `[host] disks`.'
refused "a key the section does not have" "no key disks in [host]"
fresh; append 'Set `[hosts] disk`.'
refused "a section there is not" "no section [hosts]"
fresh; append 'Set `wipes = yes`.'
refused "a key no section has" "no key wipes in any section"
fresh; edit "$tmp/c/README.md" 's/^wipe = yes$/wipe = perhaps/'
refused "an ini block that does not load" "an ini block does not load"
fresh; edit "$tmp/c/docs/profile-keys.md" 's/^| \[sweep\] | runs | integer 1..1000 | 5 |/| [sweep] | runs | integer 1..1000 | 6 |/'
refused "a key table in docs that differs from buildapp keys" "profile-keys.md: its key table differs"
fresh; edit "$tmp/c/docs/profile-keys.md" 's/^| unsafe | on | off | on |$/| unsafe | on | off | off |/'
refused "a cache-mode table that is not the plan's" "profile-keys.md: its cache-mode table"
fresh; { echo '<!-- keys:begin -->'; "$BUILDAPP" keys; echo '<!-- keys:end -->'; } >>"$tmp/c/docs/plan.md"
edit "$tmp/c/docs/plan.md" 's/^| \[guest\] | vcpus | integer 1..64 | 1 |/| [guest] | vcpus | integer 1..64 | 2 |/'
refused "a second copy of the key table that differs" "plan.md: its key table differs"
fresh; { echo '<!-- keys:begin -->'; "$BUILDAPP" keys; echo '<!-- keys:end -->'; } >>"$tmp/c/README.md"
refused "a key table in README" "README.md holds a copy of the key table"
fresh; edit "$tmp/c/README.md" 's/^- `buildapp plan PROFILE.ini \[--json\]`/- `buildapp plan PROFILE.ini`/'
refused "README's synopsis differs from --help" "plan: README's synopsis"
fresh; edit "$tmp/c/buildapp.1" '/^\.RB \[ \\-\\-compare$/,/^\.IR LIST \]$/d'
refused "the man page's synopsis differs from --help" "report: the man page's synopsis"
fresh; edit "$tmp/c/buildapp.1" 's/^\.B image$/.B imaging/'
refused "the man page without an entry for a command" "man page COMMANDS: no entry for image"
fresh; edit "$tmp/c/README.md" '/^- `buildapp hostroot /d'
refused "README without a command's synopsis" "README Commands: no synopsis of hostroot"
fresh; printf '#define EXIT_SOMETHING 4\n' >>"$tmp/c/commands.h"
refused "an exit status the man page does not list" "man page EXIT STATUS lists"
fresh; edit "$tmp/c/README.md" 's|^    sh scripts/install-deps.sh && make && sh scripts/demo.sh$|    sh scripts/install-deps.sh \&\& make \&\& sh scripts/demo.sh profiles/ci-smoke.ini|'
refused "README's first command is not the quick start kit-boot.sh runs" "README's first command is"
fresh; edit "$tmp/c/run" 's/^make check$/make check-everything/'
refused "a CI command README does not give" "runs 'make check-everything', which README gives nowhere"

exit $fail
