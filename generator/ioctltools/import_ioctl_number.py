#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Import the magic-code table of a kernel tree into spec/magic.yaml.

Usage: tools/import-ioctl-number [--quiet] [--spec DIR] [-o FILE] KERNEL_TREE

Reads Documentation/userspace-api/ioctl/ioctl-number.rst of KERNEL_TREE and
writes every row of its table, in table order, to SPEC/magic.yaml (default
spec/magic.yaml; -o FILE elsewhere, - for standard output), only when it
changes.  The file is written by generator/ioctltools/specwrite.py, the writer
of tools/import-uapi too: when SPEC has a magic.yaml, its rows (read
through `build/ioctlgen dump SPEC`) keep their include-cell and seq-cell,
and a row that is otherwise unchanged keeps its text as written, as does
the text before the first row.  A row the table lacks goes (or is
`removed:` in the newest version), except a row that names only the
registry's own `new: true` headers: a new driver's row, which no tree's
table has yet, stays.  What is written into SPEC is read back
through ioctlgen and must be the rows it was written from.

Irregular rows are kept as they are and reported on standard error as
"path:line:col: warning: ..."; text the importer cannot place is an error
("path:line:col: error: ..."), and nothing is written.

The table cells are split like this:
  Code          code: 0x12 (a YAML integer, spelled as in the table) or "'E'"
  Seq#          seq: "all", "00-1F" or a single number, spelled as in the table
  Include File  headers: one item per header; a line break, "," and "and"
                separate headers; `...` around a name is dropped.  A cell
                laid out otherwise than one header per line is kept
                verbatim, one item per line, as include-cell (the Seq#
                cell of a row that continues it, as seq-cell).
  Comments      "conflict!" becomes accept: [overlap]; a last line written
                <...> becomes contact; the other lines, joined by "\\n", doc.
                With --version V of a later known version, a row the registry
                has keeps its doc, and V's text goes to doc-since: {"V": ...}
                when it differs from the text in force in V.
