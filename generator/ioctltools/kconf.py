# SPDX-License-Identifier: GPL-2.0
"""The configured kernel trees of kernel context (kcontext.py): which kernel
each ABI runs on, and the object directory Kbuild prepares for it.

An ABI's kernel-internal sizes are the sizes its kernel compiles, so each
base ABI has a tree of its own configuration: `make ARCH=.. CROSS_COMPILE=..
tinyconfig`, the few options that make tinyconfig that ABI's kernel (a
64-bit little-endian powerpc, an MMU ARMv7, an SH-4), `olddefconfig`, and
`prepare0`: autoconf.h, the asm-generic wrappers, the generated asm headers,
bounds.h, timeconst.h and asm-offsets.h, without objtool or any kernel
object.  A time64 variant runs on its base's kernel (the kernel has no
_TIME_BITS) and shares its tree.  x32 has no kernel of its own (NOT_MEASURED).

A tree is kept outside the clone, in the result cache's directory
(tests/lib/rcache.sh: $IOCTLREG_CACHE, else $XDG_CACHE_HOME/ioctl-registry,
else ~/.cache/ioctl-registry) under kconf/<version>-<abi>-<key>, the key
the hash of the recipe, this file, the tree's Makefiles and the compiler;
BUILD/kconf-<version>-<abi> is a symbolic link to it.  With CACHE=0 the
tree is made in BUILD/kconf-<version>-<abi> itself."""

import hashlib
import inspect
import os
import shutil
import subprocess
import sys
import time

from . import Error, probecache

# The kernel of each base ABI: {ABI: (ARCH for make, options set after
# tinyconfig)}.  The cross compiler is the ABI's own (abis.yaml `cc`).
KERNELS = {
    "x86_64": ("x86_64", ()),
    "i386": ("i386", ()),
    "arm64": ("arm64", ()),
    "powerpc64le": ("powerpc", ("PPC64", "CPU_LITTLE_ENDIAN")),
    "mips": ("mips", ()),		# tinyconfig: MIPS_GENERIC, 32-bit big-endian
    "sparc64": ("sparc64", ()),
    "alpha": ("alpha", ()),
    "parisc": ("parisc", ()),		# tinyconfig: 32-bit PA1.1
    "armhf": ("arm", ("MMU", "ARCH_MULTIPLATFORM", "ARCH_MULTI_V7")),	# not V7-M nommu
    "powerpc": ("powerpc", ()),		# tinyconfig: 32-bit big-endian
    "mips64el": ("mips", ("64BIT", "CPU_MIPS64_R2", "CPU_LITTLE_ENDIAN")),
    "riscv64": ("riscv", ()),
    "s390x": ("s390", ()),
    "m68k": ("m68k", ("MMU", "M68KCLASSIC", "M68040", "VIRT")),	# not ColdFire nommu
    "sh4": ("sh", ("CPU_SUBTYPE_SH7751R", "MMU")),	# not SH-2 nommu
}

# ABIs whose kernel-internal headers stay "not measured", and why.
NOT_MEASURED = {
    "x32": "no kernel is built for x32: an x86_64 kernel serves it through its compat "
           "ioctl layer, so the kernel compiles no x32 layout of these headers",
}

TARGETS = ("prepare0",)


def base_of(abi):
    """The ABI whose kernel runs abi: a time64 variant's base."""
    return abi.variant_of or abi.name


def tree_abis(reg):
    """{tree ABI: [the ABIs measured on its tree]} of the registry."""
    out = {}
    for a in reg.abis:
        if base_of(a) in KERNELS:
            out.setdefault(base_of(a), []).append(a.name)
    return out


def unmeasured(reg):
    """{ABI: why it has no tree}: every ABI neither KERNELS nor a variant of one."""
    return {a.name: NOT_MEASURED.get(base_of(a), f"kconf.py names no kernel for {base_of(a)}")
            for a in reg.abis if base_of(a) not in KERNELS}


def cross_compile(cc):
    """CROSS_COMPILE of an ABI's compiler (abis.yaml `cc`): aarch64-linux-gnu-gcc ->
    aarch64-linux-gnu-, gcc -> nothing."""
    return cc[:-len("gcc")] if cc.endswith("gcc") else ""


def objdir(build, version, abi):
    return os.path.join(build, f"kconf-{version}-{abi}")


