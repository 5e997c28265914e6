# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# tests/verify/run, step 6a: the example driver, built for the guest.
# Sourced by steps/4-6-x86.sh, whose results the cache keeps: the variables
# and helpers of tests/verify/run are set.

# ---------------------------------------------------------------- 6a. the example driver
# tests/example: a misc driver whose whole header the registry renders from
# its own small registry (tests/example/spec), apart from spec/ and the
# series.  Built by the entry point a driver's author uses, tools/driver-test
# (its step 4 alone, against this kernel: tests/verify/driver-build.sh); its
# module and its -m64/-m32/-mx32 programs join the initramfs; the guest runs
# them after the user tests.
EX=$OUT/example
KCC=$KCC JOBS=$JOBS tools/driver-test --build-only tests/example "$TREE" "$KOBJ" "$HP/include" "$EX" >"$LOG/example.tap" 2>&1
st=$?
tap_lines <"$LOG/example.tap"
exited tools/driver-test "$st" "$LOG/example.tap"
cat "$GEN/expected" "$EX/expected" >"$OUT/expected" 2>/dev/null