"""

import argparse
import os
import re
import sys
from dataclasses import replace

from . import Error, registry, specwrite
from .rst_table import column_width
from .specwrite import MagicRow, OldFile

RST = "Documentation/userspace-api/ioctl/ioctl-number.rst"
MARKER = "conflict!"

CODE_RE = re.compile(r"^(0x[0-9A-Fa-f]{2}|'[^'\\]')$")
SEQ_RE = re.compile(r"^(all|[0-9A-Fa-f]{1,2}(-[0-9A-Fa-f]{1,2})?)$")
HEADER_RE = re.compile(r"^[A-Za-z0-9_./*+-]+\.[ch]$")
CONTACT_RE = re.compile(r"^<.*>$")

DOC = ("The magic-code table: which driver or subsystem owns which ioctl type "
       "code (the _IOC_TYPE field) and which range of sequence numbers (the "
       "_IOC_NR field).  Imported by tools/import-ioctl-number from "
       "Documentation/userspace-api/ioctl/ioctl-number.rst of Linux 6.1, one "
       "item per table row, in table order; templates/kernel/ioctl-number.rst.j2 "
       "renders the table back from the model.  Overlaps are computed by "
       "ioctlgen: a row that shares a code and sequence numbers with another "
       "one says accept: [overlap], as the 6.1 table tags it conflict!.")


class TableError(Exception):
    pass


class Importer:
    def __init__(self, path, quiet=False):
        self.path = path
        self.quiet = quiet
        self.warnings = 0

    def error(self, line, col, msg):
        raise TableError(f"{self.path}:{line}:{col}: error: {msg}")

    def warn(self, line, col, msg):
        self.warnings += 1
        if not self.quiet:
            print(f"{self.path}:{line}:{col}: warning: {msg}", file=sys.stderr)

    # ------------------------------------------------------------ table
    def find_table(self, lines):
        """Return (columns, first row index, end index) of the table whose
        heading starts with "Code  Seq#"."""
        for i, text in enumerate(lines):
            if text.startswith("Code") and "Seq#" in text:
                break
        else:
            self.error(1, 1, "no table with a 'Code  Seq#' heading")
        border = lines[i - 1] if i > 0 else ""
        if not re.fullmatch(r"=+( +=+)+", border):
            self.error(i, 1, "the table heading is not preceded by a ==== border")
        cols = [m.start() for m in re.finditer(r"=+", border)]
        if len(cols) != 4:
            self.error(i, 1, f"the table has {len(cols)} columns, expected 4")
        j = i + 1
        while j < len(lines) and lines[j] != border:
            j += 1
        if j == len(lines):
            self.error(i + 1, 1, "the table heading has no closing ==== border")
        end = j + 1
        while end < len(lines) and lines[end] != border:
            end += 1
        if end == len(lines):
            self.error(j + 1, 1, "the table has no closing ==== border")
        return cols, j + 1, end

    def cells(self, lineno, text, cols):
        """The cells of one table line, cut at the border's columns as
        docutils counts them: in display columns (a wide East Asian
        character takes two, a combining one none: rst_table.column_width()),
        so that a cell of such characters reads back as written."""
        at, col = [], 0         # the display column each character starts at
        for ch in text:
            w = column_width(ch)
            at.append(at[-1] if not w and at else col)
            col += w
        out = []
        for k, start in enumerate(cols):
            stop = cols[k + 1] if k + 1 < len(cols) else col
            if k + 1 < len(cols) and any(ch != " " and a <= stop - 1 < a + max(column_width(ch), 1)
                                         for ch, a in zip(text, at)):
                self.error(lineno, stop, "text crosses a column boundary")
            out.append("".join(ch for ch, a in zip(text, at) if start <= a < stop).strip())
        return out

    def parse(self, text):
        lines = text.split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        cols, first, end = self.find_table(lines)
        rows = []
        for i in range(first, end):
            lineno = i + 1
            t = lines[i]
            if "\t" in t:
                self.error(lineno, t.index("\t") + 1, "tab in the table")
            if not t.strip():
                self.error(lineno, 1, "blank line inside the table")
            code, seq, hdr, com = self.cells(lineno, t, cols)
            if code:
                rows.append({"line": lineno, "code": code,
                             "seq": [seq], "hdr": [hdr], "com": [com]})
            elif not rows:
                self.error(lineno, 1, "continuation line before the first row")
            else:
                r = rows[-1]
                r["seq"].append(seq)
                r["hdr"].append(hdr)
                r["com"].append(com)
        return [self.row(r, cols) for r in rows]

    # ------------------------------------------------------------ one row
    def row(self, r, cols):
        line = r["line"]
        code = r["code"]
        if not CODE_RE.match(code):
            self.error(line, cols[0] + 1,
                       f"magic code {code!r} is neither 0xNN nor 'c'")
        seq = r["seq"][0]
        if not SEQ_RE.match(seq):
            self.error(line, cols[1] + 1,
                       f"sequence {seq!r} is not all, NN or NN-NN")
        if code.startswith("0x") and code[2:] != code[2:].upper():
            self.warn(line, cols[0] + 1, f"magic code {code} is written in lower case")
        self.check_seq(line, cols[1] + 1, seq)

        accept = False
        # Include File column
        headers, cell = [], []
        hdr_lines = list(r["hdr"])
        while hdr_lines and not hdr_lines[-1]:
            hdr_lines.pop()
        for k, h in enumerate(hdr_lines):
            ln = line + k
            if not h:
                self.error(ln, cols[2] + 1, "empty line inside an Include File cell")
            if MARKER in h:
                self.warn(ln, cols[2] + 1 + h.index(MARKER),
                          f"'{MARKER}' written in the Include File column")
                accept = True
                h = re.sub(r"\s*" + re.escape(MARKER) + r"\s*", " ", h).strip()
            cell.append(h)
            if h.rstrip(",") != h and k == len(hdr_lines) - 1:
                self.warn(ln, cols[2] + 1 + len(h) - 1,
                          "the last header ends with a comma")
            parts = [p for p in re.split(r"\s*,\s*|\s+and\s+|^and\s+", h) if p]
            if re.search(r"(^|\s)and\s", h):
                self.warn(ln, cols[2] + 1, "headers separated by 'and'")
            for p in parts:
                name = p
                if len(p) > 2 and p.startswith("`") and p.endswith("`"):
                    name = p[1:-1]
                    self.warn(ln, cols[2] + 1 + h.index(p),
                              f"header written as rst literal {p}")
                if "*" in name:
                    self.warn(ln, cols[2] + 1 + h.index(p),
                              f"header {name!r} is a wildcard")
                elif not HEADER_RE.match(name):
                    self.warn(ln, cols[2] + 1 + h.index(p),
                              f"{name!r} in the Include File column is not a file name")
                headers.append(name)
        seq_lines = r["seq"]
        while len(seq_lines) > 1 and not seq_lines[-1]:
            seq_lines.pop()
        if len(seq_lines) > 1:
            self.warn(line + 1, cols[1] + 1,
                      f"the Seq# cell continues on the next line: {seq_lines[1:]}")

        # Comments column
        com = r["com"]
        while com and not com[-1]:
            com.pop()
        if any(not c for c in com):
            k = com.index("")
            self.error(line + k, cols[3] + 1, "empty line inside a Comments cell")
        notes = []
        for k, c in enumerate(com):
            if MARKER in c:
                accept = True
                pos = c.index(MARKER)
                if k != 0 or pos != 0:
                    self.warn(line + k, cols[3] + 1 + pos,
                              f"'{MARKER}' is not at the start of the Comments cell")
                c = (c[:pos].rstrip() + " " + c[pos + len(MARKER):].lstrip()).strip()
                if not c:
                    continue
            notes.append(c)
        contact = None
        if notes and CONTACT_RE.match(notes[-1]):
            contact = notes.pop()
        for k, c in enumerate(notes):
            if CONTACT_RE.match(c):
                self.warn(line + k, cols[3] + 1, "contact before the last comment line")

        return MagicRow(code, seq, headers, "\n".join(notes), contact,
                        ["overlap"] if accept else [],
                        include_cell=cell if cell != headers else None,
                        seq_cell=seq_lines if len(seq_lines) > 1 else None)

    def check_seq(self, line, col, seq):
        if seq == "all":
            return
        ends = seq.split("-")
        if any(len(e) != 2 for e in ends):
            self.warn(line, col, f"sequence {seq!r} is not written with two digits")
        if any(e != e.upper() for e in ends):
            self.warn(line, col, f"sequence {seq!r} is written in lower case")
        if len(ends) == 2 and int(ends[0], 16) > int(ends[1], 16):
            self.warn(line, col, f"sequence range {seq!r} runs backwards")


# ------------------------------------------------------------ the spec file
def preamble():
    return (f"{specwrite.SPDX}\n"
            "# Imported from Linux 6.1 by tools/import-ioctl-number; edit freely.\n"
            "doc: >-\n" + specwrite.wrap(DOC.replace(".  ", ". ").split(" "), "  ", 80) +
            "magic-codes:\n")


def registry_rows(spec):
    """The rows of SPEC/magic.yaml as ioctlgen reads them, or None without
    one, the versions the registry knows, and the registry's own headers
    (`new: true`: no tree has them yet)."""
    path = os.path.join(spec, "magic.yaml")
    if not os.path.exists(path):
        return None, [], frozenset()
    reg = registry.load(spec, "dump")
    rows = reg.magic_codes
    own = frozenset(h["path"] for h in reg.doc["headers"] if h.get("new"))
    return OldFile(path, [MagicRow.from_registry(r) for r in rows],
                   [r["source"] for r in rows]), reg.versions(), own


def doc_at(doc, doc_since, version, versions):
    """The comment in force in a known version: doc, or the text of the
    last doc-since version not after it."""
    at = versions.index(version)
    for v, text in doc_since.items():
        if v in versions and versions.index(v) <= at:
            doc = text
    return doc


def row_docs(r, o, src, version, versions):
    """The comment of imported row r, which the registry has as o: the
    oldest version's table writes `doc`; a later one whose text differs
    from the one in force there records it in `doc-since` (6.12 writes
    "BLK* ioctls" beside 0x12, where 6.1 wrote nothing), so that each
    tree's table renders back as it is.  An override that would repeat the
    text before it goes.  The contact is one per row: a later table's
    other contact is a warning, the registry's stays."""
    since = dict(o.doc_since)
    if version == versions[0]:
        base = r.doc
    else:
        base = o.doc
        since.pop(version, None)
        if r.doc != doc_at(base, since, version, versions):
            since[version] = r.doc
        if r.contact != o.contact:
            print(f"{src}: warning: the {version} table's contact of {r.code} {r.seq} is "
                  f"{r.contact!r}; kept the registry's {o.contact!r}", file=sys.stderr)
            r.contact = o.contact
    kept, before = {}, base
    for v in sorted(since, key=lambda v: versions.index(v) if v in versions else len(versions)):
        if since[v] != before:
            kept[v] = before = since[v]
    r.doc, r.doc_since = base, kept


