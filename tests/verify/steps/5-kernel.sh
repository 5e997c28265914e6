# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# tests/verify/run, steps 5 and 4: the x86_64 kernel, the type check in kernel context, the modules.
# Sourced by steps/4-6-x86.sh, whose results the cache keeps: the variables
# and helpers of tests/verify/run are set.

# ---------------------------------------------------------------- 5. kernel
# The config is regenerated only when the fragment or the series changes,
# so a warm run rebuilds nothing.
ckey="$(sha1sum <"$FRAGMENT" | cut -c1-40) $key"
if [ "$(cat "$OUT/config.key" 2>/dev/null)" != "$ckey" ] || [ ! -f "$KOBJ/.config" ]; then
	rm -f "$OUT/config.key"
	mkdir -p "$KOBJ"
	run config sh -c "make -C '$TREE' O='$KOBJ' tinyconfig &&
		'$TREE/scripts/kconfig/merge_config.sh' -m -O '$KOBJ' '$KOBJ/.config' '$FRAGMENT' &&
		make -C '$TREE' O='$KOBJ' olddefconfig" || bail "configure the kernel (tinyconfig + ${FRAGMENT#$ROOT/})"
	echo "$ckey" >"$OUT/config.key"
fi
missing=$(grep '^CONFIG_' "$FRAGMENT" | while read -r l; do grep -qxF "$l" "$KOBJ/.config" || echo "${l%%=*}"; done)
if [ -z "$missing" ]; then
	ok "kernel config: tinyconfig + ${FRAGMENT#$ROOT/}, every option set"
else
	not_ok "kernel config: tinyconfig + ${FRAGMENT#$ROOT/}; not set: $(echo $missing)"
fi
t0=$(date +%s)
rm -f "$OUT/kernel.cpu"
if run kernel cpu_of "$OUT/kernel.cpu" kmake bzImage modules; then
	ok "kernel: bzImage and modules built ($(($(date +%s) - t0))s, $(cpu_sum "$OUT/kernel.cpu") CPU-s)"
else
	grep -E 'error|Error' "$LOG/kernel.log" | head -20 | sed 's/^/# /'
	bail "kernel: bzImage and modules built"
fi

# ---------------------------------------------------------------- 4. type check
# Kernel context: external modules built with the kernel's own flags and
# headers.  _IOR('x', 1, sizeof(int)) must not build; neither may a type
# too large for the size field; the _IOR_BAD spelling must.
for v in sizeof oversize; do
	case $v in
	sizeof) what="_IOR('x', 1, sizeof(int)) does not build in kernel context" ;;
	oversize) what="_IOR('x', 2, <type of 1 << _IOC_SIZEBITS bytes>) does not build in kernel context" ;;
	esac
	rm -f "$GEN/typecheck-$v/"*.o "$GEN/typecheck-$v/"*.ko
	if run typecheck-$v kmake M="$GEN/typecheck-$v" modules; then
		not_ok "$what (it built)"
	elif grep -qE '_IOC_TYPECHECK|__invalid_size_argument_for_IOC' "$LOG/typecheck-$v.log"; then
		ok "$what: $(grep -oE "error: .*|ERROR: .*" "$LOG/typecheck-$v.log" | head -1)"
	else
		grep -E 'error|ERROR' "$LOG/typecheck-$v.log" | head -10 | sed 's/^/# /'
		not_ok "$what (it failed, but not in _IOC_TYPECHECK)"
	fi
done
# The check module: one unit per header, built in groups (gen.py's
# kmod/g<k>.c, each with -Werror, so that a header redefining another's
# macro fails it); a group that fails is built as its units, and a unit
# that does not compile in kernel context is reported and left out (its
# commands' lines go missing).
kbuild() { # kbuild OBJECT...
	{
		echo "obj-m += ioctl_verify.o typecheck_bad_spelling.o"
		echo "ioctl_verify-y := main.o $*"
		for o in "$@"; do [[ $o == g* ]] && echo "CFLAGS_$o += -Werror"; done
	} >"$GEN/kmod/Kbuild.new"
	cmp -s "$GEN/kmod/Kbuild.new" "$GEN/kmod/Kbuild" || mv "$GEN/kmod/Kbuild.new" "$GEN/kmod/Kbuild"
	rm -f "$GEN/kmod/Kbuild.new"
}
mapfile -t units <"$GEN/units"
rm -f "$GEN/kmod/"*.ko
objs=() skip_prefixes=()	# the guest lines of the units left out
declare -A left_out=()	# unit -> the first errors of its compiler
while read -r g _; do objs+=("$g"); done <"$GEN/kmod/groups"
x86_build() { kbuild $(printf '%s.o\n' "${objs[@]}"); run kmod kmake -k M="$GEN/kmod" modules; }
# A failed group: its units in its place; a failed unit: left out.
group_failed() {
	local i
	if [[ $1 == g* ]]; then
		for i in $(group_members "$GEN/kmod/groups" "$1"); do left+=("h$i"); done
	else
		left_out[${1#h}]=$(awk -v o="/$1.o" 'index($0, "CC [M]") { on = index($0, o) > 0 } on && /: error/' \
			"$LOG/kmod.log" | head -5 | sed 's/^/# /')
	fi
}
build_groups x86_build "$LOG/kmod.log" '.*/'
# Some uapi headers need what only userspace or the kernel's own header of
# that name provides; the user tests still check their numbers on every
# ABI.  Reported in unit order: which round of make finds a unit varies.
for u in "${units[@]}"; do
	i=${u%% *}
	[ -n "${left_out[$i]+set}" ] || continue
	h=$(awk -v i="$i" '$1 == i { print $2 }' "$GEN/units")
	[ -z "${left_out[$i]}" ] || echo "${left_out[$i]}"
	ok "kernel context: <$h> (${GEN#$ROOT/}/kmod/h$i.c) # SKIP does not compile in kernel context"
	skip_prefixes+=("kernel <$h> ")
done
if [ -f "$GEN/kmod/ioctl_verify.ko" ] && [ -f "$GEN/kmod/typecheck_bad_spelling.ko" ] &&
   ! grep -q 'Error' "$LOG/kmod.log"; then
	ok "kernel modules ioctl_verify.ko and typecheck_bad_spelling.ko (_IOR_BAD('x', 1, sizeof(int))) build"
else
	grep -E 'error|ERROR' "$LOG/kmod.log" | head -20 | sed 's/^/# /'
	not_ok "kernel modules ioctl_verify.ko and typecheck_bad_spelling.ko (_IOR_BAD('x', 1, sizeof(int))) build"
fi
