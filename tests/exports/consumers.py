# SPDX-License-Identifier: GPL-2.0
"""The consumers' own tables as Debian ships them, read as their formats
write them, and the comparison of one with an export (tests/exports/run).

- Go: golang.org/x/sys/unix (golang-golang-x-sys-dev), zerrors_linux.go
  and zerrors_linux_<GOARCH>.go: the untyped constants `NAME = VALUE` of
  their const blocks (typed ones, syscall.Errno(...), are no ioctls).
- Rust: linux-raw-sys (librust-linux-raw-sys-dev), src/<arch>/ioctl.rs:
  `pub const NAME: u32 = VALUE;` as bindgen writes them.
- Ours: the same two forms as generator/ioctltools/export_go.py and export_rust.py
  write them, read with the same patterns, so that a name the pattern
  misses on one side is missed on both.
The patterns are ioctlgen audit's (generator/ioctltools/consumer_tables.py);
here each file is read on its own, one GOARCH or arch directory at a time,
where the audit folds twins (mips and mipsle) into one registry ABI."""

import os

from ioctltools.consumer_tables import GO_CONST, RUST_CONST  # noqa: E402

XSYS = "/usr/share/gocode/src/golang.org/x/sys/unix"
RAWSYS = "/usr/share/cargo/registry/linux-raw-sys-0.0.46/src"


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def go_consts(*paths):
    out = {}
    for p in paths:
        if os.path.exists(p):
            for name, v in GO_CONST.findall(read(p)):
                out[name] = int(v, 0)
    return out


def xsys(goarch):
    return go_consts(os.path.join(XSYS, "zerrors_linux.go"),
                     os.path.join(XSYS, f"zerrors_linux_{goarch}.go"))


def rust_consts(path):
    return {n: int(v) for n, v in RUST_CONST.findall(read(path))} if os.path.exists(path) else {}


def rawsys(arch):
    return rust_consts(os.path.join(RAWSYS, arch, "ioctl.rs"))


def parse_known(path):
    """tests/exports/known-differences.txt: `CONSUMER ARCH NAME THEIRS OURS
    REASON TEXT...` per line, # comments.  -> {(consumer, arch, name):
    (theirs, ours, reason, text, line)}"""
    out = {}
    for i, line in enumerate(read(path).splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        f = line.split(None, 6)
        if len(f) < 7:
            raise ValueError(f"{path}:{i}:1: error: expected CONSUMER ARCH NAME THEIRS OURS REASON TEXT")
        out[(f[0], f[1], f[2])] = (int(f[3], 0), int(f[4], 0), f[5], f[6], i)
    return out


def compare(theirs, ours):
    """-> (both: sorted names both define, equal: [names], different:
    [(name, theirs, ours)], only_theirs, only_ours)"""
    both = sorted(set(theirs) & set(ours))
    equal = [n for n in both if theirs[n] == ours[n]]
    diff = [(n, theirs[n], ours[n]) for n in both if theirs[n] != ours[n]]
    return (both, equal, diff, sorted(set(theirs) - set(ours)),
            sorted(set(ours) - set(theirs)))
