# SPDX-License-Identifier: GPL-2.0
"""Reading C header text: #defines as written, and the comments near them."""

import re
from dataclasses import dataclass

from . import Error
from .cwords import ioctl_call

# "Is this an ioctl #define": its body calls one of the ioctl macros
# (ioctl_call(), the model's `ioctl-macros`).
DEFINE = re.compile(r"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)(\([^)]*\))?(.*)$")
# a #define whose body is one name: another command's (SIOCINQ FIONREAD)
ALIAS_BODY = re.compile(r"^[\s(]*([A-Za-z_]\w*)[\s)]*$")
COMMENTED_DEFINE = re.compile(r"^[\s/*]*#\s*define\s+([A-Za-z_]\w*)(.*)$")


@dataclass(frozen=True)
class Define:
    line: int			# of the #define, 1-based
    name: str
    params: list | None		# None for an object-like macro
    body: str			# comments removed

    @property
    def is_ioctl(self):
        return ioctl_call().search(self.body) is not None


def logical_lines(text):
    """(first line number, text with the continuations joined) per logical line."""
    out, buf, start = [], "", 0
    for i, line in enumerate(text.split("\n"), 1):
        if not buf:
            start = i
        if line.endswith("\\"):
            buf += line[:-1] + " "
            continue
        out.append((start, buf + line))
        buf = ""
    return out


def strip_comments(s):
    return re.sub(r"/\*.*?\*/", " ", re.sub(r"//.*$", "", s), flags=re.S)


def clean_comment(c):
    c = re.sub(r"^/\*+|\*+/$", "", c.strip())
    lines = [re.sub(r"^\s*\*+ ?", "", l).strip() for l in c.split("\n")]
    return " ".join(l for l in lines if l).strip()


def short_doc(text):
    """A short one-line doc from a header comment, or None."""
    t = re.sub(r"\s+", " ", text or "").strip()
    if not re.search(r"[A-Za-z]{3}", t) or not re.match(r"[\w'\"(]", t):
        return None
    m = re.match(r"(.+?[.!?])(\s|$)", t)
    if m and len(m.group(1)) >= 12:
        t = m.group(1)
    if len(t) > 160:
        t = t[:157].rsplit(" ", 1)[0] + " ..."
    if not t.endswith((".", "!", "?", "...")):
        t += "."
    return t[0].upper() + t[1:]


def parse_params(text):
    """The parameter names of a function-like macro's "(a, b)", or None."""
    if text is None:
        return None
    return [p.strip() for p in text[1:-1].split(",") if p.strip()]


