#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# tools/measure-sizes' result cache (generator/ioctltools/probecache.py) and the
# registry's own types, on the fixture tests/fixtures/sizes-types/spec (a
# `new: true` header with two structs, an enum and a kernel-internal struct;
# usbdevice_fs.h with one; four ABIs, gcc and clang).  After each change
# (a member type, a header on disk, a compiler flag, a shadowing header)
# the cached run must compile the probes that depend on it, only those, and
# write byte for byte what a run without the cache writes.  TAP on stdout.
# Usage: tests/sizes-cache.sh [BUILD_DIR]
set -u
cd "$(dirname "$0")/.." || exit 1
. tests/lib/tap.sh
build=${1:-build}
tmp=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
fixture=tests/fixtures/sizes-types/spec

for arch in x86 arm arm64; do
	if ! make -s "$build/uapi/$arch/.done" >"$tmp/log" 2>&1; then
		diag <"$tmp/log"
		bail "make $build/uapi/$arch/.done"
	fi
done
# A build directory of our own: x86's headers copied (they are edited below).
mkdir -p "$tmp/build/uapi"
cp -a "$build/uapi/x86" "$tmp/build/uapi/"
ln -s "$(realpath "$build/uapi/arm")" "$tmp/build/uapi/arm"
ln -s "$(realpath "$build/uapi/arm64")" "$tmp/build/uapi/arm64"
cp -a "$fixture" "$tmp/spec"
rm -rf "$tmp/spec/sizes"

# measure NAME: a cached run (always into $tmp/out: the probe directory is
# on the compilers' command lines), copied to $tmp/NAME, and an uncached one
# into $tmp/NAME.ref; sets $compiled, the probes the cached run compiled.
measure() {
	compiled=
	if ! tools/measure-sizes -o "$tmp/out" "$tmp/spec" "$tmp/build" >"$tmp/$1.log" 2>&1; then
		diag <"$tmp/$1.log"
		return 1
	fi
	mkdir -p "$tmp/$1" && cp "$tmp/out"/*.yaml "$tmp/$1/"
	compiled=$(sed -n 's/.*; \([0-9]*\) probes compiled, [0-9]* cached).*/\1/p' "$tmp/$1.log")
	tools/measure-sizes --no-cache -o "$tmp/$1.ref" "$tmp/spec" "$tmp/build" >"$tmp/$1.ref.log" 2>&1 ||
		{ diag <"$tmp/$1.ref.log"; return 1; }
}
same() {	# NAME: the cached run wrote what the uncached one wrote
	diff -r -x .probes "$tmp/$1.ref" "$tmp/$1" >"$tmp/$1.diff" 2>&1 || { diag <"$tmp/$1.diff"; return 1; }
}
size() {	# NAME ABI TYPE: the measured size
	local v
	v=$(sed -n "s/^  $3: //p" "$tmp/$1/$2.yaml")
	echo "${v:--}"
}
sizes() {	# NAME TYPE: its size on x86_64 i386 arm64 armhf
	echo "$(size "$1" x86_64 "$2") $(size "$1" i386 "$2") $(size "$1" arm64 "$2") $(size "$1" armhf "$2")"
}
step() {	# NAME TEXT WANT_COMPILED TYPE WANT_SIZES
	if ! measure "$1"; then
		not_ok "$2: measure-sizes runs"
		return
	fi
	check "$2: the cached run writes what an uncached run writes" same "$1"
	if [ "$compiled" = "$3" ]; then
		ok "$2: $3 probes compiled"
	else
		not_ok "$2: $compiled probes compiled, expected $3"
	fi
	[ -z "$4" ] && return
	got=$(sizes "$1" "$4")
	if [ "$got" = "$5" ]; then
		ok "$2: $4 measures $5 (x86_64 i386 arm64 armhf)"
	else
		not_ok "$2: $4 measures $got, expected $5"
	fi
}

step cold "cold" 8 "struct ioctl_example_info" "72 68 72 72"
check "cold: the kernel-internal struct of the new header measures 8 everywhere" \
	[ "$(sizes cold "struct ioctl_example_info32")" = "8 8 8 8" ]
check "cold: the kernel-internal struct of usbdevice_fs.h measures 16 everywhere" \
	[ "$(sizes cold "struct usbdevfs_ctrltransfer32")" = "16 16 16 16" ]
step warm "nothing changed" 0 "struct ioctl_example_range" "24 24 24 24"

touch "$tmp/build/uapi/x86/include/linux/usbdevice_fs.h" "$tmp/spec/headers/linux/ioctl_example.yaml"
step touched "a header and a spec touched, not changed" 0 "" ""

