# SPDX-License-Identifier: GPL-2.0
"""Registry text made inert for the file it lands in.

ioctlgen checks every field against its grammar; these functions are the
renderers' second line of defence, so that no text in spec/ can change the
meaning of a generated C header, ioctl-number.rst or site page other than
as the text it is.  Each leaves the text of the Linux 6.1 registry as it is
(the outputs stay byte-identical) and changes only what would act:

  one_line()    text that must stay on its line (a commit subject)
  c_comment()   text inside a /* ... */ comment of a C header
  c_code()      a C token sequence that goes into live code (a #define)
  rst_cell()    one line of a cell of ioctl-number.rst's simple table
  kernel_doc_word()  one word of a doc in a /** ... */ kernel-doc comment
  rst_text()    inline text of a site page: every punctuation escaped
  html_text()   text of a raw HTML block of a site page
"""

import html
import re
import string
import unicodedata


class UnsafeText(ValueError):
    """Text that no escaping can make safe where it goes; str() says why."""


_CONTROL_RE = re.compile(r"[\x00-\x1f\x7f\u2028\u2029\x85]")


def one_line(text):
    """Text that stays on its line (a commit subject, a heading): line
    breaks and other control characters become spaces."""
    return _CONTROL_RE.sub(" ", str(text))


def c_comment(text):
    """Text for one line of a C block comment: it cannot end the comment
    ('*/' becomes '* /'), open a nested one ('/*' becomes '/ *', which
    -Wcomment would reject), or leave its line (line breaks and other
    control characters become spaces; a trailing backslash gets a space
    after it, although a comment would swallow the line it splices)."""
    s = _CONTROL_RE.sub(" ", str(text))
    while "*/" in s or "/*" in s:
        s = s.replace("*/", "* /").replace("/*", "/ *")
    s = s.replace("??/", "?? /")      # a trigraph backslash (-std=c11 reads trigraphs)
    return s + " " if s.endswith("\\") else s


# What a macro argument, name or parameter list of the model may hold: the
# characters of C type names, integer and character constants, sizeof and
# the _IOC direction flags.  No comment, string, preprocessor or statement
# punctuation ('#', '/', '"', '\\', ';', '{', '}') and no line break.
_C_CODE_RE = re.compile(r"[A-Za-z0-9_ \t*()\[\],+|<>.-]*")
_C_CHAR_RE = re.compile(r"'[^'\\\n]'")
_C_PAIRS = {")": "(", "]": "["}


def c_code(text, what="text"):
    """text, when it is safe as one argument of a macro call in a #define
    (or as the macro's name or parameter): allowed characters only,
    quotes only around one plain character ('E'), brackets balanced and no
    comma outside them.  Raises UnsafeText otherwise: code cannot be
    escaped, only refused."""
    s = str(text)
    plain = _C_CHAR_RE.sub("0", s)
    stack = []
    ok = _C_CODE_RE.fullmatch(plain) is not None
    for ch in plain if ok else "":
        if ch in "([":
            stack.append(ch)
        elif ch in ")]" and (not stack or stack.pop() != _C_PAIRS[ch]):
            ok = False
        elif ch == "," and not stack:
            ok = False
    if not ok or stack:
        raise UnsafeText(f"{what} {s!r} is not a C type, name or constant this renderer "
                         f"will put into a #define")
    return s


# Lines that would start a block construct in a table cell: explicit markup
# (directive, comment, target, footnote, substitution definition), an
# anonymous target, a bullet, enumerator, field or option list (a DOS-style
# '/V' option too), a doctest,
# a line block; and a line that starts with a punctuation character
# repeated, or is one, or is '=' or '-' and blanks, which reads as a table
# border, a section adornment or a transition.
_RST_BLOCK_START_RE = re.compile(
    r"\.\.(\s|$)|__(\s|$)|[-*+\u2022\u2023\u2043]|/[A-Za-z0-9]|>>>|\|(\s|$)"
    r"|(\d+|[A-Za-z#]|[ivxlcdmIVXLCDM]+)[.)](\s|$)|\((\d+|[A-Za-z#]|[ivxlcdmIVXLCDM]+)\)(\s|$)"
    r"|:"
    r"|(?P<adorn>[%s])((?P=adorn)+|\s*$)|[=\s]+$|[-\s]+$" % re.escape(string.punctuation))
