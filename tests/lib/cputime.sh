# SPDX-License-Identifier: GPL-2.0
# cpu_of FILE COMMAND...: run COMMAND (a function too) and append the CPU
# seconds it and everything it waited for used (user + system) to FILE, a
# line per call; its exit status is COMMAND's.  bash's `times` in a
# subshell, as /usr/bin/time cannot run a shell function.
cpu_of() {
	local file=$1
	shift
	(
		"$@"
		rc=$?
		# the second line of times, the children's: "0m1.250s 0m0.370s"
		# (times in a pipe would run in a subshell of its own, with none)
		times >"$file.times"
		awk 'NR == 2 {
			s = 0
			for (i = 1; i <= 2; i++) { split($i, t, /[ms]/); s += t[1] * 60 + t[2] }
			printf "%.1f\n", s
		}' "$file.times" >>"$file"
		rm -f "$file.times"
		exit $rc
	)
}

# cpu_sum FILE: the seconds of FILE's lines, rounded
cpu_sum() { awk '{ s += $1 } END { printf "%.0f", s }' "$1" 2>/dev/null; }
