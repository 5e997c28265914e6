# SPDX-License-Identifier: GPL-2.0
"""Check annotate's output on real strace output (tests/lookup/run).

usage: annotated.py ISSUED TRACE ANNOTATED follow|parent
ISSUED: "NAME 0xNUMBER" per ioctl the traced program issued, in order (its
numbers from gcc on the kernel's headers; "size:NAME" for NAME's dir, type
and nr with a size no version has, "none" for a number nothing has); the last is the child's, traced with follow (strace -f) only.
Every annotated line must be its trace line with at most one comment
inserted; the k-th ioctl call must be named as issued."""
import sys

issued = [line.split() for line in open(sys.argv[1])]
if sys.argv[4] != "follow":
    issued = issued[:-1]
trace = open(sys.argv[2]).read().splitlines()
out = open(sys.argv[3]).read().splitlines()
bad = []
if len(trace) != len(out):
    bad.append(f"{len(trace)} lines in, {len(out)} out")
for a, b in zip(trace, out):
    if a == b:
        continue
    i = next(i for i in range(min(len(a), len(b))) if a[i] != b[i]) if a[:len(b)] != b[:len(a)] else min(len(a), len(b))
    j = b.find("*/", i)
    if not b.startswith(" /* ", i) or j < 0 or b[:i] + b[j + 2:] != a:
        bad.append(f"not one comment inserted: {b!r}")
calls = [b for b in out if "ioctl(" in b]
if len(calls) != len(issued):
    bad.append(f"{len(issued)} ioctls issued, {len(calls)} traced")
for (name, number), line in zip(issued, calls):
    if name == "none":
        want = f"0x{int(number, 16):08x}: no registered command on x86_64 */"
    elif name.startswith("size:"):
        want = f"unknown: {name[5:]} ("
    elif name in ("TCGETS", "FS_IOC_GETFLAGS"):	# strace names these itself
        want = name
    else:
        want = f"/* {name} "
    if want not in line:
        bad.append(f"{name} {number}: {want!r} not in {line!r}")
for b in bad:
    print(b)
sys.exit(1 if bad else 0)
