#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The committed spec/sizes/*.yaml must be what the compilers measure today.
# Remeasure into a temporary directory with tools/measure-sizes and compare
# every type and the absent commands of every ABI; a difference names the
# type or command, the ABI and both values.  Then fixture specs: commands
# absent on some of the nine ABIs for each reason measure-sizes knows (an
# unexported header, an arch-only type, a macro an ARCH lacks, an
# asm-generic header its <asm/...> does not include), and mistakes that must
# be errors, never absences.  TAP lines on stdout.
# Usage: tests/sizes-fresh.sh [SPEC_DIR BUILD_DIR]
set -u
cd "$(dirname "$0")/.." || exit 1
. tests/lib/tap.sh
spec=${1:-spec}
build=${2:-build}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The exported headers the probes include (make builds them once), for the
# ARCHes of the ABIs as ioctlgen reads abis.yaml.
if ! arches=$(/usr/bin/python3 -m ioctltools.registry arches "$spec" 2>"$tmp/log"); then
	diag <"$tmp/log"
	bail "the ARCHes of $spec/abis.yaml, from ioctlgen dump"
fi
# Each kernel version the registry knows is measured against its own tree's
# headers (where the pipeline puts them: generator/ioctltools/pipeline.py) and compared
# with spec/sizes (the oldest) or spec/sizes/<version>.
if ! versions=$(/usr/bin/python3 -m ioctltools.registry versions "$spec" 2>"$tmp/log"); then
	diag <"$tmp/log"
	bail "the versions of $spec/versions.yaml, from ioctlgen dump"
fi
first=$(echo "$versions" | head -1)
pairs=()
for v in ${versions:--}; do
	uapi=$build/uapi stored=$spec/sizes vopt=
	if [ "$v" != - ]; then
		vopt="--version $v"
		uapi=$(/usr/bin/python3 -m ioctltools.pipeline --spec "$spec" --build "$build" \
			--version "$v" dir uapi 2>"$tmp/log") || { diag <"$tmp/log"; bail "the exports of $v"; }
		[ "$v" = "$first" ] || stored=$spec/sizes/$v
	fi
	# Two exports at once: one headers_install leaves a core idle.
	# shellcheck disable=SC2046 # one target per ARCH
	if ! make -s -j2 $(printf "$uapi/%s/.done " $arches) >"$tmp/log" 2>&1; then
		diag <"$tmp/log"
		bail "make $uapi/<each ARCH>/.done"
	fi
	mkdir -p "$tmp/fresh-$v"
	# the kernel-internal headers in kernel context, on the trees make sizes
	# configures (generator/ioctltools/kconf.py: one per base ABI, in the cache)
	kopt=
	if [ "$v" != - ]; then
		kopt=$(/usr/bin/python3 -m ioctltools.kcontext args "$spec" "$v" "$build") ||
			bail "the kernel-context trees of $v (generator/ioctltools/kcontext.py)"
		# shellcheck disable=SC2046 # one target per configured tree
		if [ -n "$kopt" ] && ! make -s -j2 $(/usr/bin/python3 -m ioctltools.kcontext \
				targets "$spec" "$build") >"$tmp/log" 2>&1; then
			diag <"$tmp/log"
			bail "make the configured kernel trees of kernel-context"
		fi
	fi
	# shellcheck disable=SC2086 # kopt: options, split
	if ! tools/measure-sizes $vopt $kopt --uapi "$uapi" -o "$tmp/fresh-$v" "$spec" "$build" >"$tmp/log" 2>&1; then
		diag <"$tmp/log"
		bail "tools/measure-sizes $vopt $kopt --uapi $uapi $spec $build"
	fi
	pairs+=("$stored" "$tmp/fresh-$v")
done

# The stored sizes against the fresh ones: which type or command of which
# ABI differs (the YAML of the two measure-sizes outputs), then the bytes.
cat >"$tmp/compare.py" <<'PY'
import os
import sys

import yaml

stored_dir, fresh_dir = sys.argv[1:]
from tap import check, done  # noqa: E402

def sizes(path):
    with open(path, encoding="utf-8") as f:
        doc = yaml.safe_load(f)
    return doc.get("sizes") or {}, doc.get("absent") or [], doc.get("kernel-sizes") or {}


fresh = sorted(f for f in os.listdir(fresh_dir) if f.endswith(".yaml"))
stored = sorted(f for f in os.listdir(stored_dir) if f.endswith(".yaml")) \
    if os.path.isdir(stored_dir) else []
for name in sorted(set(stored) - set(fresh)):
    check(False, f"{stored_dir}/{name}: no ABI measures it any more")