# A member type of a struct of the new header: its probes, on every ABI.
sed -i '/name: cookie/{n;s/type: __u64/type: __u32/}' "$tmp/spec/headers/linux/ioctl_example.yaml"
step member "a member type of the new header's struct" 4 "struct ioctl_example_info" "64 64 64 64"

# A member type of a kernel-internal struct (the probes' prelude).
sed -i '/name: wLength/{n;s/type: __u16/type: __u32/}' "$tmp/spec/headers/linux/usbdevice_fs.yaml"
step internal "a member type of a kernel-internal struct" 4 "struct usbdevfs_ctrltransfer32" "20 20 20 20"

# A header on disk: x86's usbdevice_fs.h gains a member, on x86_64 and i386 only.
sed -i '/^struct usbdevfs_ctrltransfer {/,/^};/s/^\s*void \*data;$/&\n\t__u32 fixture_extra;/' \
	"$tmp/build/uapi/x86/include/linux/usbdevice_fs.h"
grep -q fixture_extra "$tmp/build/uapi/x86/include/linux/usbdevice_fs.h" || diag "the edit of usbdevice_fs.h did not apply"
step header "a header on disk changed" 2 "struct usbdevfs_ctrltransfer" "32 20 24 16"

# A compiler flag of one ABI.
sed -i '/name: x86_64/,/cflags/s/cflags: \[-m64\]/cflags: [-m64, -fpack-struct]/' "$tmp/spec/abis.yaml"
step flags "x86_64's cflags gain -fpack-struct" 2 "struct usbdevfs_ctrltransfer" "24 20 24 16"

# A new file in a searched directory that shadows one the probes used:
# x86's exported tree gets a <stddef.h> of its own (before the compiler's)
# that packs every struct after it.  A new name among the exported headers
# changes every ABI's key (they tell kernel headers from C library ones):
# all 8 probes; arm64 and armhf now take the compiler's <stddef.h> for a
# kernel header their ARCH does not export, so their commands are absent
# (measure-sizes' rule; the uncached run agrees).  The unit test below
# checks the shadowing rule alone.
cat >"$tmp/build/uapi/x86/include/stddef.h" <<'EOF'
#ifndef FIXTURE_STDDEF_H
#define FIXTURE_STDDEF_H
typedef __SIZE_TYPE__ size_t;
typedef __PTRDIFF_TYPE__ ptrdiff_t;
typedef __WCHAR_TYPE__ wchar_t;
#define NULL ((void *)0)
#define offsetof(t, m) __builtin_offsetof(t, m)
#pragma pack(1)
#endif
EOF
step shadow "a header that shadows the compiler's <stddef.h>" 8 "struct usbdevfs_ctrltransfer32" "18 18 - -"
rm "$tmp/build/uapi/x86/include/stddef.h"
step unshadow "the shadowing header removed" 8 "struct usbdevfs_ctrltransfer32" "18 20 20 20"

# A new command with a new struct in a header the tree has: the probe
# defines after <linux/usbdevice_fs.h> what the registry adds to it
# (newheader.additions()), so the struct measures and the command is
# present before any patch; i386 aligns the __u64 to 4, and x86_64 packs it
# (its -fpack-struct above).
cp "$tmp/spec/headers/linux/usbdevice_fs.yaml" "$tmp/usbdevice_fs.yaml.orig"
sed -i 's/^types:$/types:\
  - name: usbdevfs_fixture_stats\
    kind: struct\
    doc: Added by the test.\
    members:\
      - name: count\
        type: __u32\
        doc: A count.\
      - name: bytes\
        type: __u64\
        doc: Bytes./' "$tmp/spec/headers/linux/usbdevice_fs.yaml"
cat >>"$tmp/spec/headers/linux/usbdevice_fs.yaml" <<'EOF'
  - name: USBDEVFS_FIXTURE_STATS
    dir: read
    magic: "'U'"
    nr: 0x7f
    type: struct usbdevfs_fixture_stats
    doc: Added by the test.
EOF
step added "a new command with a new struct in a header the tree has" 4 "struct usbdevfs_fixture_stats" "12 12 16 16"
check "added: the new command is present on every ABI" \
	sh -c "! grep -q USBDEVFS_FIXTURE_STATS '$tmp/added'/*.yaml"

