# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# The cache keys of tests/verify's expensive steps (tests/lib/rcache.sh).
# Each lists everything its step reads, so that a change to any of them
# (one byte of the series, one config line, a test source, a compiler, the
# QEMU binary) runs the step again; tests/cache/run checks that they do.
# Sourced by tests/verify/run and tests/verify/kernels.sh, from the root
# of the clone; every path in a key is relative to it, so that a second
# clone finds the results of the first.

# shellcheck source=tests/lib/rcache.sh
. tests/lib/rcache.sh

# verify_tree_id PRISTINE: a pristine tree extracted from Debian's tarball
# (`make tree`) is that tarball, whose package version rcache_toolchain
# names; a tree of one's own has no identity here and is not cached.
verify_tree_id() {
	local tar
	[ -f "$1/.extracted" ] || return 0
	tar=/usr/src/$(basename "$1").tar.xz
	[ -f "$tar" ] && echo "$tar $(stat -c '%s %Y' "$tar")"
}

# verify_tools TOOL...: each tool as PATH finds it (a wrapper earlier in
# PATH, an upgraded package) and what it says it is.
verify_tools() {
	local t p
	for t in "$@"; do
		p=$(command -v "$t") || { echo "tool $t: none"; continue; }
		echo "tool $t $(ls -lL "$p" | awk '{ print $5, $6, $7, $8 }') $p"
		"$t" --version 2>/dev/null | head -1
	done
}

# verify_dir DIR: the generated sources under DIR and their content, as
# relative names; not what the builds write beside them (objects, Kbuild's
# *.mod.c and .cmd files, the Makefile and Kbuild of the objects that compile).
verify_dir() {
	(cd "$1" 2>/dev/null && find . -type f \( -name '*.[ch]' -o -name units -o -name groups \
		-o -name expected -o -name abis -o -name init -o -name index \) \
		! -name '*.mod.c' ! -name '.*' -print0 | LC_ALL=C sort -z | xargs -0 -r sha1sum)
}

# The sources every verify step reads.
VERIFY_SCRIPTS="tests/verify/keys.sh tests/lib/rcache.sh tests/lib/cputime.sh tests/verify/groups.sh tests/verify/lib.sh tests/lib/tap.sh"

# kernel_key ARCH GENDIR SERIES TREE-ID CROSS QEMU: a cross-built layout
# (kernels.sh): the configs, the KUnit sources gen_kunit.py wrote into
# GENDIR (the registry's numbers for that ABI), the series, the tree, the
# scripts, the cross compiler, QEMU.
kernel_key() {
	[ -n "$4" ] || return 0
	{
		echo "kernel-layout 1 $1"
		rcache_toolchain
		echo "tree $4"
		echo "series $3"
		# shellcheck disable=SC2086
		rcache_files tests/verify/config/common.config "tests/verify/config/$1.config" \
			tests/verify/kernels.sh tests/verify/ktap.py tests/verify/gen_kunit.py $VERIFY_SCRIPTS
		verify_dir "$2"
		verify_tools "${5}gcc" "${5}ld" "${5}nm" gcc make ccache "$6"
	} | rcache_key
}

# x86_key GENDIR SERIES TREE-ID FRAGMENT: steps 4 to 6 (the x86_64 kernel,
# the type check, the modules, the example driver and the guest): the
# sources gen.py wrote (module, user tests, expected lines), the fragment,
# the example registry and the renderer and ioctlgen that render it.
x86_key() {
	[ -n "$3" ] || return 0
	{
		echo "x86-kernel 1"
		rcache_toolchain
		echo "tree $3"
		echo "series $2"
		# shellcheck disable=SC2086
		rcache_files "$4" tests/verify/run tests/verify/steps tests/verify/driver-build.sh tools/driver-test tools/qemu-x86-boot tests/verify/units.mk \
			tests/example generator templates/kernel $VERIFY_SCRIPTS
		verify_dir "$1"
		verify_tools gcc ld make ccache perl busybox qemu-system-x86_64
	} | rcache_key
}
