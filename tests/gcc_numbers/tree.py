# SPDX-License-Identifier: GPL-2.0
"""What the kernel tree's headers say, against the model
(tests/gcc-numbers.py): every ioctl #define registered or left out, and
each layout's fields as its asm/ioctl.h defines them."""

import concurrent.futures
import os
import re

from ioctltools import Error
from ioctltools import probeengine
from ioctltools.cheader import HeaderText

from .probe import JOBS, TREE, applies, defined_macros, emit, source_path


IOC_ROOTS = {"_IO", "_IOR", "_IOW", "_IOWR", "_IOC", "_IOR_BAD", "_IOW_BAD", "_IOWR_BAD"}


def ioctl_macros(macros):
    """The macros whose expansion reaches an _IO*() call, with their body tokens."""
    bodies = {}
    for name, line in macros.items():
        m = re.match(r'#define [A-Za-z_]\w*(\([^)]*\))? ?(.*)$', line)
        bodies[name] = set(re.findall(r'[A-Za-z_]\w*', m.group(2) if m else ""))
    reach = set(IOC_ROOTS)
    changed = True
    while changed:
        changed = False
        for name, toks in bodies.items():
            if name not in reach and toks & reach:
                reach.add(name)
                changed = True
    return {n: bodies[n] for n in reach - IOC_ROOTS if n in bodies}


LEFT_OUT = ["left-out.txt"]	# the tree's version's list (main())
OLDER_TREES = []		# the trees of the versions before it: build/linux-source-<version>


def left_out(model):
    """{(header, arch): {name, ...}} from the importer's list of what it
    left out of the tree's version: SPEC/left-out.txt for the oldest,
    SPEC/left-out-<version>.txt for another."""
    out = {}
    spec = model.get("spec-dir")
    path = os.path.join(spec, LEFT_OUT[0]) if spec else None
    if not path or not os.path.exists(path):
        return out
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = re.match(r'([^\s#:]+):\d+ (?:\[(\w+)\] )?([A-Za-z_]\w*)', line)
            if m:
                out.setdefault((m.group(1), m.group(2)), set()).add(m.group(3))
    return out


def check_coverage(tap, model, build, label=""):
    """Every ioctl #define of each header is registered or left out by the
    importer, and reserved exactly when the preprocessor leaves it undefined
    (on the header's reference ABI: the first ABI it applies to).  An ioctl
    #define is one written with _IO*() (found by a regular expression, also
    under #if 0 or in comments), or a macro of the header whose expansion
    reaches _IO*() through other macros (DRM_IOWR) and that no other such
    macro of the header uses (those are helpers)."""
    registered = {}
    for h in model["headers"]:
        for c in h["commands"]:
            registered.setdefault(c["name"], []).append((h["path"], c["reserved"]))
    skipped = left_out(model)

    def one(h):
        abi = next((a for a in model["abis"] if applies(h, a)), None)
        if abi is None:
            raise RuntimeError(f"no ABI of the model has ARCH {h['arch']}")
        path = source_path(build, h)
        return path, HeaderText(path), defined_macros(abi, h, build)

    problems_all = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=JOBS) as ex:
        futs = [(h, ex.submit(one, h)) for h in model["headers"]]
        for h, fut in futs:
            try:
                path, text, macros = fut.result()
            except (OSError, RuntimeError, Error) as e:
                tap.check(False, f"{label}{h['path']}: coverage", [str(e)])
                problems_all.append(str(e))
                continue
            commented = [n for _, n in text.commented]
            enums = [d.name for d in text.enumerators]
            written = {d.name for d in text.defines} | set(commented) | set(enums)
            macros = dict(macros, **{n: f"enum {n}" for n in enums})	# defined, not by #define
            in_header = []
            for name in [d.name for d in text.defines if d.is_ioctl] + commented + enums:
                if name not in in_header:
                    in_header.append(name)
            reach = {n: t for n, t in ioctl_macros(macros).items()
                     if n in written and not n.startswith("_")}
            used = set().union(*reach.values()) if reach else set()
            for name in sorted(reach):
                if name not in in_header and name not in used:
                    in_header.append(name)
            gone = skipped.get((h["path"], h["arch"]), set())
            mine = {c["name"]: c for c in h["commands"]}
            problems = []
            for name in in_header:
                active = name in macros
                if name in mine:
                    if mine[name]["reserved"] == active:
                        problems.append(f"{name}: {'defined' if active else 'not defined'} by "
                                        f"{h['path']} but registered with reserved: "
                                        f"{str(mine[name]['reserved']).lower()}")
                elif name in gone:
                    continue
                elif active or not any(not r for _, r in registered.get(name, [])):
                    problems.append(f"{name}: defined in {path} but not in {h['spec']} "
                                    f"(nor in {LEFT_OUT[0]})")
            for name, c in mine.items():
                if name not in written:
                    problems.append(f"{name}: registered in {h['spec']} but {path} has no "
                                    f"#define of it")
                elif not c["reserved"] and name not in macros:
                    problems.append(f"{name}: registered in {h['spec']} but {h['path']} does "
                                    f"not define it")
            tap.check(not problems, f"{label}{h['path']}"
                      f"{' (' + h['arch'] + ')' if h['arch'] else ''}: its "
                      f"{len(in_header)} ioctl #defines are registered or left out, reserved "
                      f"exactly when not compiled", problems)
            problems_all += problems
    return problems_all


