# SPDX-License-Identifier: GPL-2.0
"""From a header's #defines to the commands the registry can hold.

analyse() expands every #define of a header (expand.py), keeps the ones
that are one ioctl macro call, asks the compiler for the values of magic,
nr and direction (evaluate()) and shapes each into a spec entry (shape());
everything it cannot hold is left out with the reason."""

import os
import re
import tempfile
from dataclasses import dataclass, field

from . import Error, cc, cwords, evidence, expand, probeengine
from .cheader import ALIAS_BODY, HeaderText
from .specwrite import Entry, Legacy, NamedEntry, PlainEntry

CHAR_LIT = re.compile(r"^'([^'\\]|\\[\\'\"?abfnrtv0])'$")
INT_LIT = re.compile(r"^(0[xX][0-9a-fA-F]+|[1-9][0-9]*|0)[uUlL]*$")
# a number or arithmetic on numbers; not a name made of those letters (u32)
NUMERIC = re.compile(r"^(?![\s(]*[A-Za-z_])[\s()0-9a-fA-FxXuUlL+*/<>|&~-]+$")
SIZEOF = re.compile(r"sizeof\s*\((.*)\)")
PLAIN_NUMBER_HEADERS = re.compile(r"(^|/)(ioctls|sockios)\.h$")
PLAIN_NUMBER = re.compile(r"^\s*\(?\s*(0[xX][0-9a-fA-F]+)[uUlL]*\s*\)?\s*$")

R_NOT_LIVE = "not defined when the header is compiled (#if 0, a comment, or an #ifdef branch not taken)"
R_HELPER = "a helper macro: other commands of the header are defined through it"
R_PARAM_TYPE = "a parameter sets the magic code or the argument type (a helper or a variable-size form the registry cannot express)"
R_EXPR = "the ioctl macro is part of a larger expression"
R_IOC_SIZE = "_IOC with a size that is neither sizeof(type) nor a parameter"
R_NR = "nr is not base + parameter with step 1"
R_NOCOMPILE = "its argument type comes from a header that does not compile in user space"
R_NOCOMPILE_KERNEL = ("its argument type needs a header the kernel-internal header does not "
                      "include: it does not compile on its own in kernel context")
R_PLAIN_ALIAS = "another command's name on no ABI: none of the names its #defines name is its value"
R_FLAG = "a flag bit of a command's argument, not a command (TIOCM_* modem lines)"
# The argument bits some arch ioctls.h define beside the commands.
FLAG_NAME = re.compile(r"^(TIOCM|TIOCPKT|TIOCSER)_")
R_NOPP = "the header cannot be preprocessed on its own"
R_UNUSED_HELPER = ("a helper macro no definition uses: a parameter is the whole argument type "
                   "or magic code (no command of its own)")
R_WHOLE_NR = "a helper macro: the parameter is the whole nr (no command of its own)"
R_TYPE_UNDEF = "its argument type is defined by no exported header (kernel-internal, or gone)"
R_TYPE_NOWHERE = ("not an ioctl command any more: no file of the kernel tree defines its argument "
                  "type, so nothing can build it and no kernel serves it")
R_OVERFLOW = "its size overflows the size field of a layout (ioctlgen's size-overflow error)"
R_VARIANT = "spelled otherwise on some ABIs (an #ifdef on the word size or the ARCH): one entry cannot hold it"
R_ENUM = ("an enumerator whose value is one ioctl macro call, not a #define: imported once the "
          "registry has its name (binder's BC_*/BR_* are protocol codes, not ioctls)")
R_CONST = "magic or nr is not an integer constant expression"
R_SIZE_TYPE = "a size argument that is neither a sizeof() expression nor an int"
# The C type of a legacy size argument, as the compiler sees it.
WRITTEN_TYPE = "_Generic(({}), size_t: 1, int: 2, default: 0)"
WRITTEN_TYPES = {1: "size_t", 2: "int"}


@dataclass(frozen=True)
class LeftOut:
    line: int
    name: str
    reason: str
    detail: str | None = None


