#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Generate the built-in KTAP check of one cross-built kernel.

Usage: gen_arch.py MODEL SRCARCH ABI OUTDIR

The same per-header units as the x86 module (templates/kmod_unit.c.j2),
rendered for ABI, plus a built-in main (templates/ktap_main.c.j2) that
prints KTAP and powers off.  Writes OUTDIR/h<n>.c, main.c, ioctl_verify.h,
OUTDIR/units ("<n> <header>" per unit) and OUTDIR/total (the KTAP plan).
The commands: every non-reserved one with a number on ABI, from the
headers of no ARCH or of SRCARCH.
"""
import os
import sys

import gen


def main():
    if len(sys.argv) != 5:
        gen.die("usage: gen_arch.py MODEL SRCARCH ABI OUTDIR")
    model_path, arch, abi, outdir = sys.argv[1:]
    model = gen.load_model(model_path)
    if abi not in {a["name"] for a in model["abis"]}:
        gen.die("%s: the model has no ABI %s" % (model_path, abi))
    env = gen.environment()
    cmds = [c for c in gen.commands(model) if abi in c["numbers"]]
    headers = {}
    for i, h in enumerate(model["headers"]):
        if gen.header_arch(h) not in (None, arch):
            continue
        hc = [c for c in cmds if c["hidx"] == i]
        if hc:
            headers[i] = {"path": h["path"], "includes": h.get("includes") or [],
                          "commands": hc}
    ctx = {"model": model_path, "arch": arch, "kernel_abi": abi, "headers": headers,
           "units": [(i, h["path"]) for i, h in headers.items()],
           "total": sum(len(h["commands"]) for h in headers.values())}
    for i, h in headers.items():
        gen.write_if_changed(os.path.join(outdir, "h%d.c" % i),
                             env.get_template("kmod_unit.c.j2").render(ctx, header=h, unit=i))
    gen.write_if_changed(os.path.join(outdir, "ioctl_verify.h"),
                         env.get_template("kmod.h.j2").render(ctx))
    gen.write_if_changed(os.path.join(outdir, "main.c"),
                         env.get_template("ktap_main.c.j2").render(ctx))
    gen.write_if_changed(os.path.join(outdir, "units"),
                         "".join("%d %s\n" % u for u in ctx["units"]))
    gen.write_if_changed(os.path.join(outdir, "total"), "%d\n" % ctx["total"])
    for name in os.listdir(outdir):
        path = os.path.abspath(os.path.join(outdir, name))
        if name.endswith((".c", ".h")) and path not in gen.WRITTEN:
            os.remove(path)


if __name__ == "__main__":
    main()
