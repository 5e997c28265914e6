#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Generate the verification sources from the JSON model.

Usage: gen.py MODEL KCONFIG_FRAGMENT OUTDIR [TREE]

TREE, the kernel source tree the run tests, says which commands its
headers declare as enumerators instead of #defines (6.12's
linux/android/binder.h): no #ifdef sees those, so their checks have none.

Writes into OUTDIR:
  probe/index          "<n> <header> 1" per header the guest tests, or
                       "<n> <header> 0 NAME..." for a header that does not
                       compile on its own in userspace (header-test: false):
                       run then copies the NAMEs' #define lines from the
                       header for the user tests instead
  units                "<n> <header>" per header the guest tests
  kmod/main.c, kmod/h<n>.c
                       kernel module: every number with the kernel's macros,
                       one unit per header (run writes kmod/Kbuild)
  utest/main.c, utest/u<n>.c
                       user program (built -m64 and -m32, static), the same
  init                 the initramfs /init script
  abis                 "<abi> <gcc flag>" per ABI the guest runs
  expected             the id of every result line the guest must print
Files are written only when their content changes, so make-style
timestamps stay meaningful.
"""
import os
import re
import sys

import jinja2

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from ioctltools import model_reader  # noqa: E402
from ioctltools.cc import Prelude, define_line, stub_dir, typedef_line  # noqa: E402
from ioctltools.cheader import HeaderText  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
# The ABIs the guest (an x86_64 kernel with IA32 emulation) can run.
# name: (the C condition that selects it, gcc flag); x32 only when the
# model has it.
GUEST_ABIS = {"x86_64": ("defined(__x86_64__) && !defined(__ILP32__)", "-m64"),
              "i386": ("defined(__i386__)", "-m32"),
              "x32": ("defined(__x86_64__) && defined(__ILP32__)", "-mx32")}
KERNEL_ABI = "x86_64"
# Headers of another kernel ARCH are left out: no x86 compiler sees them.
GUEST_ARCH = "x86"


def die(msg):
    sys.stderr.write("gen.py: error: %s\n" % msg)
    sys.exit(1)


WRITTEN = set()


def write_if_changed(path, text):
    WRITTEN.add(os.path.abspath(path))
    try:
        with open(path) as f:
            if f.read() == text:
                return
    except FileNotFoundError:
        pass
    os.makedirs(os.path.dirname(path), exist_ok=True)
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, path)


def ramdisk_bytes(fragment):
    """The RAM disk size the guest must see, from the kernel config fragment."""
    with open(fragment) as f:
        for line in f:
            m = re.match(r"CONFIG_BLK_DEV_RAM_SIZE=(\d+)\s*$", line)
            if m:
                return int(m.group(1)) * 1024
    die("%s: no CONFIG_BLK_DEV_RAM_SIZE" % fragment)


def compat_bszget_logical(tree):
    """Whether the tree's 32-bit compat BLKBSZGET returns the logical block
    size (6.1: compat_blkdev_ioctl, "case BLKBSZGET_32: ... return
    put_int(argp, bdev_logical_block_size(bdev))") rather than the soft
    block size BLKBSZSET set, as the native one does (6.12).  Without a
    tree, 6.1's."""
    if not tree:
        return True
    path = os.path.join(tree, "block", "ioctl.c")
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
    except OSError as e:
        die("%s: %s" % (path, e.strerror))
    m = re.search(r"case BLKBSZGET_32:[^\n]*\n\s*return put_int\(argp, (\w+)\(", text)
    if not m:
        die("%s: no 'case BLKBSZGET_32: ... return put_int(argp, ...)' to tell what the "
            "compat BLKBSZGET returns" % path)
    return m.group(1) == "bdev_logical_block_size"


def header_arch(h):
    """The kernel ARCH of a header exported from arch/<arch>/include/uapi
    (`arch:` in its spec, spec/headers/arch/<arch>/...), else None."""
    if h.get("arch"):
        return h["arch"]
    m = re.search(r"(?:^|/)headers/arch/([^/]+)/", h.get("spec", ""))
    return m.group(1) if m else None


def enumerators(tree, hdr):
    """The names the header declares as enumerators in the tree (none when
    no tree is given or the tree lacks the header: a new one the series
    adds is written with #defines)."""
    if not tree:
        return set()
    arch = header_arch(hdr)
    path = os.path.join(tree, "arch", arch, "include", "uapi", hdr["path"]) if arch else \
        os.path.join(tree, "include", "uapi", hdr["path"])
    if not os.path.exists(path):
        return set()
    return {d.name for d in HeaderText(path).enumerators}


def commands(model, tree=None):
    """Every non-reserved command, with the C expression that yields its
    number (families with every parameter 0), and whether the tree's
    header declares it as an enumerator (enumerators())."""
    out = []
    # the kernel's own compat structs (kernel-internal types: struct
    # usbdevfs_ctrltransfer32) are defined by the userspace probes only
    kernel_types = {t["c-name"] for h in model["headers"] for t in h.get("types") or []
                    if t["kernel-internal"]}
    for hi, hdr in enumerate(model["headers"]):
        enums = enumerators(tree, hdr) if hdr["commands"] else set()
        for c in hdr["commands"]:
            if c.get("reserved"):
                continue
            params = c.get("params") or []
            expr = c["name"]
            if params:
                expr += "(" + ", ".join("0" for _ in params) + ")"
            numbers = {}
            for abi, n in c["numbers"].items():
                if n is not None and n.get("number") is not None:
                    numbers[abi] = n["number"] & 0xffffffff
            out.append({"name": c["name"], "expr": expr, "header": hdr["path"],
                        "hidx": hi, "numbers": numbers, "enum": c["name"] in enums,
                        "libc_named": any(v.get("alias-of") for v in c.get("variants") or []),
                        "kernel_typed": bool(kernel_types & set(c.get("measure") or [])),
                        "source": c.get("source", hdr.get("spec", ""))})
    return out


def environment():
    """The Jinja2 environment of templates/."""
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(os.path.join(HERE, "templates")),
                             undefined=jinja2.StrictUndefined, keep_trailing_newline=True,
                             trim_blocks=True, lstrip_blocks=True)
    env.filters["hex"] = lambda n: "0x%08x" % n
    # A header that exists under include/uapi (not a libc one like sys/time.h).
    env.tests["uapi"] = lambda inc: "/" in inc and not inc.startswith(("sys/", "bits/", "netinet/", "arpa/", "net/"))
    env.filters["cstr"] = lambda s: '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return env


