# SPDX-License-Identifier: GPL-2.0
"""Shared pieces of the renderers: the Jinja2 environment, the model,
write-if-changed, generated files' hash banners and a page cache.
Renderers read only the JSON model, never the YAML spec."""

import hashlib
import json
import marshal
import os
import re
import sys
import tempfile

import jinja2

import escape
import jsoncache
import rst_table

MODEL_VERSION = 9
TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TEMPLATES = os.path.join(TOP, "templates")


def load_model(path):
    model = jsoncache.load(path)
    if model.get("model-version") != MODEL_VERSION:
        sys.exit(f"{path}: error: model version {model.get('model-version')!r}, "
                 f"this renderer reads version {MODEL_VERSION}")
    return model


def macro_model(model):
    """The model as the kernel-side renderers see it: each header with only
    the commands built with the _IO* macros, and the headers left with none
    dropped.  A command the header spells as a plain number (TCGETS 0x5401,
    `macro` null) has no macro to respell or check, so the rendered headers,
    ioctl-number.rst and the patch series do not change for it; nor for a
    protocol code (`kind: protocol-code`, binder's BC_*/BR_*: no request)."""
    headers = []
    for h in model["headers"]:
        cmds = [c for c in h["commands"] if c["macro"] is not None and not c.get("kind")]
        if cmds or not h["commands"]:
            headers.append(h if len(cmds) == len(h["commands"]) else dict(h, commands=cmds))
    return dict(model, headers=headers)


def without_rows(model, drop):
    """The model without the magic-code rows of the indexes in drop, the
    other rows' overlaps renumbered and those with a dropped row left out:
    the table as it reads before the new headers' rows are added
    (tools/make-patches)."""
    drop = set(drop)
    keep = [i for i in range(len(model["magic-codes"])) if i not in drop]
    index = {old: new for new, old in enumerate(keep)}
    rows = [dict(model["magic-codes"][i],
                 overlaps=[index[j] for j in model["magic-codes"][i]["overlaps"] if j in index])
            for i in keep]
    return dict(model, **{"magic-codes": rows})


def version_names(model):
    return [v["name"] for v in model["versions"]]


def numbers_in(c, version):
    """A command with the numbers it has in the version: the model's
    `numbers` are its newest version's, `numbers-by-version` those of an
    older one where they differ (a struct that grew)."""
    other = (c.get("numbers-by-version") or {}).get(version)
    return c if other is None else dict(c, numbers=other)


def doc_in(row, version, names=None):
    """A magic-code row's comment in a known version: the model's
    `in-version` text (model 9: ioctlgen picks the `doc-since` text, 6.12's
    "BLK* ioctls" beside 0x12 where 6.1 writes nothing); `doc`, its first
    text, for a version the row is not in.  names: unused, for old callers."""
    there = row.get("in-version") or {}
    return there[version]["doc"] if version in there else row["doc"]


def newest_doc(row, names=None):
    """A row's comment in the newest known version it exists in."""
    there = row.get("versions") or []
    return doc_in(row, there[-1]) if there else row["doc"]


def version_view(model, version):
    """The model as one known kernel version has it: the headers, commands
    and magic-code rows whose `versions` name it (a header whose every
    command is gone, as drm/i810_drm.h in 6.12, is not that tree's), each
    command with its numbers in that version (numbers_in()), each row with
    its `in-version` index's overlaps and comment.  ioctlgen decided all of
    it (model 9); this only selects.  The series and the rendered files
    for a tree are made from its view."""
    names = version_names(model)
    if version not in names:
        raise ValueError(f"version {version!r} is none the registry knows "
                         f"(spec/versions.yaml: {', '.join(names) or 'none'})")
    headers = []
    for h in model["headers"]:
        if version not in h["versions"]:
            continue
        cmds = [numbers_in(c, version) for c in h["commands"] if version in c["versions"]]
        headers.append(h if cmds == h["commands"] else dict(h, commands=cmds))
    rows = [dict(r, overlaps=r["in-version"][version]["overlaps"],
                 doc=r["in-version"][version]["doc"])
            for r in model["magic-codes"] if version in r["in-version"]]
    return dict(model, headers=headers, **{"magic-codes": rows})


