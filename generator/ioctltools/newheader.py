# SPDX-License-Identifier: GPL-2.0
"""The text of a `new: true` header (one the kernel tree does not have) for
the size probes, until the renderer's full-header template writes it, and
what the registry adds to a header the tree has (additions()).

tools/measure-sizes needs the header before any size exists, and so before
the model the renderer reads.  With `--new-headers DIR` it takes the
rendered file DIR/<path> instead of this text; text() is the one place to
drop once the renderer can run on `ioctlgen dump`.  It reads only the
documented model keys of a header (`path`, `includes`, `constants`,
`types`, `commands`) and writes only identifiers, integers and fixed-width
type names, each checked again (cc.type_lines())."""

import re

from . import Error, cc, cwords


def plain_macros():
    """_IO, _IOR, _IOW and _IOWR: the ioctl macros with a direction of
    their own and no legacy size (the model's `ioctl-macros`)."""
    return {m["name"] for m in cwords.ioctl_macros() if m["dir"] and not m["legacy"]}

# What the renderer (generator/ioctltools/render.py, UapiHeader.missing() and its
# DEFINE_RE) takes for "the header defines it": the two must agree, or a
# probe would measure what the patch does not add.
DEFINE_RE = re.compile(r"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)", re.M)
TYPE_DEF_RE = r"\b%s[ \t\n]+%s[ \t\n]*\{"


def guard(path):
    if not cc.HEADER.match(path):
        raise Error(f"error: new header {path!r} is no relative header path "
                    f"(ioctlgen should have refused it)")
    return "_UAPI_" + re.sub(r"[^A-Za-z0-9]", "_", path[:-2]).upper() + "_H"


def command_line(h, c, added=False):
    """`#define NAME _IOx(MAGIC, NR, TYPE)` of a plain command: from the
    integers magic and nr and the checked type text.  added: the command
    is one the registry adds to a header of the tree (additions())."""
    name = c["name"]
    if c["macro"] not in plain_macros() or c["params"] or c.get("number") is not None or \
            c.get("legacy") or c.get("alias-of"):
        if added:
            raise Error(f"{c['source']}: error: {name}: <{h['path']}> of this tree does not "
                        f"define it, and measure-sizes adds to a header only plain _IO, _IOR, "
                        f"_IOW and _IOWR commands: a family, a plain number or a legacy "
                        f"spelling the tree lacks is a mistake of the spec (or the command "
                        f"is gone from this tree: `removed:`)")
        raise Error(f"{c['source']}: error: {name}: measure-sizes writes only plain _IO, "
                    f"_IOR, _IOW and _IOWR commands into the new header {h['path']}; pass "
                    f"the rendered header with --new-headers")
    if not cc.IDENT.match(name) or type(c["magic"]) is not int or type(c["nr"]) is not int:
        raise Error(f"{c['source']}: error: {name!r}: not a C identifier with integer "
                    f"magic and nr (ioctlgen should have refused it)")
    args = [f"0x{c['magic']:02x}", str(c["nr"])]
    if c["macro"] != "_IO":
        if not cc.TYPE.match(c["type"] or ""):
            raise Error(f"{c['source']}: error: {name}: type {c['type']!r} is no C type "
                        f"name (ioctlgen should have refused it)")
        args.append(c["type"])
    return f"#define {name} {c['macro']}({', '.join(args)})"


def text(h):
    """The header's C text: its includes, constants, the types that are
    not kernel-internal, and its commands."""
    g = guard(h["path"])
    lines = ["/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */",
             f"/* <{h['path']}> for the size probes (generator/ioctltools/newheader.py) */",
             f"#ifndef {g}", f"#define {g}", "", "#include <linux/ioctl.h>",
             "#include <linux/types.h>"]
    for inc in h["includes"]:
        if not cc.HEADER.match(inc):
            raise Error(f"error: include {inc!r} is no header path (ioctlgen should have "
                        f"refused it)")
        if f"#include <{inc}>" not in lines:
            lines.append(f"#include <{inc}>")
    lens = {}
    for k in h.get("constants") or ():
        if not cc.IDENT.match(k["name"]) or type(k["value"]) is not int:
            raise Error(f"{k['source']}: error: constant {k['name']!r} = {k['value']!r}: "
                        f"not a C identifier and an integer (ioctlgen should have refused it)")
        lines.append(f"#define {k['name']} {k['value']}")
        lens[k["name"]] = k["value"]
    for t in h.get("types") or ():
        if t.get("kernel-internal"):
            continue			# the probes' prelude defines it (cc.Prelude)
        kind, name, members, values = cc.model_type(t)
        # a len written as a constant of this header keeps its name
        members = tuple((m["name"], m["type"],
                         m["len-text"] if m["len-text"] in lens else m["len"])
                        for m in t.get("members") or ())
        lines += [""] + cc.type_lines(kind, name, members, values, lens)
    lines.append("")
    lines += [command_line(h, c) for c in h["commands"] if not c["reserved"]]
    return "\n".join(lines + ["", f"#endif /* {g} */"]) + "\n"


def additions(h, text, enums=frozenset()):
    """The C lines a probe of an existing header needs after it: the
    registry's types and commands that its exported text does not define
    (as a macro, or as an enumerator: enums), which the series will add to
    it (a new command with a new struct).  Kernel-internal types are the
    prelude's (cc.Prelude)."""
    defined = set(DEFINE_RE.findall(text)) | set(enums)
    lines = []
    for t in h.get("types") or ():
        if t.get("kernel-internal") or \
                re.search(TYPE_DEF_RE % (t["kind"], re.escape(t["name"])), text):
            continue
        lines += cc.type_lines(*cc.model_type(t))
    lines += [command_line(h, c, added=True) for c in h["commands"]
              if not c["reserved"] and c["name"] not in defined]
    if lines:
        lines = [f"/* what the registry adds to <{h['path']}> "
                 f"(generator/ioctltools/newheader.py) */", "#include <linux/types.h>"] + lines
    return lines