def load_model(model_path):
    try:
        return model_reader.load(model_path)
    except model_reader.ModelError as e:
        die(str(e))


def typedef_lines(h):
    """The `typedef TYPE NAME;` lines a header needs before it (checked again
    by generator/ioctltools/cc.py, as every probe's are)."""
    return [typedef_line(t["name"], t["type"]) for t in h.get("typedefs") or []]


# Units per group object (the module's here, each layout's KUnit suite in
# gen_kunit.py): about 20 objects for 240 headers, where a compiler run
# per header cost most of their build.
GROUP = 12


def groups_of(units):
    """Consecutive units, at most GROUP each, whose command names are
    disjoint: a name defined by one header must not stand in for the same
    name in another header's #ifdef."""
    groups, names = [], set()
    for u in units:
        mine = {c["name"] for c in u["commands"]}
        if not groups or len(groups[-1]) == GROUP or mine & names:
            groups.append([])
            names = set()
        groups[-1].append(u)
        names |= mine
    return groups


def shown_path(path):
    """PATH as the banners name it: relative to the project root (the
    working directory) when under it, so that two clones generate the same
    sources and hit the same caches (tests/verify/keys.sh, ccache)."""
    rel = os.path.relpath(os.path.abspath(path))
    return path if rel.startswith("..") else rel