@dataclass
class Found:
    """One command as the preprocessor expanded it, then as the compiler evaluated it."""
    name: str
    line: int
    params: list | None
    call: expand.Call
    magic: int = 0
    nr: int = 0
    dir: str = ""
    dirval: int = 0
    nr1: list = field(default_factory=list)		# nr with parameter k at 1
    magic1: list = field(default_factory=list)		# magic with parameter k at 1
    written_type: str | None = None			# of a legacy size argument
    sizes: dict = field(default_factory=dict)		# sizeof the type at size parameter value k
    units: dict = field(default_factory=dict)		# sizeof each sizeof() operand of the type
    entry: Entry | None = None
    enum_value: str | None = None	# an enumerator's value as written (binder.h in 6.12)

    def probe_text(self):
        """What a probe expands for it: the macro, or an enumerator's value."""
        return self.enum_value or expand.probe_call(self.name, self.params)

    @property
    def legacy_size(self):
        """Is the size argument a sizeof() or a number, not a type?"""
        c = self.call
        return c.macro not in ("_IO", "_IOC") and not c.macro.endswith("_BAD") and (
            SIZEOF.fullmatch(c.size_raw) is not None or NUMERIC.match(c.size_exp) is not None
            or INT_LIT.match(c.size_raw) is not None)


@dataclass
class Unit:
    """One header on one ARCH."""
    arch: str
    rel: str			# as installed: linux/fs.h
    path: str			# the file
    kind: str			# "generic" or "arch"
    includes: list = field(default_factory=list)
    prelude: cc.Prelude = cc.Prelude()	# of its spec
    text: HeaderText | None = None
    commands: list = field(default_factory=list)	# Found, header order
    left: list = field(default_factory=list)	# LeftOut
    compiles: bool = True
    error: str | None = None
    bad_types: set = field(default_factory=set)
    overflow: dict = field(default_factory=dict)	# type -> size
    variant: dict = field(default_factory=dict)	# name -> (label, Call | None)
    variant_all: dict = field(default_factory=dict)	# name -> [(label, Call | None)]
    not_ioctl: dict = field(default_factory=dict)	# label -> [name]
    plain: list = field(default_factory=list)	# PlainEntry, header order, spelled as numbers
    evidence: object = None	# an evidence.Evidence: what admits a #define without _IO* (evidence.py)
    kcompiler: object = None	# a kernel-internal header's kernel-context compiler (internal.py)

    def reset(self, includes):
        self.includes = includes
        self.commands, self.left, self.plain = [], [], []

    @property
    def label(self):
        return f"{self.rel} [{self.arch}]" if self.kind == "arch" else self.rel

    @property
    def where(self):
        return self.rel if self.kind == "generic" else f"{self.rel} ({self.arch})"

    @property
    def spec_rel(self):
        """Its spec file, relative to the headers directory."""
        stem = self.rel[:-2] + ".yaml"
        return os.path.join("arch", self.arch, stem) if self.kind == "arch" else stem

    def leave(self, line, name, reason, detail=None):
        self.left.append(LeftOut(line, name, reason, detail))

    def drop(self, f, reason, detail=None):
        """Leave out a command found in the header."""
        self.leave(f.line, f.name, reason, detail)


def preprocess(unit, compiler):
    """`cc -E -dD` over the probe; a header that includes one the export does
    not have (xen/interface/xen.h) is read with that one empty (it then fails
    its compile test).  Returns the result and the probes."""
    text = unit.text
    probes, seen = [], set()
    for d in text.defines:
        if not d.body.strip() or d.name in seen or d.name.startswith("_IO"):
            continue
        seen.add(d.name)
        if d.params is None or (d.params and "..." not in d.params):
            probes.append((d.name, d.params))
    calls = [expand.probe_call(n, p) for n, p in probes]
    # an enumerator is no macro: its value is what the probe expands
    for d in text.enumerators:
        if d.name not in seen:
            seen.add(d.name)
            probes.append((d.name, None))
            calls.append(d.body)
    src = expand.probe_source(unit.includes, unit.rel, unit.prelude, calls)
    with tempfile.TemporaryDirectory() as stubs:
        for _ in range(10):
            r = compiler(["-E", "-dD", "-w", "-I", stubs], src)
            m = re.search(r"fatal error: ([\w/.-]+\.h): No such file", r.stderr)
            if r.returncode == 0 or not m:
                break
            stub = os.path.join(stubs, m.group(1))
            os.makedirs(os.path.dirname(stub), exist_ok=True)
            open(stub, "w", encoding="utf-8").close()
    return r, probes


