# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# tests/verify/run, step 2: every uapi header the series touches compiles on its own.
# Sourced by tests/verify/run in order: its variables and helpers are set.

# ---------------------------------------------------------------- 2. headers
mapfile -t arches < <("$PY" -m ioctltools.model_reader abis.arch "$MODEL" | LC_ALL=C sort -u)
# The pristine tree's export of every ARCH of the model: the Makefile's
# (`make uapi`, which make check makes for its other suites; where the
# pipeline puts VERSION's: generator/ioctltools/pipeline.py), made here if
# it is not there.  A tree of one's own (VERIFY_PRISTINE) has none.
puapi=
if [ -z "${VERIFY_PRISTINE:-}" ]; then
	# shellcheck disable=SC2046 # one target per ARCH
	puapi=$("$PY" -m ioctltools.pipeline --version "$VERSION" dir uapi 2>"$LOG/hdr-pristine-uapi.log") &&
		run hdr-pristine-uapi make -s -j"$JOBS" $(printf "$puapi/%s/.done " "${arches[@]}") || puapi=
fi
# The pristine x86 headers are that export's x86: a headers_install of
# their own cost a CPU-minute a tree.  The Makefile exports a tree's ARCHes
# one after another in one Kbuild object directory; step 3b checks that
# its x86 export, with the files the series changes exported again, equals
# the patched tree's own headers_install byte for byte, so every file the
# series leaves alone is checked.  Without an export: a headers_install,
# cached, keyed by the tree alone (as step 7's pristine documentation).
pkey=$(stat -c '%s %Y' "$PRISTINE/Makefile" "$PRISTINE"/.extracted 2>/dev/null | tr '\n' ' ')
if [ -n "$puapi" ] && [ -d "$puapi/x86/include" ]; then
	rm -rf "$OUT/hdr-pristine" "$OUT/hdr-pristine-obj" "$OUT/hdr-pristine.key"
	ln -s "$ROOT/$puapi/x86" "$OUT/hdr-pristine" || bail "link $OUT/hdr-pristine to $puapi/x86"
elif [ -L "$OUT/hdr-pristine" ] || [ "$(cat "$OUT/hdr-pristine.key" 2>/dev/null)" != "$pkey" ]; then
	rm -rf "$OUT/hdr-pristine" "$OUT/hdr-pristine-obj" "$OUT/hdr-pristine.key"
	run hdr-pristine tools/headers-install "$PRISTINE" "$OUT/hdr-pristine-obj" x86 "$OUT/hdr-pristine" -j"$JOBS" ||
		bail "headers_install of the pristine tree"
	echo "$pkey" >"$OUT/hdr-pristine.key"
fi
HP=$OUT/hdr-patched
rm -rf "$OUT/hdr-arch"
run hdr-patched tools/headers-install "$TREE" "$OUT/hdr-patched-obj" x86 "$HP" -j"$JOBS" ||
	bail "headers_install of the patched tree"