for name in fresh:
    abi = name[:-5]
    path = os.path.join(stored_dir, name)
    if not os.path.exists(path):
        check(False, f"{path}: missing; run `make sizes`")
        continue
    (want, want_absent, want_k), (have, have_absent, have_k) = \
        sizes(os.path.join(fresh_dir, name)), sizes(path)
    bad = []
    for t in sorted(set(want) | set(have)):
        if t not in have:
            bad.append(f"{t}: ABI {abi}: not stored, measured {want[t]}")
        elif t not in want:
            bad.append(f"{t}: ABI {abi}: stored {have[t]}, no longer used by any spec")
        elif have[t] != want[t]:
            bad.append(f"{t}: ABI {abi}: stored {have[t]}, measured {want[t]}")
    check(not bad, f"{path}: {len(want)} sizes as measured by the {abi} compiler", bad)
    bad = [f"{t}: ABI {abi}: kernel-sizes: stored {have_k.get(t)}, measured {want_k.get(t)}"
           for t in sorted(set(want_k) | set(have_k)) if have_k.get(t) != want_k.get(t)]
    check(not bad, f"{path}: {len(want_k)} kernel-context sizes that differ, as measured", bad)
    bad = [f"{c}: ABI {abi}: stored as absent, but the headers define it" for c in
           sorted(set(have_absent) - set(want_absent))]
    bad += [f"{c}: ABI {abi}: the headers do not define it, not stored as absent" for c in
            sorted(set(want_absent) - set(have_absent))]
    check(not bad, f"{path}: {len(want_absent)} absent commands as measured", bad)
    with open(path, encoding="utf-8") as f, open(os.path.join(fresh_dir, name), encoding="utf-8") as g:
        check(f.read() == g.read(), f"{path} is byte-identical to a fresh `make sizes`")
