# shellcheck shell=bash
# Part of tests/hostile/run (sourced: new_case, run_case, $spec, $work, $hdr,
# $spdx, $IOCTLGEN and the TAP helpers are its): names, bounds, install
# directories and include guards, against one another and a kernel tree
#.
# ---- a new header's names against the tree's own headers:
# a macro or tag of a header the registry does not describe, an include
# guard, an arch header's macro.  model --tree must refuse each, where it stands.
tree=$work/ns-kernel
mkdir -p "$tree/include/uapi/linux" "$tree/arch/x86/include/uapi/asm"
: >"$tree/Makefile"
printf '#ifndef _UAPI_LINUX_OTHER_H\n#define _UAPI_LINUX_OTHER_H\n#define OTHER_MAX 16\n# define OTHER_FLAG 1\nstruct other_arg {\n\tint x;\n};\n#endif\n' \
	>"$tree/include/uapi/linux/other.h"
printf '#define X86_THING 1\n' >"$tree/arch/x86/include/uapi/asm/thing.h"
new_case ns-tree
cat >"$spec/$hdr" <<EOF
$spdx
header: linux/case.h
doc: Case.
new: true
constants:
  - {name: OTHER_MAX, value: 4, doc: The tree's macro.}
  - {name: _UAPI_LINUX_OTHER_H, value: 1, doc: The tree's include guard.}
types:
  - name: other_arg
    kind: struct
    doc: The tree's tag.
    members:
      - {name: OTHER_FLAG, type: __u32, doc: The tree's macro.}
  - name: case_mode
    kind: enum
    doc: Modes.
    values:
      - {name: X86_THING, value: 0, doc: An arch header's macro.}
commands: []
EOF
out=$(timeout 20 "$IOCTLGEN" model --tree "$tree" "$spec" -o "$work/ns-tree.json" 2>&1)
rc=$?
problems=
[ "$rc" = 1 ] || problems="exit $rc, want 1;"
[ -e "$work/ns-tree.json" ] && problems="$problems model wrote output;"
for at in 6:5:OTHER_MAX 7:5:_UAPI_LINUX_OTHER_H 9:5:other_arg 13:9:OTHER_FLAG 18:9:X86_THING; do
	grep -F "'${at##*:}'" <<<"$out" | grep -qF "$spec/$hdr:${at%:*}: error: " ||
		problems="$problems no error for ${at##*:} at ${at%:*};"
done
if [ -z "$problems" ]; then ok "model --tree: a new header's names that the tree's headers own"
else fail "model --tree, names the tree owns: $problems"; sed 's/^/# /' <<<"$out"; fi

# The tree is a path, never a pattern: in a directory named "ns[1]" glob(3)
# read the brackets as a set, found no arch/*/include/uapi and let the arch
# header's macro X86_THING through.
quoted=$work/'ns[1]'
cp -a "$tree" "$quoted"
out=$(timeout 20 "$IOCTLGEN" model --tree "$quoted" "$spec" -o "$work/ns-quoted.json" 2>&1)
rc=$?
if [ "$rc" = 1 ] && [ ! -e "$work/ns-quoted.json" ] &&
   grep -F "'X86_THING'" <<<"$out" | grep -qF "$spec/$hdr:18:9: error: "; then
	ok "model --tree: a tree path with glob characters is a path"
else fail "model --tree '$quoted': exit $rc, the arch header's macro not found"; sed 's/^/# /' <<<"$out"; fi

# An array bound of a header the tree has is a macro some uapi header of
# the tree defines (OTHER_MAX), never a run-time variable.
new_case ns-bound
cat >"$spec/$hdr" <<EOF
$spdx
header: linux/case.h
doc: Case.
commands:
  - {name: CASE_A, dir: read, magic: "'T'", nr: 2, type: "char[n_items]", doc: A variable.}
  - {name: CASE_B, dir: read, magic: "'T'", nr: 3, type: "char[OTHER_MAX * 2]", doc: A macro.}
EOF
out=$(timeout 20 "$IOCTLGEN" model --tree "$tree" "$spec" -o "$work/ns-bound.json" 2>&1)
rc=$?
if [ "$rc" = 1 ] && [ ! -e "$work/ns-bound.json" ] &&
   grep -qF "$spec/$hdr:5:58: error: CASE_A: 'n_items' in type is no constant of the registry, nor a macro of the tree's uapi headers" <<<"$out" &&
   ! grep -q "'OTHER_MAX' in type" <<<"$out"; then
	ok "model --tree: an array bound no uapi header defines"
else fail "model --tree, an array bound no header defines: exit $rc"; sed 's/^/# /' <<<"$out"; fi

# Without the tree, a bound of a header the kernel has is an integer, a
# constant a header spec defines, or a name the measured sizes record (a
# type of sizes/ uses it: measure-sizes compiled it against the kernel's
# headers).  Before, any name that was not reserved passed: a run-time
# variable in passes or legacy.written, which nothing measures (class 5).
new_case bound-unrecorded
cat >"$spec/$hdr" <<EOF
$spdx
header: linux/case.h
doc: Case.
constants:
  - {name: CASE_N, value: 4, doc: A count.}
commands:
  - {name: CASE_PASSES, number: 0x5401, passes: "char[n_items]", doc: A run-time variable.}
  - {name: CASE_RECORDED, dir: read, magic: "'T'", nr: 2, type: "char[CASE_LEN]", doc: A macro the sizes record.}
  - {name: CASE_DEFINED, dir: read, magic: "'T'", nr: 3, type: "__u32[CASE_N + 1]", doc: A constant the header defines.}
  - name: CASE_WRITTEN
    dir: read
    magic: "'T'"
    nr: 4
    legacy: {written: "sizeof(char[n_items])", passes: int, spell-as: bad, doc: A variable.}
    doc: A legacy size of a variable.
EOF
for f in "$spec"/sizes/*.yaml "$spec"/sizes/*/*.yaml; do
	printf '  char[CASE_LEN]: 8\n  __u32[CASE_N + 1]: 20\n' >>"$f"
done
run_case bound-unrecorded "$hdr:7:49"
out=$("$IOCTLGEN" check "$spec" 2>&1)
if [ "$(grep -c ': error: ' <<<"$out")" = 2 ] &&
   grep -qF "$spec/$hdr:7:49: error: CASE_PASSES: 'n_items' in passes is no constant of the registry, nor a macro the measured sizes record: an array bound or size is an integer constant, a constant or enum value a header spec defines (constants:, for a macro of the kernel's header too), or a name a type of sizes/ uses (measured against the kernel's headers) [reference]" <<<"$out" &&
   grep -qF "$spec/$hdr:14:23: error: CASE_WRITTEN: 'n_items' in legacy.written is no constant" <<<"$out"; then
	ok "bound-unrecorded: a variable refused in passes and legacy.written; a recorded macro and a constant accepted"
else fail "bound-unrecorded: want exactly the two errors"; sed 's/^/# /' <<<"$out"; fi

# A header's directory is one the kernel installs as UAPI (class 6): with a
# tree, the tree's own include/uapi/*/ and arch/*/include/uapi/asm/; the
# fixed list of 6.1 and 6.12 only without one.  Before, the fixed list held
# even with --tree: a directory the tree has (newdir/) was refused, one it
# lacks (video/) accepted; an arch the tree lacks passed too.
uapi_tree=$work/uapi-kernel
mkdir -p "$uapi_tree/include/uapi/linux" "$uapi_tree/include/uapi/newdir" "$uapi_tree/arch/x86/include/uapi/asm"
: >"$uapi_tree/Makefile"
uapi_tree2=$work/uapi-kernel-arm
mkdir -p "$uapi_tree2/include/uapi/linux" "$uapi_tree2/arch/arm/include/uapi/asm"
: >"$uapi_tree2/Makefile"
# uapi_header DIR PATH [ARCH]: a new header spec for PATH at $spec/headers/DIR
uapi_header() {
	mkdir -p "$spec/headers/$(dirname "$1")"
	{ printf '%s\nheader: %s\ndoc: Case.\nnew: true\n' "$spdx" "$2"
	  [ -n "${3:-}" ] && printf 'arch: %s\n' "$3"
	  printf 'commands:\n  - {name: CASE_%s, dir: read, magic: "'"'T'"'", nr: 9, type: int, doc: A.}\n' "${2//[^a-z]/}"; } >"$spec/headers/$1"
}
# uapi_model WHAT TREE WANT-RC [WHERE MESSAGE]: model --tree TREE, and lint --tree
uapi_model() {
	local out rc lrc problems=
	rm -f "$work/uapi.json"
	out=$(timeout 20 "$IOCTLGEN" model --tree "$2" "$spec" -o "$work/uapi.json" 2>&1)
	rc=$?
	"$IOCTLGEN" lint --tree "$2" --summary "$spec" >/dev/null 2>&1
	lrc=$?
	[ "$rc" = "$3" ] || problems="model exit $rc, want $3;"
	[ "$3" = 0 ] && [ "$lrc" != 0 ] && problems="$problems lint exit $lrc;"
	[ "$3" != 0 ] && [ "$lrc" = 0 ] && problems="$problems lint exit 0;"
	[ "$3" != 0 ] && [ -e "$work/uapi.json" ] && problems="$problems model wrote output;"
	[ -n "${4:-}" ] && ! grep -qF -- "$spec/$4: error: $5" <<<"$out" && problems="$problems no '$4: error: $5';"
	if [ -z "$problems" ]; then ok "$1"; else fail "$1: $problems"; sed 's/^/# /' <<<"$out"; fi
}
new_case uapi-tree-dir
uapi_header newdir/case.yaml newdir/case.h
uapi_model "uapi-tree-dir: newdir/ of the tree is accepted with --tree" "$uapi_tree" 0
run_case uapi-tree-dir "headers/newdir/case.yaml:2:9"	# no tree: the fixed list
new_case uapi-tree-lacks
uapi_header video/case.yaml video/case.h
uapi_model "uapi-tree-lacks: video/, which the tree lacks, is refused with --tree" "$uapi_tree" 1 \
	"headers/video/case.yaml:2:9" "header 'video/case.h' is outside the kernel's UAPI namespaces (linux/, newdir/, asm/): installed, it would stand beside the C library's headers (the directories of $uapi_tree/include/uapi, and asm/ of its arches) [uapi-namespace]"
new_case uapi-tree-arch
uapi_header arch/x86/asm/case.yaml asm/case.h x86
uapi_model "uapi-tree-arch: an arch header, accepted where the tree has the arch" "$uapi_tree" 0
uapi_model "uapi-tree-arch: refused where the tree lacks arch/x86" "$uapi_tree2" 1 \
	"headers/arch/x86/asm/case.yaml:2:9" "header 'asm/case.h' of arch x86: the tree has no $uapi_tree2/arch/x86/include/uapi/asm/ to install it from [uapi-namespace]"

# A new header's include guard is derived from its path (render.py's
# include_guard(): _UAPI_ and the path in upper case, '_' for the rest), so
# two paths can share one: linux/a-b.h and linux/a_b.h, linux/Case.h and
# linux/case.h, asm/x86_foo.h and x86's asm/foo.h.  Where both are
# included the second comes out empty.  Before, nothing compared them.
new_case guard-collide
# gen_header FILE PATH NEW [ARCH]: a header spec with one command
gen_header() {
	mkdir -p "$spec/headers/$(dirname "$1")"
	{ printf '%s\nheader: %s\ndoc: Case.\n' "$spdx" "$2"
	  [ "$3" = new ] && printf 'new: true\n'
	  [ -n "${4:-}" ] && printf 'arch: %s\n' "$4"
	  gh_n=$((gh_n + 1))
	  printf 'commands:\n  - {name: CASE_G%d, dir: read, magic: "'"'T'"'", nr: %d, type: int, doc: A.}\n' \
		"$gh_n" $((gh_n + 20)); } >"$spec/headers/$1"
}
gh_n=0
gen_header linux/a_b.yaml linux/a_b.h old
gen_header linux/a-b.yaml linux/a-b.h new
gen_header linux/Case.yaml linux/Case.h new
gen_header linux/case.yaml linux/case.h old
gen_header arch/x86/asm/foo.yaml asm/foo.h old x86
gen_header asm/x86_foo.yaml asm/x86_foo.h new
gen_header linux/ok-name.yaml linux/ok-name.h new
run_case guard-collide "headers/linux/a-b.yaml:2:9"
out=$("$IOCTLGEN" check "$spec" 2>&1)
problems=
for at in "linux/a-b.yaml|linux/a-b.h|_UAPI_LINUX_A_B_H|linux/a_b.h|linux/a_b.yaml" \
	  "linux/Case.yaml|linux/Case.h|_UAPI_LINUX_CASE_H|linux/case.h|linux/case.yaml" \
	  "asm/x86_foo.yaml|asm/x86_foo.h|_UAPI_ASM_X86_FOO_H|asm/foo.h of arch x86|arch/x86/asm/foo.yaml"; do
	IFS='|' read -r file path guard other ofile <<<"$at"
	grep -qF "$spec/headers/$file:2:9: error: header '$path' gets the include guard $guard, a spelling of the guard of $other ($spec/headers/$ofile:2:9): where both are included, the second comes out empty; choose another file name [namespace]" <<<"$out" ||
		problems="$problems no guard error for $path;"
done
grep -q "ok-name.*: error: " <<<"$out" && problems="$problems linux/ok-name.h refused;"
[ "$(grep -c ': error: ' <<<"$out")" = 3 ] || problems="$problems want 3 errors;"
if [ -z "$problems" ]; then ok "guard-collide: each new header whose guard another header has, refused at its header: value"
else fail "guard-collide:$problems"; sed 's/^/# /' <<<"$out"; fi
# The guard each error names is the one render.py writes (the renderer, not ioctlgen).
guards=$(/usr/bin/python3 -c 'from ioctltools import render
for p, a in (("linux/a-b.h", None), ("linux/Case.h", None), ("asm/x86_foo.h", None), ("asm/foo.h", "x86")):
    print(render.include_guard({"path": p, "arch": a}))' 2>&1 | tr '\n' ' ')
if [ "$guards" = "_UAPI_LINUX_A_B_H _UAPI_LINUX_CASE_H _UAPI_ASM_X86_FOO_H _UAPI_ASM_X86_FOO_H " ]; then
	ok "guard-collide: render.py's include_guard() writes those guards"
else fail "guard-collide: render.py's guards: $guards"; fi
# With a tree: a new header's guard that a tree header defines as a macro.
new_case guard-tree
gen_header linux/other-new.yaml linux/other-new.h new
printf '#ifndef _UAPI_LINUX_OTHER_NEW_H\n#define _UAPI_LINUX_OTHER_NEW_H\n#endif\n' >"$tree/include/uapi/linux/other_new.h"
out=$(timeout 20 "$IOCTLGEN" model --tree "$tree" "$spec" -o "$work/guard-tree.json" 2>&1)
rc=$?
if [ "$rc" = 1 ] && [ ! -e "$work/guard-tree.json" ] &&
   grep -qF "$spec/headers/linux/other-new.yaml:2:9: error: the header's include guard '_UAPI_LINUX_OTHER_NEW_H' is already a macro of the tree's linux/other_new.h" <<<"$out"; then
	ok "guard-tree: a new header's guard that a tree header defines, refused with --tree"
else fail "guard-tree: exit $rc"; sed 's/^/# /' <<<"$out"; fi
rm -f "$tree/include/uapi/linux/other_new.h"
