#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tests/verify/kernels.sh [ARCH...]: boot the patched kernel on every ioctl
# layout.  For each SRCARCH (default: all seven below):
#
#   1. cross-build tinyconfig + config/common.config + config/ARCH.config
#      from the patched tree with Debian's cross gcc (ccache), a built-in
#      KUnit suite generated from the model for that ARCH's ABI
#      (gen_kunit.py) linked in
#   2. the kernel-context type check with that ARCH's patched headers:
#      _IOR('x', 1, sizeof(int)) and an oversized type rejected,
#      _IOR_BAD('x', 1, sizeof(int)) accepted
#   3. boot it in QEMU (no userspace: KUnit runs at boot, then
#      kunit_shutdown powers off or restarts under -no-reboot) and read its
#      KTAP (ktap.py); a missing line, a panic or a timeout names the ARCH
#
# Why not tools/testing/kunit/kunit.py (6.1): four of the six layouts need
# a --qemu_config of our own anyway (its sparc.py is 32-bit sun4m, not
# sparc64; its powerpc.py is big-endian ppc64 through SLOF; it has none for
# mips or parisc); it configures by olddefconfig from the .kunitconfig, not
# tinyconfig + fragment (measured on alpha: 259 options =y against 158); it
# builds and boots one ARCH per call, with no place for the type check.
# The suite is plain KUnit: kunit.py (with CONFIG_KUNIT=y, lib/ioctl_verify
# in the tree) runs it unchanged, and ktap.py reads the same KTAP.
#
# Needs $VERIFY_OUT/linux with the series applied (tests/verify/run step 1,
# which calls this script with VERIFY_OUT=build/verify/VERSION).  Writes
# $VERIFY_OUT/kernels/.  Prints TAP
# lines "ok - verify/ARCH: ..." without numbers: the caller numbers them.
# Environment: VERIFY_MODEL, VERIFY_JOBS, VERIFY_LANES (layouts built at
# once, 2), VERIFY_TIMEOUT (per guest, 300: two lanes share the cores),
# VERIFY_TIMES (append "ARCH build|cpu|boot SECONDS" lines, for
# tests/verify/bench; cpu: the CPU seconds of the build, which unlike its
# wall time do not depend on what shares the cores).

set -u
cd "$(dirname "$0")/../.." || exit 1
ROOT=$PWD
# shellcheck source=tests/lib/cputime.sh
. tests/lib/cputime.sh
# shellcheck source=tests/verify/groups.sh
. tests/verify/groups.sh
OUT=${VERIFY_OUT:?VERIFY_OUT=build/verify/VERSION: tests/verify/run sets it}
TREE=$OUT/linux
KD=$OUT/kernels
SRC=$KD/src
LOG=$OUT/log
JOBS=${VERIFY_JOBS:-2}
TIMEOUT=${VERIFY_TIMEOUT:-300}
TIMES=${VERIFY_TIMES:-/dev/null}
PY=/usr/bin/python3
MODEL=${VERIFY_MODEL:-build/model.json}
# shellcheck source=tests/verify/keys.sh
. tests/verify/keys.sh
# ccache outside the clone (tests/lib/rcache.sh), in depend mode, as in
# tests/verify/run: no preprocessor run on a miss.
rcache_ccache
export CCACHE_DEPEND=1
export LC_ALL=C PYTHONDONTWRITEBYTECODE=1

# ok, not_ok: unnumbered, tests/verify/run numbers them
TAP_UNNUMBERED=1
# shellcheck source=tests/lib/tap.sh
. tests/lib/tap.sh

# layout SRCARCH: the build and the QEMU machine of one layout
# (recipes: /work/shared/qemu-arches.md).
layout() {
	MEM=256 OFF=poweroff CON=ttyS0 IMG=vmlinux
	case $1 in
	x86) KARCH=x86_64 X="" ABI=x86_64 IMG=arch/x86/boot/bzImage
		QEMU="qemu-system-x86_64 -M pc" OFF=reboot ;;
	arm64) KARCH=arm64 X=aarch64-linux-gnu- ABI=arm64 IMG=arch/arm64/boot/Image
		QEMU="qemu-system-aarch64 -M virt -cpu cortex-a57" CON=ttyAMA0 ;;
	powerpc) KARCH=powerpc X=powerpc64le-linux-gnu- ABI=powerpc64le MEM=512
		# x-vof=on: no SLOF (8.5 s -> 0.5 s)
		QEMU="qemu-system-ppc64 -M pseries,x-vof=on -cpu power9" CON=hvc0 ;;
	mips) KARCH=mips X=mips-linux-gnu- ABI=mips QEMU="qemu-system-mips -M malta" ;;
	sparc) KARCH=sparc64 X=sparc64-linux-gnu- ABI=sparc64 QEMU="qemu-system-sparc64 -M sun4u" ;;
	alpha) KARCH=alpha X=alpha-linux-gnu- ABI=alpha QEMU="qemu-system-alpha -M clipper" ;;
	parisc) KARCH=parisc X=hppa-linux-gnu- ABI=parisc QEMU="qemu-system-hppa -M hppa" ;;
	*) return 1 ;;
	esac
}
ALL="x86 arm64 powerpc mips sparc alpha parisc"

