# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# tests/verify/run, step 3b: every number on every ABI against the patched headers.
# Sourced by tests/verify/run in order: its variables and helpers are set.

# ---------------------------------------------------------------- 3b. every ABI
# The patched tree's headers_install for every ARCH of the model, then the
# round trip of tests/gcc-numbers.py against them: every number the model
# gives on each of its ABIs is the patched headers' number.  gcc-numbers on
# the pristine headers (its suites, one per tree) shows the same numbers
# there, so no number changes on any ABI.  The exports are cached per ARCH
# by the series; the round trip's results by everything it reads (the
# model's view, the series, gcc-numbers and the tools it imports, the
# compilers): a warm run with none of them changed reports them again,
# saying so.
PB=$OUT/patched-build
mkdir -p "$PB/uapi"
# The export of each ARCH is the pristine tree's own (step 2's $puapi)
# with the uapi headers the series changes exported again, each once, by
# the tree's scripts/headers_install.sh: what headers_install runs on every
# file, and it reads no ARCH.  Twelve full headers_install cost 2
# CPU-minutes a tree, this a tenth; step 2's full headers_install for x86
# must equal the x86 export made so, byte for byte.  A series that adds,
# deletes or renames a uapi header, or changes what decides which files are
# exported (Kbuild, scripts/, usr/, a syscall table, a Makefile), and a
# tree of one's own (VERIFY_PRISTINE, no export of it here) get
# headers_install for every ARCH: no overlay_base.
overlay_base=$puapi
if [ -n "$overlay_base" ]; then
	while read -r st f; do
		case $f in
		include/uapi/*.h | arch/*/include/uapi/*.h) [ "$st" = M ] || overlay_base= ;;
		include/uapi/* | arch/*/include/uapi/* | scripts/* | usr/* | */syscalls/* | Makefile | */Makefile | Kbuild | */Kbuild)
			overlay_base= ;;
		esac
	done < <($GIT diff --name-status --no-renames pristine HEAD)
