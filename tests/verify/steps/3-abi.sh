# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# tests/verify/run, step 3: no number changes (and the #define lines step 6 needs).
# Sourced by tests/verify/run in order: its variables and helpers are set.

# ---------------------------------------------------------------- 3. ABI unchanged
# No number changes: gcc-numbers shows every number of the model on every
# ABI with the pristine headers (its suites, one per tree) and step 3b with
# the patched ones, so pristine and patched agree wherever the model has a
# number.  (A probe of pristine against patched headers for the x86 ABIs,
# once step 3 here, checked the same thing a third time.)
#
# The user tests of step 6 include, for a header that does not compile on
# its own in userspace (header-test: false), its commands' #define lines,
# in $OUT/probe/defs/patched.
# units DIR-OF-SOURCES OUT-DIR MODE "STEMS" FLAGS...: compile in parallel,
# incrementally (tests/verify/units.mk); failures leave no output file.
units() {
	local src=$1 out=$2 mode=$3 stems=$4
	shift 4
	# No CCACHE_BASEDIR: it would make the -MMD paths relative, and no
	# longer the names of the targets.
	CCACHE_BASEDIR= make -s -k -j"$JOBS" -f tests/verify/units.mk SRC="$src" OUT="$out" MODE="$mode" \
		STEMS="$stems" FLAGS="$*" CC="$KCC" >/dev/null 2>&1
}
rm -rf "$OUT/probe"
mkdir -p "$OUT/probe/defs/patched"
while read -r i hdr header_test names; do
	[ "$header_test" = 0 ] || continue
	# shellcheck disable=SC2086
	[ -f "$HP/include/$hdr" ] &&
	tests/verify/extract-defines "$HP/include/$hdr" "$OUT/probe/defs/patched/$hdr" $names
	echo "# <$hdr> has header-test: false: the user tests include its #define lines only"
done <"$GEN/probe/index"
