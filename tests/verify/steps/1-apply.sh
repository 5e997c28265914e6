# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# tests/verify/run, the test sources, and step 1: the series applies.
# Sourced by tests/verify/run in order: its variables and helpers are set.

# ---------------------------------------------------------------- sources
if [ -n "${VERIFY_PRISTINE:-}" ]; then
	[ -f "$PRISTINE/Makefile" ] || bail "VERIFY_PRISTINE=$PRISTINE is a kernel tree (it has no Makefile)"
else
	[ -f "$PRISTINE/.extracted" ] || run tree make tree || bail "extract $PRISTINE (make tree)"
fi
if run gen "$PY" tests/verify/gen.py "$MODEL" "$FRAGMENT" "$GEN" "$PRISTINE"; then
	ok "generate the test sources from $MODEL ($(grep -c '^kernel ' "$GEN/expected") commands)"
else
	sed 's/^/# /' "$LOG/gen.log"
	bail "generate the test sources from $MODEL"
fi

# ---------------------------------------------------------------- 1. apply
# build/verify/VERSION/linux is a copy of the pristine tree in hard links
# (git replaces files instead of writing into them, so the pristine tree is
# never modified) and a git repository whose "pristine" commit holds the
# files the series touches, as the tree has them: all `git am` reads (the
# other 80,000 files are untracked; committing them took ~30 CPU-s).  A new
# series gets a new copy, where the files the last one changed are
# written anew: their mtimes make the kernel objects that used them rebuild.
# Its contents, not the path: a pristine tree that is a symbolic link (a
# worktree's build/ sharing another's tree) copied as the link would have
# the series applied to the pristine files themselves.
mapfile -t series < <(ls "$PATCHES"/[0-9][0-9][0-9][0-9]-*.patch 2>/dev/null | grep -v '/0000-')
key=$(cat "${series[@]}" /dev/null | sha1sum | cut -c1-40)
if [ -d "$TREE/.git" ] && [ "$(cat "$OUT/series.applied" 2>/dev/null)" = "$key $($GIT rev-parse HEAD 2>/dev/null)" ] &&
   [ -z "$($GIT status --porcelain --untracked-files=no 2>/dev/null | head -1)" ]; then
	ok "series of ${#series[@]} patches already applied to ${TREE#$ROOT/} (${key:0:12})"
else
	rm -f "$OUT/series.applied"
	# What the last series changed; when that is unknown, the kernel
	# objects go.
	stale=()
	if [ -d "$TREE/.git" ] && $GIT rev-parse -q --verify pristine >/dev/null 2>&1 &&
	   $GIT diff --name-only pristine HEAD >"$OUT/stale" 2>/dev/null; then
		mapfile -t stale <"$OUT/stale"
	else
		rm -rf "$KOBJ"
	fi
	rm -f "$OUT/stale"
	mapfile -t touched < <(sed -n 's|^diff --git a/\([^ ]*\) b/\([^ ]*\)$|\1\n\2|p' "${series[@]}" /dev/null |
		sort -u | while read -r f; do [ -e "$PRISTINE/$f" ] && echo "$f"; done)
	rm -rf "$TREE"
	mkdir -p "$TREE" && cp -al "$PRISTINE/." "$TREE/" && [ ! -L "$TREE" ] ||
		bail "copy $PRISTINE to ${TREE#$ROOT/}"
	for f in "${stale[@]}"; do
		[ ! -f "$PRISTINE/$f" ] || { rm -f "$TREE/$f" && cp "$PRISTINE/$f" "$TREE/$f"; } ||
			bail "write ${TREE#$ROOT/}/$f anew"
	done
	run git-init sh -c "$GIT init -q && { [ \$# -eq 0 ] || $GIT add -f -- \"\$@\"; } &&
		$GIT commit -q --allow-empty -m 'pristine: the ${#touched[@]} files the series touches' && $GIT tag pristine" \
		git-init "${touched[@]}" || bail "a git repository of ${TREE#$ROOT/} (the ${#touched[@]} files the series touches)"
	for p in "${series[@]}"; do
		if run am $GIT am -q --committer-date-is-author-date "$(realpath "$p")"; then
			ok "git am $(basename "$p")"
		else
			sed 's/^/# /' "$LOG/am.log" | head -20
			$GIT am --abort >/dev/null 2>&1
			bail "git am $(basename "$p") applies cleanly"
		fi
	done
	[ ${#series[@]} -eq 0 ] && ok "series is empty: testing the pristine tree"
	echo "$key $($GIT rev-parse HEAD)" >"$OUT/series.applied"
fi

# Step 8 needs only the patched tree: its cross builds start now, in their
# own process group, and fill the cores that steps 2 to 7 leave idle (git,
# headers_install, a single-threaded QEMU guest and Sphinx).  Step 8 prints
# what they found; a run that stops early stops them.
[ "$layouts" != all ] || layouts=
KTAP_OUT=$OUT/kernels.tap
rm -f "$KTAP_OUT"
if [ "$layouts" != none ]; then
	# shellcheck disable=SC2086
	VERIFY_MODEL=$MODEL setsid -w tests/verify/kernels.sh $layouts >"$KTAP_OUT" 2>&1 </dev/null &
	kpid=$!
	trap 'kill -TERM -- -"$kpid" "$kpid" 2>/dev/null' EXIT
fi
mapfile -t changed < <($GIT diff --name-only pristine HEAD)
echo "# series changes ${#changed[@]} files"
