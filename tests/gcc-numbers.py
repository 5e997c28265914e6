#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Cross-check the model's numbers against gcc on the real kernel headers.

For every ABI of the model and every header, a probe includes the header as
`make ARCH=<arch> headers_install` exported it (build/uapi/<arch>/include)
and emits the value of each non-reserved command macro (families called with
0 for every parameter, e.g. EVIOCGBIT(0,0)) with the asm-offsets trick; gcc
compiles it to assembly with the ABI's flags.  Each value must equal the
model's numbers[abi].number; a mismatch names the command, the ABI, both
numbers and the fields that differ, decoded by the kernel's own _IOC_DIR,
_IOC_TYPE, _IOC_NR and _IOC_SIZE in the same probe.

The layouts are checked the same way: each layout's field widths and
direction values must be the _IOC_* constants of its 6.1 header as gcc
evaluates them, and every kernel ARCH must sit in the layout of the
asm/ioctl.h it exports.

It also checks that the registry covers the headers: every #define in the
kernel source of a header whose value is an _IO*() call (found by a regular
expression, including ones under #if 0 or in comments) must be registered,
and a command is reserved exactly when the preprocessor leaves it undefined.

Finally the same checks run on a hand-made model (tests/fixtures/gcc-numbers)
with known mistakes, which must be reported: so this suite can fail.

usage: tests/gcc-numbers.py [MODEL [BUILD_DIR]]  (default build/model.json build)
"""

import contextlib
import io
import json
import os
import re
import subprocess
import sys
import tempfile

KSRC_UAPI = "linux-source-6.1/include/uapi"
FIXTURE = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                       "fixtures", "gcc-numbers", "model.json")
MARK = re.compile(r'->(\w+) (\d+) [$#]?(-?\d+)')
IO_DEFINE = re.compile(r'#\s*define\s+([A-Za-z_]\w*)(\([^)]*\))?\s+'
                       r'(_IOC|_IO|_IOR|_IOW|_IOWR|_IOR_BAD|_IOW_BAD|_IOWR_BAD)\s*\(')
FIELDS = ("dir", "type", "nr", "size")


class Tap:
    def __init__(self):
        self.n = self.failed = 0

    def check(self, ok, text, details=()):
        self.n += 1
        print(f"{'ok' if ok else 'not ok'} {self.n} - {text}")
        for d in details:
            print(f"# {d}")
        if not ok:
            self.failed += 1
        return ok


def prelude(header):
    """The #include lines every probe of this header starts with."""
    lines = ["#include <linux/ioctl.h>", "#include <stddef.h>"]
    lines += [f"#include <{inc}>" for inc in header.get("includes") or []]
    if header.get("header-test", True):
        lines.append(f"#include <{header['path']}>")
    return lines


def run(cmd, stdin=None):
    r = subprocess.run(cmd, input=stdin, capture_output=True, text=True)
    return r.returncode, r.stdout, r.stderr


def defined_macros(abi, header, build):
    """The macros the real header defines, as the preprocessor sees them."""
    inc = os.path.join(build, "uapi", abi["arch"], "include")
    text = "\n".join(prelude({**header, "header-test": True})) + "\n"
    cmd = [abi["cc"], *abi["cflags"], "-I", inc, "-E", "-dM", "-x", "c", "-"]
    rc, out, err = run(cmd, text)
    if rc != 0:
        raise RuntimeError(f"{' '.join(cmd)}: {err.strip()}")
    macros = {}
    for line in out.splitlines():
        m = re.match(r'#define ([A-Za-z_]\w*)(\([^)]*\))? ?(.*)$', line)
        if m:
            macros[m.group(1)] = line
    return macros


def probe_numbers(abi, header, commands, build, macros):
    """Compile one probe; return {name: (number, fields, model_fields)} or raise."""
    lines = prelude(header)
    if not header.get("header-test", True):
        # The header does not compile on its own: take its definitions as
        # the preprocessor read them from the real file.
        lines += [macros[c["name"]] for c in commands if c["name"] in macros]
    lines += ["void gcc_numbers_probe(void);", "void gcc_numbers_probe(void)", "{"]
    for i, c in enumerate(commands):
        expr = c["name"]
        if c["params"]:
            expr += "(" + ", ".join("0" for _ in c["params"]) + ")"
        want = c["numbers"][abi["name"]]["number"]
        emit = [("N", f"(unsigned int)({expr})")]
        emit += [(f"F{f}", f"_IOC_{f.upper()}({expr})") for f in FIELDS]
        emit += [(f"M{f}", f"_IOC_{f.upper()}({want}U)") for f in FIELDS]
        if c.get("nr-param"):
            # The last member of the family must still fit the nr field.
            last = ", ".join(str(c["nr-count"] - 1) if p == c["nr-param"] else "0"
                             for p in c["params"])
            emit += [("Lnr", f"_IOC_NR({c['name']}({last}))"),
                     ("Ltype", f"_IOC_TYPE({c['name']}({last}))")]
        for tag, e in emit:
            lines.append(f'\tasm volatile(".ascii \\"->{tag} {i} %0\\"" :: "i"({e}));')
    lines.append("}")
    inc = os.path.join(build, "uapi", abi["arch"], "include")
    with tempfile.TemporaryDirectory() as tmp:
        src, asm = os.path.join(tmp, "probe.c"), os.path.join(tmp, "probe.s")
        with open(src, "w", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")
        cmd = [abi["cc"], *abi["cflags"], "-I", inc, "-S", "-o", asm, src]
        rc, _, err = run(cmd)
        if rc != 0:
            raise RuntimeError(f"{' '.join(cmd)} failed:\n" + "\n".join(err.splitlines()[:15]))
        with open(asm, encoding="utf-8") as f:
            found = {(t, int(i)): int(v) & 0xffffffff for t, i, v in MARK.findall(f.read())}
    out = {}
    for i, c in enumerate(commands):
        if ("N", i) not in found:
            raise RuntimeError(f"{c['name']}: no value in the assembly")
        out[c["name"]] = (found[("N", i)],
                          {f: found[("F" + f, i)] for f in FIELDS},
                          {f: found[("M" + f, i)] for f in FIELDS},
                          (found.get(("Lnr", i)), found.get(("Ltype", i))))
    return out


def check_numbers(tap, model, build, label=""):
    """One TAP line per header and ABI; returns the mismatch texts."""
    all_bad = []
    for abi in model["abis"]:
        for h in model["headers"]:
            cmds = [c for c in h["commands"] if not c["reserved"]]
            if not cmds:
                continue
            what = f"{label}{h['path']} {abi['name']}"
            try:
                macros = defined_macros(abi, h, build)
                got = probe_numbers(abi, h, cmds, build, macros)
            except (RuntimeError, OSError) as e:
                tap.check(False, f"{what}: probe", str(e).splitlines())
                all_bad.append(str(e))
                continue
            bad = []
            for c in cmds:
                want = c["numbers"][abi["name"]]["number"]
                real, rf, mf, (lnr, ltype) = got[c["name"]]
                if c.get("nr-param"):
                    last = c["nr"] + c["nr-count"] - 1
                    if (lnr, ltype) != (last, c["magic"]):
                        bad.append(f"{c['name']} on {abi['name']}: {c['nr-param']} = "
                                   f"{c['nr-count'] - 1} gives nr {lnr:#x} and type {ltype:#x}, "
                                   f"not nr {last:#x} and type {c['magic']:#x}: nr-count "
                                   f"{c['nr-count']} overflows the nr field")
                if real != want:
                    diff = ", ".join(f"{f} {mf[f]:#x} vs {rf[f]:#x}" for f in FIELDS if rf[f] != mf[f])
                    bad.append(f"{c['name']} on {abi['name']}: model {want:#010x}, gcc {real:#010x} "
                               f"(differs in {diff or 'bits outside the fields'}; model vs gcc)")
            tap.check(not bad, f"{what}: {len(cmds)} numbers equal gcc's", bad)
            all_bad += bad
    return all_bad


def check_coverage(tap, model, build, label=""):
    """Every _IO* #define of each header is registered; reserved == undefined."""
    registered = {}
    for h in model["headers"]:
        for c in h["commands"]:
            registered.setdefault(c["name"], []).append((h["path"], c["reserved"]))
    abi = model["abis"][0]
    problems_all = []
    for h in model["headers"]:
        path = os.path.join(build, KSRC_UAPI, h["path"])
        try:
            with open(path, encoding="utf-8") as f:
                text = f.read()
            macros = defined_macros(abi, h, build)
        except (OSError, RuntimeError) as e:
            tap.check(False, f"{label}{h['path']}: coverage", [str(e)])
            problems_all.append(str(e))
            continue
        text = re.sub(r'\\\n', ' ', text)
        in_header = []
        for m in IO_DEFINE.finditer(text):
            if m.group(1) not in in_header:
                in_header.append(m.group(1))
        mine = {c["name"]: c for c in h["commands"]}
        problems = []
        for name in in_header:
            active = name in macros
            if name in mine:
                if mine[name]["reserved"] == active:
                    problems.append(f"{name}: {'defined' if active else 'not defined'} by "
                                    f"{h['path']} but registered with reserved: "
                                    f"{str(mine[name]['reserved']).lower()}")
            elif active or not any(not r for _, r in registered.get(name, [])):
                problems.append(f"{name}: defined in {path} but not in {h['spec']}")
        for name, c in mine.items():
            if name not in in_header:
                problems.append(f"{name}: registered in {h['spec']} but {path} has no "
                                f"_IO* #define of it")
        tap.check(not problems, f"{label}{h['path']}: its {len(in_header)} _IO* #defines are "
                  f"registered, reserved exactly when not compiled", problems)
        problems_all += problems
    return problems_all


LAYOUT_MACROS = (("nr-bits", "_IOC_NRBITS"), ("type-bits", "_IOC_TYPEBITS"),
                 ("size-bits", "_IOC_SIZEBITS"), ("dir-bits", "_IOC_DIRBITS"),
                 ("none", "_IOC_NONE"), ("read", "_IOC_READ"), ("write", "_IOC_WRITE"))


def check_layouts(tap, model, build):
    """Each layout's numbers are what its 6.1 header defines, and every kernel
    ARCH is in exactly the layout of the asm/ioctl.h it exports."""
    ksrc = os.path.join(build, "linux-source-6.1")
    owner = {}
    for lay in model["layouts"]:
        for a in lay["arches"]:
            owner.setdefault(a, []).append(lay["name"])
        path = os.path.join(ksrc, lay["headers"][0])
        lines = [f'#include "{os.path.abspath(path)}"', "void f(void);", "void f(void)", "{"]
        macros = LAYOUT_MACROS + (("xsize-mask", "_IOC_XSIZEMASK"),)
        for i, (_, mac) in enumerate(macros):
            lines += [f"#ifdef {mac}",
                      f'\tasm volatile(".ascii \\"->L {i} %0\\"" :: "i"({mac}));', "#endif"]
        lines.append("}")
        with tempfile.TemporaryDirectory() as tmp:
            src, asm = os.path.join(tmp, "l.c"), os.path.join(tmp, "l.s")
            with open(src, "w", encoding="utf-8") as f:
                f.write("\n".join(lines) + "\n")
            rc, _, err = run(["gcc", "-I", os.path.join(ksrc, "include", "uapi"),
                              "-S", "-o", asm, src])
            if rc != 0:
                tap.check(False, f"layout {lay['name']}: compile {path}", err.splitlines()[:10])
                continue
            with open(asm, encoding="utf-8") as f:
                got = {int(i): int(v) for t, i, v in MARK.findall(f.read()) if t == "L"}
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
    for a in sorted(set(owner) - set(arches)):
        bad.append(f"arch {a}: listed in {owner[a]} but not a kernel ARCH")
    tap.check(not bad, f"each of the {len(arches)} kernel ARCHes is in the layout of its asm/ioctl.h",
              bad)


def self_test(tap, build):
    """The checks must catch the mistakes planted in the fixture model."""
    with open(FIXTURE, encoding="utf-8") as f:
        fixture = json.load(f)
    quiet = Tap()
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        bad = check_numbers(quiet, fixture, build)
        cov = check_coverage(quiet, fixture, build)
        check_layouts(quiet, fixture, build)
    layout_lines = out.getvalue()
    expect = fixture["expect"]
    for want in expect["numbers"]:
        tap.check(any(want in b for b in bad), f"fixture: a planted mistake is reported: {want}",
                  bad if not any(want in b for b in bad) else ())
    tap.check(len(bad) == len(expect["numbers"]),
              f"fixture: exactly {len(expect['numbers'])} number mismatches reported", bad)
    for want in expect["coverage"]:
        tap.check(any(want in p for p in cov), f"fixture: coverage reports: {want}")
    for want in expect["layouts"]:
        tap.check(want in layout_lines, f"fixture: the layout check reports: {want}")


def main():
    model_path = sys.argv[1] if len(sys.argv) > 1 else "build/model.json"
    build = sys.argv[2] if len(sys.argv) > 2 else "build"
    tap = Tap()
    try:
        with open(model_path, encoding="utf-8") as f:
            model = json.load(f)
    except (OSError, ValueError) as e:
        tap.check(False, f"read {model_path} (make model)", [str(e)])
        return 1
    for abi in model["abis"]:
        done = os.path.join(build, "uapi", abi["arch"], ".done")
        if not os.path.exists(done):
            tap.check(False, f"{done} exists (make {done})")
            return 1
    check_numbers(tap, model, build)
    check_coverage(tap, model, build)
    check_layouts(tap, model, build)
    self_test(tap, build)
    print(f"# {tap.n - tap.failed} passed, {tap.failed} failed")
    return 1 if tap.failed else 0


if __name__ == "__main__":
    sys.exit(main())
