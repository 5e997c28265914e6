# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# tests/verify/run, steps 4 to 6: the x86_64 kernel, the type check, the modules, the example driver and the guest.
# Sourced by tests/verify/run in order: its variables and helpers are set.

# ---------------------------------------------------------------- 4 to 6: cached
# Steps 5, 4, 6a and 6 (the x86_64 kernel, the type check, the modules, the
# example driver, the guest) as one: when everything they read is as an
# earlier run had it, here or in another clone, that run's results are
# reported again (tests/verify/keys.sh); only a run without a failure is kept.
xkey=$(x86_key "$GEN" "$key" "$VERIFY_TREE_ID" "$FRAGMENT")
if rcache_get x86-kernel "$xkey" "$OUT/x86.tap"; then
	rcache_note x86-kernel "$xkey"
	tap_lines <"$OUT/x86.tap"
else
CAPTURE=$OUT/x86.tap
: >"$CAPTURE"
failed_before=$failed

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
	notok "kernel config: tinyconfig + ${FRAGMENT#$ROOT/}; not set: $(echo $missing)"
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
		notok "$what (it built)"
	elif grep -qE '_IOC_TYPECHECK|__invalid_size_argument_for_IOC' "$LOG/typecheck-$v.log"; then
		ok "$what: $(grep -oE "error: .*|ERROR: .*" "$LOG/typecheck-$v.log" | head -1)"
	else
		grep -E 'error|ERROR' "$LOG/typecheck-$v.log" | head -10 | sed 's/^/# /'
		notok "$what (it failed, but not in _IOC_TYPECHECK)"
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
	notok "kernel modules ioctl_verify.ko and typecheck_bad_spelling.ko (_IOR_BAD('x', 1, sizeof(int))) build"
fi

# ---------------------------------------------------------------- 6a. the example driver
# tests/example: a misc driver whose whole header the registry renders from
# its own small registry (tests/example/spec), apart from spec/ and the
# series.  Built by the entry point a driver's author uses, tools/driver-test
# (its step 4 alone, against this kernel: tests/verify/driver-build.sh); its
# module and its -m64/-m32/-mx32 programs join the initramfs; the guest runs
# them after the user tests.
EX=$OUT/example
KCC=$KCC JOBS=$JOBS tools/driver-test --build-only tests/example "$TREE" "$KOBJ" "$HP/include" "$EX" >"$LOG/example.tap" 2>&1
st=$?
tap_lines <"$LOG/example.tap"
exited tools/driver-test "$st" "$LOG/example.tap"
cat "$GEN/expected" "$EX/expected" >"$OUT/expected" 2>/dev/null

