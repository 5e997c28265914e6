# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# What tests/verify/run (and its steps) and tools/driver-test share, on
# tests/lib/tap.sh (ok, not_ok, check, skip, diag, tap_lines; TAP_CAPTURE):
#
#   finish                 the caller's finish_note, if it has one, then
#                          "N passed, N failed, N skipped"; exit 1 if anything failed
#   bail TEXT              a step the later ones depend on failed: not ok, finish
#   exited WHAT STATUS TAP a sub-tool that failed with no failing test in its
#                          TAP (it stopped early, or crashed after its last line)
#   run LOGNAME CMD...     CMD's output to $LOG/LOGNAME.log (the terminal with VERBOSE=1)
#   kmake ARGS...          make in $TREE, objects in $KOBJ, $JOBS jobs, compiler $KCC
#
# tests/verify/kernels.sh and tests/verify/driver-build.sh print their
# results unnumbered (TAP_UNNUMBERED=1), for these to number (tap_lines).
# The caller sets ROOT (the clone) first.

# shellcheck source=tests/lib/tap.sh
. "$ROOT/tests/lib/tap.sh"

finish() {
	! declare -F finish_note >/dev/null || finish_note
	echo "$((tap_n - tap_failed - tap_skipped)) passed, $tap_failed failed, $tap_skipped skipped"
	[ "$tap_failed" -eq 0 ]
	exit
}

bail() {
	not_ok "$*; later steps skipped"
	finish
}

exited() {
	[ "$2" -eq 0 ] || grep -q '^not ok' "$3" ||
		not_ok "$1 exited $2 with no failed test (see ${3#"$ROOT"/})"
}

run() {
	local name=$1
	shift
	if [ "${VERBOSE:-0}" = 1 ]; then "$@"; else "$@" >"$LOG/$name.log" 2>&1; fi
}

kmake() { make -C "$TREE" O="$KOBJ" -j"$JOBS" CC="$KCC" HOSTCC=gcc "$@"; }
