# SPDX-License-Identifier: GPL-2.0
"""Writing spec files: the one writer of both importers.

An importer hands in records (Entry for a command, MagicRow for a row of the
magic-code table) and the registry's file as ioctlgen read it (OldFile).  A
record the registry already has keeps its hand-written fields (merge()), and
when nothing else changed, its text exactly as written, comments and all;
the text before the first record stays as written too.  New records are
written in one style; write_if_changed() touches a file only when it
changes."""

import functools
import re
from dataclasses import KW_ONLY, dataclass, field, fields, replace

import yaml

from . import Error, renderlib

SPDX = "# SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note"
NEEDS_QUOTES = re.compile(r"^[\s\-?:,\[\]{}#&*!|>'\"%@`]|[:#]\s|\s[#:]|:$|\s$|^\s")


def scalar(s, flow=False):
    """s as a YAML scalar: plain when YAML reads it back as the same string,
    else double-quoted."""
    if s and "\n" not in s and not NEEDS_QUOTES.search(s) and \
            not (flow and re.search(r"[,\[\]{}]", s)) and reads_back_plain(s):
        return s
    out = ""
    for ch in s:
        if ch in '"\\':
            out += "\\" + ch
        elif ch == "\n":
            out += "\\n"
        elif ord(ch) < 0x20 or ord(ch) == 0x7f:
            out += f"\\x{ord(ch):02x}"
        else:
            out += ch
    return f'"{out}"'


# libyaml's loader, 10 times faster than PyYAML's own; the same documents.
LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def load_yaml(text_or_file):
    return yaml.load(text_or_file, Loader=LOADER)


@functools.lru_cache(maxsize=None)
def reads_back_plain(s):
    """Does YAML read `k: s` as the string s?  Text it cannot read at all must
    be quoted, which is the answer, not a failure."""
    try:
        return load_yaml(f"k: {s}") == {"k": s}
    except yaml.YAMLError:
        return False


def flow_list(items):
    return "[" + ", ".join(scalar(i, flow=True) for i in items) + "]"


def wrap(words, indent, width):
    """Words filled into lines of at most width columns."""
    lines, cur = [], ""
    for w in words:
        if cur and len(indent) + len(cur) + 1 + len(w) > width:
            lines.append(cur)
            cur = w
        else:
            cur = f"{cur} {w}" if cur else w
    lines.append(cur)
    return "".join(f"{indent}{l}\n" for l in lines)


def text_field(key, s, indent, fold_over=100, width=74):
    """key: s on one line when it is short, else folded (>-)."""
    pad = " " * indent
    one = f"{pad}{key}: {scalar(s)}\n"
    if len(one) <= fold_over + 1 or "  " in s or not re.match(r"^[^\s]", s) or \
            re.search(r"[\x00-\x1f\x7f]", s):
        return one
    return f"{pad}{key}: >-\n" + wrap(s.split(" "), pad + "  ", width)


def history(new, old):
    """since and removed of a merged entry: the imported entry's when it
    says, else the registry's (a tree alone cannot tell its history)."""
    return {"since": new.since if new.since is not None else old.since,
            "removed": new.removed if new.removed is not None else old.removed}


def history_lines(e):
    """The since and removed lines of an entry, versions always quoted."""
    return [f'    {k}: "{v}"\n' for k, v in (("since", e.since), ("removed", e.removed))
            if v is not None]


def entry_tail(e, variant_key):
    """The lines a command entry (Entry, NamedEntry) ends with: since and
    removed, abi-change, accept, its variants (each its abis, the line
    variant_key(v) and its doc), its doc."""
    out = history_lines(e)
    if getattr(e, "new", False):
        out.append("    new: true\n")
    if e.abi_change:
        out.append(f"    abi-change: {scalar(e.abi_change)}\n")
    if e.accept:
        out.append(f"    accept: {flow_list(e.accept)}\n")
    if getattr(e, "accept_reason", None):
        out.append(f"    accept-reason: {scalar(e.accept_reason)}\n")
    if e.variants:
        out.append("    variants:\n")
        for v in e.variants:
            out.append(f"      - abis: {flow_list(v.abis)}\n" + variant_key(v))
            out.append(text_field("doc", v.doc, 8))
    out.append(text_field("doc", e.doc, 4))
    return out


def c_int(text):
    """The value of a magic, nr or nr-count as written: a C char literal or an integer."""
    if isinstance(text, int):
        return text
    if text.startswith("'"):
        body = text[1:-1]
        esc = {"n": 10, "t": 9, "r": 13, "0": 0, "a": 7, "b": 8, "f": 12, "v": 11}
        return esc.get(body[1], ord(body[1])) if body.startswith("\\") else ord(body)
    return int(text, 0)


