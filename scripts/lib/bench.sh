# Sourced by scripts/bench-*.sh, which run from the tree's top as README
# shows them.  Sets B (the build directory, default build) and buildapp
# (BUILDAPP when given, else $B/buildapp), and builds what a benchmark
# runs: the programs (`make all`: buildapp, the appliance's init and
# agent) and the test programs it names, so a benchmark needs no build
# step of its own (make is incremental: nothing when all is up to date).
# With BUILDAPP given, only those test programs.
# Usage: bench_setup [CHECK_PROGRAM...]
B=${B:-build}
bench_setup() {
	if [ -n "${BUILDAPP:-}" ]; then
		buildapp=$BUILDAPP
		[ $# -eq 0 ] && return 0
	else
		buildapp=$B/buildapp
		set -- all "$@"
	fi
	make -s B="$B" "$@" >&2 ||
		{ echo "$(basename "$0"): cannot build $* (make B=$B $*)" >&2; exit 1; }
}