# docutils' recognition rules: a start-string ('*') follows a blank, the
# start of the text or an opener/delimiter (' " ( [ { < - / :), and is not
# quoted between a matching pair ('*'); an end-string ('_' of a reference)
# is followed by a blank, the end of the text or a closer/delimiter, never
# by a letter, digit, '_' or '*'.  So 6.12's "FS_IOC_* ioctls" and its code
# '*' are text as they stand; any '*' that could open emphasis is escaped.
_RST_REF_END_RE = re.compile(r"(?<=[\w`\]])(_+)(?![\w*])")
_RST_STAR_RE = re.compile(r"(?<![A-Za-z0-9_'])\*|(?<=')\*(?!')")
# A bare URI becomes a link: only these schemes may (6.1 has all four).
_RST_URI_RE = re.compile(r"(?<![A-Za-z0-9.+-])([A-Za-z0-9.+-]+):(?=\S)")
# '|' starts a substitution unless quoted as 6.1 writes the code '|'.
_RST_BAR_RE = re.compile(r"(?<!')\||\|(?!')")
# `linux/iio/*.h`, as 6.1 writes a path: any other backquote is escaped
# (one that does not close would be a warning, a build error under -W).
_RST_PATH_QUOTE_RE = re.compile(r"(?<![^\s(])`[\w./*+-]+`(?![^\s.,;)])")
_RST_SAFE_SCHEMES = {"http", "https", "ftp", "mailto"}


def _rst_inline(s):
    """Inline markup escaped in text outside 6.1's `path` quotes."""
    s = _RST_BAR_RE.sub(r"\\|", s).replace("`", "\\`")
    s = _RST_STAR_RE.sub(r"\\*", s)
    s = _RST_REF_END_RE.sub(lambda m: "\\_" * len(m.group(1)), s)
    return _RST_URI_RE.sub(lambda m: m.group(0) if m.group(1).lower() in _RST_SAFE_SCHEMES
                           else m.group(1) + "\\:", s)


