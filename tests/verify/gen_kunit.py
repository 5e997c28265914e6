#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Generate the built-in KUnit check of one kernel ARCH from the JSON model.

Usage: gen_kunit.py MODEL ARCH ABI OUTDIR

Writes into OUTDIR (lib/ioctl_verify/ARCH of the kernels' source overlay,
see tests/verify/kernels.sh):
  h<n>.c    one unit per header: every command the registry numbers on ABI,
            computed with the kernel's own macros (_IOC_TYPECHECK included)
            and compared with the model's number, one KUnit case
  suite.c   the KUnit suite "ioctl_registry_ABI", one case per unit
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

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen import WRITTEN, commands, die, environment, header_arch, load_model, write_if_changed  # noqa: E402


def case_name(path):
    """A KTAP test name: no spaces, no '#'."""
    return re.sub(r"[^A-Za-z0-9_]", "_", path)


def main():
    if len(sys.argv) != 5:
        die("usage: gen_kunit.py MODEL ARCH ABI OUTDIR")
    model_path, arch, abi, outdir = sys.argv[1:]
    model = load_model(model_path)
    if abi not in [a["name"] for a in model["abis"]]:
        die("%s: the model has no ABI %s" % (model_path, abi))
    env = environment()

    cmds = commands(model)
    units = []
    for i, h in enumerate(model["headers"]):
        if header_arch(h) not in (None, arch):
            continue
        mine = [c for c in cmds if c["hidx"] == i and abi in c["numbers"]]
        if not mine:
            continue
        unit = {"index": i, "path": h["path"], "case": case_name(h["path"]),
                "includes": h.get("includes") or [], "commands": mine}
        units.append(unit)
        write_if_changed(os.path.join(outdir, "h%d.c" % i),
                         env.get_template("kunit_unit.c.j2").render(model=model_path, abi=abi, unit=unit))
    ctx = {"model": model_path, "abi": abi, "units": units}
    write_if_changed(os.path.join(outdir, "suite.c"), env.get_template("kunit_suite.c.j2").render(ctx))
    for v in ("sizeof", "oversize", "bad-spelling"):
        write_if_changed(os.path.join(outdir, "typecheck_%s.c" % v.replace("-", "_")),
                         env.get_template("typecheck.c.j2").render(ctx, variant=v))
    write_if_changed(os.path.join(outdir, "units"),
                     "".join("%d %s %d %s\n" % (u["index"], u["case"], len(u["commands"]), u["path"])
                             for u in units))
    write_if_changed(os.path.join(outdir, "ioctl_verify.h"),
                     env.get_template("kunit.h.j2").render(ctx))
    # Units of an earlier model (a header gone) go.
    for name in os.listdir(outdir):
        if re.match(r"h\d+\.c$", name) and os.path.abspath(os.path.join(outdir, name)) not in WRITTEN:
            os.remove(os.path.join(outdir, name))


if __name__ == "__main__":
    main()
