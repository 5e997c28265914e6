# SPDX-License-Identifier: GPL-2.0
"""Kernel-internal headers (`kernel-internal: true`) measured in kernel
context, the way the kernel compiles them: the ABI's compiler with the
include paths, -D__KERNEL__ and forced includes of Kbuild's LINUXINCLUDE,
on a kernel tree configured for that ABI (`make tinyconfig prepare` in an
object directory: its generated headers).  The probes are measure-sizes'
own (sizeprobe.Probe): sizes, defined commands, _IOC or plain number.

An ABI without a configured tree does not measure these headers at all:
its sizes file does not list them in `kernel-context:`, and ioctlgen says
"not measured" there instead of numbering them."""

import os
import sys

from . import Error, cc
from .sizeprobe import run_chunk

# Where the project measures kernel-internal headers: {version: {ABI: the
# kernel's ARCH for make}}.  One configured tree costs a `make tinyconfig
# prepare` (about a minute); the other ABIs and versions stay "not
# measured" (docs/dev/sizes.md).
CONFIGURED = {"6.1": {"x86_64": "x86_64"}}


def objdir(build, version, abi):
    return os.path.join(build, f"kconf-{version}-{abi}")


def parse(specs, abis):
    """--kernel-context ABI=SRCTREE:OBJDIR items -> {abi name: (src, obj)}."""
    out, names = {}, {a.name for a in abis}
    for s in specs or ():
        abi, _, dirs = s.partition("=")
        src, _, obj = dirs.partition(":")
        if abi not in names or not src or not obj:
            raise Error(f"error: --kernel-context {s!r}: want ABI=SRCTREE:OBJDIR with an ABI "
                        f"of abis.yaml")
        if not os.path.exists(os.path.join(obj, "include", "generated", "autoconf.h")):
            raise Error(f"{obj}: error: not a configured kernel object directory (no "
                        f"include/generated/autoconf.h): run make tinyconfig prepare there")
        out[abi] = (os.path.abspath(src), os.path.abspath(obj))
    return out


class KernelToolchain:
    """What sizeprobe asks of a toolchain, for kernel context."""

    def __init__(self, abi, src, obj):
        self.abi, self.name = abi, abi.name
        arch = abi.arch
        self.inc = os.path.join(src, "include")
        gcc_inc = cc.run(abi.compiler + ["-print-file-name=include"]).stdout.strip()
        dirs = [f"{src}/arch/{arch}/include", f"{obj}/arch/{arch}/include/generated",
                f"{src}/include", f"{obj}/include", f"{src}/arch/{arch}/include/uapi",
                f"{obj}/arch/{arch}/include/generated/uapi", f"{src}/include/uapi",
                f"{obj}/include/generated/uapi"]
        self.cc = abi.compiler + ["-nostdinc", "-isystem", gcc_inc, "-D__KERNEL__",
                                  "-std=gnu11", "-fno-strict-aliasing"]
        self.cc += [f for d in dirs for f in ("-I", d)]
        for f in ("compiler-version.h", "kconfig.h", "compiler_types.h"):
            self.cc += ["-include", f"{src}/include/linux/{f}"]
        self.kernel_names = frozenset()
        self.search = []

    def foreign_kernel_header(self, dep):
        return None		# no C library: every header is the tree's

    def is_error_directive(self, path, line):
        return False


def measure(reg, probes, trees, probe_dir):
    """{abi: [(probe, Result)]} of the kernel-internal probes on each ABI
    with a configured tree; the other ABIs have none (not measured)."""
    kprobes = [p for p in probes if p.header.kernel_internal]
    out = {}
    for abi in reg.abis:
        if abi.name not in trees or not kprobes:
            continue
        tc = KernelToolchain(abi, *trees[abi.name])
        mine = [p.on(p.name, None) for p in kprobes if p.header.applies_to(abi)]
        done = run_chunk(tc, mine, os.path.join(probe_dir, "kernel-" + abi.name))
        out[abi.name] = [(p, res) for p, res, _ in done]
        for p, res in out[abi.name]:
            if res.unusable:	# the tree has the header: that is an error here
                res.errors.append(f"{p.header.source}: error: {p.name} in kernel context on "
                                  f"{abi.name}: {res.unusable}")
    return out


def main(argv):
    """`targets BUILD`: the make targets of the configured trees;
    `args VERSION BUILD`: measure-sizes' --kernel-context options of VERSION."""
    if argv[:1] == ["targets"] and len(argv) == 2:
        print(" ".join(os.path.join(objdir(argv[1], v, a), ".done")
                       for v, abis in CONFIGURED.items() for a in abis))
    elif argv[:1] == ["args"] and len(argv) == 3:
        v, build = argv[1:]
        print(" ".join(f"--kernel-context {a}={os.path.join(build, 'linux-source-' + v)}:"
                       f"{objdir(build, v, a)}" for a in CONFIGURED.get(v, {})))
    elif argv[:1] == ["arch"] and len(argv) == 3:
        print(CONFIGURED[argv[1]][argv[2]])
    else:
        print("usage: python3 -m ioctltools.kcontext targets BUILD | args VERSION BUILD | "
              "arch VERSION ABI", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
