# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Results of expensive steps (kernel builds and boots, header tests, number
# round trips, whole suites), kept outside the clone and keyed by the hash
# of everything the step reads, as ccache keeps compiler output: a second
# run, or a second clone on the same machine, replays what an identical
# run found instead of doing it again.  A failure is never stored.
#
#   . tests/lib/rcache.sh
#   rcache_enabled            true unless CACHE=0 (make check CACHE=0)
#   rcache_root               $IOCTLREG_CACHE, else $XDG_CACHE_HOME/ioctl-registry,
#                             else ~/.cache/ioctl-registry
#   rcache_toolchain          every installed Debian package and its version:
#                             the compilers, QEMU, Sphinx, the kernel tarballs
#   rcache_files PATH...      "sha1  path" of every file under each PATH, sorted
#   rcache_key                the SHA-256 of standard input (the inputs, listed)
#   rcache_get NAME KEY DEST  a hit: the stored result copied to DEST, 0
#   rcache_put NAME KEY FILE  store FILE as NAME's result for KEY
#   rcache_note NAME KEY      "# cached: ..." for the TAP of a hit
#   rcache_ccache             export ccache's settings: its directory in the
#                             cache root, a size cap; disabled by CACHE=0
#
# The store: ROOT/results/NAME/KEY/{result,stored}; a hit touches the entry,
# and every put keeps the results under RCACHE_MAX_MB (default 2048) by
# removing the least recently used entries.  ccache's own cap
# (RCACHE_CCACHE_MAX, default 6G) bounds the compiler cache.  Nothing is
# stored while the disk has less than 1 GiB free.

rcache_enabled() {
	[ "${CACHE:-1}" != 0 ]
}

rcache_root() {
	echo "${IOCTLREG_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ioctl-registry}"
}

# Computed once per process tree: a child inherits it.
rcache_toolchain() {
	if [ -z "${RCACHE_TOOLCHAIN:-}" ]; then
		RCACHE_TOOLCHAIN=$(dpkg-query -W -f='${Package} ${Version}\n' 2>/dev/null | LC_ALL=C sort |
			sha256sum | cut -c1-64)
		export RCACHE_TOOLCHAIN
	fi
	echo "toolchain $RCACHE_TOOLCHAIN"
}

rcache_files() {
	local p
	for p in "$@"; do
		if [ -d "$p" ]; then
			find "$p" -type f ! -path '*/__pycache__/*' -print0 | LC_ALL=C sort -z | xargs -0 -r sha1sum
		elif [ -e "$p" ]; then
			sha1sum "$p"
		else
			echo "missing $p"
		fi
	done
}

rcache_key() {
	sha256sum | cut -c1-64
}

rcache_entry() {
	echo "$(rcache_root)/results/$1/$2"
}

rcache_get() {
	local e
	rcache_enabled && [ -n "$2" ] || return 1
	e=$(rcache_entry "$1" "$2")
	[ -f "$e/result" ] && [ -f "$e/stored" ] || return 1
	cp "$e/result" "$3" || return 1
	touch "$e"
}

rcache_note() {
	local e
	e=$(rcache_entry "$1" "$2")
	echo "# cached: results of $(cat "$e/stored" 2>/dev/null), inputs unchanged ($1 ${2:0:12})"
}

rcache_put() {
	local dir tmp
	rcache_enabled && [ -n "$2" ] || return 0
	dir=$(rcache_root)/results/$1
	mkdir -p "$dir" || return 0
	# Never the last GiB of the disk: a result not kept only costs time.
	[ "$(df -Pk "$dir" | awk 'NR == 2 { print $4 }')" -gt 1048576 ] || return 0
	tmp=$(mktemp -d "$dir/.new.XXXXXX") || return 0
	if cp "$3" "$tmp/result" && date -u '+%Y-%m-%d %H:%M:%S UTC' >"$tmp/stored" &&
	   mv -T "$tmp" "$dir/$2" 2>/dev/null; then
		rcache_evict
	else
		rm -rf "$tmp"
	fi
	return 0
}

# The least recently used entries go until the results fit in 90% of the cap.
rcache_evict() {
	local root cap total
	root=$(rcache_root)/results
	cap=$(( ${RCACHE_MAX_MB:-2048} * 1024 ))
	total=$(du -sk "$root" 2>/dev/null | cut -f1)
	[ "${total:-0}" -gt "$cap" ] || return 0
	find "$root" -mindepth 2 -maxdepth 2 -type d ! -name '.new.*' -printf '%T@ %p\n' | sort -n |
	while read -r _ e; do
		[ "$(du -sk "$root" | cut -f1)" -gt $((cap * 9 / 10)) ] || break
		rm -rf "$e"
	done
}

rcache_ccache() {
	if rcache_enabled; then
		export CCACHE_DIR=${CCACHE_DIR:-$(rcache_root)/ccache}
		export CCACHE_MAXSIZE=${RCACHE_CCACHE_MAX:-6G}
		unset CCACHE_DISABLE
		# In its own configuration too: `ccache -s` and every other
		# caller of that directory then keep the same cap.
		[ -f "$CCACHE_DIR/ccache.conf" ] || ! command -v ccache >/dev/null ||
			{ mkdir -p "$CCACHE_DIR" && ccache --max-size="$CCACHE_MAXSIZE" >/dev/null; }
	else
		export CCACHE_DISABLE=1
	fi
}

# Once, here: the suites and steps that source this inherit it.
! rcache_enabled || rcache_toolchain >/dev/null
