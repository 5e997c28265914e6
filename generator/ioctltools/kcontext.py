# SPDX-License-Identifier: GPL-2.0
"""Kernel-internal headers (`kernel-internal: true`) measured in kernel
context, the way the kernel compiles them: on a kernel tree configured for
the ABI's kernel (kconf.py: tinyconfig, the ABI's options, prepare0, in an
object directory), with the compiler command Kbuild itself gives a
module's C file there (kbuild_flags: the include paths, -D__KERNEL__, the
forced includes and the arch's own flags).  The probes are measure-sizes'
own (sizeprobe.Probe): sizes, defined commands, _IOC or plain number.

A time64 variant runs on its base's kernel: it is measured on the base's
tree with Kbuild's flags (no _TIME_BITS, which the kernel does not know).
An ABI without a configured tree (kconf.NOT_MEASURED: x32) does not
measure these headers at all: its sizes file does not list them in
`kernel-context:`, and ioctlgen says "not measured" there instead of
numbering them."""

import os
import shlex
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

from . import Error, kconf, probecache, probeengine, registry, results_of, run_main
from .kconf import objdir
from .sizeprobe import keep, look_up, run_chunk


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


# Kbuild's options that name the one file it compiles, or its output
DROP = ("-Wp,-MMD,", "-DMODULE", "-DKBUILD_BASENAME=", "-DKBUILD_MODNAME=",
        "-D__KBUILD_MODNAME=", "-fverbose-asm", "-S")


def kbuild_flags(abi, src, obj):
    """The compiler command Kbuild uses for a C file of an external module
    on the tree in obj (`make M=DIR V=1 flags.s`), without what names that
    file: the kernel's own flags for this ABI (sh's -m4 -ml and cpu-sh4
    include directory, mips's mach-generic, -m32 on i386), its paths
    absolute.  Asked each run: a cached tree's own paths may be another
    clone's."""
    base = kconf.KERNELS[kconf.base_of(abi)][0]
    with tempfile.TemporaryDirectory(prefix="kcontext-flags-") as tmp:
        for name, text in (("flags.c", "int kcontext_flags;\n"), ("Kbuild", "obj-m += flags.o\n")):
            with open(os.path.join(tmp, name), "w", encoding="utf-8") as f:
                f.write(text)
        cmd = ["make", "-C", src, f"O={obj}", f"ARCH={base}", f"M={tmp}", "V=1",
               f"CROSS_COMPILE={kconf.cross_compile(abi.cc)}", "flags.s"]
        r = subprocess.run(cmd, capture_output=True, text=True,
                           env=dict(os.environ, MAKEFLAGS=""))
        line = next((l for l in r.stdout.splitlines()
                     if l.strip().endswith(os.path.join(tmp, "flags.c"))), None)
        if r.returncode != 0 or line is None:
            raise Error(f"{obj}: error: Kbuild does not compile a module file for "
                        f"{abi.name}: {shlex.join(cmd)}\n{r.stderr[-2000:]}")
    argv, out = shlex.split(line)[:-1], []
    while argv:
        a = argv.pop(0)
        if a == "-o":
            argv.pop(0)
        elif not a.startswith(DROP):
            out.append(obj + a[1:] if a.startswith("./") else
                       a[:2] + obj + a[3:] if a.startswith("-I./") else a)
    return out


class KernelToolchain:
    """What sizeprobe asks of a toolchain, for kernel context: Kbuild's
    compiler command on the tree (kbuild_flags)."""

    def __init__(self, abi, src, obj):
        self.abi, self.name = abi, abi.name
        self.inc = os.path.join(src, "include")
        self.cc = kbuild_flags(abi, src, obj)
        # the probe's own <stddef.h> (Kbuild has -nostdinc); no kernel header includes it
        gcc_inc = probeengine.run(self.cc[:1] + ["-print-file-name=include"]).stdout.strip()
        self.cc += ["-isystem", gcc_inc]
        self.kernel_names = frozenset()
        self.search = []

    def foreign_kernel_header(self, dep):
        return None		# no C library: every header is the tree's

    def is_error_directive(self, path, line):
        return False


