# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# CPU time of a step: bash's `times`, whose second line is what the
# processes this shell waited for used ("0m1.250s 0m0.370s": user, system).
# /usr/bin/time cannot run a shell function, and `times` in $(...) or a pipe
# runs in a subshell of its own, which has no children: so through a file.

# cpu_now VAR FILE: set VAR to the CPU seconds (user + system, to the
# millisecond) the children of this shell have used so far; FILE is scratch.
cpu_now() {
	times >"$2"
	printf -v "$1" '%s' "$(awk 'NR == 2 {
		s = 0
		for (i = 1; i <= 2; i++) { split($i, t, /[ms]/); s += t[1] * 60 + t[2] }
		printf "%.3f", s
	}' "$2")"
	rm -f "$2"
}

# cpu_of FILE COMMAND...: run COMMAND (a function too) and append the CPU
# seconds it and everything it waited for used to FILE, a line per call;
# its exit status is COMMAND's.
cpu_of() {
	local file=$1
	shift
	(
		"$@"
		rc=$? s=
		cpu_now s "$file.times"
		printf '%.1f\n' "$s" >>"$file"
		exit $rc
	)
}

# cpu_sum FILE: the seconds of FILE's lines, rounded
cpu_sum() { awk '{ s += $1 } END { printf "%.0f", s }' "$1" 2>/dev/null; }