def analyse(unit, compiler):
    unit.text = text = unit.text or HeaderText(unit.path)
    if not any(d.body.strip() for d in text.defines) and not text.enumerators:
        return
    r, probes = preprocess(unit, compiler)
    if r.returncode != 0:
        why = probeengine.first_error(r.stderr, "the preprocessor failed")
        for d in text.defines:
            if d.is_ioctl:
                unit.leave(d.line, d.name, R_NOPP, why)
        return
    live, expansions = expand.read_preprocessed(r.stdout, unit.path)
    enums = {d.name: d for d in text.enumerators if d.name not in live}
    found = []
    for i, (name, params) in enumerate(probes):
        exp = expansions.get(i, "")
        line = enums[name].line if name in enums else live.get(name)
        if not expand.is_ioctl_expansion(exp) or line is None:
            continue
        groups = exp.count(expand.OPEN)
        if groups != exp.count(expand.CLOSE):
            raise Error(f"{unit.label}:{line}: error: {name}: the expansion is cut: {exp[:200]}")
        if groups != 1 or not expand.only_parens_around(exp):
            unit.leave(line, name, R_EXPR, exp.strip()[:120])
            continue
        found.append(Found(name, line, params, expand.parse_call(exp),
                           enum_value=enums[name].body if name in enums else None))
    helpers = drop_helpers(unit, found)
    evaluate(unit, compiler)
    find_aliases(unit, live)
    report_the_rest(unit, live, helpers)


def find_aliases(unit, live):
    """`#define SOUND_PCM_SYNC SNDCTL_DSP_SYNC`: a command the header defines
    as another command of the header is an alias of it (alias-of).  Not
    when the header defines the name more than once (asound.h's
    SNDRV_TIMER_IOCTL_TREAD is TREAD_OLD or TREAD64 by an #if)."""
    names = {f.name for f in unit.commands}
    for f in unit.commands:
        if sum(1 for d in unit.text.defines if d.name == f.name) > 1:
            continue
        d = next((d for d in unit.text.defines
                  if d.name == f.name and d.line == live.get(f.name)), None)
        m = ALIAS_BODY.match(d.body) if d is not None and d.params is None else None
        if m and m.group(1) in names and m.group(1) != f.name:
            f.entry.alias_of = m.group(1)


def drop_helpers(unit, found):
    """Function-like macros that other definitions of the header use are helpers."""
    fam = {f.name for f in found if f.params is not None}
    used_by = {n: 0 for n in fam}
    for d in unit.text.defines:
        if d.params is not None:
            continue		# an alias chain of families, not a use
        for fn in fam:
            if fn != d.name and re.search(r"\b%s\s*\(" % re.escape(fn), d.body):
                used_by[fn] += 1
    helpers = set()
    for f in found:
        n = used_by.get(f.name, 0) if f.params is not None else 0
        if n:
            unit.drop(f, R_HELPER, f"used by {n} definition{'s' if n != 1 else ''}")
            helpers.add(f.name)
        else:
            unit.commands.append(f)
    return helpers


def report_the_rest(unit, live, helpers):
    """The #defines that look like commands but were not taken, with why."""
    text = unit.text
    looks = {d.name for d in text.defines if d.is_ioctl}
    names = {f.name for f in unit.commands} | helpers | {x.name for x in unit.left}
    reported = set()
    for d in text.defines:
        n = d.name
        if n in names or n in reported or n.startswith("_IO"):
            continue
        if d.is_ioctl or (n in looks and n not in live):
            if n not in live or live[n] != d.line:
                reported.add(n)
                if n not in live:
                    unit.leave(d.line, n, R_NOT_LIVE)
            elif n in looks:
                reported.add(n)
                unit.leave(d.line, n, R_EXPR)
    for line, n in text.commented:
        # mips defines TIOCGETD as a number and keeps an _IOR spelling in a comment
        if n not in names and n not in reported and n not in live:
            reported.add(n)
            unit.leave(line, n, R_NOT_LIVE, "commented out")
    if PLAIN_NUMBER_HEADERS.search(unit.rel):
        plain_by_header_name(unit, live, names | reported)
    elif unit.evidence is not None:
        evidence.plain_commands(unit, live, names | reported)


