#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tests/verify/driver-build.sh: build a driver directory's module and user
# programs for an x86_64 guest (tools/driver-test, which tests/verify/run's
# step 6a also calls for tests/example; README.md).
#
#   tests/verify/driver-build.sh DIR TREE KOBJ UAPI-INCLUDE OUTDIR
#
# DIR holds the driver, as tests/example does:
#
#   Kbuild           the module(s), an external module's Kbuild
#   *.c              the module's sources (checkpatch --strict runs on them)
#   *_test.c         one user program, built static once per ABI the guest
#                    runs (-m64, -m32, -mx32) as OUTDIR/<name of DIR>-<abi>;
#                    it prints its results, one line each ("ok ..." /
#                    "not ok ...", or "VERIFY ok|not ok ..." lines)
#   spec/            optional: a registry of the driver's own (tests/example's);
#                    its header is then rendered from there, not taken from
#                    the patched tree, and compiled on its own
#   gen.py           optional, with spec/: `gen.py MODEL OUTDIR` writes
#                    numbers-<abi>.h (-included by the program), abis and
#                    expected (the result lines the guest must print)
#
# TREE/KOBJ: the patched kernel source and objects the module is built
# against; UAPI-INCLUDE: the patched tree's headers_install include directory
# (the driver's header from the series, and linux/types.h for the programs).
# Writes into OUTDIR: kmod/*.ko, <name>-<abi>, abis, and with spec/ model.json,
# render/, include/ (the rendered header through headers_install.sh) and
# expected.
#
# Prints TAP lines without numbers ("ok - ...", "not ok - ...") that the
# caller numbers, and "# ..." comments.
#
# Environment: VERIFY_EXAMPLE_HEADER (with spec/: a header to use instead
# of the renderer's), KCC, JOBS, V=1 (output to the terminal instead of
# OUTDIR/log/).
set -u
[ $# -eq 5 ] || { echo "usage: tests/verify/driver-build.sh DIR TREE KOBJ UAPI-INCLUDE OUTDIR" >&2; exit 2; }
TREE=$(realpath -m "$2")
KOBJ=$(realpath -m "$3")
UAPI=$(realpath -m "$4")
EX=$(realpath -m "$5")
cd "$(dirname "$0")/../.." || exit 2
ROOT=$PWD
SRC=$(realpath --relative-base="$ROOT" -m "$1")
NAME=$(basename "$SRC")
PY=/usr/bin/python3
KCC=${KCC:-gcc}
JOBS=${JOBS:-2}

# ok, not_ok: unnumbered, tools/driver-test numbers them
TAP_UNNUMBERED=1 TAP_PREFIX="$NAME: "
# shellcheck source=tests/lib/tap.sh
. tests/lib/tap.sh
log=$EX/log
mkdir -p "$log"
run() { # run LOGNAME command...
	local name=$1
	shift
	if [ "${V:-0}" = 1 ]; then "$@"; else "$@" >"$log/$name.log" 2>&1; fi
}
show() { sed 's/^/# /' "$log/$1.log" | head -"${2:-20}"; }
# A step the rest depends on failed: the guest then only fails to load the
# module, one line, instead of missing every program's.
stop() {
	not_ok "$*"
	echo "$NAME module loaded" >"$EX/expected"
	exit 0
}

[ -f "$SRC/Kbuild" ] || stop "$SRC/Kbuild: the module's Kbuild (obj-m += mydrv.o)"
tests=() ksrc=()
for f in "$SRC"/*.c; do
	case $f in
	*_test.c) tests+=("$f") ;;
	*) [ -f "$f" ] && ksrc+=("$f") ;;
	esac
done
[ ${#tests[@]} -eq 1 ] || stop "$SRC: one user program, *_test.c (found ${#tests[@]})"
[ ${#ksrc[@]} -gt 0 ] || stop "$SRC: the module's .c files"

# The products of an earlier run must not stand in for this one's.
rm -rf "$EX/include" "$EX/kmod" "$EX/$NAME"-* "$EX/model.json" "$EX/expected"
mkdir -p "$EX/include" "$EX/kmod/include"
printf 'x86_64 -m64\ni386 -m32\nx32 -mx32\n' >"$EX/abis"
if [ -d "$SRC/spec" ]; then
	# The driver's own registry: its headers rendered whole from it.
	if ! run model build/ioctlgen model --werror "$SRC/spec" -o "$EX/model.json"; then
		show model
		stop "ioctlgen model --werror $SRC/spec"
	fi
	ok "ioctlgen model --werror $SRC/spec: no finding"
	if [ -f "$SRC/gen.py" ] && ! run gen "$PY" "$SRC/gen.py" "$EX/model.json" "$EX"; then
		show gen
		stop "$SRC/gen.py $EX/model.json"
	fi
	mapfile -t hdrs < <("$PY" -m ioctltools.model_reader 'headers[new].path' "$EX/model.json")
	rm -rf "$EX/render"
	if [ -n "${VERIFY_EXAMPLE_HEADER:-}" ]; then
		mkdir -p "$EX/render/include/uapi/${hdrs[0]%/*}" && cp "$VERIFY_EXAMPLE_HEADER" "$EX/render/include/uapi/${hdrs[0]}"
		echo "# <${hdrs[0]}>: VERIFY_EXAMPLE_HEADER=$VERIFY_EXAMPLE_HEADER, not the renderer's"
	elif ! run render "$PY" -m ioctltools.render -q -m "$EX/model.json" -k "$TREE" -o "$EX/render"; then
		show render 5
	fi
	for HDR in "${hdrs[@]}"; do
		# Where generator/ioctltools/render.py writes a header of include/uapi/.
		RENDERED=$EX/render/include/uapi/$HDR
		[ -f "$RENDERED" ] || stop "generator/ioctltools/render.py writes <$HDR> (${RENDERED#$ROOT/})"
		mkdir -p "$EX/kmod/include/${HDR%/*}" "$EX/include/${HDR%/*}"
		cp "$RENDERED" "$EX/kmod/include/$HDR"
		# headers_install.sh runs scripts/unifdef of its working directory.
		if ! { mkdir -p "$EX/hi/scripts" &&
		       { [ "$EX/hi/scripts/unifdef" -nt "$TREE/scripts/unifdef.c" ] ||
			 gcc -O2 -o "$EX/hi/scripts/unifdef" "$TREE/scripts/unifdef.c"; } &&
		       (cd "$EX/hi" && sh "$TREE/scripts/headers_install.sh" "$RENDERED" "$EX/include/$HDR"); } >"$log/hdrinst.log" 2>&1; then
			show hdrinst
			stop "scripts/headers_install.sh takes the rendered <$HDR>"
		fi
		# Like usr/include/Makefile: on its own, twice, -std=c90, and headers_check.pl.
		for m in 64 32; do
			if run hdrtest-$m gcc -m$m -std=c90 -Wall -Werror -fsyntax-only -x c /dev/null \
				-I "$EX/include" -I "$UAPI" -include "$HDR" -include "$HDR" &&
			   (cd "$TREE" && perl usr/include/headers_check.pl "$UAPI" x86 "$EX/include/$HDR") >>"$log/hdrtest-$m.log" 2>&1; then
				ok "<$HDR> rendered by the registry compiles on its own, -m$m -std=c90"
			else
				show hdrtest-$m
				not_ok "<$HDR> rendered by the registry compiles on its own, -m$m -std=c90"
			fi
		done
	done
fi

# The module: kernel style, then built against the kernel.
if run checkpatch perl "$TREE/scripts/checkpatch.pl" --no-tree --strict -f "${ksrc[@]}"; then
	ok "checkpatch --strict: ${ksrc[*]}"
else
	show checkpatch
	not_ok "checkpatch --strict: ${ksrc[*]}"
fi
cp "${ksrc[@]}" "$SRC/Kbuild" "$EX/kmod/"
ls "$SRC"/*.h >/dev/null 2>&1 && cp "$SRC"/*.h "$EX/kmod/"
if run kmod make -C "$TREE" O="$KOBJ" -j"$JOBS" CC="$KCC" HOSTCC=gcc M="$EX/kmod" modules &&
   ls "$EX/kmod/"*.ko >/dev/null 2>&1; then
	ok "kernel module $(cd "$EX/kmod" && echo *.ko) builds against the patched kernel"
else
	grep -E 'error|warning|Error' "$log/kmod.log" | head -20 | sed 's/^/# /'
	not_ok "kernel module of $SRC/Kbuild builds"
fi

# The user program, one per ABI (with the registry's numbers of that ABI
# when gen.py wrote them).
while read -r abi mflag; do
	inc=()
	[ -f "$EX/numbers-$abi.h" ] && inc=(-include "$EX/numbers-$abi.h")
	if run user-$abi gcc "$mflag" -static -O2 -Wall -Wextra -Werror -I "$EX/include" -I "$UAPI" \
		"${inc[@]}" -o "$EX/$NAME-$abi" "${tests[0]}"; then
		ok "user program $NAME-$abi builds (static, $mflag)"
	else
		show user-$abi
		not_ok "user program $NAME-$abi builds (static, $mflag)"
	fi
done <"$EX/abis"
exit 0
