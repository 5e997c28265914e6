#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tests/verify/example.sh: build the example driver of tests/example for the
# verification guest (tests/verify/run, step 6; README.md).
#
#   tests/verify/example.sh TREE KOBJ UAPI-INCLUDE OUTDIR
#
# TREE/KOBJ: the kernel source and objects the module is built against;
# UAPI-INCLUDE: a headers_install include directory (linux/types.h for the
# user programs).  The example has its own small registry,
# tests/example/spec, modelled and rendered here apart from spec/: neither
# the real registry nor generated-patches/ knows it.  Writes into OUTDIR:
#
#   model.json, render/      ioctlgen's model of tests/example/spec, rendered
#   kmod/include/linux/ioctl_example.h
#                            the header as the renderer wrote it (the kernel's
#                            include/uapi/linux/ view), for the module
#   include/linux/ioctl_example.h
#                            the same through scripts/headers_install.sh, for
#                            the user programs
#   kmod/ioctl_example.ko    tests/example/ioctl_example.c (external module)
#   example-<abi>            tests/example/ioctl_example_test.c, static, one
#                            per x86 ABI of the example registry
#   expected                 the result lines the guest must print for them
#
# Prints TAP lines without numbers ("ok - ...", "not ok - ...") that run
# numbers, and "# ..." comments.
#
# Environment: VERIFY_EXAMPLE_HEADER (a header to use instead of the
# renderer's, for a renderer that cannot write a new header yet), KCC, JOBS,
# V=1 (output to the terminal instead of OUTDIR/log/).
set -u
[ $# -eq 4 ] || { echo "usage: tests/verify/example.sh TREE KOBJ UAPI-INCLUDE OUTDIR" >&2; exit 2; }
TREE=$(realpath -m "$1")
KOBJ=$(realpath -m "$2")
UAPI=$(realpath -m "$3")
EX=$(realpath -m "$4")
cd "$(dirname "$0")/../.."
ROOT=$PWD
SRC=tests/example
PY=/usr/bin/python3
KCC=${KCC:-gcc}
JOBS=${JOBS:-2}
HDR=linux/ioctl_example.h
# Where generator/render.py writes a header of include/uapi/.
RENDERED=$EX/render/include/uapi/$HDR

ok() { echo "ok - example: $*"; }
notok() { echo "not ok - example: $*"; }
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
	notok "$*"
	echo "example module loaded" >"$EX/expected"
	exit 0
}

# The products of an earlier run must not stand in for this one's.
rm -rf "$EX/include" "$EX/kmod" "$EX"/example-* "$EX/model.json" "$EX/expected"
mkdir -p "$EX/include/linux" "$EX/kmod/include/linux"
if ! run model build/ioctlgen model --werror $SRC/spec -o "$EX/model.json"; then
	show model
	stop "ioctlgen model --werror $SRC/spec"
fi
ok "ioctlgen model --werror $SRC/spec: no finding"
if ! run gen "$PY" $SRC/gen.py "$EX/model.json" "$EX"; then
	show gen
	stop "$SRC/gen.py $EX/model.json"
fi

# The header, rendered whole from the registry.
rm -rf "$EX/render"
if [ -n "${VERIFY_EXAMPLE_HEADER:-}" ]; then
	mkdir -p "${RENDERED%/*}" && cp "$VERIFY_EXAMPLE_HEADER" "$RENDERED"
	echo "# <$HDR>: VERIFY_EXAMPLE_HEADER=$VERIFY_EXAMPLE_HEADER, not the renderer's"
elif ! run render "$PY" generator/render.py -q -m "$EX/model.json" -k "$TREE" -o "$EX/render"; then
	show render 5
fi
if [ ! -f "$RENDERED" ]; then
	stop "generator/render.py writes <$HDR> (${RENDERED#$ROOT/})"
fi
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
		notok "<$HDR> rendered by the registry compiles on its own, -m$m -std=c90"
	fi
done

# The module: kernel style, then built against the verification kernel.
if run checkpatch perl "$TREE/scripts/checkpatch.pl" --no-tree --strict -f $SRC/ioctl_example.c; then
	ok "checkpatch --strict: $SRC/ioctl_example.c"
else
	show checkpatch
	notok "checkpatch --strict: $SRC/ioctl_example.c"
fi
cp $SRC/ioctl_example.c $SRC/Kbuild "$EX/kmod/"
if run kmod make -C "$TREE" O="$KOBJ" -j"$JOBS" CC="$KCC" HOSTCC=gcc M="$EX/kmod" modules &&
   [ -f "$EX/kmod/ioctl_example.ko" ]; then
	ok "kernel module ioctl_example.ko builds (-Werror) with the rendered <$HDR>"
else
	grep -E 'error|warning|Error' "$log/kmod.log" | head -20 | sed 's/^/# /'
	notok "kernel module ioctl_example.ko builds (-Werror) with the rendered <$HDR>"
fi

# The user programs, one per ABI, with the registry's numbers of that ABI.
while read -r abi mflag; do
	if run user-$abi gcc "$mflag" -static -O2 -Wall -Wextra -Werror -I "$EX/include" -I "$UAPI" \
		-include "$EX/numbers-$abi.h" -o "$EX/example-$abi" $SRC/ioctl_example_test.c; then
		ok "user program example-$abi builds (static, $mflag, the rendered <$HDR>)"
	else
		show user-$abi
		notok "user program example-$abi builds (static, $mflag, the rendered <$HDR>)"
	fi
done <"$EX/abis"
exit 0