def plain_by_header_name(unit, live, taken):
    """ioctls.h and sockios.h: every hex #define of 0x100 or more is a
    command spelled as a plain number (the historic tty and socket numbering)."""
    for d in unit.text.defines:
        if d.name in taken or d.params is not None:
            continue
        v = PLAIN_NUMBER.match(d.body)
        if live.get(d.name) != d.line:
            continue
        a = ALIAS_BODY.match(d.body) if not v else None
        if a and FLAG_NAME.match(d.name):
            unit.leave(d.line, d.name, R_FLAG, d.body.strip())
            continue
        if a and a.group(1) != d.name:
            # another command's name (SIOCINQ is FIONREAD); which name on
            # every ABI is variants.name_targets()'s to say
            unit.plain.append(NamedEntry(name=d.name, alias_of=a.group(1), line=d.line))
            continue
        if not v and "?" in d.body:
            # sockios.h's SIOCGSTAMP: _OLD or _NEW by the size of struct timeval
            unit.plain.append(NamedEntry(name=d.name, alias_of="", line=d.line))
            continue
        if not v or int(v.group(1), 16) < 0x100:
            continue
        if FLAG_NAME.match(d.name):
            unit.leave(d.line, d.name, R_FLAG, d.body.strip())
        else:
            # the historic tty and socket numbering: a command spelled as a number
            unit.plain.append(PlainEntry(name=d.name, number=v.group(1), line=d.line))


def with_params(expr, ones=None):
    """expr with every parameter 0, or parameter `ones` 1."""
    return expand.PARAM_RE.sub(lambda m: "1" if int(m.group(1)) == ones else "0", expr)


@dataclass
class Slots:
    """Where a command's expressions are in the value probe."""
    magic: int
    nr: int
    dir: int
    nr1: list		# nr with parameter k at 1
    magic1: list	# magic with parameter k at 1
    written: int | None	# the C type of a legacy size argument
    sizes: dict = field(default_factory=dict)	# k -> sizeof the type with its parameter at k
    units: dict = field(default_factory=dict)	# C type -> sizeof it

    def all(self):
        return [self.magic, self.nr, self.dir, *self.nr1, *self.magic1]


def evaluate(unit, compiler):
    """Numeric magic, nr (at every parameter 0 and at each parameter 1), dir,
    and the C type of a legacy size argument."""
    exprs = ["_IOC_NONE", "_IOC_READ", "_IOC_WRITE"]

    def add(text):
        exprs.append(text)
        return len(exprs) - 1

    slots = []
    for f in unit.commands:
        c, ks = f.call, range(len(f.params or []))
        slots.append(Slots(
            magic=add(with_params(c.magic_exp)), nr=add(with_params(c.nr_exp)),
            dir=add(with_params(c.dir_exp) if c.dir_exp else "0"),
            nr1=[add(with_params(c.nr_exp, k)) for k in ks],
            magic1=[add(with_params(c.magic_exp, k)) for k in ks],
            written=add(WRITTEN_TYPE.format(c.size_exp)) if f.legacy_size else None))
        counted = counted_param(f)
        if counted is not None:
            # a type whose size one parameter sets (spidev's char[SPI_MSGSIZE(N)]):
            # its size at a few values, and the size of each sizeof() in it
            slots[-1].sizes = {k: add(f"sizeof({at_value(c.size_exp, counted, k)})")
                               for k in UNIT_PROBES}
            slots[-1].units = {t: add(f"sizeof({t})") for t in unit_candidates(c.size_exp)}
    vals, bad = value_probe(unit, compiler, exprs)
    dirvals = {vals[0]: "none", vals[1]: "read", vals[2]: "write", vals[1] | vals[2]: "read-write"}
    keep = []
    for f, s in zip(unit.commands, slots):
        if any(j in bad for j in s.all()):
            unit.drop(f, R_CONST, f"magic {f.call.magic_raw}, nr {f.call.nr_raw}")
            continue
        f.magic, f.nr, f.dirval = vals[s.magic], vals[s.nr], vals[s.dir]
        f.nr1 = [vals[j] for j in s.nr1]
        f.magic1 = [vals[j] for j in s.magic1]
        if s.written is not None:
            f.written_type = WRITTEN_TYPES.get(vals.get(s.written))
        f.sizes = {k: vals[j] for k, j in s.sizes.items() if j not in bad}
        f.units = {t: vals[j] for t, j in s.units.items() if j not in bad}
        if f.call.macro == "_IOC":
            if f.dirval not in dirvals:
                unit.drop(f, R_CONST, "direction " + f.call.dir_exp)
                continue
            f.dir = dirvals[f.dirval]
        else:
            f.dir = cwords.macro_dirs()[f.call.macro]
        f.entry = shape(unit, f)
        if f.entry is not None:
            keep.append(f)
    unit.commands = keep


