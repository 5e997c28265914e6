# SPDX-License-Identifier: GPL-2.0
# TAP helpers for the shell suites: `. tests/lib/tap.sh`, then
#
#   ok TEXT               ok N - TEXT
#   not_ok TEXT           not ok N - TEXT       (fail is the same)
#   check TEXT CMD...     ok if CMD exits 0, else not ok
#   skip TEXT REASON      ok N - TEXT # SKIP REASON   (tests/run counts it as skipped)
#   skip REASON           ok N # SKIP REASON
#   diag [LINE...]        "# LINE" for each argument, or for each line of stdin
#   bail TEXT             not ok N - TEXT, the plan, exit 1 (nothing else can run)
#   subtests PREFIX CMD...  run a TAP suite, its tests renumbered as ours with
#                         PREFIX before their text; not ok if it exits non-zero
#                         without a "not ok", or runs no test
#   tap_lines [PREFIX]    TAP read on stdin, numbered or not, renumbered as ours
#                         with PREFIX before their text; a plan is dropped, other
#                         lines become diagnostics (not in a pipeline: the
#                         counters would stay in its subshell)
#   tap_done              the plan "1..N", exit 1 if anything failed or nothing ran
#
# Counters: tap_n, tap_failed, tap_skipped (an ok whose text has "# SKIP").
# Settings: TAP_PREFIX before every result's text; TAP_UNNUMBERED=1 prints
# "ok - TEXT", for a caller that numbers them (tap_lines); TAP_CAPTURE=FILE
# also appends each result there, unnumbered (a cache replays it with
# tap_lines).
#
# (`done` is a shell keyword, hence tap_done.)  See docs/dev/contracts.md, Tests.

tap_n=0
tap_failed=0
tap_skipped=0

tap_result() { # tap_result "ok"|"not ok" TEXT...
	local what=$1
	shift
	tap_n=$((tap_n + 1))
	if [ "${TAP_UNNUMBERED:-0}" = 1 ]; then
		echo "$what - ${TAP_PREFIX:-}$*"
	else
		echo "$what $tap_n - ${TAP_PREFIX:-}$*"
	fi
	[ -z "${TAP_CAPTURE:-}" ] || echo "$what - ${TAP_PREFIX:-}$*" >>"$TAP_CAPTURE"
}

ok() {
	case $* in
	*"# SKIP"*) tap_skipped=$((tap_skipped + 1)) ;;
	esac
	tap_result ok "$@"
}

not_ok() {
	tap_failed=$((tap_failed + 1))
	tap_result "not ok" "$@"
}

fail() {
	not_ok "$@"
}

check() {
	local text=$1
	shift
	if "$@"; then ok "$text"; else not_ok "$text"; fi
}

skip() {
	if [ $# -ge 2 ]; then
		ok "$1 # SKIP $2"
	else
		tap_n=$((tap_n + 1)) tap_skipped=$((tap_skipped + 1))
		echo "ok $tap_n # SKIP $1"
	fi
}

diag() {
	if [ $# -gt 0 ]; then
		printf '# %s\n' "$@"
	else
		sed 's/^/# /'
	fi
}

bail() {
	not_ok "$@"
	tap_done
}

tap_lines() {
	local prefix=${1:-} line
	while IFS= read -r line; do
		if [[ $line =~ ^(not )?ok([[:space:]]+[0-9]+)?([[:space:]]+-)?([[:space:]]+(.*))?$ ]]; then
			if [ -n "${BASH_REMATCH[1]}" ]; then
				not_ok "$prefix${BASH_REMATCH[5]}"
			else
				ok "$prefix${BASH_REMATCH[5]}"
			fi
		elif [[ ! $line =~ ^1\.\.[0-9]+ ]]; then
			diag "${line#\# }"
		fi
	done
}

subtests() {
	local prefix=$1 out rc before=$tap_n failed_before=$tap_failed
	shift
	out=$(mktemp)
	"$@" >"$out" 2>&1
	rc=$?
	tap_lines "$prefix" <"$out"
	rm -f "$out"
	if [ "$tap_n" -eq "$before" ]; then
		not_ok "$prefix$* runs no test (exit $rc)"
	elif [ "$rc" -ne 0 ] && [ "$tap_failed" -eq "$failed_before" ]; then
		not_ok "$prefix$* exits $rc"
	fi
}

tap_done() {
	if [ "$tap_n" -eq 0 ]; then
		echo "1..0"
		diag "no test ran"
		exit 1
	fi
	echo "1..$tap_n"
	[ "$tap_failed" -eq 0 ] || exit 1
	exit 0
}
