# SPDX-License-Identifier: GPL-2.0
"""Argument types: do they compile after the header, which exported header
defines the ones that do not, and do their sizes fit every size field."""

import os
import re
import threading

from . import Error, cc, probeengine
from .cheader import strip_comments

LIBC_TYPES = {"loff_t": "sys/types.h", "pid_t": "sys/types.h", "off_t": "sys/types.h",
              "uid_t": "sys/types.h", "gid_t": "sys/types.h", "ssize_t": "sys/types.h",
              "bool": "stdbool.h", "struct timeval": "sys/time.h",
              "struct timespec": "time.h"}


class TypeIndex:
    """Where each struct, union and typedef is defined among an ARCH's
    exported headers, built once per ARCH."""

    def __init__(self):
        self.lock = threading.Lock()
        self.by_arch = {}

    def get(self, arch, bases):
        with self.lock:
            if arch not in self.by_arch:
                self.by_arch[arch] = self.build(bases)
            return self.by_arch[arch]

    @staticmethod
    def build(bases):
        idx = {}
        for base in bases:
            for root, dirs, files in os.walk(base):
                dirs.sort()
                for f in sorted(files):
                    if f.endswith(".h"):
                        p = os.path.join(root, f)
                        TypeIndex.scan(p, os.path.relpath(p, base), idx)
        for v in idx.values():
            # the ARCH's own asm/ first, asm-generic/ last
            v.sort(key=lambda r: (0 if r.startswith("asm/") else
                                  2 if r.startswith("asm-generic/") else 1, r))
        return idx

    @staticmethod
    def scan(path, rel, idx):
        with open(path, encoding="utf-8", errors="replace") as fh:
            t = strip_comments(fh.read())
        for m in re.finditer(r"\b(struct|union)\s+(\w+)\s*\{", t):
            idx.setdefault(f"{m.group(1)} {m.group(2)}", []).append(rel)
        for m in re.finditer(r"\btypedef\b[^;{]*?(\w+)\s*(\[[^\]]*\])?\s*;", t):
            idx.setdefault(m.group(1), []).append(rel)
        for m in re.finditer(r"\}\s*(\w+)\s*;", t):
            idx.setdefault(m.group(1), []).append(rel)


def failing_types(unit, compiler, includes, types):
    """The types that do not compile after the header, or None when the probe
    fails outside its own lines."""
    src = cc.prologue(includes, unit.rel, unit.prelude)
    first = len(src) + 1
    src += [f"void __imp_t{i}(void) {{ (void)sizeof({t}); }}" for i, t in enumerate(types)]
    r = compiler(["-fsyntax-only", "-w"], "\n".join(src) + "\n")
    if r.returncode == 0:
        return set()
    bad = set()
    for m in re.finditer(r"^([^:\n]*):(\d+):\d+: (?:fatal )?error", r.stderr, re.M):
        i = int(m.group(2)) - first
        if not m.group(1).endswith(".c") or not 0 <= i < len(types):
            return None
        bad.add(types[i])
    return bad


def compile_error(unit, compiler):
    """Why the header does not compile on its own (after its includes), or None."""
    r = compiler(["-fsyntax-only", "-w"], "\n".join(cc.prologue(unit.includes, unit.rel, unit.prelude)) + "\n")
    return probeengine.first_error(r.stderr, "does not compile") if r.returncode != 0 else None


def candidates(key, unit, idx, incdirs):
    """Headers that may define a type: the C library's, then the exported ones
    (asm-generic/x.h through the ARCH's asm/x.h when there is one)."""
    hs = ([LIBC_TYPES[key]] if key in LIBC_TYPES else []) + \
        [h for h in idx.get(key, []) if h != unit.rel][:4]
    out = []
    for h in hs:
        asm = cc.userspace_include(h)
        if asm != h and any(os.path.exists(os.path.join(d, asm)) for d in incdirs):
            out.append(asm)
        out.append(h)
    return out


def complete(unit, compiler, idx, others, size_limit):
    """Add includes that define the argument types the header leaves undefined
    (struct termios for asm/ioctls.h); the rest make their commands left out.
    others: the compilers of the other ARCHes, for types only some define."""
    types = []
    for f in unit.commands:
        types += [t for t in f.entry.types() if t not in types]
    includes = list(unit.includes)
    bad = failing_types(unit, compiler, includes, types)
    if bad is None:
        unit.compiles, unit.error = False, "the header does not compile with its argument types"
        return
    for t in sorted(bad):
        key = re.sub(r"\s*\[.*$", "", t).strip()
        for h in candidates(key, unit, idx, compiler.incdirs):
            if h in includes:
                continue
            again = failing_types(unit, compiler, includes + [h], types)
            if again is not None and t not in again and again <= bad:
                includes.append(h)
                bad = again
                break
    here = [t for t in types if t not in bad]
    # a generic header may use a type only some ARCH defines (kvm.h and the
    # powerpc and arm64 asm/kvm.h): tools/measure-sizes records the others
    # as absent
    for other in others:
        if not bad:
            break
        again = failing_types(unit, other, includes, sorted(bad))
        if again is not None:
            bad = bad & again
    unit.bad_types = bad
    unit.includes = includes
    find_overflow(unit, compiler, here, size_limit)


def find_overflow(unit, compiler, types, size_limit):
    """Sizes no layout's size field holds: ioctlgen rejects them (size-overflow)."""
    if not types:
        return
    src = cc.prologue(unit.includes, unit.rel, unit.prelude)
    src += [f"void __imp_s{i}(void) {{ {probeengine.marker('V', i, f'(long)sizeof({t})')} }}"
            for i, t in enumerate(types)]
    r = compiler(["-S", "-o", "-", "-w"], "\n".join(src) + "\n")
    if r.returncode != 0:
        raise Error(f"{unit.label}: error: measuring the argument types {', '.join(types)}: "
                    f"{probeengine.first_error(r.stderr, 'the size probe failed')}")
    for i, v in probeengine.values(r.stdout, "V").items():
        if v > size_limit:
            unit.overflow[types[i]] = v