def value_probe(unit, compiler, exprs):
    """({index: value}, {indexes that are not constants}): compile the
    expressions to assembly, one function each, so that every undefined name
    is reported on its own line.  Constants the expansion leaves undefined
    may come from the header: it is included when that helps."""
    bad = set()
    with_header = False
    for attempt in range(12):
        r, first = run_value_probe(unit, compiler, exprs, bad, with_header)
        if r.returncode == 0:
            return probeengine.values(r.stdout, "V"), bad
        errs = {int(m.group(1)) - first for m in
                re.finditer(r"^[^:\n]*\.c:(\d+):\d+: error", r.stderr, re.M)}
        errs = {e for e in errs if 0 <= e < len(exprs)}
        others = re.search(r"^(?![^:\n]*\.c:)[^:\n]*:\d+:\d+: error", r.stderr, re.M)
        if attempt == 0 and errs:
            r2, _ = run_value_probe(unit, compiler, exprs, bad, True)
            if r2.returncode == 0:
                return probeengine.values(r2.stdout, "V"), bad
        if not errs or (others and with_header):
            if with_header:
                with_header = False
                continue
            break
        bad |= errs
    raise Error(f"{unit.label}: error: evaluating magic, nr and direction of its commands: "
                f"the value probe failed:\n{r.stderr[:2000]}")


def run_value_probe(unit, compiler, exprs, bad, with_header):
    body = cc.prologue(unit.includes, unit.rel, unit.prelude) if with_header else cc.prologue([])
    first = len(body) + 1
    for i, e in enumerate(exprs):
        e = "0" if i in bad else e
        body.append(f"void __imp_v{i}(void) {{ {probeengine.marker('V', i, f'(long)({e})')} }}")
    return compiler(["-S", "-o", "-", "-w"], "\n".join(body) + "\n"), first


def shape(unit, f):
    """The spec entry of a command, or None when it is left out."""
    c, params = f.call, f.params
    if not 0 <= f.magic <= 255 or not 0 <= f.nr <= 255:
        unit.drop(f, R_CONST, f"magic {f.magic}, nr {f.nr} do not fit a byte")
        return None
    e = Entry(name=f.name, dir=f.dir, magic=magic_text(f), nr=nr_text(f))
    if params is not None and not shape_family(unit, f, e):
        return None
    if c.macro == "_IOC":
        return shape_ioc(unit, f, e)
    if c.macro.endswith("_BAD"):
        sm = SIZEOF.fullmatch(c.size_raw)
        e.legacy = Legacy(written=c.size_raw, passes=sm.group(1).strip() if sm else "void",
                          spell_as="bad",
                          doc=f"Spelled {c.macro}({c.magic_raw}, {c.nr_raw}, {c.size_raw}) in the "
                              f"header: the size field holds sizeof({c.size_raw}). Imported as found.")
    elif f.legacy_size:
        if f.written_type is None:
            unit.drop(f, R_SIZE_TYPE, c.size_raw)
            return None
        sm = SIZEOF.fullmatch(c.size_raw)
        e.legacy = Legacy(written=c.size_raw, passes=sm.group(1).strip() if sm else "void",
                          spell_as=f.written_type,
                          doc=f"Written {c.macro}({c.magic_raw}, {c.nr_raw}, {c.size_raw}) in the "
                              f"header, so the size field holds sizeof({f.written_type}). "
                              f"Imported as found.")
    elif c.macro != "_IO" and not e.size_unit:
        e.type = c.size_raw
    return e


def magic_text(f):
    """magic as the source wrote it: a char literal (through a wrapper too),
    the hex literal, else the compiler's value in hex."""
    c = f.call
    if CHAR_LIT.match(c.magic_raw):
        return c.magic_raw
    if CHAR_LIT.match(c.magic_exp.strip("() ")):
        return c.magic_exp.strip("() ")
    if re.fullmatch(r"0[xX][0-9a-fA-F]{1,2}", c.magic_raw):
        return c.magic_raw
    return "0x%02X" % f.magic


def nr_text(f):
    raw = f.call.nr_raw
    if f.params is None and INT_LIT.match(raw) and not re.search("[uUlL]", raw):
        return raw
    return "0x%02x" % f.nr


