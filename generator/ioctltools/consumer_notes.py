# SPDX-License-Identifier: GPL-2.0
"""spec/consumers/<consumer>.txt: the reviewed reasons why a consumer's
table names a number the registry does not give that name.

One line per (name, number):

    NAME 0xNUMBER KIND: why

KIND is one of KINDS; not-in-registry takes a category after a
slash (not-in-registry/plain-number).  '#' starts a comment line.  The
checks fail on a name with no line and on a line that is stale (the
registry now agrees, or the consumer no longer prints it), so the file only
shrinks as the registry grows."""

import re

from . import Error

KINDS = {
    "not-in-kernel": "a name no header of the registry's kernels defines "
                     "(the consumer's own, or one the kernel removed before them)",
    "wrong-number": "the consumer's number is wrong; the registry keeps the kernel's",
    "not-in-registry": "the kernel defines it, the registry lacks it (a coverage gap)",
    "not-served": "the kernel defines it, but in a version where no kernel Debian builds "
                  "serves it (its code depends on BROKEN or COMPILE_TEST); the registry has it "
                  "where it is served",
    "not-a-command": "the kernel defines the name, but it is no request: the importer left it "
                     "out with its reason (spec/left-out.txt: a range limit such as "
                     "wireless.h's SIOCIWFIRST)",
}
CATEGORIES = {
    "plain-number": "a command spelled as a plain number",
    "enum": "a command defined as an enumerator",
    "kernel-internal": "a command defined outside the UAPI",
    "protocol-code": "a code written into a driver's buffer, not a request",
    "macro": "an _IO* command of a UAPI header the importer left out",
}
LINE = re.compile(r"^(?P<name>[A-Za-z_][A-Za-z0-9_]*) +(?P<number>0x[0-9a-f]+) +"
                  r"(?P<kind>[a-z-]+)(?:/(?P<cat>[a-z-]+))?: +(?P<why>\S.*)$")


class Note:
    __slots__ = ("name", "number", "kind", "category", "why", "where")

    def __init__(self, name, number, kind, category, why, where):
        self.name, self.number, self.kind = name, number, kind
        self.category, self.why, self.where = category, why, where


def read(path):
    """{(name, number): Note}; a malformed line is an Error at path:line:col."""
    notes, errors = {}, []
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except OSError as e:
        raise Error(f"{path}: {e.strerror}") from None
    for i, text in enumerate(lines, 1):
        if not text.strip() or text.lstrip().startswith("#"):
            continue
        m = LINE.match(text)
        where = f"{path}:{i}"
        if not m:
            errors.append(f"{where}:1: error: expected 'NAME 0xNUMBER KIND: why'")
            continue
        kind, cat = m["kind"], m["cat"]
        if kind not in KINDS:
            errors.append(f"{where}:{m.start('kind') + 1}: error: unknown kind {kind!r} "
                          f"(one of {', '.join(KINDS)})")
            continue
        if (kind == "not-in-registry") != (cat is not None) or (cat and cat not in CATEGORIES):
            errors.append(f"{where}:{m.start('kind') + 1}: error: not-in-registry takes one "
                          f"category ({', '.join(CATEGORIES)}), the other kinds none")
            continue
        key = (m["name"], int(m["number"], 16))
        if key in notes:
            errors.append(f"{where}:1: error: {m['name']} {m['number']} again "
                          f"(first at {notes[key].where})")
            continue
        notes[key] = Note(m["name"], key[1], kind, cat, m["why"], where)
    if errors:
        raise Error("\n".join(errors))
    return notes