def spec_text(rows, old, version=None, versions=(), own=frozenset()):
    """The table is the truth for the version it is: a row of that version
    it lacks goes, or when the version is the newest of several, stays as
    `removed: V`; a row new to the registry is `since: V` unless V is the
    oldest.  Rows of other versions stay where they were, and so do the
    rows that name only headers in own, the registry's own new headers
    (a new driver's row, which no tree's table has yet)."""
    versions = list(versions)
    if version is not None and old is not None:
        docs = {MagicRow.key(r): (r, src) for r, src in zip(old.records, old.sources)}
        for r in rows:
            o, src = docs.get(MagicRow.key(r), (None, None))
            if o is not None:
                row_docs(r, o, src, version, versions)
    merged, unmatched = specwrite.merge(rows, old, key=MagicRow.key)
    if version is not None and version != versions[0]:
        known = {MagicRow.key(r) for r in old.records} if old else set()
        for r in rows:
            if MagicRow.key(r) not in known and r.since is None:
                r.since = version
    gone = {id(r) for r in unmatched if specwrite.exists_in(r, version, versions) and
            not (r.headers and set(r.headers) <= own)}
    mark = version is not None and version == versions[-1] and version != versions[0]
    out = []
    for r, block in merged:
        if id(r) not in gone:
            out.append((r, block))
        elif mark:
            out.append((replace(r, removed=version), None))
    return (old.preamble if old else preamble()) + specwrite.body(out), [r for r, _ in out]