fi
staged=$OUT/hdr-staged
stage() { # the changed uapi headers, exported: $staged/all/<path> and $staged/<ARCH>/<path>
	local f dst a
	rm -rf "$staged" && mkdir -p "$staged" || return 1
	for f in "${changed[@]}"; do
		case $f in
		include/uapi/*.h) dst=$staged/all/${f#include/uapi/} ;;
		arch/*/include/uapi/*.h) a=${f#arch/} a=${a%%/*} dst=$staged/$a/${f#arch/*/include/uapi/} ;;
		*) continue ;;
		esac
		mkdir -p "${dst%/*}" &&
		(cd "$OUT/hdr-patched-obj" && sh "$TREE/scripts/headers_install.sh" "$TREE/$f" "$dst") || return 1
	done
	touch "$staged/.done"
}
overlay() { # ARCH: the pristine export of ARCH with the staged headers it exports
	local dst=$PB/uapi/$1 f
	local -a all=() own=()
	cp -a "$ROOT/$overlay_base/$1" "$dst" || return 1
	# One cp per directory, not per file: twelve ARCHes of ~290 files.
	while IFS= read -r f; do
		# a header this ARCH does not export (kvm.h without asm/kvm.h) stays out
		[ ! -f "$dst/include/$f" ] || all+=("$f")
	done < <(cd "$staged/all" 2>/dev/null && find . -type f -printf '%P\n')
	while IFS= read -r f; do
		[ -f "$dst/include/$f" ] || { echo "overlay: ARCH=$1 does not export $f"; return 1; }
		own+=("$f")
	done < <(cd "$staged/$1" 2>/dev/null && find . -type f -printf '%P\n')
	{ [ ${#all[@]} -eq 0 ] || (cd "$staged/all" && cp --parents -t "$dst/include" -- "${all[@]}"); } &&
	{ [ ${#own[@]} -eq 0 ] || (cd "$staged/$1" && cp --parents -t "$dst/include" -- "${own[@]}"); }
}
rm -rf "$staged"
how=
for arch in "${arches[@]}"; do
	[ "$(cat "$PB/uapi/$arch.key" 2>/dev/null)" = "$key" ] && [ -d "$PB/uapi/$arch/include" ] && continue
	rm -rf "$PB/uapi/$arch" "$PB/uapi/$arch.key"
	if [ -n "$overlay_base" ]; then
		if { [ -f "$staged/.done" ] || run hdr-stage stage; } && run "hdr-$arch" overlay "$arch"; then
			how="the pristine export ($overlay_base) with the series' ${#changed[@]} files exported again"
		else
			sed 's/^/# /' "$LOG/hdr-$arch.log" "$LOG/hdr-stage.log" 2>/dev/null | tail -20
			not_ok "the patched export of ARCH=$arch from the pristine export ($overlay_base)"
			rm -rf "$PB/uapi/$arch"
			continue
		fi
	elif run "hdr-$arch" tools/headers-install "$TREE" "$OUT/hdr-obj-$arch" "$arch" "$PB/uapi/$arch" -j"$JOBS"; then
		how="headers_install of the patched tree for every ARCH"
	else
		sed 's/^/# /' "$LOG/hdr-$arch.log" | tail -20
		not_ok "headers_install ARCH=$arch of the patched tree"
		continue
	fi
	echo "$key" >"$PB/uapi/$arch.key"
	touch "$PB/uapi/$arch/.done"	# what tests/gcc-numbers.py looks for
done
[ -z "$how" ] || echo "# patched exports: $how"
if [ -d "$PB/uapi/x86/include" ]; then
	if diff -r "$HP/include" "$PB/uapi/x86/include" >"$LOG/hdr-x86-same.log" 2>&1; then
		ok "the x86 export step 3b reads equals step 2's headers_install of the patched tree"
	else
		sed 's/^/# /' "$LOG/hdr-x86-same.log" | head -10
		not_ok "the x86 export step 3b reads equals step 2's headers_install of the patched tree"
	fi
fi
# The patched exports are the tree's and the series' (their identities);
# without a tree identity nothing is cached.
gkey=
[ -z "$VERIFY_TREE_ID" ] || gkey=$({ echo "gcc-numbers patched 1 $VERIFY_TREE_ID $key"; rcache_toolchain
	# shellcheck disable=SC2086,SC2046 # word lists
	cat "$MODEL"; rcache_files tests/gcc-numbers.py tests/gcc_numbers generator tests/lib/fixtures.py tests/lib/tap.py $VERIFY_SCRIPTS
	# shellcheck disable=SC2046 # one word per compiler
	verify_tools $("$PY" -m ioctltools.model_reader abis.cc "$MODEL" | LC_ALL=C sort -u); } | rcache_key)
grc=0
if rcache_get abi-all "$gkey" "$LOG/abi-all.log"; then
	rcache_note abi-all "$gkey"
else
	"$PY" tests/gcc-numbers.py --no-self-test "$MODEL" "$PB" "$TREE" >"$LOG/abi-all.log" 2>&1
	grc=$?
	[ "$grc" -ne 0 ] || rcache_put abi-all "$gkey" "$LOG/abi-all.log"
fi
# Its self-test on planted mistakes belongs to its own suite, which runs it
# against the pristine tree: here its coverage lines would name the patched
# tree's paths and fail.  It reports it skipped (--no-self-test), and so
# does this step.
tap_lines "patched headers: " <"$LOG/abi-all.log"
grep -q '^ok ' "$LOG/abi-all.log" || not_ok "patched headers: tests/gcc-numbers.py ran no test (see $LOG/abi-all.log)"
# A failure its TAP does not show fails too, and leaves no key: the next
# run runs it again.
exited "patched headers: tests/gcc-numbers.py" "$grc" "$LOG/abi-all.log"