@dataclass
class Legacy:
    written: str
    passes: str
    spell_as: str
    doc: str
    abi_break: str | None = None


@dataclass(frozen=True)
class Variant:
    """The nr a command has on some ABIs (an #if on the word size)."""
    abis: tuple
    nr: str
    doc: str


def spelled_as_name(c):
    """Is model command c spelled as another's name (#define SIOCINQ FIONREAD)?"""
    return c["macro"] is None and c.get("number") is None


@dataclass
class Entry:
    """One command as a header spec file writes it."""
    name: str
    dir: str
    magic: str			# as written: 0x12, 'E'
    nr: str
    doc: str = ""
    params: list = field(default_factory=list)
    nr_param: str | None = None
    nr_count: str | None = None
    size_param: str | None = None
    size_unit: str | None = None	# size-param counts elements of this type
    unused_params: list = field(default_factory=list)	# the number does not depend on them
    macro: str | None = None	# "ioc": _IOC with sizeof(type) or a literal size
    type: str | None = None
    size: str | None = None	# a literal _IOC size, as written
    legacy: Legacy | None = None
    accept: list = field(default_factory=list)
    reserved: bool = False
    alias_of: str | None = None	# another name of the same command
    variants: list = field(default_factory=list)	# Variant: hand-written, kept
    since: str | None = None	# the first known kernel version it exists in
    removed: str | None = None	# the first known version it no longer exists in
    abi_change: str | None = None	# why its number may differ between versions: hand-written
    evidence: list = field(default_factory=list)	# an enumerator's (evidence.py)
    kind: str | None = None	# "protocol-code": binder's BC_*, BR_*, no request
    accept_reason: str | None = None	# why accept is right: hand-written, kept
    new: bool = False		# the series adds it: no tree has it (hand-written)

    @classmethod
    def from_registry(cls, c):
        """The entry of a registry command: an Entry, or a PlainEntry for
        a command spelled as a plain number."""
        if c.get("number") is not None:
            return PlainEntry.from_registry(c)
        if spelled_as_name(c):
            return NamedEntry.from_registry(c)
        lg = c["legacy"]
        return cls(
            name=c["name"], dir=c["dir"], magic=c["magic-text"], nr=c["nr-text"], doc=c["doc"],
            params=list(c["params"]), nr_param=c["nr-param"],
            nr_count="0x%02x" % c["nr-count"] if c["nr-param"] else None,
            size_param=c["size-param"], size_unit=c["size-unit"],
            unused_params=list(c["unused-params"]),
            macro="ioc" if c["macro"] == "_IOC" and (c["type"] or c["size"] is not None) else None,
            type=c["type"], size=None if c["size"] is None else c["args"][-1],
            accept=list(c["accept"]), reserved=c["reserved"],
            alias_of=c.get("alias-of"), since=c.get("since"), removed=c.get("removed"),
            abi_change=c.get("abi-change"), evidence=list(c.get("evidence", [])),
            kind=c.get("kind"), accept_reason=c.get("accept-reason"), new=bool(c.get("new")),
            variants=[Variant(tuple(v["abis"]), v["nr-text"], v["doc"])
                      for v in c.get("variants", [])],
            legacy=Legacy(lg["written"], lg["passes"], lg["spell-as"], lg["doc"], lg["abi-break"])
            if lg else None)

    def types(self):
        """The C types the entry names."""
        out = [self.type] if self.type else []
        if self.legacy:
            out += [t for t in (self.legacy.spell_as, self.legacy.passes) if t not in ("bad", "void")]
        return out

    def merge(self, old):
        """This imported entry with the hand-written fields of the registry's."""
        if not isinstance(old, Entry):
            return replace(self, doc=old.doc)
        e = replace(self, doc=old.doc, accept=old.accept, accept_reason=old.accept_reason,
                    reserved=old.reserved,
                    alias_of=self.alias_of or old.alias_of,	# the header's, else the registry's
                    variants=old.variants, abi_change=old.abi_change, **history(self, old),
                    # an entry the registry took without evidence keeps none
                    evidence=self.evidence if old.evidence else [])
        if c_int(old.magic) == c_int(self.magic):
            e.magic = old.magic		# the registry's spelling of the same number
        if c_int(old.nr) == c_int(self.nr):
            e.nr = old.nr
        if old.size is not None and self.size is not None and c_int(old.size) == c_int(self.size):
            e.size = old.size
        if old.nr_count is not None and e.nr_param:
            e.nr_count = old.nr_count
        if old.legacy:
            e.legacy, e.type, e.macro = old.legacy, None, None
        return e

    def same(self, other):
        if not isinstance(other, Entry):
            return False
        for f in fields(self):
            a, b = getattr(self, f.name), getattr(other, f.name)
            if f.name in ("magic", "nr", "nr_count", "size") and a is not None and b is not None:
                a, b = c_int(a), c_int(b)
            if a != b:
                return False
        return True

    def text(self):
        magic = scalar(self.magic) if self.magic.startswith("'") else self.magic
        keys = [("reserved", "true" if self.reserved else None), ("dir", self.dir),
                ("magic", magic), ("nr", self.nr),
                ("params", flow_list(self.params) if self.params else None),
                ("nr-param", self.nr_param), ("nr-count", self.nr_count if self.nr_param else None),
                ("size-param", self.size_param),
                ("size-unit", scalar(self.size_unit) if self.size_unit else None),
                ("unused-params", flow_list(self.unused_params) if self.unused_params else None),
                ("macro", self.macro),
                ("type", scalar(self.type) if self.type else None), ("size", self.size)]
        keys.insert(0, ("alias-of", self.alias_of))
        keys += [("kind", self.kind),
                 ("evidence", flow_list(self.evidence) if self.evidence else None)]
        out = [f"  - name: {self.name}\n"] + [f"    {k}: {v}\n" for k, v in keys if v is not None]
        if self.legacy:
            lg = self.legacy
            out.append(f"    legacy:\n      written: {scalar(lg.written)}\n"
                       f"      passes: {scalar(lg.passes)}\n      spell-as: {scalar(lg.spell_as)}\n")
            out.append(text_field("doc", lg.doc, 6))
            if lg.abi_break:
                out.append(text_field("abi-break", lg.abi_break, 6))
        out += entry_tail(self, lambda v: f"        nr: {v.nr}\n")
        return "".join(out)