done()
PY
for ((i = 0; i < ${#pairs[@]}; i += 2)); do
	subtests "" /usr/bin/python3 "$tmp/compare.py" "${pairs[i]}" "${pairs[i + 1]}" </dev/null
done

# A fixture spec: headers whose commands are missing on some ABIs, and
# headers with mistakes that must be errors, never absences.
cmd() {	# name dir nr [type]
	printf '  - name: %s\n    dir: %s\n    magic: %s\n    nr: %s\n' "$1" "$2" "$3" "$4"
	[ -n "${5:-}" ] && printf '    type: %s\n' "$5"
	printf '    doc: Test.\n'
}
spdx='# SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note'
# absent_diff OUTDIR <<'PY' ... PY: each ABI's absent list in OUTDIR against
# the `want` that the Python code on standard input defines for the base ABIs;
# mips64el and 32-bit powerpc read the headers of mips and powerpc64le, each
# time64 variant its base's.  Prints the differences, fails on any.
cat >"$tmp/absent.py" <<'PY'
import os
import sys

import yaml

exec(sys.stdin.read())
want["mips64el"], want["powerpc"] = want["mips"], want["powerpc64le"]
for base in ("i386", "mips", "parisc", "armhf", "powerpc", "m68k", "sh4"):
    want[base + "-time64"] = want[base]	# the same headers, another time_t
bad = 0
for abi in sorted(os.listdir(sys.argv[1])):
    if not abi.endswith(".yaml"):
        continue
    with open(os.path.join(sys.argv[1], abi), encoding="utf-8") as f:
        got = yaml.safe_load(f).get("absent", [])
    if got != want.get(abi[:-5], ["<no such ABI>"]):
        print(f"{abi[:-5]}: absent {got}, expected {want.get(abi[:-5])}")
        bad = 1
sys.exit(bad)
PY
absent_diff() {
	/usr/bin/python3 "$tmp/absent.py" "$1"
}
# absent_case DIR TEXT <<'PY' ... PY: tools/measure-sizes on the fixture
# registry DIR, then absent_diff of its output: one test, TEXT.
absent_case() {
	local d=$1 text=$2 rc
	if tools/measure-sizes -o "$d/out" "$d" "$build" >"$d.log" 2>&1 </dev/null; then
		absent_diff "$d/out" >"$d.diff"
		rc=$?
		[ $rc -eq 0 ] || diag <"$d.diff"
		check "$text" [ $rc -eq 0 ]
	else
		diag <"$d.log"
		not_ok "${text%%:*}: tools/measure-sizes runs on the fixture"
	fi
}
# refused [-n] EXIT TEXT MESSAGE... -- ARG...: tools/measure-sizes ARG...
# (its output in $d.log) exits EXIT and prints every MESSAGE; -n: and
# writes nothing into $d/out.  One test, TEXT.
refused() {
	local empty=0 want text msgs=() brc m good=1
	[ "$1" = -n ] && { empty=1; shift; }
	want=$1 text=$2
	shift 2
	while [ $# -gt 0 ] && [ "$1" != -- ]; do msgs+=("$1"); shift; done
	shift
	tools/measure-sizes "$@" >"$d.log" 2>&1
	brc=$?
	[ $brc -eq "$want" ] || good=0
	for m in "${msgs[@]}"; do grep -qF -- "$m" "$d.log" || good=0; done
	[ $empty -eq 0 ] || ! ls "$d/out"/*.yaml >/dev/null 2>&1 || good=0
	if [ $good -eq 1 ]; then
		ok "$text"
	else
		diag <"$d.log"
		not_ok "$text (exit $brc)"
	fi
}

fixture() {	# dir header [includes]: a registry of the one header
	mkdir -p "$1/headers/$(dirname "$2")"
	cp "$spec/abis.yaml" "$spec/layouts.yaml" "$spec/magic.yaml" "$spec/versions.yaml" "$1/"
	{
		echo "$spdx"
		echo "header: $2"
		echo "doc: A test header."
		[ -n "${3:-}" ] && echo "includes: [$3]"
		echo "commands:"
	} >"$1/headers/${2%.h}.yaml"
}

# linux/kvm.h: ARCH=sparc, alpha and parisc do not export it (include/uapi/linux/Kbuild
# exports it only with an asm/kvm.h); struct kvm_pit_state2 is x86's only.  asm/ioctls.h:
# powerpc's own does not define TCGETS2 (6.1) and does not include asm-generic/ioctls.h.
d=$tmp/absent
fixture "$d" linux/kvm.h
{
	cmd KVM_GET_API_VERSION none 0xAE 0
	cmd KVM_GET_PIT2 read 0xAE 0x9f "struct kvm_pit_state2"
	cmd KVM_GET_REGS read 0xAE 0x81 "struct kvm_regs"
} >>"$d/headers/linux/kvm.yaml"
fixture "$d" asm/ioctls.h asm/termbits.h
cmd TCGETS2 read "\"'T'\"" 0x2A "struct termios2" >>"$d/headers/asm/ioctls.yaml"
# An include of a header the ARCH does not export: the cross gcc of alpha and parisc
# would find the host's /usr/include/linux/kvm.h; that must not make BLKPG present.
fixture "$d" linux/blkpg.h linux/kvm.h
cmd BLKPG none 0x12 105 >>"$d/headers/linux/blkpg.yaml"
# asm-generic/ioctls.h reaches userspace through <asm/ioctls.h>, which only x86 and
# arm64 of the nine let include it; sparc's own defines TIOCGPTN with another number.
fixture "$d" asm-generic/ioctls.h
cmd TIOCGPTN read "\"'T'\"" 0x30 "unsigned int" >>"$d/headers/asm-generic/ioctls.yaml"
mkdir -p "$d/headers/arch/sparc/asm"
{
	printf '%s\nheader: asm/ioctls.h\narch: sparc\ndoc: A test header.\ncommands:\n' "$spdx"
	cmd TIOCGPTN read "\"'t'\"" 134 "unsigned int"
} >"$d/headers/arch/sparc/asm/ioctls.yaml"
absent_case "$d" "absent commands: an unexported header, an x86-only type, a macro powerpc lacks, asm-generic" <<'PY'
all3 = ["KVM_GET_API_VERSION", "KVM_GET_PIT2", "KVM_GET_REGS"]
want = {"x86_64": [], "i386": [], "x32": [], "arm64": ["KVM_GET_PIT2"],
        "powerpc64le": ["KVM_GET_PIT2", "TCGETS2", "TIOCGPTN"],
        "mips": ["KVM_GET_PIT2", "TIOCGPTN"],
        "sparc64": ["BLKPG"] + all3 + ["asm-generic/ioctls.h:TIOCGPTN"],
        "alpha": ["BLKPG"] + all3 + ["TIOCGPTN"], "parisc": ["BLKPG"] + all3 + ["TIOCGPTN"],
        # ARCH=arm and m68k export no kvm.h (nor does sh, whose own asm/ioctls.h
        # has no asm-generic one); riscv and s390 have KVM but no PIT
        "armhf": ["BLKPG"] + all3, "m68k": ["BLKPG"] + all3,
        "sh4": ["BLKPG"] + all3 + ["TIOCGPTN"],
        "riscv64": ["KVM_GET_PIT2"], "s390x": ["KVM_GET_PIT2"]}
PY

# Commands spelled as plain numbers: asm-generic/ioctls.h writes TCGETS 0x5401 and
# reaches only x86 and arm64 userspace; mips' own asm/ioctls.h writes TCGETS 0x540d;
# linux/sockios.h writes SIOCGIFCONF 0x8912 for every ARCH.
plain() {	# name number
	printf '  - name: %s\n    number: %s\n    doc: Test.\n' "$1" "$2"
}
d=$tmp/plain
fixture "$d" asm-generic/ioctls.h
plain TCGETS 0x5401 >>"$d/headers/asm-generic/ioctls.yaml"
fixture "$d" linux/sockios.h
plain SIOCGIFCONF 0x8912 >>"$d/headers/linux/sockios.yaml"
mkdir -p "$d/headers/arch/mips/asm"
{
	printf '%s\nheader: asm/ioctls.h\narch: mips\ndoc: A test header.\ncommands:\n' "$spdx"
	plain TCGETS 0x540d
} >"$d/headers/arch/mips/asm/ioctls.yaml"
absent_case "$d" "plain numbers: absent where asm-generic/ioctls.h is not included, present where defined" <<'PY'
want = {"x86_64": [], "i386": [], "x32": [], "arm64": [], "powerpc64le": ["TCGETS"],
        "mips": ["asm-generic/ioctls.h:TCGETS"], "sparc64": ["TCGETS"], "alpha": ["TCGETS"],
        "parisc": ["TCGETS"], "armhf": [], "m68k": [], "riscv64": [], "s390x": [],
        # sh's own asm/ioctls.h defines TCGETS 0x5401 too, but does not
        # include asm-generic/ioctls.h
        "sh4": ["TCGETS"]}
PY

# A plain number for a name the header builds with _IOR (powerpc's TCGETS) exists
# on no ABI: an error, not an absence.
d=$tmp/plain-ioc
mkdir -p "$d/headers/arch/powerpc/asm"
cp "$spec/abis.yaml" "$spec/layouts.yaml" "$spec/magic.yaml" "$spec/versions.yaml" "$d/"
{
	printf '%s\nheader: asm/ioctls.h\narch: powerpc\ndoc: A test header.\ncommands:\n' "$spdx"
	plain TCGETS 0x5401
} >"$d/headers/arch/powerpc/asm/ioctls.yaml"
refused 1 "a plain number the header builds with the ioctl macros is an error" \
	"ioctls.yaml:6:5: error: TCGETS is defined on no ABI" \
	"defines it with the ioctl macros, not as a plain number" -- -v -o "$d/out" "$d" "$build"

# A type that does not compile on x86_64 is an error at its spec line, nothing written.
d=$tmp/bad
fixture "$d" linux/fs.h
cmd BOGUS read 0x12 1 "struct no_such_type" >>"$d/headers/linux/fs.yaml"
refused -n 1 "a type that does not compile is reported at its spec line, nothing written" \
	"$d/headers/linux/fs.yaml:5:5: error: type 'struct no_such_type' does not compile for ABI x86_64" \
	-- -o "$d/out" "$d" "$build"

# A C library header the toolchain lacks is an error, not an absence.
d=$tmp/libc
fixture "$d" linux/fs.h sys/no_such_header.h
cmd BLKROSET write 0x12 93 int >>"$d/headers/linux/fs.yaml"
refused -n 1 "a missing C library header is an error, not an absence" \
	"cannot find <sys/no_such_header.h>, a C library header" -- -o "$d/out" "$d" "$build"

# A command that no ABI defines is an error: fs.h writes a copy of blkpg.h's
# BLKPG inside #if 0.  (A command the header does not write at all is one
# the series adds, and its probe defines it: tests/sizes-cache.sh.)
d=$tmp/nowhere
fixture "$d" linux/fs.h
cmd BLKPG none 0x12 105 >>"$d/headers/linux/fs.yaml"
refused 1 "a command that no ABI defines is an error" \
	"fs.yaml:5:5: error: BLKPG is defined on no ABI" -- -o "$d/out" "$d" "$build"
# --version: only what exists in that kernel version is measured.  BLKPG
# (fs.h's #if 0 copy, an error when measured) is new in 6.12 here, and so
# is every command of nsfs.h: with --version 6.1 neither is probed.
d=$tmp/version
fixture "$d" linux/fs.h
cp "$spec/versions.yaml" "$d/"
{
	cmd BLKROSET write 0x12 93 int
	cmd BLKPG none 0x12 105
	printf '    since: "6.12"\n'
} >>"$d/headers/linux/fs.yaml"
fixture "$d" linux/nsfs.h
{
	cmd NS_GET_USERNS none 0xB7 0x1
	printf '    since: "6.12"\n'
} >>"$d/headers/linux/nsfs.yaml"
if tools/measure-sizes --version 6.1 -o "$d.out" "$d" "$build" >"$d.log" 2>&1 &&
   grep -q "1 headers, 1 commands" "$d.log" && ! grep -q "BLKPG\|NS_GET" "$d.out"/*.yaml; then
	ok "--version 6.1 measures only 6.1's commands: 1 header, 1 command"
else
	diag <"$d.log"
	not_ok "--version 6.1 measures only 6.1's commands"
fi
refused 2 "--version of a version the registry does not know is refused" \
	"version '6.13' is none the registry knows" -- --version 6.13 -o "$d.out13" "$d" "$build"
tap_done
