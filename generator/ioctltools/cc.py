# SPDX-License-Identifier: GPL-2.0
"""Running the C compilers on probe sources.

Every probe of a header starts the way userspace includes it (prologue());
the probe engine (probeengine.py) compiles the probes and reads their
values back."""

import os
import re
from dataclasses import dataclass

from . import Error, cwords
from .probeengine import run_source


def userspace_include(path):
    """How userspace includes a header: asm-generic/X.h through its ARCH's
    <asm/X.h>, which may or may not include it."""
    if path.startswith("asm-generic/"):
        return "asm/" + path[len("asm-generic/"):]
    return path


# What the registry's texts must look like before they reach a C file; ioctlgen
# checked them with its grammars already, this only keeps a bug from passing.
IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
TYPE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?: [A-Za-z_][A-Za-z0-9_]*)*(?: ?\*(?: const| volatile)*)*\Z")
HEADER = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.+-]*(?:/[A-Za-z0-9_][A-Za-z0-9_.+-]*)*\.h\Z")
STUB_TEXT = ("/* ioctl-registry: an empty stand-in for a header the kernel does not "
             "export (a header spec's stub-includes) */\n")


def typedef_line(name, ctype):
    """`typedef TYPE NAME;` of a header spec's typedefs entry."""
    if not IDENT.match(name) or not TYPE.match(ctype):
        raise Error(f"error: typedef {name!r} of {ctype!r}: not a C identifier and type name "
                    f"(ioctlgen should have refused it)")
    return f"typedef {ctype} {name};"


def define_line(name):
    """`#define NAME` of a header spec's defines entry, a feature macro."""
    if not IDENT.match(name):
        raise Error(f"error: define {name!r}: not a C identifier (ioctlgen should have "
                    f"refused it)")
    return f"#define {name}"


# The member types a registry type may have (docs/dev/contracts.md, `types:`):
# fixed-width integers and char (cwords.fixed_types()), and a struct or union
# the registry defines.
TAGGED = re.compile(r"(?:struct|union) [A-Za-z_][A-Za-z0-9_]*\Z")


def _member_type(ctype):
    return ctype in cwords.fixed_types() or (TAGGED.match(ctype) is not None and IDENT.match(ctype.split()[1]))


def type_lines(kind, name, members=(), values=(), lens=None):
    """The C definition of a registry type (the model's `types` entry as
    (kind, name, ((member, type, len), ...), ((value name, value), ...))),
    written from identifiers, fixed-width type names and integers only,
    each checked again here.  lens maps a constant's name to its value: a
    member whose len is such a name is written with the name."""
    if kind not in ("struct", "union", "enum") or not IDENT.match(name):
        raise Error(f"error: type {kind!r} {name!r}: not a struct, union or enum with a C "
                    f"identifier (ioctlgen should have refused it)")
    lines = [f"{kind} {name} {{"]
    if kind == "enum":
        for vname, value in values:
            if not IDENT.match(vname) or type(value) is not int:
                raise Error(f"error: enum {name}: value {vname!r} = {value!r}: not a C "
                            f"identifier and an integer (ioctlgen should have refused it)")
            lines.append(f"\t{vname} = {value},")
    else:
        for mname, mtype, length in members:
            bound = ""
            if isinstance(length, str):		# a constant's name
                if not IDENT.match(length) or type((lens or {}).get(length)) is not int:
                    raise Error(f"error: {kind} {name}: member {mname!r}: len {length!r} "
                                f"names no constant (ioctlgen should have refused it)")
                bound = f"[{length}]"
            elif length is not None:
                if type(length) is not int or length <= 0:
                    raise Error(f"error: {kind} {name}: member {mname!r}: len {length!r} is "
                                f"no positive integer (ioctlgen should have refused it)")
                bound = f"[{length}]"
            if not IDENT.match(mname) or not _member_type(mtype):
                raise Error(f"error: {kind} {name}: member {mname!r} of type {mtype!r}: not a C "
                            f"identifier and a fixed-width or registry type (ioctlgen should "
                            f"have refused it)")
            lines.append(f"\t{mtype} {mname}{bound};")
    return lines + ["};"]


