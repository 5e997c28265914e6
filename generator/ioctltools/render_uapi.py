# SPDX-License-Identifier: GPL-2.0
"""One uapi header of the registry as render.py writes it: its path and
include guard, the checks every C text of the registry passes before it
reaches a header (escape.c_code()), and UapiRewriter, which rewrites the
pristine header's ioctl #defines in place.  render.py's NewHeader writes a
whole new header with the same checks; render.py re-exports these names."""

import functools
import os
import re
import sys

from . import escape


# How the notes of templates/kernel/uapi-defs.j2 start, on one line or as
# the first line of a block comment: such a comment right above a legacy
# #define is replaced, not repeated.
LEGACY_NOTE_START = "/* legacy: "
LEGACY_BLOCK_START = "* legacy: "


@functools.lru_cache(maxsize=None)
def _invocation_re(macros):
    return re.compile(r"\b(%s)\b([ \t]*)\(" % "|".join(map(re.escape, macros)))


def invocation_re(model):
    """A call of an ioctl macro (the model's `ioctl-macros`): the name, the
    blanks before its '('."""
    return _invocation_re(tuple(m["name"] for m in model["ioctl-macros"]))


@functools.lru_cache(maxsize=None)
def _words_re(words):
    return re.compile(r"\b(?:%s)\b" % "|".join(map(re.escape, words)))


def types_h_re(model):
    """A fixed-width type <linux/types.h> defines (the model's
    `fixed-width-types`: __u32, __be16; not char)."""
    return _words_re(tuple(t["name"] for t in model["fixed-width-types"]
                           if t["header"] == "linux/types.h"))


class RenderError(Exception):
    """A problem with the model or the tree; str() is a complete message."""


class Output:
    """One rendered file: its kernel path, text, and the patch group it
    belongs to (GROUP_ASM, GROUP_RST, or the spec file of a uapi header).
    A uapi header also says what it adds: `added` maps "constants",
    "types" and "commands" to the names the pristine header lacks, `base`
    is its text without them (None when it adds nothing: tools/make-patches
    puts the additions in a patch of their own), and `new` is true for a
    whole header the tree does not have."""

    def __init__(self, path, text, group, spec, changes=None, base=None, added=None,
                 new=False):
        self.path = path
        self.text = text
        self.group = group
        self.spec = spec
        self.changes = changes or {}
        self.base = base
        self.added = added or {"constants": [], "types": [], "commands": []}
        self.new = new

    def fields(self):
        """What HeaderCache keeps: Output(*o.fields()) is o again."""
        return (self.path, self.text, self.group, self.spec, self.changes, self.base,
                self.added, self.new)


def warn(msg):
    print(msg, file=sys.stderr)




def uapi_path(header):
    """Where the kernel keeps a uapi header: an arch header under its ARCH;
    a kernel-internal one (not UAPI) under include/."""
    if header.get("kernel-internal"):
        return "include/" + header["path"]
    arch = header.get("arch")
    return (f"arch/{arch}/include/uapi/" if arch else "include/uapi/") + header["path"]


def include_guard(header):
    """The include guard of a whole generated header, as the kernel spells
    the uapi ones: _UAPI_LINUX_IOCTL_EXAMPLE_H for linux/ioctl_example.h,
    _UAPI_ASM_X86_FOO_H for asm/foo.h of ARCH x86."""
    path = header["path"]
    arch = header.get("arch")
    if arch:
        path = f"asm/{arch}/{path[4:]}" if path.startswith("asm/") else f"{arch}/{path}"
    return "_UAPI_" + re.sub(r"[^A-Za-z0-9]", "_", path).upper()


INCLUDE_RE = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.+-]*(?:/[A-Za-z0-9_][A-Za-z0-9_.+-]*)*\.h")