def shape_family(unit, f, e):
    """params, nr-param and size-param of a function-like macro; False when left out."""
    c, params = f.call, f.params
    e.params = list(params)
    whole = [expand.PARAM_RE.fullmatch(a.replace("(", "").replace(")", "").strip())
             for a in (c.size_raw, c.magic_raw)]
    if c.macro != "_IOC" and any(whole):
        # CS_IOWR(num, dtype): only ever a way to write other commands
        # (drop_helpers() took the ones the header uses)
        unit.drop(f, R_UNUSED_HELPER)
        return False
    if any(m != f.magic for m in f.magic1) or expand.PARAM_RE.search(c.dir_exp):
        unit.drop(f, R_PARAM_TYPE)
        return False
    if c.macro != "_IOC" and expand.PARAM_RE.search(c.size_raw):
        counted = counted_param(f)
        e.size_unit = size_unit(f) if counted is not None else None
        if e.size_unit is None:
            unit.drop(f, R_PARAM_TYPE)
            return False
        e.size_param = params[counted]
    sized = {m.group(1) for m in expand.PARAM_RE.finditer(c.size_raw)}
    steps = [n1 - f.nr for n1 in f.nr1]
    # a parameter the number does not depend on (VBG_IOCTL_LOG(s) is _IO('V', 9))
    e.unused_params = [params[k] for k in range(len(params))
                       if not steps[k] and str(k) not in sized]
    movers = [k for k, s in enumerate(steps) if s]
    if len(movers) > 1 or any(steps[k] != 1 for k in movers):
        unit.drop(f, R_NR, c.nr_raw)
        return False
    if movers and expand.PARAM_RE.fullmatch(c.nr_raw.replace("(", "").replace(")", "").strip()):
        unit.drop(f, R_WHOLE_NR)
        return False
    if movers:
        e.nr_param = params[movers[0]]
    return True


def shape_ioc(unit, f, e):
    """_IOC(dir, t, nr, size): a size parameter, sizeof(type), a literal
    size (zcrypt's _IOC(_IOC_READ | _IOC_WRITE, 'z', 0x05, 0)) or none."""
    s = f.call.size_raw.strip()
    m = expand.PARAM_RE.fullmatch(s.strip("() ")) if f.params is not None else None
    sm = SIZEOF.fullmatch(s)
    lit = s.strip("() ")
    if m:
        e.size_param = f.params[int(m.group(1))]
    elif sm and not expand.PARAM_RE.search(s):
        e.macro = "ioc"
        e.type = sm.group(1).strip()
    elif lit == "0" and f.dir == "none":
        pass		# _IO(t, nr)
    elif INT_LIT.match(lit) and not re.search("[uUlL]", lit):
        e.macro = "ioc"
        e.size = lit
    else:
        unit.drop(f, R_IOC_SIZE, s)
        return None
    return e


# The values of a counting parameter at which a type's size is measured.
UNIT_PROBES = (0, 1, 2, 3)
SIZEOF_OPERAND = re.compile(r"\bsizeof\s*\(\s*([A-Za-z_][\w\s]*?)\s*\)")


def counted_param(f):
    """The one parameter the argument type of a family depends on (not an
    _IOC size, not one that moves nr), or None."""
    c = f.call
    if f.params is None or c.macro in ("_IO", "_IOC"):
        return None
    ks = {int(m.group(1)) for m in expand.PARAM_RE.finditer(c.size_exp)}
    if len(ks) != 1:
        return None
    k = ks.pop()
    if f.nr1 and f.nr1[k] != f.nr:
        return None
    return k


def at_value(expr, k, value):
    """expr with parameter k at value and the others 0."""
    return expand.PARAM_RE.sub(lambda m: str(value) if int(m.group(1)) == k else "0", expr)


def unit_candidates(exp):
    """The types of the sizeof() expressions in a type's expansion."""
    return list(dict.fromkeys(" ".join(m.group(1).split()) for m in SIZEOF_OPERAND.finditer(exp)))


def size_unit(f):
    """The type whose count the parameter is: the size of the argument type
    at N is N times its size (spidev's char[SPI_MSGSIZE(N)] is N struct
    spi_ioc_transfer while that fits the size field), or None."""
    if set(f.sizes) != set(UNIT_PROBES):
        return None
    for t, u in f.units.items():
        if u > 0 and all(f.sizes[k] == k * u for k in UNIT_PROBES):
            return t
    return None