class HeaderText:
    """The #defines of a header as written, and the comments near them."""

    def __init__(self, path):
        try:
            with open(path, encoding="utf-8", errors="replace") as f:
                self.text = f.read()
        except OSError as e:
            raise Error(f"{path}: error: cannot read the header: {e.strerror}") from e
        self.lines = self.text.split("\n")
        self.defines = []
        for line, joined in logical_lines(self.text):
            m = DEFINE.match(joined)
            if m:
                self.defines.append(Define(line, m.group(1), parse_params(m.group(2)),
                                           strip_comments(m.group(3))))
        self.commented = self._commented_ioctls()
        self.enum_tag = {}		# enumerator -> the tag of its enum, or ""
        self.enumerators = self._ioctl_enumerators()

    def _ioctl_enumerators(self):
        """The enumerators whose value calls an ioctl macro, as Defines
        (params None): 6.12's linux/android/binder.h declares its commands
        in an enum (`BINDER_WRITE_READ = _IOWR('b', 1, ...),`), so do
        drm/xe_drm.h's DRM_XE_OBSERVATION_IOCTL_* and binder's BC_*/BR_*
        protocol codes."""
        # comments blanked, newlines kept, so that offsets give line numbers
        text = re.sub(r"/\*.*?\*/|//[^\n]*",
                      lambda m: re.sub(r"[^\n]", " ", m.group(0)), self.text, flags=re.S)
        text = re.sub(r"^[ \t]*#.*$", lambda m: " " * len(m.group(0)), text, flags=re.M)
        out = []
        for m in re.finditer(r"\benum\b\s*(\w*)[\s\w]*\{([^{}]*)\}", text):
            pos, depth, start = m.start(2), 0, m.start(2)
            items = []
            for i in range(m.start(2), m.end(2) + 1):
                ch = text[i] if i < m.end(2) else ","
                if ch == "(":
                    depth += 1
                elif ch == ")":
                    depth -= 1
                elif ch == "," and depth == 0:
                    items.append((start, text[start:i]))
                    start = i + 1
            for at, item in items:
                e = re.match(r"\s*([A-Za-z_]\w*)\s*=(.*)$", item, re.S)
                if e and ioctl_call().search(e.group(2)):
                    line = text.count("\n", 0, at + e.start(1)) + 1
                    out.append(Define(line, e.group(1), None,
                                      re.sub(r"\s+", " ", e.group(2)).strip()))
                    self.enum_tag[e.group(1)] = m.group(1)
        return out

    def _commented_ioctls(self):
        """(line, name) of the ioctl #defines inside comments."""
        out = []
        for m in re.finditer(r"/\*.*?\*/", self.text, re.S):
            first = self.text.count("\n", 0, m.start()) + 1
            for k, l in enumerate(m.group(0).split("\n")):
                d = COMMENTED_DEFINE.match(l)
                if d and ioctl_call().search(d.group(2)):
                    out.append((first + k, d.group(1)))
        return out

    def body_of(self, name):
        """The body of the first #define of name, or None."""
        return next((d.body for d in self.defines if d.name == name), None)

    def has_conditionals(self):
        return len(re.findall(r"^[ \t]*#[ \t]*(if|ifdef|ifndef|elif)\b", self.text, re.M)) > 1

    def doc_near(self, line):
        """The comment on the #define line (or its continuation), else the one just above."""
        i = line - 1
        j = i
        while j < len(self.lines) and self.lines[j].endswith("\\"):
            j += 1
        same = " ".join(self.lines[i:j + 1])
        m = re.search(r"/\*(.*?)(\*/|$)", same)
        if m and short_doc(clean_comment(m.group(1))):
            return short_doc(clean_comment(m.group(1)))
        m = re.search(r"//(.*)$", same)
        if m and short_doc(m.group(1)):
            return short_doc(m.group(1))
        k = i - 1
        if k >= 0 and self.lines[k].rstrip().endswith("*/") and not DEFINE.match(self.lines[k]):
            end = k
            while k >= 0 and "/*" not in self.lines[k]:
                k -= 1
            if k >= 0 and self.lines[k].lstrip().startswith("/*"):
                d = short_doc(clean_comment("\n".join(self.lines[k:end + 1])))
                # a comment above with fewer than three words heads a group
                # ("Status", "Usage") rather than describing this command
                if d and len(d.split()) >= 3:
                    return d
        return None

    def top_doc(self):
        """The first sentence of the comment that opens the header, if any."""
        limit = len(self.text)
        m = re.search(r"^[ \t]*(struct|union|enum|typedef)\b", self.text, re.M)
        if m:
            limit = m.start()
        first = next((d for d in self.defines if d.body.strip()), None)
        if first:
            limit = min(limit, sum(len(l) + 1 for l in self.lines[:first.line - 1]))
        for m in re.finditer(r"/\*(.*?)\*/", self.text[:limit], re.S):
            c = clean_comment(m.group(1))
            if c and "SPDX" not in c:
                return self._doc_of_opening(c)
        return None

    @staticmethod
    def _doc_of_opening(c):
        if re.match(r"(WARNING|NOTE|XXX|TODO)\b", c):
            return None
        c = re.sub(r"^(include/)?(uapi/)?[\w/.-]+\.h\s*[-:]?\s*", "", c)
        if re.search(r"copyright|\(c\)|license", c, re.I) and not re.match(r"[A-Z][a-z]+ [a-z]+", c):
            return None
        d = short_doc(c)
        if d and len(d.split()) >= 3 and "@" not in d:
            return d
        return None
