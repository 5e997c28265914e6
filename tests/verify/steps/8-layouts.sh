# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# tests/verify/run, step 8: a kernel per ioctl layout (kernels.sh).
# Sourced by tests/verify/run in order: its variables and helpers are set.

# ---------------------------------------------------------------- 8. every layout
# A kernel per ioctl layout, cross-built and booted with its KUnit suite
# (tests/verify/kernels.sh); VERIFY_ARCHES=none reports each as skipped.
# By default the layouts tests/verify/layouts.txt boots on this tree (the
# others are skipped, saying which tree boots them): the x86_64 kernel of
# steps 5 and 6 already checks every number in its guest with the kernel's
# macros, and a seventh cold build would cost make check minutes more;
# VERIFY_ARCHES=all adds the x86_64 KUnit kernel.
if [ "$layouts" = none ]; then
	for a in x86 arm64 powerpc mips sparc alpha parisc; do
		ok "verify/$a: patched kernel booted, every number checked in the guest # SKIP ${why:-VERIFY_ARCHES=none}"
	done
else
	wait "$kpid"
	st=$?
	trap - EXIT
	tap_lines <"$KTAP_OUT"
	exited tests/verify/kernels.sh "$st" "$KTAP_OUT"
	for a in $(printf '%s\n' "${!not_here[@]}" | sort); do
		ok "verify/$a: patched kernel booted, every number checked in the guest # SKIP ${not_here[$a]}"
	done
fi