# --only: a cold run (its own empty cache) measures the edited header's
# probes alone and merges them into the sizes files of the run before the
# edit: byte for byte what the full uncached run of the edited spec wrote.
only() {	# NAME BASE: --only usbdevice_fs.yaml over BASE's sizes files into $tmp/NAME
	mkdir -p "$tmp/$1" && cp "$tmp/$2"/*.yaml "$tmp/$1/"
	tools/measure-sizes --cache "$tmp/$1.cache" -o "$tmp/$1" \
		--only "$tmp/spec/headers/linux/usbdevice_fs.yaml" "$tmp/spec" "$tmp/build" \
		>"$tmp/$1.log" 2>&1 || { diag <"$tmp/$1.log"; return 1; }
	compiled=$(sed -n 's/.*; \([0-9]*\) probes compiled, [0-9]* cached).*/\1/p' "$tmp/$1.log")
}
# says() NAME: the files the run says it changed, and how: one line each
says() {
	sed -n "s|^  SIZES   $tmp/$1/\(.*\.yaml\): |\1 |p" "$tmp/$1.log" | LC_ALL=C sort | tr '\n' ';'
}
# the edit adds one struct, measured on the four ABIs, and nothing else
added="arm64.yaml sizes: 1 added;armhf.yaml sizes: 1 added;i386.yaml sizes: 1 added;x86_64.yaml sizes: 1 added;"
if only only unshadow.ref; then
	check "--only, cold: the 4 probes of the edited header compiled" [ "$compiled" = 4 ]
	check "--only, cold: merged into the old sizes files, the full run's files" \
		diff -r -x .probes "$tmp/added.ref" "$tmp/only"
	check "--only, cold: says each file gained one size" [ "$(says only)" = "$added" ]
else
	not_ok "--only, cold: measure-sizes runs"
fi
# The edit undone: its struct's size goes, the files are the ones before it.
cp "$tmp/usbdevice_fs.yaml.orig" "$tmp/spec/headers/linux/usbdevice_fs.yaml"
if only undone only; then
	check "--only after the edit is undone: the files of the run before it" \
		diff -r -x .probes "$tmp/unshadow.ref" "$tmp/undone"
	check "--only after the edit is undone: says each file lost that size" \
		[ "$(says undone)" = "${added//added/removed}" ]
else
	not_ok "--only after the edit is undone: measure-sizes runs"
fi

# The shadowing rule itself, without a compiler: an entry records the
# listing of every search directory before the one that held each file,
# and of all of them for a name the compiler did not find.
/usr/bin/python3 - "$tmp/unit" <<'PY' >"$tmp/unit.log" 2>&1
import os, sys
from ioctltools import probecache
top = sys.argv[1]
a, b = os.path.join(top, "a"), os.path.join(top, "b")
os.makedirs(os.path.join(a, "linux")); os.makedirs(os.path.join(b, "linux"))
with open(os.path.join(b, "linux", "x.h"), "w") as f:
    f.write("x\n")
def store():
    files = probecache.Files({})
    files.start_ns = 1 << 62	# nothing is "changing" in this test
    return probecache.Store(os.path.join(top, "cache"), "t", files)
s = store()
assert s.put("k", {"r": 1}, [os.path.join(b, "linux", "x.h")], ["linux/y.h"])
s.save()
assert store().get("k", [a, b]) == {"r": 1}, "a hit when nothing changed"
with open(os.path.join(a, "linux", "x.h"), "w") as f:
    f.write("x\n")
assert store().get("k", [a, b]) is None, "a file in an earlier directory shadows x.h"
os.remove(os.path.join(a, "linux", "x.h"))
assert store().get("k", [a, b]) == {"r": 1}, "a hit again once the shadow is gone"
with open(os.path.join(b, "linux", "y.h"), "w") as f:
    f.write("y\n")
assert store().get("k", [a, b]) is None, "a missing header that appears"
os.remove(os.path.join(b, "linux", "y.h"))
with open(os.path.join(b, "linux", "x.h"), "w") as f:
    f.write("X\n")
assert store().get("k", [a, b]) is None, "a file whose content changed"
# #include_next: a name held by two directories, both read, is no shadow
for d in (a, b):
    with open(os.path.join(d, "limits.h"), "w") as f:
        f.write("l\n")
s = store()
assert s.put("n", {"r": 2}, [os.path.join(a, "limits.h"), os.path.join(b, "limits.h")], [])
s.save()
assert store().get("n", [a, b]) == {"r": 2}, "a name read from two directories"
print("ok")
PY
rc=$?
[ $rc -eq 0 ] || diag <"$tmp/unit.log"
check "probecache: a shadowing file, a missing header that appears and new content each invalidate an entry; #include_next does not" [ $rc -eq 0 ]
tap_done
