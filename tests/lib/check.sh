# Sourced by the shell tests that count their own checks: check
# DESCRIPTION COMMAND... runs COMMAND and prints "ok: ..." or "FAILED: ...";
# $fail is 1 once a check failed (exit with it at the end).
fail=0
check() {
	d=$1
	shift
	if "$@"; then echo "ok: $d"; else echo "FAILED: $d"; fail=1; fi
}
