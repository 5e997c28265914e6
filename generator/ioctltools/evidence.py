# SPDX-License-Identifier: GPL-2.0
"""Evidence that a #define or an enumerator no _IO* macro marks is an ioctl
command (loop.h's `#define LOOP_SET_FD 0x4C00`, xe_drm.h's enumerators).

Three kinds, each recorded with the command it admits (`evidence:`):
  - magic-range: the value, read as an _IO number (type = bits 8-15, nr =
    bits 0-7, no direction or size), lies in a row of spec/magic.yaml that
    names the header;
  - case-label FILE: a function of the tree whose name says ioctl switches
    on the name (drivers/block/loop.c's lo_ioctl: `case LOOP_SET_FD:`);
  - block: the #define sits in a run of #defines (no blank line between)
    beside a command of the header with the same type code, or the
    enumerator in an enum beside another one admitted.
A #define needs magic-range or case-label (block alone says only where it
stands).  Its body is one integer literal, or a base and an offset
(`(SIOCDEVPRIVATE + 1)`, if_tunnel.h's SIOCADDTUNNEL): the base a plain
command of the registry or a literal #define of the header, its value the
base's plus the offset.  Such a candidate on a registered command's base
without evidence is left out with the reason (a number of a private range
that no handler of the tree switches on).  A candidate with evidence is
still left out, with the reason,
when it is a limit of a range (SIOCIWFIRST), a flag bit or mask, a value
that is no request (below 0x100 the type code is 0: the size of a buffer,
a count), or magic-range alone among #defines of values outside the
header's rows (a block of flags: fd.h's FD_RAW_STOP_IF_FAILURE 0x200).
The enumerators of an enum whose tag ends in _protocol (binder's
binder_driver_command_protocol: BC_*, BR_*) are codes written into the
driver's buffer: imported as `kind: protocol-code`, never as requests."""

import hashlib
import json
import os
import re
import subprocess

from . import Error
from .cheader import ALIAS_BODY
from .specwrite import NamedEntry, PlainEntry

MAGIC_RANGE, BLOCK, ENUMERATOR = "magic-range", "block", "enumerator"
R_LIMIT = "a limit of a range of commands (a name ending in FIRST, LAST, BASE, MAX or MIN), not a command"
R_FLAG = "a flag bit or mask of an argument, not a command"
R_NO_REQUEST = ("a value that is no request: below 0x100 its type code is 0 (a size, a count "
                "or a code of the argument)")
R_FLAG_BLOCK = ("a value of an argument: only magic-range says command, and #defines beside "
                "it hold values outside the header's rows (fd.h's FD_RAW_* flags)")
R_NAME_ELSEWHERE = ("its name is a command of another header with another number on some ABI "
                    "(sparc's asm/fbio.h FBIOGETCMAP): one name cannot carry both")
R_BASE_NONE = ("a base + offset in the range of a registered command (SIOCDEVPRIVATE, "
               "SIOCPROTOPRIVATE) that no ioctl handler of the tree switches on and no magic "
               "row gives the header: no evidence that it is a request")
R_WIDE = ("a value above 0xffff written as a literal: not a plain-number command "
          "(direction and size bits without the _IO* macros)")
LIMIT_NAME = re.compile(r"(FIRST|LAST|BASE|MAX|MIN)(PRIV)?$")
FLAG_NAME = re.compile(r"(^|_)(MASK|SHIFT|FLAG|FLAGS|BIT|BITS)(_|$)")
INT_VALUE = re.compile(r"^\s*\(?\s*(0[xX][0-9a-fA-F]+|[1-9][0-9]*|0)[uUlL]*\s*\)?\s*$")
# a base and an offset: (SIOCDEVPRIVATE + 1), (SIOCPROTOPRIVATE+0), SIOCDEVPRIVATE
BASE_PLUS = re.compile(r"^\s*\(?\s*([A-Za-z_]\w*)\s*(?:\+\s*(0[xX][0-9a-fA-F]+|[0-9]+)[uU]?\s*)?"
                       r"\)?\s*$")
