#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""What the guest's example programs need from the example registry's model.

Usage: tests/example/gen.py MODEL OUTDIR

Writes into OUTDIR:
  numbers-<abi>.h  REGISTRY_ABI and REGISTRY_<command> (the model's number on
                   that ABI), -included by tests/example/ioctl_example_test.c
  abis             "<abi> <gcc flag>" per ABI of the model the guest runs
  expected         the id of every result line the guest must print: the
                   module's, then tests/example/expected for each ABI
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
from ioctltools import model_reader  # noqa: E402
from ioctltools.renderlib import write_if_changed  # noqa: E402

# The ABIs an x86_64 guest with IA32 emulation and x32 runs, as in
# tests/verify/gen.py.
GUEST_ABIS = {"x86_64": "-m64", "i386": "-m32", "x32": "-mx32"}


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: tests/example/gen.py MODEL OUTDIR")
    model_path, outdir = sys.argv[1:]
    model = model_reader.load(model_path)
    os.makedirs(outdir, exist_ok=True)
    abis = [a["name"] for a in model["abis"] if a["name"] in GUEST_ABIS]
    if not abis:
        sys.exit("%s: no ABI the guest runs (%s)" % (model_path, ", ".join(GUEST_ABIS)))
    cmds = [c for h in model["headers"] for c in h["commands"]]
    for abi in abis:
        lines = ["/* The numbers of %s for %s: do not edit. */" % (model_path, abi),
                 '#define REGISTRY_ABI "%s"' % abi]
        for c in cmds:
            n = c["numbers"].get(abi)
            if n and n.get("number") is not None:
                lines.append("#define REGISTRY_%s 0x%08xU" % (c["name"], n["number"] & 0xffffffff))
        write_if_changed(os.path.join(outdir, "numbers-%s.h" % abi), "\n".join(lines) + "\n")
    write_if_changed(os.path.join(outdir, "abis"),
                     "".join("%s %s\n" % (a, GUEST_ABIS[a]) for a in abis))
    with open(os.path.join(HERE, "expected")) as f:
        tests = [t for t in f.read().splitlines() if t]
    expected = ["example module loaded"]
    expected += ["example %s %s" % (a, t) for a in abis for t in tests]
    write_if_changed(os.path.join(outdir, "expected"), "".join(e + "\n" for e in expected))


if __name__ == "__main__":
    main()