def model_type(t):
    """(kind, name, members, values) of a `types` entry of the model, for
    type_lines(); a member's len as its number."""
    return (t["kind"], t["name"],
            tuple((m["name"], m["type"], m["len"]) for m in t.get("members") or ()),
            tuple((v["name"], v["value"]) for v in t.get("values") or ()))


@dataclass(frozen=True)
class Prelude:
    """What a header spec says a probe needs around its includes: feature
    macros before them (defines), the types no exported header defines
    after them (typedefs, as (name, type)), and after the header the
    `kernel-internal: true` types (as model_type() tuples), which only the
    kernel defines (its compat structs)."""
    defines: tuple = ()
    typedefs: tuple = ()
    internal: tuple = ()

    @classmethod
    def of(cls, h):
        """Of a header of the model."""
        return cls(tuple(h.get("defines") or ()),
                   tuple((t["name"], t["type"]) for t in h.get("typedefs") or ()),
                   tuple(model_type(t) for t in h.get("types") or ()
                         if t.get("kernel-internal")))

    def internal_lines(self):
        """The C text of the kernel-internal types, after <linux/types.h>."""
        if not self.internal:
            return []
        lines = ["#include <linux/types.h>"]
        for t in self.internal:
            lines += type_lines(*t)
        return lines


def prologue(includes, header=None, prelude=Prelude()):
    """The lines every probe of a header starts with: the prelude's
    defines, the #includes, the prelude's typedefs, the header, then the
    prelude's kernel-internal types."""
    lines = [define_line(n) for n in prelude.defines]
    lines += ["#include <linux/ioctl.h>", "#include <stddef.h>"]
    lines += [f"#include <{inc}>" for inc in includes]
    lines += [typedef_line(n, t) for n, t in prelude.typedefs]
    if header is not None:
        lines.append(f"#include <{header}>")
    return lines + prelude.internal_lines()


def stub_dir(root, paths):
    """A directory under root holding an empty file for each stub-include
    path (the unexported headers header specs name), for stub_flags()."""
    top = os.path.abspath(os.path.join(root, "stub-include"))
    for p in sorted(set(paths)):
        if not HEADER.match(p) or any(c.startswith(".") for c in p.split("/")):
            raise Error(f"error: stub-include {p!r} is no relative header path "
                        f"(ioctlgen should have refused it)")
        f = os.path.join(top, p)
        os.makedirs(os.path.dirname(f), exist_ok=True)
        try:
            with open(f, encoding="utf-8") as old:
                if old.read() == STUB_TEXT:
                    continue
        except OSError:
            pass
        with open(f, "w", encoding="utf-8") as out:
            out.write(STUB_TEXT)
    return top


def stub_flags(top):
    """Searched after every other directory: a real header always wins."""
    return ["-idirafter", top]


def include_flags(dirs):
    return [f for d in dirs for f in ("-I", d)]


def read_deps(path):
    """The prerequisites a `-MD` .d file names, spaces unescaped."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read().replace("\\\n", " ")
    except OSError as e:
        raise Error(f"{path}: error: reading the probe's dependencies: {e.strerror}") from e
    _, _, rest = text.partition(":")
    rest = rest.split("\n\n")[0].split("\n")[0]
    return [p.replace("\x00", " ") for p in rest.replace("\\ ", "\x00").split()]


class Compiler:
    """A compiler command and the include directories it searches first."""

    def __init__(self, cmd, incdirs):
        self.cmd = list(cmd)
        self.incdirs = list(incdirs)

    def __call__(self, flags, src):
        return run_source(self.cmd + flags + include_flags(self.incdirs) + ["-x", "c"], src)
