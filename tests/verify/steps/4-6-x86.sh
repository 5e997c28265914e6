# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# tests/verify/run, steps 4 to 6: the x86_64 kernel, the type check, the modules, the example driver and the guest.
# Sourced by tests/verify/run in order: its variables and helpers are set.
# The steps are files of their own: 5-kernel.sh (with step 4), 6a-example.sh, 6-boot.sh.

# ---------------------------------------------------------------- 4 to 6: cached
# Steps 5, 4, 6a and 6 (the x86_64 kernel, the type check, the modules, the
# example driver, the guest) as one: when everything they read is as an
# earlier run had it, here or in another clone, that run's results are
# reported again (tests/verify/keys.sh); only a run without a failure is kept.
xkey=$(x86_key "$GEN" "$key" "$VERIFY_TREE_ID" "$FRAGMENT")
if rcache_get x86-kernel "$xkey" "$OUT/x86.tap"; then
	rcache_note x86-kernel "$xkey"
	tap_lines <"$OUT/x86.tap"
else
TAP_CAPTURE=$OUT/x86.tap
: >"$TAP_CAPTURE"
failed_before=$tap_failed

# shellcheck source=tests/verify/steps/5-kernel.sh
. tests/verify/steps/5-kernel.sh
# shellcheck source=tests/verify/steps/6a-example.sh
. tests/verify/steps/6a-example.sh
# shellcheck source=tests/verify/steps/6-boot.sh
. tests/verify/steps/6-boot.sh
TAP_CAPTURE=
[ "$tap_failed" -ne "$failed_before" ] || rcache_put x86-kernel "$xkey" "$OUT/x86.tap"
fi