def version_of_tree(model, tree):
    """The known version (spec/versions.yaml) that a kernel tree is, by its
    Makefile: "6.1" for linux-source-6.1 (6.1.158); None when the registry
    knows no versions.  A tree of a version the registry does not know is
    an error (ValueError)."""
    names = version_names(model)
    if not names:
        return None
    have = tree_version(tree)
    for v in names:
        if have is not None and (have == v or have.startswith(v + ".")):
            return v
    raise ValueError(f"{tree}: Linux {have or '(no version in its Makefile)'} is none of "
                     f"the versions the registry knows ({', '.join(names)})")


def view_for_tree(model, tree):
    """The model as the kernel tree's version has it (version_view()), or
    the model itself when the registry knows no versions."""
    v = version_of_tree(model, tree)
    return model if v is None else version_view(model, v)


def tree_version(tree):
    """VERSION.PATCHLEVEL.SUBLEVEL of a kernel tree, from its Makefile
    ("6.1.158"), or None when it does not say."""
    fields = {}
    try:
        with open(os.path.join(tree, "Makefile"), encoding="utf-8", errors="replace") as f:
            for line in f:
                m = re.match(r"(VERSION|PATCHLEVEL|SUBLEVEL)\s*=\s*(\d+)\s*$", line)
                if m:
                    fields.setdefault(m.group(1), m.group(2))
                if len(fields) == 3:
                    break
    except OSError:
        return None
    if "VERSION" not in fields or "PATCHLEVEL" not in fields:
        return None
    return ".".join(fields[k] for k in ("VERSION", "PATCHLEVEL", "SUBLEVEL") if k in fields)


# Compiled templates, kept between runs: compiling them is a third of
# what a render costs.  Jinja2 recompiles a template whose source changed.
BYTECODE_CACHE = os.path.join(TOP, "build", "jinja-cache")


def bytecode_cache(directory=BYTECODE_CACHE):
    try:
        os.makedirs(directory, exist_ok=True)
    except OSError:
        return None         # a read-only checkout renders all the same
    return jinja2.FileSystemBytecodeCache(directory)


def environment(subdir=""):
    env = jinja2.Environment(
        bytecode_cache=bytecode_cache(),
        loader=jinja2.FileSystemLoader(os.path.join(TEMPLATES, subdir)),
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        autoescape=False,
    )
    # Registry text in a C comment: escape.c_comment(); in live C code,
    # render.py refuses what escape.c_code() does not take.
    env.filters["c_comment"] = escape.c_comment
    env.filters["one_line"] = escape.one_line
    env.filters["c_doc_comment"] = c_doc_comment
    env.filters["kernel_doc"] = kernel_doc
    env.globals["row_lines"] = rst_table.magic_row_lines
    env.globals["LINE_LIMIT"] = LINE_LIMIT
    return env


# ---------------------------------------------------------------- doc comments
# Registry doc text in the comments of a generated header: every line goes
# through escape.c_comment() first, so that wrapping can only break lines
# at blanks of text that is already inert.

COMMENT_WIDTH = 80
# The longest line checkpatch takes without a warning (its
# --max-line-length): a generated line that would be longer is wrapped.
LINE_LIMIT = 100


def c_doc_lines(text, width, word=None, lead=""):
    """The lines of doc text for a block comment: each line of the doc
    escaped with escape.c_comment(), then each word with word(w, first)
    when given (escape.kernel_doc_word() for a kernel-doc comment; first:
    the word starts its paragraph), the paragraphs
    (split at blank lines) filled and wrapped at blanks to width characters
    (a longer word stands alone), a blank line between paragraphs; lead,
    text of the renderer's own ("struct x - ", "@member: "), goes before
    the first paragraph as it is.  No line ends in a backslash, which would
    splice the next line into it (C and scripts/kernel-doc both do): a word
    that ends in one keeps the next word on its line, and the last word of
    a paragraph that ends in one is put in double quotes."""
    out = []
    for para in re.split(r"\n[ \t]*\n", str(text or "").strip("\n")):
        words = [w for raw in para.split("\n") for w in escape.c_comment(raw).split()]
        if word:
            words = [word(w, i == 0) for i, w in enumerate(words)]
        if not out:
            words = lead.split() + words
        if words and words[-1].endswith("\\"):
            words[-1] = f'"{words[-1]}"'
        if out:
            out.append("")
        line = ""
        for w in words:
            if line and len(line) + 1 + len(w) > width and not line.endswith("\\"):
                out.append(line)
                line = w
            else:
                line = f"{line} {w}" if line else w
        out.append(line)
    return out