# Like usr/include/Makefile: each header on its own, twice (include guard),
# -std=c90, plus headers_check.pl (once: it reads no -m); asm-generic/* only
# through asm/*.
hdrtest() { # hdrtest INCLUDE-DIR HEADER M
	gcc "-m$3" -std=c90 -Wall -Werror -fsyntax-only -x c /dev/null \
		-I "$1" -I "$HP/include" -I "$TREE/usr/dummy-include" -include "$2" -include "$2"
}
hdrcheck() { # hdrcheck INCLUDE-DIR HEADER ARCH
	(cd "$TREE" && perl usr/include/headers_check.pl "$1" "$3" "$1/$2")
}
tested=()
for f in "${changed[@]}"; do
	case $f in
	include/uapi/asm-generic/*.h)
		h=asm/${f#include/uapi/asm-generic/}
		[ -f "$HP/include/$h" ] || h=${f#include/uapi/}
		tested+=("$HP/include $h")
		[ "$h" = asm/ioctl.h ] && tested+=("$HP/include linux/ioctl.h") ;;
	include/uapi/*.h)
		tested+=("$HP/include ${f#include/uapi/}") ;;
	arch/x86/include/uapi/*.h)
		tested+=("$HP/include ${f#arch/x86/include/uapi/}") ;;
	arch/*/include/uapi/*.h)
		# Another architecture: export its uapi asm headers into an
		# overlay and compile them with the x86 compilers (macros only).
		a=${f#arch/}; a=${a%%/*}
		ov=$OUT/hdr-arch/$a
		# Everything but asm/ is the x86 export (linux/, asm-generic/, ...).
		if [ ! -f "$ov/.done" ]; then
			rm -rf "$ov" && mkdir -p "$ov/asm"
			for d in "$HP/include/"*/; do
				d=${d%/}
				[ "${d##*/}" = asm ] || ln -s "$d" "$ov/${d##*/}"
			done
			for s in "$TREE/arch/$a/include/uapi/asm/"*.h; do
				(cd "$OUT/hdr-patched-obj" && sh "$TREE/scripts/headers_install.sh" "$s" "$ov/asm/${s##*/}")
			done
			# The asm/ headers the ARCH takes from asm-generic (mandatory-y
			# and its generic-y), as headers_install writes them: sh's
			# asm/ioctls.h includes <asm/ioctl.h>, which sh does not have.
			for g in $(sed -n 's/^\(mandatory\|generic\)-y += \([a-z0-9_]*\.h\)$/\2/p' \
					"$TREE/include/uapi/asm-generic/Kbuild" "$TREE/arch/$a/include/uapi/asm/Kbuild" 2>/dev/null); do
				[ -e "$ov/asm/$g" ] || echo "#include <asm-generic/$g>" >"$ov/asm/$g"
			done
			touch "$ov/.done"
		fi
		tested+=("$ov ${f#arch/$a/include/uapi/} $a") ;;
	esac
done
# The kernel's own exceptions (no-header-test in usr/include/Makefile).
mapfile -t nht < <(sed -n 's/^no-header-test += \([^%]*\.h\)$/\1/p' "$TREE/usr/include/Makefile")
header_tests() { # unnumbered TAP
	local t dir h arch where m checked
	for t in "${tested[@]}"; do
		read -r dir h arch <<<"$t"
		where=${dir#"$OUT"/}
		if [[ " ${nht[*]} " == *" $h "* ]]; then
			echo "ok - header $h ($where) # SKIP no-header-test in usr/include/Makefile"
			continue
		fi
		run hdrcheck hdrcheck "$dir" "$h" "${arch:-x86}"
		checked=$?
		for m in 64 32; do
			if run hdrtest hdrtest "$dir" "$h" $m && [ "$checked" -eq 0 ]; then
				echo "ok - header $h ($where) compiles on its own, -m$m -std=c90"
			else
				sed 's/^/# /' "$LOG/hdrtest.log" | head -20
				[ "$checked" -eq 0 ] || sed 's/^/# headers_check.pl: /' "$LOG/hdrcheck.log" | head -10
				echo "not ok - header $h ($where) compiles on its own, -m$m -std=c90"
			fi
		done
	done
}
# Cached by what the tests read, by content: the x86 export and the other
# ARCHes' overlays, the kernel's checker and dummy includes, the compiler
# and the list.  A warm run with none of them changed reports the last
# results again, saying so; a run with a failure writes no key.
hkey=$({
	rcache_toolchain
	declare -f hdrtest hdrcheck header_tests
	printf '%s\n' "${tested[@]}" -- "${nht[@]}"
	gcc --version
	command -v gcc | xargs -r ls -lL
	(cd "$OUT" && find hdr-patched/include hdr-arch -type l -printf '%p -> %l\n' 2>/dev/null | sort)
	(cd "$OUT" && find hdr-patched/include hdr-arch -type f -print0 2>/dev/null | sort -z | xargs -0 -r sha1sum)
	find "$TREE/usr/dummy-include" "$TREE/usr/include/headers_check.pl" -type f -print0 | sort -z | xargs -0 -r sha1sum
} | rcache_key)
if rcache_get hdrtest "$hkey" "$OUT/hdrtest.tap"; then
	rcache_note hdrtest "$hkey"
else
	header_tests >"$OUT/hdrtest.tap"
	grep -q '^not ok' "$OUT/hdrtest.tap" || rcache_put hdrtest "$hkey" "$OUT/hdrtest.tap"
fi
tap_lines <"$OUT/hdrtest.tap"
[ ${#tested[@]} -eq 0 ] && echo "# no uapi header changed by the series"