def main():
    if len(sys.argv) not in (4, 5):
        die("usage: gen.py MODEL KCONFIG_FRAGMENT OUTDIR [TREE]")
    model_path, fragment, outdir = sys.argv[1:4]
    tree = sys.argv[4] if len(sys.argv) == 5 else None
    model = load_model(model_path)

    env = environment()
    cmds = commands(model, tree)
    abis = [a["name"] for a in model["abis"] if a["name"] in GUEST_ABIS]
    for a in ("x86_64", "i386"):
        if a not in abis:
            die("%s: the model has no ABI %s" % (model_path, a))
    headers = [{"path": h["path"], "includes": h.get("includes") or [],
                "defines": [define_line(d) for d in h.get("defines") or []],
                "typedefs": typedef_lines(h),
                # the kernel-internal types, after the header (userspace only)
                "internal": Prelude.of(h).internal_lines(),
                "header_test": h.get("header-test", True) is not False,
                "arch": header_arch(h),
                "kernel_internal": bool(h.get("kernel-internal")),
                "commands": [c for c in cmds if c["hidx"] == i]}
               for i, h in enumerate(model["headers"])]
    ram = ramdisk_bytes(fragment)
    ctx = {"model": shown_path(model_path), "headers": headers, "commands": cmds,
           "abis": {a: GUEST_ABIS[a] for a in abis}, "kernel_abi": KERNEL_ABI, "ram_bytes": ram,
           "compat_bszget_logical": compat_bszget_logical(tree)}

    # Empty stand-ins for the unexported headers a header includes; run
    # searches OUTDIR/stub-include last (-idirafter) in user space.
    stub_dir(outdir, [p for h in model["headers"] for p in h.get("stub-includes") or []])
    index = []
    units = []
    for i, h in enumerate(headers):
        if not h["commands"]:
            continue
        if h["arch"] not in (None, GUEST_ARCH) or h["kernel_internal"]:
            continue    # another ARCH's header: x86 compilers cannot check it; a
                        # kernel-internal one is not exported (suite kernel-internal)
        index.append("%d %s %s\n" % (i, h["path"], "1" if h["header_test"] else
                                        "0 " + " ".join(c["name"] for c in h["commands"])))
        # One compilation unit per header, in the module and in the user
        # test: run leaves out a unit that does not compile and says so.
        units.append("%d %s\n" % (i, h["path"]))
        write_if_changed(os.path.join(outdir, "kmod", "h%d.c" % i),
                         env.get_template("kmod_unit.c.j2").render(ctx, header=h, unit=i))
        write_if_changed(os.path.join(outdir, "utest", "u%d.c" % i),
                         env.get_template("utest_unit.c.j2").render(ctx, header=h, unit=i))
    write_if_changed(os.path.join(outdir, "probe", "index"), "".join(index))
    write_if_changed(os.path.join(outdir, "units"), "".join(units))
    unit_ids = [int(u.split()[0]) for u in units]
    # The module's units in groups (run builds a group that fails as its units).
    groups = groups_of([dict(headers[i], index=i) for i in unit_ids])
    for k, members in enumerate(groups):
        write_if_changed(os.path.join(outdir, "kmod", "g%d.c" % k),
                         env.get_template("kmod_group.c.j2").render(ctx, members=members))
    write_if_changed(os.path.join(outdir, "kmod", "groups"),
                     "".join("g%d %s\n" % (k, " ".join(str(u["index"]) for u in members))
                             for k, members in enumerate(groups)))
    uctx = dict(ctx, units=[(i, headers[i]["path"]) for i in unit_ids])
    write_if_changed(os.path.join(outdir, "kmod", "ioctl_verify.h"),
                     env.get_template("kmod.h.j2").render(uctx))
    write_if_changed(os.path.join(outdir, "kmod", "main.c"),
                     env.get_template("kmod_main.c.j2").render(uctx))
    write_if_changed(os.path.join(outdir, "kmod", "typecheck_bad_spelling.c"),
                     env.get_template("typecheck.c.j2").render(ctx, variant="bad-spelling"))
    for v in ("sizeof", "oversize"):
        write_if_changed(os.path.join(outdir, "typecheck-" + v, "typecheck_%s.c" % v),
                         env.get_template("typecheck.c.j2").render(ctx, variant=v))
        write_if_changed(os.path.join(outdir, "typecheck-" + v, "Kbuild"),
                         "obj-m += typecheck_%s.o\n" % v)
    write_if_changed(os.path.join(outdir, "utest", "utest.h"),
                     env.get_template("utest.h.j2").render(uctx))
    write_if_changed(os.path.join(outdir, "utest", "main.c"),
                     env.get_template("utest_main.c.j2").render(uctx))
    write_if_changed(os.path.join(outdir, "init"), env.get_template("init.j2").render(ctx))

    guest = [c for c in cmds if headers[c["hidx"]]["arch"] in (None, GUEST_ARCH) and
             not headers[c["hidx"]]["kernel_internal"]]
    expected = ["boot", "kernel module loaded"]
    expected += ["kernel <%s> %s" % (c["header"], c["name"]) for c in guest]
    for abi in abis:
        expected += ["%s <%s> %s" % (abi, c["header"], c["name"]) for c in guest]
        expected += ["%s ioctl %s" % (abi, t) for t in
                     ("BLKGETSIZE64", "BLKBSZSET", "BLKBSZGET", "FIONREAD", "TCGETS")]
    write_if_changed(os.path.join(outdir, "abis"),
                     "".join("%s %s\n" % (a, GUEST_ABIS[a][1]) for a in abis))
    write_if_changed(os.path.join(outdir, "expected"), "".join(e + "\n" for e in expected))

    # Sources of an earlier model (a header gone, a unit renumbered) go, and
    # the probes of an older run (it compiled them with -S: step 3).
    for sub in ("kmod", "utest", "probe", os.path.join("probe", "shared")):
        d = os.path.join(outdir, sub)
        if not os.path.isdir(d):
            continue
        for name in os.listdir(d):
            path = os.path.abspath(os.path.join(d, name))
            if name.endswith((".c", ".h")) and path not in WRITTEN:
                os.remove(path)

if __name__ == "__main__":
    main()