PRIVATE_BASE = re.compile(r"PRIVATE$")
PROTOCOL_ENUM = re.compile(r"_protocol$")
# a function head at column 0 (its name, the word before the first "(", the
# type before it or on the line above: `static int\nvti6_siocdevprivate(`), a
# switch (its expression, one level of parentheses) or a case label
SCAN = re.compile(r"^(?:(?:[A-Za-z_][\w \t\*]*?\b)?([A-Za-z_]\w*)[ \t]*\([^;{}]*$)"
                  r"|\bswitch[ \t]*\(((?:[^()]|\([^()]*\))*)\)"
                  r"|^[ \t]*case[ \t]+([A-Za-z_]\w*)[ \t]*:", re.M)
# the functions whose switch on the request is an ioctl handler's: *ioctl*,
# and net_device_ops' ndo_siocdevprivate (ip_tunnel_siocdevprivate)
HANDLER = re.compile(r"ioctl|siocdevprivate", re.I)
# what an ioctl handler switches on: the request (cmd, _IOC_NR(cmd), ioctl, request)
ON_REQUEST = re.compile(r"cmd|ioctl|request", re.I)


def int_literal(body):
    """The literal of a #define whose body is one integer literal, else None
    (a comment that goes on past the line is cut: cdrom.h's CDROMPLAYTRKIND)."""
    m = INT_VALUE.match(re.sub(r"/\*.*$", "", body))
    return m.group(1) if m else None


def base_plus(body, bases):
    """(value, base) of a #define whose body is a base and an offset, the
    base's value from bases {name: value}, else None."""
    m = BASE_PLUS.match(re.sub(r"/\*.*$", "", body))
    if not m or m.group(1) not in bases:
        return None
    # a name alone is another command's name (an alias), unless it is the
    # first number of a private range (SIOCGETVIFCNT is SIOCPROTOPRIVATE)
    if m.group(2) is None and not PRIVATE_BASE.search(m.group(1)):
        return None
    return bases[m.group(1)] + int(m.group(2) or "0", 0), m.group(1)


class CaseLabels:
    """{name: sorted files} of the case labels in the tree's ioctl handlers
    (functions whose name contains "ioctl" or "siocdevprivate", in a switch on
    the request: `switch (cmd)`, not hostap's `switch (wrq->flags &
    IW_POWER_MODE)`), one pass over the .c files that mention either, kept in CACHE_DIR under the
    tree's path and the mtimes of it and its Makefile (a tree edited deeper
    down: remove CACHE_DIR/case-labels-*.json) (the last switch before a label is its switch:
    a label after a nested switch may be missed, never invented)."""

    def __init__(self, tree, cache_dir=None):
        self.tree = tree
        self.labels = self._load(cache_dir)

    def _load(self, cache_dir):
        stamps = [os.stat(p).st_mtime_ns for p in (self.tree, os.path.join(self.tree, "Makefile"))
                  if os.path.exists(p)]
        key = hashlib.sha256(f"5 {os.path.realpath(self.tree)} {stamps}".encode()).hexdigest()[:16]
        path = os.path.join(cache_dir, f"case-labels-{key}.json") if cache_dir else None
        if path and os.path.exists(path):
            with open(path, encoding="utf-8") as f:
                return json.load(f)
        labels = self._scan()
        if path:
            os.makedirs(cache_dir, exist_ok=True)
            tmp = f"{path}.{os.getpid()}.tmp"
            with open(tmp, "w", encoding="utf-8") as f:
                json.dump(labels, f, sort_keys=True)
            os.replace(tmp, path)
        return labels

    def _scan(self):
        r = subprocess.run(["grep", "-rlE", "--include=*.c", "ioctl|siocdevprivate", "."],
                           cwd=self.tree, capture_output=True, text=True)
        if r.returncode > 1:
            raise Error(f"{self.tree}: error: grep for ioctl handlers failed: {r.stderr.strip()}")
        labels = {}
        for rel in sorted(r.stdout.split()):
            with open(os.path.join(self.tree, rel), encoding="utf-8", errors="replace") as f:
                text = f.read()
            func = on = ""
            for m in SCAN.finditer(text):
                if m.group(1):
                    func, on = m.group(1), ""
                elif m.group(2) is not None:
                    on = m.group(2)
                elif HANDLER.search(func) and ON_REQUEST.search(on):
                    files = labels.setdefault(m.group(3), [])
                    rel = os.path.normpath(rel)
                    if rel not in files:
                        files.append(rel)
        return labels

    def evidence(self, name):
        files = self.labels.get(name)
        return f"case-label {min(files)}" if files else None