def c_doc_comment(text, indent=""):
    """Doc text as a C comment above a definition: `/* text */` when it is
    one line that fits in COMMENT_WIDTH columns, else a block comment of
    ` * ` lines.  Empty for no text."""
    if not text or not str(text).strip():
        return ""
    one = escape.c_comment(" ".join(str(text).split()))
    lines = c_doc_lines(text, COMMENT_WIDTH - len(indent) - 3)
    if len(lines) == 1 and len(indent) + len(one) + 6 <= COMMENT_WIDTH:
        return f"{indent}/* {one} */"
    body = [f"{indent} * {ln}" if ln else f"{indent} *" for ln in lines]
    return "\n".join([f"{indent}/*"] + body + [f"{indent} */"])


PAD_DOC = "Reserved: set to zero."


def kernel_doc(t):
    """The kernel-doc comment of a registry type (model `types[]`): the
    brief `struct NAME - ` from the doc's first paragraph, one `@member:`
    (or `@VALUE:` of an enum) per member, then the rest of the doc.  An
    explicit padding member without a doc says it is reserved.  Every doc
    word is escaped for C, scripts/kernel-doc and reStructuredText
    (escape.kernel_doc_word()): the kernel's Sphinx build reads these
    comments, and a doc must neither act there nor speak for another
    member."""
    width = COMMENT_WIDTH - 3
    paras = re.split(r"\n[ \t]*\n", str(t["doc"] or "").strip("\n"), maxsplit=1)
    out = ["/**"]
    head = f"{t['kind']} {t['name']} - "
    kd = escape.kernel_doc_word
    brief = c_doc_lines(" ".join(paras[0].split()), width, kd, lead=head)
    out += [" * " + ln for ln in brief]
    items = t["members"] if t["kind"] != "enum" else t["values"]
    for m in items:
        doc = m["doc"] if m.get("doc") else (PAD_DOC if m.get("pad") else "")
        lead = f"@{m['name']}: "
        # PAD_DOC is the renderer's own text, and inert as it stands
        lines = c_doc_lines(" ".join(str(doc).split()), width, kd if m.get("doc") else None,
                            lead=lead)
        out += [" * " + lines[0]] + [" * " + " " * len(lead) + ln for ln in lines[1:]]
    if len(paras) > 1:
        out.append(" *")
        out += [f" * {ln}" if ln else " *" for ln in c_doc_lines(paras[1], width, kd)]
    out.append(" */")
    return "\n".join(out)


def write_if_changed(path, text):
    """Write text to path atomically (temporary file + rename), and only if
    the content differs.  Returns True when the file was written."""
    return write_bytes_if_changed(path, text.encode("utf-8"))


def write_bytes_if_changed(path, data):
    """write_if_changed() for bytes."""
    try:
        with open(path, "rb") as f:
            if f.read() == data:
                return False
    except FileNotFoundError:
        pass
    d = os.path.dirname(path) or "."
    os.makedirs(d, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=d)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise
    return True


GENERATED_MARKER = "@generated"
_HASH_RE = re.compile(r" sha256:[0-9a-f]{64}")


class HandEditedError(Exception):
    """A generated file was edited by hand since it was written."""


def _banner_index(lines):
    for i, line in enumerate(lines):
        if GENERATED_MARKER in line:
            return i
    return None


def content_hash(text):
    """The hash a generated file records: sha256 of its text without the
    ' sha256:<hex>' token of its banner line, as UTF-8."""
    lines = text.splitlines(keepends=True)
    i = _banner_index(lines)
    if i is not None:
        lines[i] = _HASH_RE.sub("", lines[i], count=1)
    return hashlib.sha256("".join(lines).encode("utf-8")).hexdigest()


def stamp_generated(text):
    """text with ' sha256:<hex>' inserted right after the marker of the first
    line that contains '@generated' (so it works inside any comment syntax).
    The hash covers everything else, banner line included."""
    lines = text.splitlines(keepends=True)
    i = _banner_index(lines)
    if i is None:
        raise ValueError(f"generated text has no '{GENERATED_MARKER}' banner line")
    lines[i] = _HASH_RE.sub("", lines[i], count=1)
    digest = hashlib.sha256("".join(lines).encode("utf-8")).hexdigest()
    lines[i] = lines[i].replace(GENERATED_MARKER, f"{GENERATED_MARKER} sha256:{digest}", 1)
    return "".join(lines)


