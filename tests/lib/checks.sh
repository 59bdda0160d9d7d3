# Sourced by the scripts that check many things and report each:
# check DESCRIPTION COMMAND...  runs COMMAND, prints "ok: DESCRIPTION" or
# "FAILED: DESCRIPTION" and sets fail=1; the script ends with `exit $fail`.
fail=0
check() {
	desc=$1
	shift
	if "$@"; then echo "ok: $desc"; else echo "FAILED: $desc"; fail=1; fi
}