class MagicRows:
    """The rows of spec/magic.yaml in one known version: code, nr range, headers."""

    def __init__(self, rows, version=None):
        self.rows = [r for r in rows if version is None or version in r.get("versions", [version])]

    def covers(self, header, code, nr):
        return any(r["code"] == code and r["seq-first"] <= nr <= r["seq-last"] and
                   header in r["headers"] for r in self.rows)


class Evidence:
    """What a unit's candidates are judged by: the tree's case labels, the
    magic rows, and the plain commands of the registry {name: number} that
    a #define may offset (SIOCDEVPRIVATE)."""

    def __init__(self, labels, rows, bases=None):
        self.labels, self.rows = labels, rows
        self.bases = dict(bases or {})

    def of_plain(self, header, name, value, block_codes):
        """The evidence for `#define name value`, in a fixed order."""
        out = []
        if 0x100 <= value <= 0xffff and self.rows.covers(header, value >> 8, value & 0xff):
            out.append(MAGIC_RANGE)
        cl = self.labels.evidence(name)
        if cl:
            out.append(cl)
        if 0x100 <= value <= 0xffff and value >> 8 in block_codes:
            out.append(BLOCK)
        return out

    def of_enumerator(self, header, name, magic, nr):
        out = [ENUMERATOR]
        if self.rows.covers(header, magic, nr):
            out.append(MAGIC_RANGE)
        cl = self.labels.evidence(name)
        if cl:
            out.append(cl)
        return out


def rejection(name, value, evid, small_beside):
    """Why a candidate with evidence is no command, or None."""
    if LIMIT_NAME.search(name):
        return R_LIMIT
    if FLAG_NAME.search(name):
        return R_FLAG
    if value < 0x100:
        return R_NO_REQUEST
    if value > 0xffff:
        return R_WIDE
    if evid == [MAGIC_RANGE] and small_beside:
        return R_FLAG_BLOCK
    return None


def blocks(text):
    """{line of a #define: index of its block}: a block is a run of lines
    with no blank line between (comments and continuations belong to it)."""
    out, b = {}, 0
    for i, line in enumerate(text.lines, 1):
        if not line.strip():
            b += 1
        out[i] = b
    return out