def recorded_hash(text):
    """The hash recorded in text's banner line, or None."""
    lines = text.splitlines(keepends=True)
    i = _banner_index(lines)
    if i is None:
        return None
    m = re.search(re.escape(GENERATED_MARKER) + r" sha256:([0-9a-f]{64})", lines[i])
    return m.group(1) if m else None


def generated_refusal(path, new):
    """Why the file at path must not be replaced by new (a stamped text, or
    None to remove it), as a 'path:1:1: error: ...' message; None when it
    may: it is missing, already new, or still what a generator wrote (its
    content matches the hash its banner records, or a banner from before
    hashes).  A file with no '@generated' line is someone's own file."""
    try:
        with open(path, encoding="utf-8", newline="") as f:
            old = f.read()
    except FileNotFoundError:
        return None
    except UnicodeDecodeError:
        old = "\ufffd"      # not UTF-8: not what we wrote
    if old == new:
        return None
    if _banner_index(old.splitlines(keepends=True)) is None:
        return (f"{path}:1:1: error: not a generated file (no '{GENERATED_MARKER}' line); "
                f"refusing to overwrite it: move it away, or use --force")
    want = recorded_hash(old)
    if want is not None and want != content_hash(old):
        return (f"{path}:1:1: error: hand-edited since generated; its content no longer "
                f"matches the sha256 in its '{GENERATED_MARKER}' line. Move the edits into "
                f"the spec or the templates, or discard them: use --force")
    return None


def write_generated(path, text, force=False):
    """Write a generated file whose banner line (the first line containing
    '@generated') records the sha256 of its content, through
    write_if_changed().  An existing file is overwritten only if its content
    still matches the hash it records, so edits made by hand are never lost;
    force=True (--force) overwrites anyway.  A file with no '@generated' line
    is someone's own file and is refused too; a generated file from before
    hashes (marker, no hash) is replaced.  Raises HandEditedError with a
    'path:1:1: error: ...' message (generated_refusal()).  Returns True when
    the file was written."""
    new = stamp_generated(text)
    problem = None if force else generated_refusal(path, new)
    if problem:
        raise HandEditedError(problem)
    return write_if_changed(path, new)


def files_hash(paths):
    """The hash of the code a cached output is made by: these files' names
    and contents."""
    h = hashlib.sha256()
    for fn in paths:
        with open(fn, "rb") as f:
            h.update(fn.encode() + b"\0" + f.read() + b"\0")
    return h.hexdigest()


def context_key(ctx):
    """The hash of what a cached output is made from: ctx (dicts, lists,
    strings, numbers, None) through marshal, a fifth of the time of
    json.dumps.  Format 2 writes no back-references, so the same content in
    the same order (the model's dicts keep the JSON's) gives the same bytes."""
    return hashlib.sha256(marshal.dumps(ctx, 2)).hexdigest()


class PageCache:
    """The hash of each page's context and of the code that renders it (the
    templates of template_dir, the renderer's code files, and this file and
    escape.py, whose filters the templates use) when the page was written,
    in a JSON file: a page whose hashes match, and whose file is still
    what was written, need not be rendered again."""

    def __init__(self, path, template_dir, code_files):
        self.path = path
        here = os.path.dirname(os.path.abspath(__file__))
        code = [os.path.join(template_dir, fn) for fn in sorted(os.listdir(template_dir))]
        code += list(code_files) + [os.path.join(here, fn) for fn in ("renderlib.py", "escape.py")]
        self.templates = files_hash(code)
        try:
            with open(path, encoding="utf-8") as f:
                old = json.load(f)
        except (OSError, ValueError):
            old = {}
        self.old = old.get("pages", {}) if old.get("templates") == self.templates else {}
        self.new = {}

    key = staticmethod(context_key)

    def fresh(self, rel, key, dst):
        """Is the page at dst what a context of this key renders to: the
        page written for the same key, unchanged since?"""
        old = self.old.get(rel)
        if old is None or old[0] != key:
            return False
        try:
            with open(dst, "rb") as f:
                if hashlib.sha256(f.read()).hexdigest() != old[1]:
                    return False
        except OSError:
            return False
        self.new[rel] = old
        return True

    def wrote(self, rel, key, text):
        self.new[rel] = [key, hashlib.sha256(text.encode("utf-8")).hexdigest()]

    def save(self):
        write_if_changed(self.path, json.dumps(
            {"templates": self.templates, "pages": self.new}, sort_keys=True, indent=0) + "\n")
