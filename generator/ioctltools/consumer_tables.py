# SPDX-License-Identifier: GPL-2.0
"""Consumers' own ioctl tables, read in their own formats into one shape:
a Table of {registry ABI: {name: [values]}}.

- strace: the rows of src/linux/*/ioctls_inc*.h, ioctls_arch*.h
  (`{ "linux/fs.h", "FIBMAP", _IOC_NONE, 0x0001, 0x00 },`), for one ABI;
  or the x86_64 table of its binary (strace_elf.py);
- syzkaller: sys/linux/*.txt.const (`arches = ...`, then
  `NAME = value[, arch:arch:value]...`, `???` where undefined);
- Go: golang.org/x/sys/unix zerrors_linux.go and zerrors_linux_<GOARCH>.go;
- Rust: linux-raw-sys src/<arch>/ioctl.rs (`pub const NAME: u32 = N;`).

A consumer's arch maps to the registry ABI with the same sizes and layout
(a big-endian twin maps to the little-endian ABI: the numbers are equal);
an arch the registry has no ABI for is listed in `skipped`."""

import glob
import os
import re

from . import Error, read_text, strace_elf

GOARCH = {"386": "i386", "amd64": "x86_64", "arm": "armhf", "arm64": "arm64",
          "mips": "mips", "mipsle": "mips", "mips64": "mips64el", "mips64le": "mips64el",
          "ppc": "powerpc", "ppc64": "powerpc64le", "ppc64le": "powerpc64le",
          "riscv64": "riscv64", "s390x": "s390x", "sparc64": "sparc64"}
RUST_ARCH = {"aarch64": "arm64", "arm": "armhf", "mips": "mips", "mips64": "mips64el",
             "powerpc": "powerpc", "powerpc64": "powerpc64le", "riscv64": "riscv64",
             "s390x": "s390x", "sparc64": "sparc64", "x86": "i386", "x86_64": "x86_64"}
SYZ_ARCH = {"386": "i386", "amd64": "x86_64", "arm": "armhf", "arm64": "arm64",
            "mips64le": "mips64el", "ppc64le": "powerpc64le", "riscv64": "riscv64",
            "s390x": "s390x"}


class Table:
    """One consumer's table.  every_constant: the source holds constants of
    every kind (Go, syzkaller), so a name the registry lacks counts only
    when spec/consumers/ knows it as an ioctl command (audit.py)."""

    def __init__(self, consumer, source, every_constant):
        self.consumer, self.source, self.every_constant = consumer, source, every_constant
        self.abis = {}
        self.skipped = []

    def add(self, abi, name, value):
        values = self.abis.setdefault(abi, {}).setdefault(name, [])
        if value not in values:
            values.append(value)


STRACE_ROW = re.compile(r'\{\s*"([^"]*)"\s*,\s*"(\w+)"\s*,\s*([_A-Z0| ]+?)\s*,\s*'
                        r'(0x[0-9a-fA-F]+)\s*,\s*(0x[0-9a-fA-F]+)\s*\}')
# "0": the rows of plain numbers (TCGETS), which strace writes as dir 0
STRACE_DIR = {"_IOC_NONE": "none", "_IOC_READ": "read", "_IOC_WRITE": "write", "0": "none"}


def strace_rows(paths, abi, layout):
    """strace's ioctls_inc*.h / ioctls_arch*.h rows, encoded on the ABI's layout."""
    t = Table("strace", ", ".join(paths), False)
    for path in paths:
        text = read_text(path)
        rows = 0
        for m in STRACE_ROW.finditer(text):
            dirs = [d.strip() for d in m[3].split("|")]
            if any(d not in STRACE_DIR for d in dirs):
                line = text.count("\n", 0, m.start()) + 1
                raise Error(f"{path}:{line}:1: error: direction {m[3]!r} is none of "
                            f"{', '.join(STRACE_DIR)}")
            d = 0
            for x in dirs:
                d |= layout[STRACE_DIR[x]]
            code, size = int(m[4], 16), int(m[5], 16)
            value = (d << layout["dir-shift"]) | (size << layout["size-shift"]) | \
                    ((code >> 8) << layout["type-shift"]) | ((code & 0xff) << layout["nr-shift"])
            t.add(abi, m[2], value)
            rows += 1
        if not rows:
            raise Error(f"{path}:1:1: error: no strace ioctl rows ({{ \"header\", \"NAME\", dir, code, size }})")
    return t


