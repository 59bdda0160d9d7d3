# SPDX-License-Identifier: GPL-2.0-or-later
# Sourced by test scripts: check DESCRIPTION COMMAND... runs COMMAND,
# prints "ok: DESCRIPTION" or "FAILED: DESCRIPTION" and on failure sets
# fail=1 (the script ends with `exit $fail`).
fail=0
check() {
	desc=$1
	shift
	if "$@"; then echo "ok: $desc"; else echo "FAILED: $desc"; fail=1; fi
}
