#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The committed spec/sizes/*.yaml must be what the compilers measure today.
# Remeasure into a temporary directory with tools/measure-sizes and compare
# every type of every ABI; a difference names the type, the ABI and both
# sizes.  TAP lines on stdout.  Usage: tests/sizes-fresh.sh [SPEC_DIR BUILD_DIR]
set -u
spec=${1:-spec}
build=${2:-build}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The exported headers the probes include (make builds them once).
for arch in $(sed -n 's/^ *arch: *//p' "$spec/abis.yaml" | sort -u); do
	if ! make -s "$build/uapi/$arch/.done" >"$tmp/log" 2>&1; then
		echo "not ok 1 - make $build/uapi/$arch/.done"
		sed 's/^/# /' "$tmp/log"
		exit 1
	fi
done
if ! tools/measure-sizes -o "$tmp" "$spec" "$build" >"$tmp/log" 2>&1; then
	echo "not ok 1 - tools/measure-sizes $spec $build"
	sed 's/^/# /' "$tmp/log"
	exit 1
fi

/usr/bin/python3 - "$spec/sizes" "$tmp" <<'PY'
import os
import sys

import yaml

stored_dir, fresh_dir = sys.argv[1:]
n = failed = 0


def check(ok, text, details=()):
    global n, failed
    n += 1
    print(f"{'ok' if ok else 'not ok'} {n} - {text}")
    for d in details:
        print(f"# {d}")
    failed += not ok


def sizes(path):
    with open(path, encoding="utf-8") as f:
        return yaml.safe_load(f).get("sizes") or {}


fresh = sorted(f for f in os.listdir(fresh_dir) if f.endswith(".yaml"))
stored = sorted(f for f in os.listdir(stored_dir) if f.endswith(".yaml")) \
    if os.path.isdir(stored_dir) else []
for name in sorted(set(stored) - set(fresh)):
    check(False, f"{stored_dir}/{name}: no ABI measures it any more")
for name in fresh:
    abi = name[:-5]
    path = os.path.join(stored_dir, name)
    if not os.path.exists(path):
        check(False, f"{path}: missing; run `make sizes`")
        continue
    want, have = sizes(os.path.join(fresh_dir, name)), sizes(path)
    bad = []
    for t in sorted(set(want) | set(have)):
        if t not in have:
            bad.append(f"{t}: ABI {abi}: not stored, measured {want[t]}")
        elif t not in want:
            bad.append(f"{t}: ABI {abi}: stored {have[t]}, no longer used by any spec")
        elif have[t] != want[t]:
            bad.append(f"{t}: ABI {abi}: stored {have[t]}, measured {want[t]}")
    check(not bad, f"{path}: {len(want)} sizes as measured by the {abi} compiler", bad)
    with open(path, encoding="utf-8") as f, open(os.path.join(fresh_dir, name), encoding="utf-8") as g:
        check(f.read() == g.read(), f"{path} is byte-identical to a fresh `make sizes`")
sys.exit(1 if failed else 0)
PY
rc=$?
n=$(grep -c '' <<<"$(ls "$tmp"/*.yaml)")

# A type that does not compile must be reported at its place in the spec.
mkdir -p "$tmp/bad/headers/linux"
cp "$spec/abis.yaml" "$tmp/bad/"
cat >"$tmp/bad/headers/linux/bogus.yaml" <<'YAML'
# SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note
header: linux/fs.h
doc: A header spec with a type that does not exist.
commands:
  - name: BOGUS
    dir: read
    magic: 0x12
    nr: 1
    type: struct no_such_type
    doc: Nothing.
YAML
tools/measure-sizes -o "$tmp/bad/out" "$tmp/bad" "$build" >"$tmp/bad.log" 2>&1
brc=$?
want="$tmp/bad/headers/linux/bogus.yaml:9:11: error: type 'struct no_such_type' does not compile for ABI"
if [ $brc -eq 1 ] && grep -qF "$want" "$tmp/bad.log" && ! ls "$tmp/bad/out"/*.yaml >/dev/null 2>&1; then
	echo "ok $((2 * n + 1)) - a type that does not compile is reported at its spec line, nothing written"
else
	echo "not ok $((2 * n + 1)) - a type that does not compile is reported at its spec line (exit $brc)"
	sed 's/^/# /' "$tmp/bad.log"
	rc=1
fi
exit $rc