def rst_cell(text):
    """One line of a cell of ioctl-number.rst's simple table.  What 6.1
    writes stays as it is (a `path/*.h` in backquotes, a bare http or
    mailto URI); everything that would act, or fail to close and make a
    warning, is escaped with a backslash: a block construct at the start
    of the line ('.. raw:: html', '.. include::', '.. _target:', a
    comment, a list, a line that reads as a table border), any other
    backquote (roles, references, literals, targets), a substitution
    '|name|', a reference 'name_' or '[1]_', an emphasis '*', a bare URI
    of a scheme other than http, https, ftp and mailto ('javascript:...'),
    a literal block '::' at the end, and a backslash (which would undo an
    escape).  Leading blanks, line breaks and control characters become
    nothing or spaces: a cell line stays one line of the table, at its
    column."""
    s = _CONTROL_RE.sub(" ", str(text)).strip().replace("\\", "\\\\")
    out, at = [], 0
    for m in _RST_PATH_QUOTE_RE.finditer(s):
        out += [_rst_inline(s[at:m.start()]), m.group(0)]
        at = m.end()
    s = "".join(out) + _rst_inline(s[at:])
    if s.endswith("::"):
        s = s[:-1] + "\\:"
    if _RST_BLOCK_START_RE.match(s):
        s = "\\" + s
    if s and not s.strip("\\"):
        # Backslashes only: still a line of one repeated character (an
        # adornment) however escaped; an inline literal shows them as such.
        s = "``" + "\\" * (len(s) // 2) + "``"
    return s


# ---------------------------------------------------------------- kernel-doc
# A doc in a kernel-doc comment of a generated header is read twice more
# after the C compiler: by scripts/kernel-doc, which starts a section at a
# line "@name:", "Return:", "Note:" ... and turns @name, %NAME and &name
# into markup, then by the kernel's Sphinx build as reStructuredText.  The
# renderer wraps a doc at blanks, so any word may start a line: each word is
# escaped on its own (after escape.c_comment()), whatever its place.

# Escaped wherever they are: ':' (kernel-doc sections, roles, fields, URI
# schemes, '::'), '*' and '`' (emphasis, literals, roles, references,
# targets), '|' (substitutions), '<' and '>' (embedded URIs, kernel-doc's
# '->' member references), and the backslash itself.
_KDOC_ALWAYS = set("\\:*`|<>")
# Any other ASCII punctuation stays as it is.  A block construct (a
# directive, comment or target '..', a bullet, an enumerator, an option
# list, a table border, doctest '>>>', '__') starts only a paragraph: the
# first word of each paragraph is escaped at its start unless that is one
# of these, and is no enumerator.  A line of punctuation only (a title
# adornment, a transition) is one anywhere: such a word is escaped at its
# start wherever it is.
_KDOC_RAW_START = set("(\"'%&_[]{}$#=~^!?,;)")
# An enumerator as a whole word: '1.', 'a)', '#.', 'iv)', '(3)'.
_KDOC_ENUM_RE = re.compile(r"(\(?)(\d+|[A-Za-z#]|[ivxlcdmIVXLCDM]+)([.)])")
# The end of a reference ('name_', 'name__', '[1]_').
_KDOC_REF_END_RE = re.compile(r"(?<=[\w`\]])(_+)(?!\w)")
# kernel-doc's @name reference, which it writes as **name**, kept at the
# start of a word (after opening parentheses), when what follows can end
# docutils' strong emphasis; any other '@' would become '****' or start a
# mailto link, and is written "(at)".
# The reference is what kernel-doc's own regex takes, greedily (its \w
# reads bytes: ASCII only).
_KDOC_PARAM_RE = re.compile(r"\(*@([A-Za-z_]\w*(?:\.\w+|->\w+)*(?:\.\.\.)?)", re.ASCII)
_KDOC_PARAM_END = set(".,;!?'\")]}/\\-")
# The characters kernel-doc's %CONST and &type markup take after the sign:
# a backslash between them stops it and shows as nothing.
_KDOC_PCT_RE = re.compile(r"%(?=[-\w])", re.ASCII)
_KDOC_AMP_RE = re.compile(r"&(?=\w)", re.ASCII)


def kernel_doc_word(word, first=True):
    """One word (no blanks) of a doc for a /** ... */ kernel-doc comment,
    already safe for C (escape.c_comment()): what scripts/kernel-doc or
    reStructuredText would act on is escaped with a backslash, which both
    docutils and the kernel's Sphinx build show as nothing.  No line can
    start a kernel-doc section ("@other:", "Return:") or a block construct
    (a directive, comment, target, list, table, title adornment, literal
    block), and no inline markup, role, reference or URI (of any scheme) is
    recognised.  kernel-doc's own markup is kept for @member only (shown
    bold); %NAME and &name stay text.  first: the word starts a paragraph
    (only there can a block construct start: renderlib.c_doc_lines() wraps
    a paragraph's lines flush left, and docutils reads on to a blank line).
    A backslash is only ever added before another character, so the word
    never ends a C comment line with a lone one that was not there
    (renderlib.c_doc_lines() keeps such a word off a line's end)."""
    s = "".join("\\" + ch if ch in _KDOC_ALWAYS else ch for ch in str(word))
    s = _KDOC_REF_END_RE.sub(lambda m: "\\_" * len(m.group(1)), s)
    s = _KDOC_PCT_RE.sub("%\\\\", s)
    s = _KDOC_AMP_RE.sub("&\\\\", s)
    m = _KDOC_ENUM_RE.fullmatch(s) if first else None
    if m:
        s = (("\\(" if m.group(1) else "") + m.group(2) + "\\" + m.group(3))
    keep = _KDOC_PARAM_RE.match(s)
    if keep and keep.end() < len(s) and s[keep.end()] not in _KDOC_PARAM_END:
        keep = None
    at = keep.end() if keep else 0
    s = s[:at] + s[at:].replace("@", "(at)")
    if not keep and s and s[0] in string.punctuation and s[0] != "\\" and (
            not s.strip(string.punctuation) or (first and s[0] not in _KDOC_RAW_START)):
        s = "\\" + s
    elif first and s and not s[0].isascii() and unicodedata.category(s[0]).startswith("P"):
        s = "\\" + s      # a bullet '\u2022'
    return s


_RST_SPECIAL = set(string.punctuation)


def rst_text(text):
    """Inline text safe to drop into reStructuredText: one line (control
    characters are blanks), every ASCII punctuation character escaped so
    that no markup is ever recognised."""
    s = " ".join(one_line(text or "").split())
    return "".join("\\" + ch if ch in _RST_SPECIAL else ch for ch in s)


def html_text(text):
    """Text for a raw HTML block: escaped, line breaks kept as <br> so that
    every line stays inside the indented block; null is empty."""
    if text is None:
        return ""
    return "<br>".join(html.escape(line, quote=True) for line in str(text).strip().splitlines())