@dataclass
class NoMacroEntry:
    """What the importer asks of every entry, for the ones the header writes
    without the _IO* macros: no argument type, never reserved, no family, no
    legacy spelling.  The fields both kinds have (keywords only, after each
    kind's own)."""
    _: KW_ONLY
    doc: str = ""
    passes: str | None = None
    accept: list = field(default_factory=list)
    line: int = 0		# in the header, for the order of the entries
    since: str | None = None
    removed: str | None = None
    reserved = False
    nr_param = None
    legacy = None
    type = None
    abi_change = None	# entry_tail() asks; the dump gives none of these one

    def types(self):
        return []


@dataclass
class PlainEntry(NoMacroEntry):
    """A command the header spells as a plain number (#define TCGETS 0x5401),
    not with the _IO* macros: `number:` as the header writes it, and the
    type it passes when the registry says (hand-written, never imported)."""
    name: str
    number: str			# as written: 0x5401
    evidence: list = field(default_factory=list)	# what made it a command (evidence.py)

    @classmethod
    def from_registry(cls, c):
        return cls(name=c["name"], number=c["number-text"], doc=c["doc"], passes=c["passes"],
                   accept=list(c["accept"]), since=c.get("since"), removed=c.get("removed"),
                   evidence=list(c.get("evidence", [])))

    def merge(self, old):
        """The imported number with the registry's doc, passes and accept."""
        if not isinstance(old, PlainEntry):
            return replace(self, doc=old.doc)
        e = replace(self, doc=old.doc, passes=old.passes, accept=old.accept, **history(self, old))
        if int(old.number, 0) == int(self.number, 0):
            e.number = old.number
        return e

    def same(self, other):
        return isinstance(other, PlainEntry) and self.name == other.name and \
            int(self.number, 0) == int(other.number, 0) and self.doc == other.doc and \
            self.passes == other.passes and self.accept == other.accept and \
            (self.since, self.removed) == (other.since, other.removed) and \
            self.evidence == other.evidence

    def text(self):
        out = [f"  - name: {self.name}\n    number: {self.number}\n"]
        if self.passes:
            out.append(f"    passes: {scalar(self.passes)}\n")
        if self.evidence:
            out.append(f"    evidence: {flow_list(self.evidence)}\n")
        out += history_lines(self)
        if self.accept:
            out.append(f"    accept: {flow_list(self.accept)}\n")
        out.append(text_field("doc", self.doc, 4))
        return "".join(out)


