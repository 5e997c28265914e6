# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# tests/verify/run, step 9: a wrong layout fails its guest.
# Sourced by tests/verify/run in order: its variables and helpers are set.

# ---------------------------------------------------------------- 9. a wrong layout
# The guest's check can fail: a copy of the registry whose parisc layout has
# read and write swapped (the generic values) must make the parisc guest
# fail, by name.  Only suite.c, which holds the registry's numbers, is
# recompiled; the next run rebuilds it from the real model.
WRONG=parisc
if [ "$layouts" = none ] || { [ -n "$layouts" ] && [[ " $layouts " != *" $WRONG "* ]]; }; then
	ok "verify/$WRONG: a wrong layout in spec/layouts.yaml fails the guest # SKIP ${not_here[$WRONG]:-${why:-VERIFY_ARCHES has no $WRONG}}"
elif ! spec=$("$PY" -m ioctltools.model_reader spec-dir "$MODEL") || [ ! -f "$spec/layouts.yaml" ]; then
	not_ok "verify/$WRONG: a wrong layout fails the guest: $MODEL names no spec directory with a layouts.yaml"
else
	wd=$OUT/wrong-layout
	rm -rf "$wd" && mkdir -p "$wd" && cp -a "$spec" "$wd/spec"
	# In the parisc entry only: "read: 1" / "write: 2" become 2 / 1.
	if ! "$PY" - "$wd/spec/layouts.yaml" "$WRONG" <<'PYEOF'
import re, sys
path, name = sys.argv[1:]
text = open(path).read()
m = re.search(r"(?ms)^  - name: %s\n.*?(?=^  - name: |\Z)" % re.escape(name), text)
entry = m and m.group(0)
swapped = entry and re.sub(r"(?m)^(    (read|write): )(\d+)$",
                           lambda k: k.group(1) + {"1": "2", "2": "1"}.get(k.group(3), k.group(3)), entry)
if not entry or swapped == entry:
    sys.exit("no read/write values to swap in the %s layout of %s" % (name, path))
open(path, "w").write(text.replace(entry, swapped))
PYEOF
	then
		not_ok "verify/$WRONG: a wrong layout fails the guest: swap read and write in ${wd#$ROOT/}/spec/layouts.yaml"
	elif ! run wrong-model build/ioctlgen model --spec "$wd/spec" -o "$wd/model-all.json" ||
	     ! run wrong-model "$PY" -m ioctltools.model_view "$wd/model-all.json" "$PRISTINE" -o "$wd/model.json"; then
		sed 's/^/# /' "$LOG/wrong-model.log" | head -5
		not_ok "verify/$WRONG: a wrong layout fails the guest: ioctlgen model of the copy"
	else
		VERIFY_MODEL=$wd/model.json VERIFY_TIMES=/dev/null VERIFY_CACHE_FAILED=1 \
			tests/verify/kernels.sh "$WRONG" >"$wd/kernels.tap" 2>&1
		bad=$(grep -c "^not ok - verify/$WRONG: <.*>: wrong number for " "$wd/kernels.tap")
		total=$(grep -c "^\(not \)\?ok - verify/$WRONG: <" "$wd/kernels.tap")
		booted=$(grep -c "^ok - verify/$WRONG: guest .* ended by itself" "$wd/kernels.tap")
		closing=$(grep "^not ok - verify/$WRONG: KTAP pass:" "$wd/kernels.tap")
		example=$(grep -m1 -o "^not ok - verify/$WRONG: <.*>: wrong number for [A-Z0-9_]*" "$wd/kernels.tap")
		if [ "$booted" = 1 ] && [ "$bad" -gt 0 ] && [ -n "$closing" ]; then
			ok "verify/$WRONG: a wrong layout (read and write swapped in a copy of spec/layouts.yaml) fails the $WRONG guest by name: $bad of $total headers wrong (${example#not ok - }, ...); ${closing#not ok - }"
		else
			sed 's/^/# /' "$wd/kernels.tap" | grep -v '^# ok' | head -10
			not_ok "verify/$WRONG: a wrong layout (read and write swapped) fails the $WRONG guest by name (booted: $booted, headers wrong: $bad, closing line: ${closing:-none})"
		fi
	fi
fi