def find_plain(unit, live, taken, ev):
    """The #defines of a header (not ioctls.h or sockios.h) that evidence
    makes commands spelled as plain numbers: [(Define, literal, evidence)],
    and [(Define, reason, detail)] of the candidates left out."""
    text = unit.text
    block_of = blocks(text)
    codes = {}
    for f in unit.commands:
        codes.setdefault(block_of.get(f.line), set()).add(f.magic)
    small = {}		# block -> does it hold a literal no row gives the header
    for d in text.defines:
        lit = int_literal(d.body) if d.params is None else None
        if lit is not None and not ev.rows.covers(unit.rel, int(lit, 0) >> 8, int(lit, 0) & 0xff):
            small[block_of.get(d.line)] = True
    found, left = [], []
    # the header's own literals may be bases too (FOO_BASE 0x8900, FOO (FOO_BASE + 1))
    bases = dict(ev.bases)
    bases.update((d.name, int(int_literal(d.body), 0)) for d in text.defines
                 if d.params is None and int_literal(d.body) is not None)
    for d in text.defines:
        if d.params is not None or d.name in taken or live.get(d.name) != d.line:
            continue
        lit = int_literal(d.body)
        based = base_plus(d.body, bases) if lit is None else None
        if lit is None and based is None:
            continue
        v = int(lit, 0) if lit is not None else based[0]
        lit = lit or "0x%04X" % v
        evid = ev.of_plain(unit.rel, d.name, v, codes.get(block_of.get(d.line), set()))
        # block alone says only where a #define stands: a command needs more
        if based and based[1] in ev.bases and (not evid or evid == [BLOCK]) and \
                0x100 <= v <= 0xffff:
            left.append((d, R_BASE_NONE, f"{lit}: {' '.join(d.body.split())}"))
            continue
        if not evid or evid == [BLOCK]:
            continue
        why = rejection(d.name, v, evid, small.get(block_of.get(d.line), False))
        if why:
            left.append((d, why, f"{lit}; evidence: {', '.join(evid)}"))
        else:
            found.append((d, lit, evid))
    return found, left


def mark_enumerators(u):
    """The evidence and kind of each enumerator command of a unit:
    binder's BC_*/BR_* enums are protocol codes."""
    if u.evidence is None:
        return
    for f in u.commands:
        if f.enum_value is None or f.entry is None:
            continue
        f.entry.evidence = u.evidence.of_enumerator(u.rel, f.name, f.magic, f.nr)
        if PROTOCOL_ENUM.search(u.text.enum_tag.get(f.name, "")):
            f.entry.kind = "protocol-code"


def keep_first(e, old, version, versions):
    """The evidence of a command is that of the oldest known version it
    exists in (its since): a newer tree's import keeps it (6.12 moved the
    fbdev ioctl handler to another file), so each import is repeatable."""
    if old is None or not getattr(old, "evidence", None) or version is None:
        return
    if version != (old.since or versions[0]):
        e.evidence = list(old.evidence)


def plain_commands(unit, live, taken):
    """A unit's commands spelled as plain numbers outside ioctls.h and
    sockios.h, where evidence says so, and the names a header defines as
    one of them (lp.h's LPSETTIMEOUT is LPSETTIMEOUT_OLD, or _NEW under a
    64-bit time_t on a 32-bit ABI)."""
    found, left = find_plain(unit, live, taken, unit.evidence)
    for d, why, detail in left:
        unit.leave(d.line, d.name, why, detail)
    for d, literal, evid in found:
        unit.plain.append(PlainEntry(name=d.name, number=literal, line=d.line, evidence=evid))
    cmds = {d.name for d, _, _ in found}
    if not cmds:
        return
    cmds |= {f.name for f in unit.commands}
    for d in unit.text.defines:
        if d.params is not None or d.name in taken or d.name in cmds or \
                live.get(d.name) != d.line:
            continue
        a = ALIAS_BODY.match(d.body)
        refs = [n for n in re.findall(r"[A-Za-z_]\w*", d.body) if n in cmds]
        if a and a.group(1) in cmds and any(x.name == a.group(1) for x in unit.plain):
            unit.plain.append(NamedEntry(name=d.name, alias_of=a.group(1), line=d.line))
        elif "?" in d.body and refs:
            unit.plain.append(NamedEntry(name=d.name, alias_of="", line=d.line))


def base_includes(u, defined_in):
    """The exported headers that define the bases of a unit's base + offset
    commands when it does not define them itself (if_tunnel.h's
    SIOCDEVPRIVATE, from linux/sockios.h, which it does not include): a
    compiler needs them first.  defined_in: {constant: generic header}."""
    own = {d.name for d in u.text.defines}
    need = []
    for e in u.plain:
        m = BASE_PLUS.match(u.text.body_of(e.name) or "") if getattr(e, "evidence", None) \
            else None
        h = defined_in.get(m.group(1)) if m and m.group(1) not in own else None
        if h and h != u.rel and h not in need:
            need.append(h)
    return need
