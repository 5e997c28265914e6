# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# tests/verify/run, step 6: the guest boots, and its module and programs check every number.
# Sourced by steps/4-6-x86.sh, whose results the cache keeps: the variables
# and helpers of tests/verify/run are set.

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
			not_ok "user space $mflag: <${u#* }> compiles (${GEN#$ROOT/}/utest/u$i.c)"
		fi
	done
	if run utest-$abi gcc "${cflags[@]}" -static -o "$IR/utest-$abi" "$GEN/utest/main.c" "${objs[@]}"; then
		ok "user test utest-$abi builds (static, $mflag, patched headers_install, ${#objs[@]} of ${#units[@]} headers)"
	else
		sed 's/^/# /' "$LOG/utest-$abi.log" | head -20
		not_ok "user test utest-$abi builds (static, $mflag, patched headers_install)"
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
	not_ok "guest: finished within ${TIMEOUT}s (timed out)"
elif grep -q 'Kernel panic' "$LOG/guest.txt"; then
	grep -A3 'Kernel panic' "$LOG/guest.txt" | head -5 | sed 's/^/# /'
	not_ok "guest: no kernel panic"
elif ! grep -qx 'VERIFY done' "$LOG/guest.txt"; then
	tail -5 "$LOG/guest.txt" | sed 's/^/# /'
	not_ok "guest: ran to the end (qemu exit $rc)"
else
	ok "guest: booted, ran and rebooted in $(($(date +%s) - t0))s"
fi
gp=0 gf=0
while IFS=$'\t' read -r status text; do
	if [ "$status" = ok ]; then ok "guest $text"; gp=$((gp + 1)); else not_ok "guest $text"; gf=$((gf + 1)); fi
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
