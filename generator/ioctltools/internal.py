# SPDX-License-Identifier: GPL-2.0
"""The kernel-internal headers an import names (tools/import-uapi
--internal media/v4l2-subdev.h): the tree's include/<path>, which no
headers_install exports, read by the same classify and evidence steps as a
UAPI header but preprocessed and compiled in kernel context, with the
compiler and Kbuild paths kcontext.py measures them with (one configured
tree, --kernel-context ABI=SRC:OBJ).  Their specs say `kernel-internal:
true`; their argument types are the kernel's own, so no exported header is
looked for, and the other ABIs, which have no configured tree here, are not
read (their numbers stay "not measured")."""

import os
import re
import subprocess

from . import Error, kcontext
from .cc import Compiler
from .classify import Unit


def compiler(reg, specs):
    """(ABI, Compiler) of the one --kernel-context tree an internal import uses."""
    trees = kcontext.parse(specs, reg.abis)
    if len(trees) != 1:
        raise Error("error: --internal needs one --kernel-context ABI=SRCTREE:OBJDIR "
                    f"(given {len(trees)})")
    (name, (src, obj)), = trees.items()
    abi = next(a for a in reg.abis if a.name == name)
    return abi, KernelCompiler(kcontext.KernelToolchain(abi, src, obj).cc, [], src)


class KernelCompiler(Compiler):
    """The kernel-context compiler, and the tree whose include/ it reads."""

    def __init__(self, cmd, incdirs, tree):
        super().__init__(cmd, incdirs)
        self.tree = tree


UNKNOWN_TYPE = re.compile(r"unknown type name \W([A-Za-z_]\w*)\W")


def defining_header(comp, error):
    """The header of the tree's include/ (not uapi/) that typedefs the type a
    kernel-internal header uses without including it (saa6588.h's
    poll_table: linux/poll.h), or None.  Its drivers include that first."""
    m = UNKNOWN_TYPE.search(error or "")
    if not m or not isinstance(comp, KernelCompiler):
        return None
    t = m.group(1)
    r = subprocess.run(["grep", "-rlE", "--include=*.h", "--exclude-dir=uapi",
                        rf"(\}}\s*|typedef [^;]*\b){t}\s*;", "."],
                       cwd=os.path.join(comp.tree, "include"), capture_output=True, text=True)
    found = sorted(os.path.normpath(f) for f in r.stdout.split())
    return found[0] if found else None


def units(tree, paths, abi, comp):
    """One unit per --internal path, its file the tree's include/<path>."""
    out = []
    for rel in paths:
        path = os.path.join(tree, "include", rel)
        if os.path.normpath(rel).startswith(("..", "uapi/")) or not os.path.isfile(path):
            raise Error(f"{path}: error: --internal {rel}: no such header in the tree's include/ "
                        f"(a kernel-internal header, not an exported one)")
        u = Unit(abi.arch, rel, path, "generic")
        u.kcompiler = comp
        out.append(u)
    return out