# ---------------------------------------------------------------- 6. boot
IR=$OUT/initramfs
rm -rf "$IR" && mkdir -p "$IR"
# The user test: one object per header, the same way (ccache when present).
while read -r abi mflag; do
	bits=${mflag#-m}
	cflags=("$mflag" -O2 -Wall -Werror -I "$GEN/utest" -I "$OUT/probe/defs/patched" -I "$HP/include"
		-idirafter "$GEN/stub-include")
	objs=()
	units "$GEN/utest" "$OUT/utest-$abi" -c "$(for u in "${units[@]}"; do printf 'u%s ' "${u%% *}"; done)" "${cflags[@]}"
	for u in "${units[@]}"; do
		i=${u%% *}
		if [ -f "$OUT/utest-$abi/u$i.o" ]; then
			objs+=("$OUT/utest-$abi/u$i.o")
		else
			grep -E ': error' "$OUT/utest-$abi/u$i.err" | head -5 | sed 's/^/# /'
			notok "user space $mflag: <${u#* }> compiles (${GEN#$ROOT/}/utest/u$i.c)"
		fi
	done
	if run utest-$abi gcc "${cflags[@]}" -static -o "$IR/utest-$abi" "$GEN/utest/main.c" "${objs[@]}"; then
		ok "user test utest-$abi builds (static, $mflag, patched headers_install, ${#objs[@]} of ${#units[@]} headers)"
	else
		sed 's/^/# /' "$LOG/utest-$abi.log" | head -20
		notok "user test utest-$abi builds (static, $mflag, patched headers_install)"
	fi
done <"$GEN/abis"
[ -x "$OUT/gen_init_cpio" ] && [ "$OUT/gen_init_cpio" -nt "$TREE/usr/gen_init_cpio.c" ] ||
	gcc -O2 -o "$OUT/gen_init_cpio" "$TREE/usr/gen_init_cpio.c" || bail "build usr/gen_init_cpio"
{
	echo "dir /dev 0755 0 0"
	echo "nod /dev/console 0600 0 0 c 5 1"
	echo "dir /bin 0755 0 0"
	echo "dir /proc 0755 0 0"
	echo "dir /sys 0755 0 0"
	echo "file /bin/busybox $(command -v busybox) 0755 0 0"
	echo "file /init $GEN/init 0755 0 0"
	for f in "$GEN/kmod/ioctl_verify.ko" "$IR"/utest-* "$EX/kmod/ioctl_example.ko" "$EX"/example-*; do
		[ -f "$f" ] && echo "file /${f##*/} $f 0755 0 0"
	done
} >"$IR/list"
"$OUT/gen_init_cpio" "$IR/list" >"$IR/initramfs.cpio" || bail "build the initramfs"

# tools/qemu-x86-boot boots again once when TCG on a loaded machine misses
# the early timer check ("IO-APIC + timer doesn't work", before /init)
t0=$(date +%s)
tools/qemu-x86-boot "$TIMEOUT" "$LOG/guest" "$KOBJ/arch/x86/boot/bzImage" "$IR/initramfs.cpio" \
	"console=ttyS0 panic=-1 oops=panic quiet log_buf_len=16M" -device isa-debug-exit
rc=$?
if [ $rc -eq 124 ]; then
	notok "guest: finished within ${TIMEOUT}s (timed out)"
elif grep -q 'Kernel panic' "$LOG/guest.txt"; then
	grep -A3 'Kernel panic' "$LOG/guest.txt" | head -5 | sed 's/^/# /'
	notok "guest: no kernel panic"
elif ! grep -qx 'VERIFY done' "$LOG/guest.txt"; then
	tail -5 "$LOG/guest.txt" | sed 's/^/# /'
	notok "guest: ran to the end (qemu exit $rc)"
else
	ok "guest: booted, ran and rebooted in $(($(date +%s) - t0))s"
fi
gp=0 gf=0
while IFS=$'\t' read -r status text; do
	if [ "$status" = ok ]; then ok "guest $text"; gp=$((gp + 1)); else notok "guest $text"; gf=$((gf + 1)); fi
done < <("$PY" - "$OUT/expected" "$LOG/guest.txt" "${skip_prefixes[@]}" <<'EOF'
import re, sys
skipped = tuple(sys.argv[3:])
expected = [l.rstrip("\n") for l in open(sys.argv[1])]
expected = [e for e in expected if not skipped or not e.startswith(skipped)]
seen = {}
for line in open(sys.argv[2], errors="replace"):
    m = re.match(r"VERIFY (ok|not ok) (.*?)(?: # (.*))?$", line.rstrip("\n"))
    if m:
        seen.setdefault(m.group(2), []).append((m.group(1), m.group(3) or ""))
for e in expected:
    r = seen.pop(e, [])
    if not r:
        print("not ok\t%s: no result line" % e)
    elif len(r) > 1:
        print("not ok\t%s: %d result lines" % (e, len(r)))
    elif r[0][1].startswith("SKIP"):	# a check that cannot be made on this ABI
        print("%s\t%s # %s" % (r[0][0], e, r[0][1]))
    else:
        print("%s\t%s%s" % (r[0][0], e, " (%s)" % r[0][1] if r[0][1] else ""))
for e, r in seen.items():
    print("not ok\t%s: unexpected result line (%s %s)" % (e, r[0][0], r[0][1]))
EOF
)
echo "# guest: $gp passed, $gf failed"
CAPTURE=
[ "$failed" -ne "$failed_before" ] || rcache_put x86-kernel "$xkey" "$OUT/x86.tap"
fi