[ -f "$OUT/series.applied" ] && [ -d "$TREE/.git" ] || {
	not_ok "verify/kernels: no patched tree in ${TREE#$ROOT/} (tests/verify/run applies the series)"
	exit 1
}
mkdir -p "$KD" "$LOG"

# The source overlay: the patched tree (hard links) plus lib/ioctl_verify/,
# rebuilt only when the series changes, so timestamps stay put.
skey=$(cat "$OUT/series.applied")
if [ "$(cat "$KD/src.key" 2>/dev/null)" != "$skey" ]; then
	rm -rf "$SRC" "$KD/src.key" && mkdir -p "$SRC" &&
	(cd "$TREE" && find . -mindepth 1 -maxdepth 1 ! -name .git -exec cp -al {} "$SRC/" \;) &&
	rm "$SRC/lib/Makefile" && cp "$TREE/lib/Makefile" "$SRC/lib/Makefile" &&
	echo 'obj-$(CONFIG_KUNIT) += ioctl_verify/' >>"$SRC/lib/Makefile" &&
	mkdir -p "$SRC/lib/ioctl_verify" &&
	echo 'obj-y += $(SRCARCH)/' >"$SRC/lib/ioctl_verify/Makefile" &&
	echo "$skey" >"$KD/src.key" || { not_ok "verify/kernels: source overlay ${SRC#$ROOT/}"; exit 1; }
fi

# write_if_changed FILE: stdin into FILE, only when it differs
write_if_changed() { cat >"$1.new"; cmp -s "$1.new" "$1" && rm "$1.new" || mv "$1.new" "$1"; }

# one_arch ARCH: build, check and boot one layout; its TAP on stdout.
one_arch() {
	A=$1
	layout "$A" || { not_ok "verify/$A: no such layout (one of: $ALL)"; return; }
	T=verify/$A
	KO=$KD/$A
	GD=$SRC/lib/ioctl_verify/$A
	mkdir -p "$KO" "$GD"
	cc=${X}gcc
	command -v "$cc" >/dev/null || { not_ok "$T: no $cc (tools/install-deps)"; return; }
	command -v "${QEMU%% *}" >/dev/null || { not_ok "$T: no ${QEMU%% *} (tools/install-deps)"; return; }
	command -v ccache >/dev/null && cc="ccache $cc"
	kmake() { make -C "$SRC" O="$KO" ARCH="$KARCH" CROSS_COMPILE="$X" CC="$cc" HOSTCC=gcc -j"$JOBS" "$@"; }
	# A registry without this ABI (the test fixture's has x86 only).
	if ! "$PY" -m ioctltools.model_reader abis.name "$MODEL" | grep -xF -- "$ABI" >/dev/null; then
		ok "$T # SKIP the model ($MODEL) has no ABI $ABI"
		return
	fi
	if ! "$PY" tests/verify/gen_kunit.py "$MODEL" "$A" "$ABI" "$GD" "$TREE" >"$LOG/$A-gen.log" 2>&1; then
		sed 's/^/# /' "$LOG/$A-gen.log"
		not_ok "$T: generate the KUnit suite for ABI $ABI from $MODEL"
		return
	fi
	# A layout whose every input is as an earlier run had them, on this
	# machine or in another clone, reports that run's results again
	# (tests/verify/keys.sh).  VERIFY_TREE_ID: the pristine tree's identity
	# (tests/verify/run); without it nothing is cached.
	local key tap=$KO/result.tap
	key=$(kernel_key "$A" "$GD" "${skey%% *}" "${VERIFY_TREE_ID:-}" "$X" "${QEMU%% *}")
	if rcache_get "kernel-$A" "$key" "$tap"; then
		rcache_note "kernel-$A" "$key"
		cat "$tap"
		return
	fi
	build_arch >"$tap" 2>&1
	cat "$tap"
	# Only a run whose every test passed is kept; step 9's wrong layout
	# (VERIFY_CACHE_FAILED=1) is kept when its guest booted and ended by
	# itself, since failing is what it must do.
	if ! grep -q '^not ok' "$tap" ||
	   { [ "${VERIFY_CACHE_FAILED:-}" = 1 ] && grep -q "^ok - $T: guest .* ended by itself" "$tap"; }; then
		rcache_put "kernel-$A" "$key" "$tap"
	fi
}