def header_includes(model, header, types, cmds):
    """The #includes of a whole generated header: the spec's includes, then
    <linux/types.h> when a member or a command argument uses a fixed-width
    type (__u32, __be16: types_h_re()), then <linux/ioctl.h> when it
    defines a command."""
    incs = list(header["includes"])
    texts = [m["type"] for t in types for m in t["members"]]
    texts += [a for c in cmds for a in c["args"]]
    fixed = types_h_re(model)
    if "linux/types.h" not in incs and any(fixed.search(x) for x in texts):
        incs.append("linux/types.h")
    if cmds and "linux/ioctl.h" not in incs:
        incs.append("linux/ioctl.h")
    return incs


def check_command(error, cmd):
    """What goes into live code, a second time after ioctlgen's grammar:
    text that could end the #define, comment it out or add a line is
    refused (escape.c_code()), never written.  error(entry, message) makes
    the RenderError."""
    try:
        escape.c_code(cmd["name"], "name")
        escape.c_code(cmd["macro"], "macro")
        for p in cmd["params"]:
            escape.c_code(p, "parameter")
        for a in cmd["args"]:
            escape.c_code(a, "argument")
    except escape.UnsafeText as e:
        raise error(cmd, f"{cmd['name']!r}: {e}") from None


def check_definitions(error, constants, types, cmds):
    """What the types and constants put into live code, checked a second time
    after ioctlgen's grammars as check_code() does for a command: names,
    member types, array lengths and values (escape.c_code()).  error(entry,
    message) makes the RenderError."""
    for k in constants:
        try:
            escape.c_code(k["name"], "name")
            escape.c_code(k["value-text"], "value")
        except escape.UnsafeText as e:
            raise error(k, f"{k['name']!r}: {e}") from None
    for t in types:
        entry = t
        try:
            escape.c_code(t["name"], "name")
            escape.c_code(t["kind"], "kind")
            for entry in t["members"]:
                escape.c_code(entry["name"], "member name")
                escape.c_code(entry["type"], "member type")
                if entry["len"] is not None:
                    escape.c_code(entry["len-text"] or str(entry["len"]), "array length")
            for entry in t["values"]:
                escape.c_code(entry["name"], "name")
                escape.c_code(str(entry["value"]), "value")
        except escape.UnsafeText as e:
            raise error(entry, f"{t['name']!r}: {e}") from None
        if t["kind"] not in ("struct", "union", "enum"):
            raise error(t, f"{t['name']!r}: kind {t['kind']!r} is no struct, union or enum")
    for c in cmds:
        check_command(error, c)


def split_args(text, start):
    """Parse the arguments of a macro call whose '(' is at text[start].
    Returns (args, end) where args is a list of [lead, core, trail] and
    text[end] is the matching ')', or None when it does not close."""
    depth = 0
    args = []
    cur_start = start + 1
    i = start
    quote = None
    while i < len(text):
        ch = text[i]
        if quote:
            if ch == "\\":
                i += 2
                continue
            if ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
            if depth == 0:
                args.append(text[cur_start:i])
                break
        elif ch == "," and depth == 1:
            args.append(text[cur_start:i])
            cur_start = i + 1
        i += 1
    else:
        return None
    parts = []
    for a in args:
        core = a.strip()
        lead = a[:len(a) - len(a.lstrip())]
        trail = a[len(a.rstrip()):]
        parts.append([lead, core, trail])
    return parts, i


_NUM_RE = re.compile(r"\b(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*)[uUlL]*\b")
_CHAR_RE = re.compile(r"'([^'\\])'")
_PAREN_RE = re.compile(r"\(\s*([A-Za-z_0-9]+)\s*\)")
_CONT_RE = re.compile(r"\\\n")
_OCTAL_RE = re.compile(r"0[0-7]+")
_SPACE_RE = re.compile(r"\s+")
_PUNCT_SPACE_RE = re.compile(r" ?([^\w ]) ?")


