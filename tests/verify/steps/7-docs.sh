# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# tests/verify/run, step 7: htmldocs adds no warning.
# Sourced by tests/verify/run in order: its variables and helpers are set.

# ---------------------------------------------------------------- 7. docs
# Sphinx warnings of the patched tree minus those of the pristine tree, for
# the documentation the series changes: each changed file's nearest
# directory with an index.rst under Documentation/ (userspace-api/ioctl for
# ioctl-number.rst: 2 s, where all of userspace-api takes 90 s).  Cached,
# keyed by the tree and the series.  Paths are made relative so they compare.
sphinxdirs=$(for f in "${changed[@]}"; do
	case $f in Documentation/*) ;; *) continue ;; esac
	d=${f%/*}
	while [ "$d" != Documentation ] && [ ! -f "$TREE/$d/index.rst" ]; do d=${d%/*}; done
	echo "${d#Documentation}"
done | sed 's|^/||; s|^$|.|' | sort -u | tr '\n' ' ')
sphinxdirs=${sphinxdirs% }
# Sphinx writes into its source tree even with O= (6.12's Documentation/
# Makefile generates Documentation/networking/netlink_spec/*.rst there), so
# each build reads a copy: hard links but for Documentation/, copied.
docs() { # docs SRC OUT NAME KEY: warnings of one htmldocs build into OUT.warnings
	if rcache_get "$3" "$4" "$2.warnings"; then rcache_note "$3" "$4"; return 0; fi
	local src=$2-src
	rm -rf "$2" "$src" && mkdir -p "$src" || return 1
	(cd "$1" && find . -mindepth 1 -maxdepth 1 ! -name .git ! -name Documentation -exec cp -al {} "$src/" \; &&
		cp -a Documentation "$src/") || return 1
	make -C "$src" O="$2" SPHINXDIRS="$sphinxdirs" htmldocs >"$2.log" 2>&1 || return 1
	grep -E 'WARNING|ERROR' "$2.log" | sed -e "s|$src/||g" -e "s|$2/||g" | sort -u >"$2.warnings"
	rm -rf "$src"
	rcache_put "$3" "$4" "$2.warnings"
}
# Keyed by the tree, the series (the patched build) and Sphinx (the toolchain).
dkey=
[ -z "$VERIFY_TREE_ID" ] || dkey=$({ echo "htmldocs 1 $VERIFY_TREE_ID $sphinxdirs"; rcache_toolchain
	declare -f docs; rcache_files $VERIFY_SCRIPTS; } | rcache_key)
pdkey=
[ -z "$dkey" ] || pdkey=$(echo "$dkey $key" | rcache_key)
t0=$(date +%s)
if [ -z "$sphinxdirs" ]; then
	ok "docs: the series changes no documentation"
elif ! docs "$PRISTINE" "$OUT/docs-pristine" docs-pristine "$dkey"; then
	tail -5 "$OUT/docs-pristine.log" | sed 's/^/# /'
	not_ok "docs: pristine htmldocs (SPHINXDIRS=$sphinxdirs) builds"
elif ! docs "$TREE" "$OUT/docs-patched" docs-patched "$pdkey"; then
	tail -5 "$OUT/docs-patched.log" | sed 's/^/# /'
	not_ok "docs: patched htmldocs (SPHINXDIRS=$sphinxdirs) builds"
else
	new=$(comm -13 "$OUT/docs-pristine.warnings" "$OUT/docs-patched.warnings")
	if [ -z "$new" ]; then
		ok "docs: htmldocs SPHINXDIRS=$sphinxdirs adds no warning ($(wc -l <"$OUT/docs-patched.warnings") warnings, all in the pristine tree too; $(($(date +%s) - t0))s)"
	else
		echo "$new" | head -20 | sed 's/^/# /'
		not_ok "docs: htmldocs SPHINXDIRS=$sphinxdirs adds $(echo "$new" | wc -l) warnings"
	fi
fi