def read_back(spec, written):
    """What ioctlgen reads from the file just written must be what was written."""
    got = [MagicRow.from_registry(r) for r in registry.load(spec, "dump").magic_codes]
    for i, (g, w) in enumerate(zip(got, written)):
        if g != w:
            raise Error(f"{spec}/magic.yaml: error: row {i + 1} reads back as {g}, "
                        f"written from {w}")
    if len(got) != len(written):
        raise Error(f"{spec}/magic.yaml: error: {len(got)} rows read back, "
                    f"{len(written)} written")


def main(argv):
    ap = argparse.ArgumentParser(prog="tools/import-ioctl-number",
                                 description="Import the magic-code table of a kernel tree.")
    ap.add_argument("-q", "--quiet", action="store_true")
    ap.add_argument("--spec", default="spec", help="the spec directory (default spec)")
    ap.add_argument("-o", "--out", help="write here instead of SPEC/magic.yaml (- for stdout)")
    ap.add_argument("--version", metavar="V",
                    help="the known kernel version (spec/versions.yaml) the tree is: its new "
                         "rows get `since: V`, and when V is the newest, the rows its table "
                         "no longer has `removed: V`")
    ap.add_argument("tree", metavar="KERNEL_TREE")
    args = ap.parse_args(argv[1:])
    path = os.path.join(args.tree, RST)
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        print(f"{path}: error: {e.strerror}", file=sys.stderr)
        return 1
    except UnicodeDecodeError as e:
        print(f"{path}: error: not UTF-8 ({e.reason})", file=sys.stderr)
        return 1
    imp = Importer(path, args.quiet)
    out = args.out or os.path.join(args.spec, "magic.yaml")
    try:
        rows = imp.parse(text)
        old, versions, own = registry_rows(args.spec)
        version = registry.tree_version(args.spec, versions, args.version)
        text, written = spec_text(rows, old, version, versions, own)
        if out == "-":
            sys.stdout.write(text)
        elif specwrite.write_if_changed(out, text) and out == os.path.join(args.spec, "magic.yaml"):
            read_back(args.spec, written)
    except (TableError, Error) as e:
        print(e, file=sys.stderr)
        return 1
    if not args.quiet:
        print(f"{path}: {len(rows)} rows, {sum(bool(r.accept) for r in rows)} tagged "
              f"conflict!, {imp.warnings} warnings", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
