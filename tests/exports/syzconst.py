# SPDX-License-Identifier: GPL-2.0
"""A reader of syzkaller's .txt.const files, written from syzkaller's own
description of the format (pkg/compiler/const_file.go, the reader it
calls DeserializeConstFile), not from generator/ioctltools/export_syzkaller.py:

- blank lines and lines starting with `#` are skipped;
- every other line is `NAME = VALUE`, split at the first `=`, both sides
  trimmed; the first such line must be `arches = A, B, ...`;
- VALUE is a comma-separated list of parts; a part without `:` is the
  default, for every arch of the header (at most one default); a part
  `a:b:VALUE` gives the arches before the last `:` that value, taking
  them out of the default; `???` means undefined on those arches;
- numbers are read as Go's strconv.ParseUint(s, 0, 64) reads them
  (decimal, 0x hex, 0o/0 octal, 0b binary, `_` separators);
- a name given two values for one arch, in one file or two, is an error.

read(paths) -> {name: {arch: value}} and the arches of each file."""

import re

UNDEFINED = "???"
_UINT = re.compile(r"(0[xX][0-9a-fA-F_]+|0[bB][01_]+|0[oO]?[0-7_]*|[1-9][0-9_]*)")


class FormatError(Exception):
    pass


def parse_uint(s):
    if not _UINT.fullmatch(s) or s.endswith("_") or "__" in s:
        raise FormatError(f"failed to parse int: {s!r}")
    t = s.replace("_", "")
    if t[:2] in ("0x", "0X"):
        v = int(t[2:], 16)
    elif t[:2] in ("0b", "0B"):
        v = int(t[2:], 2)
    elif t[:2] in ("0o", "0O"):
        v = int(t[2:], 8)
    elif len(t) > 1 and t[0] == "0":
        v = int(t[1:], 8)
    else:
        v = int(t)
    if v >= 1 << 64:
        raise FormatError(f"value out of range: {s!r}")
    return v


def _add(consts, name, arch, val, where):
    have = consts.setdefault(name, {})
    if arch in have and have[arch] != val:
        raise FormatError(f"{where}: const={name} arch={arch} has different values: "
                          f"{val} vs {have[arch]}")
    have[arch] = val


def read_file(path, consts):
    """Add one file's constants to consts; return its arches."""
    arches = []
    with open(path, encoding="utf-8") as f:
        for lineno, line in enumerate(f, 1):
            line = line.rstrip("\n")
            where = f"{path}:{lineno}"
            if not line or line.startswith("#"):
                continue
            if "=" not in line:
                raise FormatError(f"{where}: expect '='")
            name, val = (x.strip() for x in line.split("=", 1))
            if not arches:
                if name != "arches":
                    raise FormatError(f"{where}: missing arches header")
                arches = [a.strip() for a in val.split(",")]
                continue
            default = None
            named = set()
            for part in val.split(","):
                fields = part.split(":")
                if len(fields) == 1:
                    if default is not None:
                        raise FormatError(f"{where}: duplicate default value")
                    v = fields[0].strip()
                    default = UNDEFINED if v == UNDEFINED else parse_uint(v)
                    continue
                v = fields[-1].strip()
                for a in (x.strip() for x in fields[:-1]):
                    named.add(a)
                    if v != UNDEFINED:
                        _add(consts, name, a, parse_uint(v), where)
                    else:
                        consts.setdefault(name, {})
            if default not in (None, UNDEFINED):
                for a in arches:
                    if a not in named:
                        _add(consts, name, a, default, where)
            consts.setdefault(name, {})
    return arches


def read(paths):
    consts = {}
    arches = {}
    for p in paths:
        arches[p] = read_file(p, consts)
    return consts, arches