@functools.lru_cache(maxsize=None)
def normalize(arg):
    """A spelling-independent form of a macro argument, to tell whether the
    model's spelling means what the header already says.  Integer and
    simple character literals become decimal, whitespace that does not
    separate two words goes, and so do parentheses around one word."""
    s = _CONT_RE.sub(" ", arg)     # line continuations are whitespace
    s = _CHAR_RE.sub(lambda m: str(ord(m.group(1))), s)
    s = _NUM_RE.sub(lambda m: str(int(m.group(1), 0) if not _OCTAL_RE.fullmatch(m.group(1))
                                   else int(m.group(1), 8)), s)
    s = _SPACE_RE.sub(" ", s).strip()
    s = _PUNCT_SPACE_RE.sub(r"\1", s)
    prev = None
    while prev != s:
        prev = s
        s = _PAREN_RE.sub(r"\1", s)
    return s


def symbolic(arg):
    """Does a macro argument name a constant (VAS_MAGIC, ATMIOC_ITF + 14)
    rather than spell a literal ('v', 0x2e)?"""
    s = re.sub(r"'(?:[^'\\]|\\.)'", " ", arg)
    s = _NUM_RE.sub(" ", s)
    return re.search(r"[A-Za-z_]", s) is not None


def respell(name, gap, parts, macro, new_args, counted=None):
    """The invocation `macro(new_args)`.  When it means what the header
    already says, the existing text stays, spacing and all: that includes a
    magic or nr the header writes through a named constant, whose value
    the model holds as a number (verify checks the numbers are unchanged),
    and the type of a family counting `counted` elements (size-unit) that
    the header writes through a helper of that parameter: spidev's
    char[SPI_MSGSIZE(N)] for struct spi_ioc_transfer[N], whose numbers
    tests/gcc-numbers.py checks at several N.
    A call that must change is written in kernel style (checkpatch reads
    every line a patch touches); the untouched lines keep theirs."""
    values = (1, 2) if macro == "_IOC" else (0, 1)

    def same(k, core, new):
        if normalize(core) == normalize(new):
            return True
        if macro == "_IOC" and k == 0:     # _IOC_WRITE|_IOC_READ is _IOC_READ|_IOC_WRITE
            return set(normalize(core).split("|")) == set(normalize(new).split("|"))
        if counted and k == 2 and re.search(r"\b%s\b" % re.escape(counted), core):
            return True
        return k in values and symbolic(core) and not symbolic(new)

    if name == macro and len(parts) == len(new_args) and all(
            same(k, core, new) for k, ((_, core, _), new) in enumerate(zip(parts, new_args))):
        return f"{name}{gap}({','.join(lead + core + trail for lead, core, trail in parts)})"
    return f"{macro}({', '.join(new_args)})"


def find_lines(lines, want, start=0):
    """The index of the first run of lines equal to want (a list) at or
    after start, or -1."""
    for i in range(start, len(lines) - len(want) + 1):
        if lines[i] == want[0] and lines[i:i + len(want)] == want:
            return i
    return -1


def legacy_note_start(lines):
    """Where the legacy note that ends lines starts: the index of its
    first line, or len(lines) when lines does not end with one."""
    end = len(lines)
    if end and lines[-1].lstrip().startswith(LEGACY_NOTE_START):
        return end - 1
    if not end or lines[-1].strip() != "*/":
        return end
    i = end - 2
    while i >= 0 and lines[i].lstrip().startswith("*"):     # the ` * ` lines
        i -= 1
    if i >= 0 and i + 1 < end - 1 and lines[i].strip() == "/*" and \
            lines[i + 1].lstrip().startswith(LEGACY_BLOCK_START):
        return i
    return end