def measure(reg, probes, trees, probe_dir, jobs=1, cache_dir=None, partial=False):
    """({abi: [(probe, Result)]} of the kernel-internal probes on each ABI
    with a configured tree (the other ABIs have none: not measured), the
    probe cache's (hits, misses)).  The ABIs jobs at a time: each is a
    Kbuild make and compiles in its own directory.  A probe whose result
    the cache (probecache, "kernel-<ABI>" beside the ABIs' own stores)
    holds for Kbuild's command, the trees and its dependencies' content is
    not compiled again: 23 ABIs took 90 s a version."""
    kprobes = [p for p in probes if p.header.kernel_internal]
    abis = [a for a in reg.abis if a.name in trees and kprobes]
    code = probecache.code_hash()

    def one(abi):
        src, obj = trees[abi.name]
        tc = KernelToolchain(abi, src, obj)
        files = probecache.Files({})
        store = probecache.Store(cache_dir, "kernel-" + abi.name, files, partial)
        base = probecache.key(probecache.VERSION, code, "kernel", tc.cc,
                              probecache.compiler_identity(tc.cc, files),
                              os.path.realpath(src), os.path.realpath(obj))
        mine = [p.on(p.name, None) for p in kprobes if p.header.applies_to(abi)]
        done, todo = look_up(store, base, mine, tc.search)
        if todo:
            done += keep(store, [k for _, k in todo], run_chunk(
                tc, [p for p, _ in todo], os.path.join(probe_dir, "kernel-" + abi.name)))
        store.save()
        for p, res in done:
            if res.unusable:	# the tree has the header: that is an error here
                res.errors.append(f"{p.header.source}: error: {p.name} in kernel context on "
                                  f"{abi.name}: {res.unusable}")
        return done, store.hits, store.misses

    with ThreadPoolExecutor(max_workers=max(1, jobs)) as ex:
        futures = [ex.submit(one, abi) for abi in abis]
    out = results_of(futures)
    return ({a.name: done for a, (done, _, _) in zip(abis, out)},
            (sum(h for _, h, _ in out), sum(m for _, _, m in out)))


def targets(reg, build, only=()):
    """The make targets (BUILD/kconf-<version>-<ABI>/.done) of the
    configured trees, none when only (header spec files, the ones to be
    measured) holds no kernel-internal header: a UAPI edit never waits for
    30 trees."""
    want = {os.path.realpath(f) for f in only}
    if want and not any(h.kernel_internal and os.path.realpath(h.spec) in want
                        for h in reg.headers):
        return []
    return [os.path.join(objdir(build, v, t), ".done")
            for v in reg.versions() for t in kconf.tree_abis(reg)]


def args(reg, version, build, abi=None):
    """measure-sizes' --kernel-context options of version (of one ABI)."""
    return [o for t, abis in kconf.tree_abis(reg).items() for a in abis if abi in (None, a)
            for o in ("--kernel-context", f"{a}={os.path.join(build, 'linux-source-' + version)}:"
                      f"{objdir(build, version, t)}")]


def main(argv):
    """`targets SPEC BUILD [SPECFILE...]`: targets(); `args SPEC VERSION
    BUILD [ABI]`: args(); `configure SPEC VERSION-ABI BUILD`: make one tree
    (kconf)."""
    if argv[:1] == ["targets"] and len(argv) >= 3:
        out = targets(registry.load(argv[1], "dump"), argv[2], argv[3:])
        if out:
            print(" ".join(out))
    elif argv[:1] == ["args"] and len(argv) in (4, 5):
        print(" ".join(args(registry.load(argv[1], "dump"), argv[2], argv[3], *argv[4:])))
    elif argv[:1] == ["configure"] and len(argv) == 4:
        version, _, abi = argv[2].partition("-")
        kconf.configure(registry.load(argv[1], "dump"), version, abi, argv[3])
    else:
        print("usage: python3 -m ioctltools.kcontext targets SPEC BUILD [SPECFILE...] | "
              "args SPEC VERSION BUILD [ABI] | configure SPEC VERSION-ABI BUILD", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    run_main(main)