LAYOUT_MACROS = (("nr-bits", "_IOC_NRBITS"), ("type-bits", "_IOC_TYPEBITS"),
                 ("size-bits", "_IOC_SIZEBITS"), ("dir-bits", "_IOC_DIRBITS"),
                 ("none", "_IOC_NONE"), ("read", "_IOC_READ"), ("write", "_IOC_WRITE"))


def check_layouts(tap, model, build):
    """Each layout's numbers are what its header in the tree defines, and
    every kernel ARCH is in exactly the layout of the asm/ioctl.h it exports."""
    ksrc = TREE[0]
    owner = {}
    for lay in model["layouts"]:
        for a in lay["arches"]:
            owner.setdefault(a, []).append(lay["name"])
        path = os.path.join(ksrc, lay["headers"][0])
        lines = [f'#include "{os.path.abspath(path)}"', "void f(void);", "void f(void)", "{"]
        macros = LAYOUT_MACROS + (("xsize-mask", "_IOC_XSIZEMASK"),)
        for i, (_, mac) in enumerate(macros):
            lines += [f"#ifdef {mac}", emit("L", i, mac), "#endif"]
        lines.append("}")
        r = probeengine.text(["gcc", "-I", os.path.join(ksrc, "include", "uapi"), "-S"],
                             "\n".join(lines) + "\n")
        if r.asm is None:
            tap.check(False, f"layout {lay['name']}: compile {path}", r.stderr.splitlines()[:10])
            continue
        got = probeengine.values(r.asm, "L")
        with open(path, encoding="utf-8") as f:
            includes_generic = "#include <asm-generic/ioctl.h>" in f.read() or \
                lay["headers"][0] == "include/uapi/asm-generic/ioctl.h"
        bad = [f"{key}: model {lay[key]}, {mac} is {got.get(i)}"
               for i, (key, mac) in enumerate(LAYOUT_MACROS) if lay[key] != got.get(i)]
        xs = got.get(len(LAYOUT_MACROS))
        want_xs = (1 << lay["xsize-bits"]) - 1 if lay.get("xsize-bits") else None
        if xs != want_xs:
            bad.append(f"xsize-bits: model {lay.get('xsize-bits')}, _IOC_XSIZEMASK is {xs}")
        if lay["self-contained"] == includes_generic:
            bad.append(f"self-contained: model {lay['self-contained']}, but the header "
                       f"{'includes' if includes_generic else 'does not include'} "
                       f"asm-generic/ioctl.h")
        tap.check(not bad, f"layout {lay['name']} matches {lay['headers'][0]}", bad)
    arches = sorted(d for d in os.listdir(os.path.join(ksrc, "arch"))
                    if os.path.isdir(os.path.join(ksrc, "arch", d, "include")))
    bad = []
    for a in arches:
        exported = os.path.join("arch", a, "include", "uapi", "asm", "ioctl.h")
        if not os.path.exists(os.path.join(ksrc, exported)):
            exported = "include/uapi/asm-generic/ioctl.h"	# Kbuild mandatory-y
        want = [l["name"] for l in model["layouts"] if l["headers"][0] == exported]
        if len(want) != 1 or owner.get(a, []) != want:
            bad.append(f"arch {a}: exports {exported}, the first header of layouts {want}, "
                       f"but the model lists it in {owner.get(a, [])}")
    gone = []
    for a in sorted(set(owner) - set(arches)):
        # ia64 left in 6.7: an older tree the registry knows still has it
        if any(os.path.isdir(os.path.join(t, "arch", a, "include")) for t in OLDER_TREES):
            gone.append(a)
        else:
            bad.append(f"arch {a}: listed in {owner[a]} but not a kernel ARCH")
    tap.check(not bad, f"each of the {len(arches)} kernel ARCHes is in the layout of its asm/ioctl.h"
              + (f" ({', '.join(gone)}: listed, in an older tree only)" if gone else ""), bad)