def cache_root():
    return os.environ.get("IOCTLREG_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "ioctl-registry")


def key(abi, src):
    """What the tree depends on: the recipe (the ABI's entry, the code that
    makes a tree; not the rest of this file), the tree, the compiler."""
    h = hashlib.sha256()
    arch, opts = KERNELS[abi.name]
    files = probecache.Files({})
    parts = [arch, cross_compile(abi.cc), " ".join(opts), " ".join(TARGETS),
             inspect.getsource(make), inspect.getsource(build_tree),
             probecache.compiler_identity([abi.cc], files),
             files.content(os.path.realpath(os.path.join(src, "Makefile"))) or "-"]
    h.update("\0".join(parts).encode())
    return h.hexdigest()[:16]


def make(src, obj, abi, *targets):
    arch = KERNELS[abi.name][0]
    cmd = ["nice", "-n", "10", "make", "-s", "-C", src, f"O={obj}", f"ARCH={arch}",
           f"CROSS_COMPILE={cross_compile(abi.cc)}", *targets]
    env = dict(os.environ, MAKEFLAGS="")
    r = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if r.returncode != 0:
        raise Error(f"{abi.source}: error: kernel tree for {abi.name}: {' '.join(cmd)}:\n"
                    + r.stderr[-3000:])


def build_tree(src, obj, abi):
    """Configure and prepare obj for abi; check every option took."""
    make(src, obj, abi, "tinyconfig")
    opts = KERNELS[abi.name][1]
    if opts:
        with open(os.path.join(obj, ".config"), "a", encoding="utf-8") as f:
            f.write("".join(f"CONFIG_{o}=y\n" for o in opts))
        make(src, obj, abi, "olddefconfig")
        with open(os.path.join(obj, ".config"), encoding="utf-8") as f:
            have = set(f.read().splitlines())
        lost = [o for o in opts if f"CONFIG_{o}=y" not in have]
        if lost:
            raise Error(f"{abi.source}: error: kernel tree for {abi.name}: olddefconfig "
                        f"dropped CONFIG_{lost[0]}")
    make(src, obj, abi, "-j2", *TARGETS)


def configure(reg, version, name, build):
    """Make BUILD/kconf-VERSION-NAME, from the cache when it holds the tree;
    prints the CPU seconds a new tree cost."""
    abi = next((a for a in reg.abis if a.name == name), None)
    if abi is None or name not in KERNELS:
        raise Error(f"error: no kernel tree for ABI {name!r} (generator/ioctltools/kconf.py)")
    src = os.path.abspath(os.path.join(build, f"linux-source-{version}"))
    link = objdir(build, version, name)
    if os.environ.get("CACHE") == "0":
        final, tmp = os.path.abspath(link), os.path.abspath(link) + ".tmp"
        if os.path.islink(link):		# the cache's tree: not this time
            os.remove(link)
    else:
        top = os.path.join(cache_root(), "kconf")
        final = os.path.join(top, f"{version}-{name}-{key(abi, src)}")
        tmp = f"{final}.tmp{os.getpid()}"
    if not os.path.exists(os.path.join(final, ".done")):
        shutil.rmtree(tmp, ignore_errors=True)
        os.makedirs(tmp)
        t0, c0 = time.monotonic(), os.times()
        try:
            build_tree(src, tmp, abi)
        except Error:
            shutil.rmtree(tmp, ignore_errors=True)
            raise
        c1 = os.times()
        cpu = c1.children_user - c0.children_user + c1.children_system - c0.children_system
        with open(os.path.join(tmp, ".done"), "w", encoding="utf-8") as f:
            f.write(f"{cpu:.1f} CPU-s\n")
        print(f"  KCONFIG {version} {name}: {cpu:.1f} CPU-s, "
              f"{time.monotonic() - t0:.1f} s", file=sys.stderr)
        if os.path.exists(os.path.join(final, ".done")):	# made meanwhile by another run
            shutil.rmtree(tmp)
        else:
            shutil.rmtree(final, ignore_errors=True)	# an unfinished one
            os.rename(tmp, final)
    os.utime(os.path.join(final, ".done"))	# newer than kconf.py: make is done with it
    if os.path.abspath(final) != os.path.abspath(link):
        if os.path.islink(link) or os.path.exists(link):
            if os.path.isdir(link) and not os.path.islink(link):
                shutil.rmtree(link)
            else:
                os.remove(link)
        os.symlink(final, link)
