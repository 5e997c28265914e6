# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# The check units of a kernel build, built in groups (g<k>: several units,
# compiled with -Werror so that a header redefining another's macro fails
# it; h<n>: one unit).  A group that fails is built again as its units; a
# unit that fails is left out.  Used by step 6 of tests/verify/run (the
# x86_64 modules, gen.py's kmod/) and by tests/verify/kernels.sh (the
# built-in KUnit units of each layout, gen_kunit.py's).

# group_members GROUPS G: the unit numbers of group G in GROUPS ("g<k> n...").
group_members() { awk -v g="$2" '$1 == g { $1 = ""; print }' "$1"; }

# build_groups BUILD LOG DIR: build the objects of the array objs with the
# command BUILD (it reads objs) until it succeeds or a round blames none of
# them; the objects it blames are those make's LOG says failed below DIR, a
# sed pattern (".*/").  Each blamed object goes to the caller's
# group_failed OBJ, which puts what replaces it into the array left (in its
# place) or later (after the others), or leaves it out; the others stay.
build_groups() {
	local build=$1 log=$2 dir=$3 bad o blamed
	while :; do
		"$build" && return 0
		# The objects make says it failed on (a stale one may still exist).
		bad=" $(sed -n "s|$dir\([gh][0-9]*\)\.o\] Error.*|\1|p" "$log" | tr '\n' ' ') "
		left=() later=() blamed=0
		for o in "${objs[@]}"; do
			if [[ $bad != *" $o "* ]]; then
				left+=("$o")
			else
				blamed=1
				group_failed "$o"
			fi
		done
		# Nothing split or left out this round: the build fails for another reason.
		[ $blamed = 1 ] || return 1
		objs=("${left[@]}" "${later[@]}")
	done
}