class UapiRewriter:
    """Rewrite the ioctl #defines of one pristine uapi header in place.

    For each command of the header that is not reserved, every `#define
    NAME` line has its _IO*/_IOC invocation respelled from the model's
    `macro` and `args`; the name, the parameters, the spacing, line
    continuations and a trailing comment stay.  A legacy command gets a
    comment on its mistake right above its #define (above rather than after
    it, so that the #define line and its own comment stay as they are).
    Commands the header does not define go into one fenced block before
    the include guard's #endif.  A marker after the SPDX line says that the
    #defines are generated and from which spec: at the top, where people
    and tools look first (YNL's marker is there too), but as a comment of
    its own that says only the #defines are generated, so no #define,
    comment or blank line of the header moves or changes.  The note is one
    line when it fits in 80 columns (as the doc comments), the marker when
    it fits in checkpatch's 100; else each is a block comment."""

    DEFINE_RE = re.compile(r"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)(\([^)]*\))?")

    def __init__(self, env, model, header, kernel_tree):
        self.snip = env.get_template("uapi-defs.j2").module
        self.model = model
        self.header = header
        self.path = uapi_path(header)
        self.src = os.path.join(kernel_tree, self.path)
        self.changes = {}

    def error(self, cmd, msg):
        where = cmd["source"] if cmd else self.header["spec"]
        return RenderError(f"{where}: error: {msg}")

    TYPE_DEF_RE = r"\b%s[ \t\n]+%s[ \t\n]*\{"
    ENUMERATOR_RE = r"^[ \t]*%s[ \t]*=[ \t]*_IO(?:R|W|WR)?[ \t]*\("

    def missing(self, text):
        """The constants and types of the header spec that the pristine
        header (text, without a generated block) does not define: the
        kernel-internal ones never, a constant by its #define, a type by
        its `struct NAME {`."""
        consts = [k for k in self.header["constants"]
                  if not re.search(r"^[ \t]*#[ \t]*define[ \t]+%s\b" % re.escape(k["name"]),
                                   text, re.M)]
        types = [t for t in self.header["types"] if not t["kernel-internal"] and
                 not re.search(self.TYPE_DEF_RE % (t["kind"], re.escape(t["name"])), text)]
        return consts, types

    def render(self):
        try:
            with open(self.src, encoding="utf-8") as f:
                lines = f.read().split("\n")
        except OSError as e:
            raise RenderError(f"{self.header['spec']}: error: {self.header['path']}: "
                              f"cannot read {self.src}: {e.strerror}") from None
        cmds = {c["name"]: c for c in self.header["commands"] if not c["reserved"]}
        for c in cmds.values():
            self.check_code(c)
        lines = self.drop_block(lines)
        consts, types = self.missing("\n".join(lines))
        check_definitions(self.error, consts, types, [])
        found = set()
        out = []
        i = 0
        while i < len(lines):
            m = self.DEFINE_RE.match(lines[i])
            j = i + 1
            while lines[j - 1].endswith("\\") and j < len(lines):
                j += 1
            if m and m.group(1) in cmds:
                found.add(m.group(1))
                if cmds[m.group(1)].get("legacy"):
                    del out[legacy_note_start(out):]    # the note of an earlier run
                out.extend(self.rewrite(cmds[m.group(1)], lines[i:j], m.end()))
            else:
                out.extend(lines[i:j])
            i = j
        # 6.12's binder.h declares its commands as enumerators
        # (BINDER_WRITE_READ = _IOWR('b', 1, ...)): the header has them, as
        # its authors wrote them, and the series adds no #define beside.
        text = "\n".join(out)
        for name in cmds:
            if name not in found and re.search(self.ENUMERATOR_RE % re.escape(name), text, re.M):
                found.add(name)
                self.changes.setdefault(name, "enumerator")
        new = [c for name, c in cmds.items() if name not in found]
        base = None
        if new or consts or types:
            base = "\n".join(self.add_marker(out))
            out = self.add_block(out, consts, types, new)
        out = self.add_marker(out)
        added = {"constants": [k["name"] for k in consts], "types": [t["c-name"] for t in types],
                 "commands": [c["name"] for c in new]}
        # grouped by spec file: several ARCHes have an asm/ioctls.h
        return Output(self.path, "\n".join(out), self.header["spec"], self.header["spec"],
                      self.changes, base, added)

    def check_code(self, cmd):
        check_command(self.error, cmd)

    def rewrite(self, cmd, phys, name_end):
        text = "\n".join(phys)
        m = invocation_re(self.model).search(text, name_end)
        if not m:
            # Spelled through a wrapper (DRM_IOWR(...)) or another command's
            # name: the number is the wrapper's, and verify checks it is
            # unchanged; the line stays as the header's authors wrote it.
            self.changes.setdefault(cmd["name"], "wrapper")
            return phys
        parsed = split_args(text, m.end() - 1)
        if not parsed:
            raise self.error(cmd, f"{cmd['name']}: unbalanced parentheses in {self.path}")
        parts, close = parsed
        inv = respell(m.group(1), m.group(2), parts, cmd["macro"], cmd["args"],
                      cmd["size-param"] if cmd.get("size-unit") else None)
        new = text[:m.start()] + inv + text[close + 1:]
        new_phys = new.split("\n")
        if new != text:
            if len(new_phys) == len(phys):
                new_phys = [ln if ln == old else ln.rstrip() for ln, old in zip(new_phys, phys)]
            else:
                new_phys = [ln.rstrip() for ln in new_phys]
            self.changes[cmd["name"]] = "respelled"
        if cmd.get("legacy"):
            indent = re.match(r"[ \t]*", phys[0]).group(0)
            new_phys[:0] = self.snippet("legacy_note", cmd, indent)
            self.changes.setdefault(cmd["name"], "noted")
        return new_phys

    def snippet(self, macro, *args):
        """The lines of a snippet of uapi-defs.j2."""
        return str(getattr(self.snip, macro)(*args)).strip("\n").split("\n")

    def drop_block(self, lines):
        """Remove a generated block an earlier run left in the input."""
        begin = self.snippet("block_begin", self.header)
        end = self.snippet("block_end", self.header)
        b = find_lines(lines, begin)
        if b < 0:
            return lines
        e = find_lines(lines, end, b + len(begin))
        if e < 0:
            raise RenderError(f"{self.src}:{b + 1}:1: error: the block generated from "
                              f"{escape.one_line(self.header['spec'])} has no \"End of\" line")
        if b > 0 and lines[b - 1] == "":
            b -= 1
        return lines[:b] + lines[e + len(end):]

    def add_block(self, lines, consts, types, cmds):
        """The constants, types and commands the header lacks, in one block
        fenced by generated Begin/End comments, each with its doc."""
        block = [""] + self.snippet("block_begin", self.header)
        items = [self.snippet("constant", k) for k in consts]
        items += [self.snippet("ctype", t) for t in types]
        for c in cmds:
            phys = [str(self.snip.define(c)).strip()]
            doc = str(self.snip.doc(c)).strip("\n")
            items.append(([doc] if doc else []) +
                         (self.rewrite(c, phys, len("#define ")) if c.get("legacy") else phys))
            self.changes[c["name"]] = "added"
        for i, item in enumerate(items):
            block.extend(([""] if i else []) + item)
        block.extend(self.snippet("block_end", self.header))
        k = len(lines)
        while k > 0 and lines[k - 1].strip() == "":
            k -= 1
        if k > 0 and lines[k - 1].startswith("#endif"):
            return lines[:k - 1] + block[1:] + [""] + lines[k - 1:]
        return lines[:k] + block + lines[k:]

    def add_marker(self, lines):
        marker = self.snippet("marker", self.header)
        if find_lines(lines, marker) >= 0:
            return lines
        # After the leading comment: the SPDX line, or the comment it opens
        # (habanalabs.h), or the license of a file without one (coda.h).
        # Line 1 stays the license tag, and no comment is split.
        at = 0
        if lines and lines[0].lstrip().startswith("//"):
            at = 1
        elif lines and lines[0].lstrip().startswith("/*"):
            while at < len(lines) and "*/" not in lines[at]:
                at += 1
            at = at + 1 if at < len(lines) else 0
        return lines[:at] + marker + lines[at:]