def strace_binary(path, agree):
    """strace's three x86_64 personalities (strace_elf.personalities())."""
    t = Table("strace", path, False)
    for abi, table in strace_elf.personalities(path, agree).items():
        for name, code in table:
            t.add(abi, name, code)
    return t


SYZ_LINE = re.compile(r"^([A-Za-z_][A-Za-z0-9_$]*)\s*=\s*(.*)$")


def syzkaller_const(paths):
    t = Table("syzkaller", ", ".join(paths), True)
    for path in paths:
        arches = None
        for i, line in enumerate(read_text(path).splitlines(), 1):
            if not line.strip() or line.startswith("#"):
                continue
            m = SYZ_LINE.match(line)
            if not m:
                raise Error(f"{path}:{i}:1: error: expected 'NAME = value'")
            if m[1] == "arches":
                arches = [a.strip() for a in m[2].split(",")]
                t.skipped = sorted(set(t.skipped) | {a for a in arches if a not in SYZ_ARCH})
                continue
            if arches is None:
                raise Error(f"{path}:{i}:1: error: a value before the 'arches = ...' line")
            parts = [p.strip() for p in m[2].split(",")]
            per = dict.fromkeys(arches, parts[0])
            for p in parts[1:]:
                *which, value = p.split(":")
                for a in which:
                    if a not in per:
                        raise Error(f"{path}:{i}:1: error: {a!r} is not in the arches line")
                    per[a] = value
            for a, value in per.items():
                if a in SYZ_ARCH and value != "???":
                    try:
                        t.add(SYZ_ARCH[a], m[1], int(value, 0))
                    except ValueError:
                        raise Error(f"{path}:{i}:1: error: {value!r} is not a number") from None
    return t


GO_CONST = re.compile(r"^\s+([A-Z][A-Za-z0-9_]*)\s*=\s*(0x[0-9a-fA-F]+|[0-9]+)\s*$", re.M)


def go_zerrors(directory):
    t = Table("go", directory, True)
    common = os.path.join(directory, "zerrors_linux.go")
    shared = GO_CONST.findall(read_text(common)) if os.path.exists(common) else []
    files = sorted(glob.glob(os.path.join(glob.escape(directory), "zerrors_linux_*.go")))
    if not files:
        raise Error(f"{directory}: error: no zerrors_linux_<GOARCH>.go")
    for path in files:
        goarch = os.path.basename(path)[len("zerrors_linux_"):-len(".go")]
        if goarch not in GOARCH:
            t.skipped.append(goarch)
            continue
        abi = GOARCH[goarch]
        # a BE twin of an LE ABI (mips/mipsle) is read once; equal numbers
        if abi in t.abis:
            continue
        for name, value in shared + GO_CONST.findall(read_text(path)):
            t.add(abi, name, int(value, 0))
    return t


RUST_CONST = re.compile(r"^pub const ([A-Za-z_][A-Za-z0-9_]*): u32 = ([0-9]+);$", re.M)


def rust_ioctl(src):
    t = Table("rust", src, False)
    files = sorted(glob.glob(os.path.join(glob.escape(src), "*", "ioctl.rs")))
    if not files:
        raise Error(f"{src}: error: no <arch>/ioctl.rs")
    for path in files:
        arch = os.path.basename(os.path.dirname(path))
        if arch not in RUST_ARCH:
            t.skipped.append(arch)
            continue
        for name, value in RUST_CONST.findall(read_text(path)):
            t.add(RUST_ARCH[arch], name, int(value))
    return t
