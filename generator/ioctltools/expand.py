# SPDX-License-Identifier: GPL-2.0
"""What the preprocessor makes of a header's #defines.

A probe includes the header, replaces the ioctl macros by markers that
stringify their arguments and expands every macro the header defines
(function-like ones with symbolic parameters __imp_p<i>): wrapper macros and
commands defined through other commands resolve by themselves, and the
stringified arguments are the text the source wrote."""

import os
import re
from typing import NamedTuple

from . import cc, cwords

PARAM = "__imp_p%d"
PARAM_RE = re.compile(r"\b__imp_p(\d+)\b")
LINE_MARK = re.compile(r'^# (\d+) "(.*?)"')
PROBE_LINE = re.compile(r"^@@P (\d+)@@ (.*)$")
OPEN, CLOSE = "@@M@@", "@@E@@"


class Call(NamedTuple):
    """One ioctl macro call: the arguments as written (raw) and expanded (exp)."""
    macro: str
    magic_raw: str
    magic_exp: str
    nr_raw: str
    nr_exp: str
    size_raw: str
    size_exp: str
    dir_exp: str

    @property
    def spelling(self):
        """What must be equal for two ABIs to spell a command alike."""
        return self[:6]

    def c_text(self):
        size = f", {self.size_raw}" if self.size_raw else ""
        return f"{self.macro}({self.magic_raw}, {self.nr_raw}{size})"


def marker_defs():
    """Every ioctl macro (the model's `ioctl-macros`) redefined to mark its
    arguments: _IO's two, the others' three, _IOC's direction last."""
    macros = cwords.ioctl_macros()
    out = [f"#undef {m['name']}" for m in macros]
    for m in macros:
        n = m["name"]
        if m["dir"] == "none":
            out.append(f"#define {n}(t,n) {OPEN} {n} @@ #t @@ t @@ #n @@ n @@ @@ @@ @@ @@ @@E@@")
        elif m["dir"] is not None:
            out.append(f"#define {n}(t,n,s) {OPEN} {n} @@ #t @@ t @@ #n @@ n @@ #s @@ s @@ @@ {CLOSE}")
    for m in macros:
        if m["dir"] is None:	# _IOC: the direction is an argument
            n = m["name"]
            out.append(f"#define {n}(d,t,n,s) {OPEN} {n} @@ #t @@ t @@ #n @@ n @@ #s @@ s @@ d {CLOSE}")
    return out


def probe_call(name, params):
    """The text that expands a macro: NAME, or NAME(__imp_p0, ...)."""
    if params is None:
        return name
    return f"{name}({', '.join(PARAM % i for i in range(len(params)))})"


def probe_source(includes, header, prelude, calls):
    """A probe expanding each call on a line of its own, numbered."""
    lines = cc.prologue(includes, header, prelude) + marker_defs()
    lines += [f"@@P {i}@@ {call}" for i, call in enumerate(calls)]
    return "\n".join(lines) + "\n"


def unstring(s):
    s = s.strip()
    if len(s) >= 2 and s[0] == '"' and s[-1] == '"':
        s = re.sub(r'\\(["\\])', r"\1", s[1:-1])
    return re.sub(r"\s+", " ", s).strip()


def read_preprocessed(out, header_path=None):
    """(live, expansions) of `cc -E [-dD]` output over a probe: the lines of the
    header's live #defines (with -dD) and each probe line's expansion, with
    the pieces gcc breaks around tokens from system headers (stdbool.h's
    bool) with line markers joined again."""
    want = os.path.realpath(header_path) if header_path else None
    live, exps, pending = {}, {}, None
    in_header, line = False, 0
    for l in out.split("\n"):
        if pending is not None:
            if not LINE_MARK.match(l):
                pending[1] += " " + l
            if pending[1].count(OPEN) <= pending[1].count(CLOSE):
                exps[pending[0]] = pending[1]
                pending = None
            continue
        m = LINE_MARK.match(l)
        if m:
            line = int(m.group(1))
            in_header = want is not None and not m.group(2).startswith("<") and \
                os.path.realpath(m.group(2)) == want
            continue
        if l.startswith("#define "):
            if in_header:
                live[re.match(r"#define ([A-Za-z_]\w*)", l).group(1)] = line
            line += 1
            continue
        m = PROBE_LINE.match(l)
        if m:
            if m.group(2).count(OPEN) > m.group(2).count(CLOSE):
                pending = [int(m.group(1)), m.group(2)]
            else:
                exps[int(m.group(1))] = m.group(2)
        line += 1
    return live, exps


def parse_call(exp):
    """The one ioctl macro call of an expansion, or None when there is not
    exactly one."""
    if exp.count(OPEN) != 1 or exp.count(CLOSE) != 1:
        return None
    f = exp[exp.index(OPEN):exp.index(CLOSE)].split("@@")
    # ['', 'M', macro, #t, t, #n, n, #s, s, d]
    return Call(f[2].strip(), unstring(f[3]), f[4].strip(), unstring(f[5]), f[6].strip(),
                unstring(f[7]), f[8].strip(), f[9].strip())


def only_parens_around(exp):
    """Is the one call of exp all there is, but for parentheses?"""
    start, end = exp.index(OPEN), exp.rindex(CLOSE) + len(CLOSE)
    depth = 0
    for ch in (exp[:start] + exp[end:]).replace(" ", ""):
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        else:
            return False
    return True


def is_ioctl_expansion(exp):
    return OPEN in exp
