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
  rst_text()    inline text of a site page: every punctuation escaped
  html_text()   text of a raw HTML block of a site page
"""

import html
import re
import string


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
# anonymous target, a bullet, enumerator, field or option list, a doctest,
# a line block; and a line of one punctuation character repeated, or of
# '=' or '-' and blanks, which reads as a table border, a section
# adornment or a transition.
_RST_BLOCK_START_RE = re.compile(
    r"\.\.(\s|$)|__(\s|$)|[-*+\u2022\u2023\u2043]|>>>|\|(\s|$)"
    r"|(\d+|[A-Za-z#]|[ivxlcdmIVXLCDM]+)[.)](\s|$)|\((\d+|[A-Za-z#]|[ivxlcdmIVXLCDM]+)\)(\s|$)"
    r"|:[^:`]+:(\s|$)"
    r"|(?P<adorn>[%s])(?P=adorn)*\s*$|[=\s]+$|[-\s]+$" % re.escape(string.punctuation))
_RST_REF_END_RE = re.compile(r"(?<=[\w`\]])(_+)(?!\w)")
_RST_ROLE_RE = re.compile(r":(?=`)|(?<=`):")
# A bare URI becomes a link: only these schemes may (6.1 has all four).
_RST_URI_RE = re.compile(r"(?<![\w.+-])([A-Za-z][A-Za-z0-9.+-]*):(?=[^\s:])")
_RST_SAFE_SCHEMES = {"http", "https", "ftp", "mailto"}


def rst_cell(text):
    """One line of a cell of ioctl-number.rst's simple table.  Inline
    markup that only formats (`default role`, *emphasis*, a bare URL) stays,
    as 6.1 writes it; what would act is escaped with a backslash: a block
    construct at the start of the line ('.. raw:: html', '.. include::',
    '.. _target:', a comment, a list, a line that reads as a table border),
    a substitution '|name|', a reference 'name_', '`text <url>`_' or
    '[1]_', a role ':role:`x`' or '`x`:role:', a bare URI of a scheme
    other than http, https, ftp and mailto ('javascript:...'), a literal
    block '::' at the end, and a backslash (which would undo an escape).  Leading blanks,
    line breaks and control characters become nothing or spaces: a cell
    line stays one line of the table, at its column."""
    s = _CONTROL_RE.sub(" ", str(text)).strip()
    s = s.replace("\\", "\\\\")
    if s.count("|") > 1:
        s = s.replace("|", "\\|")
    s = _RST_REF_END_RE.sub(lambda m: "\\_" * len(m.group(1)), s)
    s = _RST_ROLE_RE.sub(r"\\:", s)
    s = _RST_URI_RE.sub(lambda m: m.group(0) if m.group(1).lower() in _RST_SAFE_SCHEMES
                        else m.group(1) + "\\:", s)
    if s.endswith("::"):
        s = s[:-1] + "\\:"
    if _RST_BLOCK_START_RE.match(s):
        s = "\\" + s
    return s


_RST_SPECIAL = set(string.punctuation)


def rst_text(text):
    """Inline text safe to drop into reStructuredText: one line, every ASCII
    punctuation character escaped so that no markup is ever recognised."""
    s = " ".join(str(text or "").split())
    return "".join("\\" + ch if ch in _RST_SPECIAL else ch for ch in s)


def html_text(text):
    """Text for a raw HTML block: escaped, line breaks kept as <br> so that
    every line stays inside the indented block; null is empty."""
    if text is None:
        return ""
    return "<br>".join(html.escape(line, quote=True) for line in str(text).strip().splitlines())