# build_arch: the rest of one_arch, its variables set.
build_arch() {
	# ---- 1. configure and build
	frags=("tests/verify/config/common.config" "tests/verify/config/$A.config")
	ckey="$(cat "${frags[@]}" | sha1sum | cut -c1-40) $skey"
	t0=$(date +%s)
	if [ "$(cat "$KO/config.key" 2>/dev/null)" != "$ckey" ] || [ ! -f "$KO/.config" ]; then
		rm -f "$KO/config.key"
		if ! { kmake tinyconfig && "$SRC/scripts/kconfig/merge_config.sh" -m -O "$KO" "$KO/.config" "${frags[@]}" &&
		       kmake olddefconfig; } >"$LOG/$A-config.log" 2>&1; then
			tail -5 "$LOG/$A-config.log" | sed 's/^/# /'
			not_ok "$T: configure (tinyconfig + ${frags[*]})"
			return
		fi
		echo "$ckey" >"$KO/config.key"
	fi
	missing=$(cat "${frags[@]}" | grep '^CONFIG_' | while read -r l; do grep -qxF "$l" "$KO/.config" || echo "${l%%=*}"; done)
	[ -z "$missing" ] && ok "$T: config tinyconfig + ${frags[*]}, every option set" ||
		not_ok "$T: config; not set: $(echo $missing)"
	# The headers are built in groups (g<k>.o, gen_kunit.py).  A group
	# that fails is built as its units (h<n>.o); a unit that does not
	# compile in kernel context is left out and said so.  What failed
	# before (same sources, same series) is left out at once, so a warm
	# build links nothing new.  FAILED: "<object> <sha1 of its sources>".
	failed=$KO/failed-units
	[ "$(head -1 "$failed" 2>/dev/null)" = "$skey" ] || echo "$skey" >"$failed"
	srckey() { # OBJECT: the sha1 of its source and, for a group, its units'
		local f=("$GD/$1.c") i
		if [[ $1 == g* ]]; then
			for i in $(group_members "$GD/groups" "$1"); do f+=("$GD/h$i.c"); done
		fi
		cat "${f[@]}" | sha1sum | cut -c1-40
	}
	failed_before() { grep -qx "$1 $(srckey "$1")" "$failed"; }
	case_of() { awk -v i="${1#h}" '$1 == i { print $2 }' "$GD/units"; }
	objs=() skipped=()
	add_units() { # GROUP ARRAY: the units of the group, alone, onto the array
		local -n to=$2
		local i
		for i in $(group_members "$GD/groups" "$1"); do
			if failed_before "h$i"; then skipped+=("$(case_of "h$i")"); else to+=("h$i"); fi
		done
	}
	while read -r g _; do
		if failed_before "$g"; then add_units "$g" objs; else objs+=("$g"); fi
	done <"$GD/groups"
	rm -f "$KO/build.cpu"
	arch_build() {
		{
			echo "# Generated by tests/verify/kernels.sh: the objects that compile."
			echo "obj-y += suite.o $(printf '%s.o ' "${objs[@]}")"
			for o in "${objs[@]}"; do [[ $o == g* ]] && echo "CFLAGS_$o.o += -Werror"; done
			echo 'obj-$(IOCTL_VERIFY_TYPECHECK) += typecheck_sizeof.o typecheck_oversize.o typecheck_bad_spelling.o'
		} | write_if_changed "$GD/Makefile"
		cpu_of "$KO/build.cpu" kmake -k "${IMG##*/}" >"$LOG/$A-build.log" 2>&1
	}
	# A failed object is remembered; a group's units go after the others.
	group_failed() {
		echo "$1 $(srckey "$1")" >>"$failed"
		if [[ $1 == g* ]]; then
			add_units "$1" later
		else
			skipped+=("$(case_of "$1")")
			grep -A2 "$1.c:.*error" "$LOG/$A-build.log" | head -3 | sed 's/^/# /'
		fi
	}
	# The failed objects are below lib/ioctl_verify/$A/ (not the digits of
	# x86 or arm64 in the path).
	build_groups arch_build "$LOG/$A-build.log" ".*lib/ioctl_verify/$A/"
	nobj=${#objs[@]}
	nhdr=$(($(wc -l <"$GD/units") - ${#skipped[@]}))
	if [ -f "$KO/$IMG" ] && ! grep -q '\] Error' "$LOG/$A-build.log"; then
		tb=$(($(date +%s) - t0))
		cpu=$(cpu_sum "$KO/build.cpu")
		echo "$A build $tb" >>"$TIMES"
		echo "$A cpu $cpu" >>"$TIMES"
		ok "$T: kernel $IMG built ($KARCH, ${X}gcc, ${tb}s, $cpu CPU-s, ${nhdr} headers in ${nobj} objects)"
	else
		grep -E 'error|Error' "$LOG/$A-build.log" | head -10 | sed 's/^/# /'
		not_ok "$T: kernel $IMG built (see ${LOG#$ROOT/}/$A-build.log)"
		return
	fi
	# ---- 2. the type check, with this ARCH's compiler and headers
	for v in sizeof oversize bad_spelling; do
		o=lib/ioctl_verify/$A/typecheck_$v.o
		rm -f "$KO/$o"
		kmake IOCTL_VERIFY_TYPECHECK=y "$o" >"$LOG/$A-typecheck-$v.log" 2>&1
		built=$?
		# An oversized type compiles and leaves an undefined reference
		# that fails the link.
		[ $built -eq 0 ] && ${X}nm -u "$KO/$o" | grep -q __invalid_size_argument_for_IOC && built="link"
		case $v:$built in
		sizeof:0) not_ok "$T: _IOR('x', 1, sizeof(int)) is rejected in kernel context (it built)" ;;
		sizeof:*) ok "$T: _IOR('x', 1, sizeof(int)) is rejected in kernel context: $(grep -o 'error: .*' "$LOG/$A-typecheck-$v.log" | head -1)" ;;
		oversize:link) ok "$T: _IOR('x', 2, <1 << _IOC_SIZEBITS bytes>) is rejected: undefined __invalid_size_argument_for_IOC" ;;
		oversize:*) not_ok "$T: _IOR('x', 2, <1 << _IOC_SIZEBITS bytes>) is rejected (exit $built, no undefined __invalid_size_argument_for_IOC)" ;;
		bad_spelling:0) ok "$T: _IOR_BAD('x', 1, sizeof(int)) builds in kernel context" ;;
		bad_spelling:*) grep 'error' "$LOG/$A-typecheck-$v.log" | head -3 | sed 's/^/# /'
			not_ok "$T: _IOR_BAD('x', 1, sizeof(int)) builds in kernel context" ;;
		esac
	done
	# ---- 3. boot and read the KTAP
	t0=$(date +%s)
	# shellcheck disable=SC2086
	timeout "$TIMEOUT" $QEMU -m "$MEM" -nographic -no-reboot -kernel "$KO/$IMG" \
		-append "console=$CON panic=-1 kunit_shutdown=$OFF" </dev/null >"$LOG/$A-guest.log" 2>&1
	rc=$? tg=$(($(date +%s) - t0))
	echo "$A boot $tg" >>"$TIMES"
	if [ $rc -eq 124 ]; then
		tail -3 "$LOG/$A-guest.log" | sed 's/^/# /'
		not_ok "$T: guest ($QEMU) ended within ${TIMEOUT}s (timed out)"
	else
		ok "$T: guest ($QEMU) ran and ended by itself in ${tg}s (qemu exit $rc)"
	fi
	"$PY" tests/verify/ktap.py "$A" "$ABI" "$GD/units" "$LOG/$A-guest.log" "${skipped[@]}"
}

# Two lanes of layouts at once (VERIFY_LANES): a build leaves a core idle
# while it configures, links and boots, and the other lane fills it.
# Each layout's TAP goes to a file of this run (not build/verify/log:
# step 9 runs parisc again), printed in the order asked for.
# shellcheck disable=SC2206 # $ALL is a word list
arches=(${@:-$ALL})
LANES=${VERIFY_LANES:-2}
taps=$(mktemp -d "$KD/tap.XXXXXX") || { not_ok "verify/kernels: mktemp in ${KD#$ROOT/}"; exit 1; }
for ((l = 0; l < LANES; l++)); do
	(
		for ((i = l; i < ${#arches[@]}; i += LANES)); do
			one_arch "${arches[i]}" >"$taps/$i.tap" 2>&1
		done
	) &
done
wait
for i in "${!arches[@]}"; do cat "$taps/$i.tap"; done
rm -rf "$taps"
