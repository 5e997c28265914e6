#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Generate the built-in KUnit check of one kernel ARCH from the JSON model.

Usage: gen_kunit.py MODEL ARCH ABI OUTDIR [TREE]

TREE: the kernel source tree, for the commands its headers declare as
enumerators (gen.py's enumerators()).

Writes into OUTDIR (lib/ioctl_verify/ARCH of the kernels' source overlay,
see tests/verify/kernels.sh):
  h<n>.c    one unit per header: every command the registry numbers on ABI,
            computed with the kernel's own macros (_IOC_TYPECHECK included)
  g<k>.c    up to GROUP of those units in one object (#include "h<n>.c"):
            a compiler run per header is a quarter of a tinyconfig build.
            Built with -Werror, so that one header redefining another's
            macro fails the group; kernels.sh then builds its units alone.
  groups    "g<k> <n> <n>..." per group
  suite.c   the KUnit suite "ioctl_registry_ABI": the registry's numbers
            and one case per unit that compares them.  Only this file
            depends on the model's numbers, so a model whose numbers
            change (the wrong-layout test) recompiles it alone.
  units     "<n> <case name> <commands> <header>" per unit
  ioctl_verify.h
  typecheck_{sizeof,oversize,bad_spelling}.c
            the kernel-context type checks (compiled alone, never linked)
Files are written only when their content changes (gen.py's rule), so a
warm build recompiles nothing.
"""
import os
import re
import sys

from gen import (WRITTEN, commands, die, environment, groups_of, header_arch, load_model,  # noqa: E402
                 shown_path, typedef_lines, write_if_changed)


def case_name(path):
    """A KTAP test name: no spaces, no '#'."""
    return re.sub(r"[^A-Za-z0-9_]", "_", path)


KERNEL_CONTEXT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "kernel-context.txt")


def kernel_context(abi):
    """{command: why} of kernel-context.txt for ABI: the commands whose
    header gives the argument another type in kernel context."""
    out = {}
    with open(KERNEL_CONTEXT) as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            parts = [p.strip() for p in line.split("|")]
            if len(parts) != 3 or not all(parts):
                sys.exit("%s:%d:1: error: expected 'ABI... | COMMAND | why'" % (KERNEL_CONTEXT, n))
            if abi in parts[0].split():
                out[parts[1]] = (parts[2], n)
    return out


def main():
    if len(sys.argv) not in (5, 6):
        die("usage: gen_kunit.py MODEL ARCH ABI OUTDIR [TREE]")
    model_path, arch, abi, outdir = sys.argv[1:5]
    tree = sys.argv[5] if len(sys.argv) == 6 else None
    model = load_model(model_path)
    if abi not in [a["name"] for a in model["abis"]]:
        die("%s: the model has no ABI %s" % (model_path, abi))
    env = environment()

    cmds = commands(model, tree)
    other_type = kernel_context(abi)
    names = {c["name"] for c in cmds if abi in c["numbers"]}
    for name, (_why, n) in sorted(other_type.items()):
        if name not in names:
            sys.exit("%s:%d:1: error: the model numbers no %s on ABI %s" % (KERNEL_CONTEXT, n, name, abi))
    for c in cmds:
        c["kernel_type"] = other_type.get(c["name"], (None, 0))[0]
    units = []
    for i, h in enumerate(model["headers"]):
        if header_arch(h) not in (None, arch):
            continue
        # A name the header makes another command's by the C library's
        # types (SIOCGSTAMP: ?: on sizeof(struct timeval)) has no value in
        # kernel context on 32-bit, which has no struct timeval; the kernel
        # itself uses SIOCGSTAMP_OLD and _NEW.  Userspace checks it, and
        # the commands that pass a compat struct the kernel defines in its
        # own headers (kernel-internal types: USBDEVFS_CONTROL32).
        mine = [c for c in cmds if c["hidx"] == i and abi in c["numbers"] and
                not c["libc_named"] and not c["kernel_typed"]]
        if not mine:
            continue
        unit = {"index": i, "path": h["path"], "case": case_name(h["path"]),
                "includes": h.get("includes") or [], "typedefs": typedef_lines(h),
                "kernel_internal": bool(h.get("kernel-internal")),
                "commands": mine}
        units.append(unit)
        write_if_changed(os.path.join(outdir, "h%d.c" % i),
                         env.get_template("kunit_unit.c.j2").render(model=shown_path(model_path), abi=abi, unit=unit))
    groups = groups_of(units)
    for k, members in enumerate(groups):
        write_if_changed(os.path.join(outdir, "g%d.c" % k),
                         env.get_template("kunit_group.c.j2").render(abi=abi, members=members))
    write_if_changed(os.path.join(outdir, "groups"),
                     "".join("g%d %s\n" % (k, " ".join(str(u["index"]) for u in members))
                             for k, members in enumerate(groups)))
    ctx = {"model": shown_path(model_path), "abi": abi, "units": units}
    write_if_changed(os.path.join(outdir, "suite.c"), env.get_template("kunit_suite.c.j2").render(ctx))
    for v in ("sizeof", "oversize", "bad-spelling"):
        write_if_changed(os.path.join(outdir, "typecheck_%s.c" % v.replace("-", "_")),
                         env.get_template("typecheck.c.j2").render(ctx, variant=v))
    write_if_changed(os.path.join(outdir, "units"),
                     "".join("%d %s %d %s\n" % (u["index"], u["case"], len(u["commands"]), u["path"])
                             for u in units))
    write_if_changed(os.path.join(outdir, "ioctl_verify.h"),
                     env.get_template("kunit.h.j2").render(ctx))
    # Units and groups of an earlier model (a header gone) go.
    for name in os.listdir(outdir):
        if re.match(r"[gh]\d+\.c$", name) and os.path.abspath(os.path.join(outdir, name)) not in WRITTEN:
            os.remove(os.path.join(outdir, name))


if __name__ == "__main__":
    main()