@dataclass
class MagicRow:
    """One row of the magic-code table (spec/magic.yaml)."""
    code: str			# as written: 0x12, 'E'
    seq: str
    headers: list
    doc: str
    contact: str | None = None
    accept: list = field(default_factory=list)
    include_cell: list | None = None	# the Include File cell as 6.1 lays it out
    seq_cell: list | None = None	# the Seq# cell as 6.1 lays it out
    since: str | None = None	# the first known kernel version whose table has it
    removed: str | None = None	# the first known version whose table no longer has it
    doc_since: dict = field(default_factory=dict)	# {version: doc from it on}, oldest first

    @classmethod
    def from_registry(cls, r):
        return cls(r["code-text"], r["seq"], list(r["headers"]), r["doc"], r["contact"],
                   list(r["accept"]), r["include-cell"], r["seq-cell"], r.get("since"),
                   r.get("removed"), dict(r.get("doc-since") or {}))

    def key(self):
        return (c_int(self.code), self.seq.upper(), tuple(self.headers))

    def merge(self, old):
        """The layout of the cells is hand-kept: the registry's wins."""
        return replace(self, include_cell=old.include_cell, seq_cell=old.seq_cell,
                       **history(self, old))

    def same(self, other):
        return self == other

    def text(self):
        code = self.code if self.code.startswith("0x") else scalar(self.code)
        seq = self.seq if re.fullmatch(r"[0-9A-Fa-f]{1,2}-[0-9A-Fa-f]{1,2}|[A-Fa-f][0-9A-Fa-f]?|all",
                                       self.seq) else f'"{self.seq}"'
        out = [f"  - code: {code}\n    seq: {seq}\n    headers: {flow_list(self.headers)}\n"]
        if self.seq_cell is not None:
            out.append(f"    seq-cell: {flow_list(self.seq_cell)}\n")
        if self.include_cell is not None:
            out.append(f"    include-cell: {flow_list(self.include_cell)}\n")
        lines = self.doc.split("\n")
        if len(lines) > 1 and all(scalar(x) == x and x == x.strip() for x in lines):
            out.append("    doc: |-\n" + "".join(f"      {x}\n" for x in lines))
        else:
            out.append(f"    doc: {scalar(self.doc) if self.doc else chr(34) * 2}\n")
        if self.doc_since:
            out.append("    doc-since:\n" + "".join(
                f'      "{v}": {scalar(t) if t else chr(34) * 2}\n' for v, t in self.doc_since.items()))
        if self.contact is not None:
            out.append(f"    contact: {scalar(self.contact)}\n")
        if self.accept:
            out.append(f"    accept: {flow_list(self.accept)}\n")
        return "".join(out + history_lines(self))


class OldFile:
    """A spec file as the registry has it: its records as ioctlgen read them,
    and its text cut at the line where each record starts (ioctlgen's
    `source` marks), the text before the first record as the preamble."""

    def __init__(self, path, records, sources):
        self.path = path
        self.records = records
        try:
            with open(path, encoding="utf-8") as f:
                lines = f.read().split("\n")
        except OSError as e:
            raise Error(f"{path}: error: cannot read the spec file: {e.strerror}") from e
        starts = [int(s.rsplit(":", 2)[1]) for s in sources]
        self.sources = list(sources)	# "path:line:col" of each record
        if not starts and "commands: []" in lines:
            # A seeded spec (its header fields, before the first import):
            # the import writes its entries after the preamble.
            at = lines.index("commands: []")
            if any(l.strip() and not l.lstrip().startswith("#") for l in lines[at + 1:]):
                raise Error(f"{path}:{at + 2}:1: error: text after 'commands: []'")
            self.preamble = "".join(l + "\n" for l in lines[:at]) + "commands:\n"
            self.blocks = []
            return
        if not starts or starts != sorted(starts):
            raise Error(f"{path}:1:1: error: cannot cut the file at its records "
                        f"(lines {starts[:5]}): not one record per line range")
        self.preamble = "".join(l + "\n" for l in lines[:starts[0] - 1])
        ends = starts[1:] + [len(lines) + 1]
        self.blocks = ["\n".join(lines[a - 1:b - 1]).rstrip("\n") + "\n" for a, b in zip(starts, ends)]


def exists_in(e, version, versions):
    """Does an entry or a magic-code row exist in the known version, by its
    since and removed?  (No version: the registry knows none, always.)"""
    if version is None:
        return True
    i = versions.index(version)
    first = versions.index(e.since) if e.since in versions else 0
    end = versions.index(e.removed) if e.removed in versions else len(versions)
    return first <= i < end


def merge(records, old, key, keep_unmatched=True):
    """[(record, its old text or None)] in the importer's order, the records
    of the registry merged in; a record only in the registry stays after its
    predecessor there.  Returns (merged, the old records no import matched)."""
    if old is None:
        return [(r, None) for r in records], []
    olds = {}
    for i, o in enumerate(old.records):
        olds.setdefault(key(o), []).append(i)
    matched = {}
    for r in records:
        if olds.get(key(r)):
            matched[id(r)] = olds[key(r)].pop(0)
    taken = set(matched.values())
    anchor, prev = {}, None
    for i in range(len(old.records)):
        if i in taken:
            prev = i
        else:
            anchor.setdefault(prev, []).append(i)
    out = [(old.records[i], old.blocks[i]) for i in anchor.get(None, [])] if keep_unmatched else []
    for r in records:
        i = matched.get(id(r))
        if i is None:
            out.append((r, None))
            continue
        m = r.merge(old.records[i])
        out.append((m, old.blocks[i] if m.same(old.records[i]) else None))
        if keep_unmatched:
            out += [(old.records[j], old.blocks[j]) for j in anchor.get(i, [])]
    unmatched = [old.records[i] for i in range(len(old.records)) if i not in taken]
    return out, unmatched


def body(merged):
    return "".join(block if block is not None else r.text() for r, block in merged)


def header_file(preamble, merged, *, includes, grew=False, header=None, doc=None, arch=None,
                header_test=True, kernel_internal=False):
    """A header spec file: the registry's preamble as written (only includes
    may grow), or a new one; then the entries."""
    if preamble is not None:
        if grew:
            line = f"includes: [{', '.join(includes)}]\n"
            if re.search(r"^includes: \[.*\]\n", preamble, re.M):
                preamble = re.sub(r"^includes: \[.*\]\n", lambda m: line, preamble, count=1,
                                  flags=re.M)
            else:
                at = re.search(r"^(header-test:|commands:)", preamble, re.M)
                if at is None:
                    raise Error(f"error: no 'commands:' line before the first entry:\n{preamble}")
                preamble = preamble[:at.start()] + line + preamble[at.start():]
    else:
        preamble = f"{SPDX}\nheader: {header}\n" + text_field("doc", doc, 0)
        if arch:
            preamble += f"arch: {arch}\n"
        if kernel_internal:
            preamble += "kernel-internal: true\n"
        if includes:
            preamble += f"includes: [{', '.join(includes)}]\n"
        if not header_test:
            preamble += "header-test: false\n"
        preamble += "commands:\n"
    return preamble + body(merged)


def write_if_changed(path, text):
    """renderlib.write_if_changed() (atomic, only when the content differs,
    the project's one copy), with errors said as the importers say them."""
    try:
        return renderlib.write_if_changed(path, text)
    except OSError as e:
        raise Error(f"{path}: error: cannot write it: {e.strerror}") from e


@dataclass(frozen=True)
class NameVariant:
    """The name a command spelled as another's name is on some ABIs."""
    abis: tuple
    alias_of: str
    doc: str


@dataclass
class NamedEntry(NoMacroEntry):
    """A command the header spells as another command's name (sockios.h's
    #define SIOCINQ FIONREAD): alias-of, and variants where the name is
    another on some ABIs (SIOCGSTAMP is SIOCGSTAMP_NEW under time64)."""
    name: str
    alias_of: str
    variants: list = field(default_factory=list)	# NameVariant
    abi_change: str | None = None	# hand-written, as the spec says

    @classmethod
    def from_registry(cls, c):
        return cls(name=c["name"], alias_of=c["alias-of"], doc=c["doc"], passes=c["passes"],
                   accept=list(c["accept"]), since=c.get("since"), removed=c.get("removed"),
                   abi_change=c.get("abi-change"),
                   variants=[NameVariant(tuple(v["abis"]), v["alias-of"], v["doc"])
                             for v in c.get("variants", [])])

    def merge(self, old):
        """The imported names with the registry's docs, passes and accept."""
        if not isinstance(old, NamedEntry):
            return replace(self, doc=old.doc)
        docs = {(v.abis, v.alias_of): v.doc for v in old.variants}
        return replace(self, doc=old.doc, passes=old.passes, accept=old.accept,
                       **history(self, old), variants=[replace(v, doc=docs.get((v.abis, v.alias_of), v.doc))
                                 for v in self.variants])

    def same(self, other):
        return isinstance(other, NamedEntry) and self.name == other.name and \
            self.alias_of == other.alias_of and self.variants == other.variants and \
            self.doc == other.doc and self.passes == other.passes and self.accept == other.accept and \
            (self.since, self.removed) == (other.since, other.removed)

    def text(self):
        out = [f"  - name: {self.name}\n    alias-of: {self.alias_of}\n"]
        if self.passes:
            out.append(f"    passes: {scalar(self.passes)}\n")
        out += entry_tail(self, lambda v: f"        alias-of: {v.alias_of}\n")
        return "".join(out)
