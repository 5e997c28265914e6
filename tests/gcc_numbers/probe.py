# SPDX-License-Identifier: GPL-2.0
"""The probes of tests/gcc-numbers.py: what gcc makes of each command macro
of one header on one ABI, read from the assembly with the asm-offsets trick.

The probes of one ABI share translation units (one cc1 run costs some 40 ms
here before it reads a line; forty headers in one unit, a little more than
one): run_group().  A probe whose header would see another header's
definition of one of its names, and every probe of a unit that does not
compile, is compiled on its own: run_chunk(), several files per compiler
run, and a file that fails again alone, leaving out the commands gcc
cannot evaluate.
The numbers come from gcc and the kernel's headers only: nothing here
encodes a number the way the registry does.  The compiling and the
reading back are the probe engine's (ioctltools.probeengine), which
tools/measure-sizes uses too: it runs the compiler and reads its assembly,
and takes nothing from ioctlgen, its numbers or the model, so sharing it
leaves this test as independent of the code under test as gcc is."""

import os
import re

from ioctltools import probeengine
from ioctltools.cc import Prelude, prologue, userspace_include
from ioctltools.cheader import HeaderText

TREE = ["build/linux-source-6.1"]	# the kernel source tree (tests/gcc-numbers.py sets it)
FIELDS = ("dir", "type", "nr", "size")
CHUNK = 16		# probes compiled on their own per compiler run
GROUP = 40		# probes per shared translation unit
JOBS = os.cpu_count() or 1
STUBS = []		# compiler flags: the empty stand-ins of the headers' stub-includes


def applies(header, abi):
    return header["arch"] in (None, abi["arch"])


def source_path(build, header):
    """The header in the kernel source tree, where its _IO* #defines are."""
    if header["arch"]:
        return os.path.join(TREE[0], "arch", header["arch"], "include", "uapi", header["path"])
    return os.path.join(TREE[0], "include", "uapi", header["path"])


ENUMS = {}


def enumerators(header):
    """The names the header declares as enumerators in the tree, not as
    #defines (6.12's linux/android/binder.h: `BINDER_WRITE_READ =
    _IOWR(...),` in an enum): no #ifdef sees them, yet they are defined."""
    key = (header["path"], header["arch"])
    if key not in ENUMS:
        path = source_path(None, header)
        ENUMS[key] = {d.name for d in HeaderText(path).enumerators} if os.path.exists(path) else set()
    return ENUMS[key]


def prelude(header):
    """The #include lines every probe of this header starts with."""
    return prologue(header["includes"],
                    userspace_include(header["path"]) if header["header-test"] else None,
                    Prelude.of(header))


def run(cmd, stdin=None, cwd=None):
    r = probeengine.run(cmd, cwd=cwd, stdin=stdin)
    return r.returncode, r.stdout, r.stderr


def compiler(abi, build):
    inc = os.path.join(os.path.abspath(build), "uapi", abi["arch"], "include")
    return [abi["cc"], *abi["cflags"], "-I", inc] + STUBS


def unusable(abi, header, build):
    """Why userspace of this ABI cannot include the header, or None."""
    inc = os.path.join(build, "uapi", abi["arch"], "include")
    path = userspace_include(header["path"])
    if not os.path.exists(os.path.join(inc, path)):
        return f"ARCH={abi['arch']} does not export {path}"
    if path == header["path"]:
        return None
    # <asm/X.h> of this ARCH must pull in asm-generic/X.h.
    rc, out, err = run(compiler(abi, build) + ["-M", "-x", "c", "-"], f"#include <{path}>\n")
    if rc != 0:
        raise RuntimeError(f"{abi['name']}: cannot preprocess <{path}>: {err.strip()}")
    deps = {os.path.normpath(d) for d in out.replace("\\\n", " ").split()}
    if os.path.normpath(os.path.abspath(os.path.join(inc, header["path"]))) not in deps:
        return f"<{path}> of ARCH={abi['arch']} does not include {header['path']}"
    return None


def defined_macros(abi, header, build):
    """The macros the real header defines, as the preprocessor sees them."""
    text = "\n".join(prelude({**header, "header-test": True})) + "\n"
    cmd = compiler(abi, build) + ["-E", "-dM", "-x", "c", "-"]
    rc, out, err = run(cmd, text)
    if rc != 0:
        raise RuntimeError(f"{' '.join(cmd)}: {err.strip()}")
    macros = {}
    for line in out.splitlines():
        m = re.match(r'#define ([A-Za-z_]\w*)(\([^)]*\))? ?(.*)$', line)
        if m:
            macros[m.group(1)] = line
    return macros


def call(c):
    """The C expression of a command, every parameter 0."""
    if c["params"]:
        return c["name"] + "(" + ", ".join("0" for _ in c["params"]) + ")"
    return c["name"]


def members(c, layout, n):
    """[(the call, the number the model says it has)] at a few parameter
    values besides 0: a size-param family at a few sizes up to the size
    field's largest (N elements of a size-unit: the size field holds N
    times the unit-size; spidev's SPI_MSGSIZE(N) makes it 0 past that), a
    parameter the number does not depend on at other values (the number
    stays).  The other parameters are 0."""
    if not c["params"] or layout is None:
        return []
    limit = (1 << layout["size-bits"]) - 1
    out = []

    def call_with(param, value):
        return c["name"] + "(" + ", ".join(str(value) if p == param else "0"
                                           for p in c["params"]) + ")"
    if c.get("size-param") and (not c.get("size-unit") or n.get("unit-size")):
        unit = n.get("unit-size") or 1
        for v in sorted({1, 3, limit // unit}):
            out.append((call_with(c["size-param"], v),
                        n["number"] | (v * unit) << layout["size-shift"]))
    for p in c.get("unused-params") or []:
        for v in (1, 0x55):
            out.append((call_with(p, v), n["number"]))
    return out


def emit(tag, i, expr=None):
    return "\t" + probeengine.marker(tag, i, expr)


class Probe:
    """The commands of one header on one ABI."""

    def __init__(self, abi, header, commands, stem, layout=None):
        self.abi, self.header, self.commands, self.stem = abi, header, commands, stem
        self.layout = layout	# the ABI's layout: members() of the families
        self.broken = {}	# index -> compiler message: the model's number does not compile
        self.macros = None	# header-test: false: the #define lines to copy
        self.shared = False	# read from a shared translation unit

    def source(self, fn="gcc_numbers_probe", head=()):
        lines = prelude(self.header)
        if self.macros is not None:
            # The header does not compile on its own: take its definitions as
            # the preprocessor read them from the real file.
            lines += [self.macros[c["name"]] for c in self.commands if c["name"] in self.macros]
        lines += [f"void {fn}(void);", f"void {fn}(void)", "{", *head]
        name = self.abi["name"]
        enums = enumerators(self.header)
        for i, c in enumerate(self.commands):
            lines += [f'#line 1 "cmd-{i}"',
                      "#if 1" if c["name"] in enums else f"#ifdef {c['name']}"]
            expr = call(c)
            if name not in c["numbers"]:
                lines.append(emit("D", i))	# absent in the model: defined?
            elif i not in self.broken:
                want = c["numbers"][name]["number"]
                lines.append(emit("N", i, f"(unsigned int)({expr})"))
                lines += [emit("F" + f, i, f"_IOC_{f.upper()}({expr})") for f in FIELDS]
                lines += [emit("M" + f, i, f"_IOC_{f.upper()}({want}U)") for f in FIELDS]
                lines += [emit(f"P{j}", i, f"(unsigned int)({m})") for j, (m, _) in
                          enumerate(members(c, self.layout, c["numbers"][name]))]
                if c.get("nr-param"):
                    # The last member of the family must still fit the nr field.
                    last = ", ".join(str(c["nr-count"] - 1) if p == c["nr-param"] else "0"
                                     for p in c["params"])
                    lines += [emit("Lnr", i, f"_IOC_NR({c['name']}({last}))"),
                              emit("Ltype", i, f"_IOC_TYPE({c['name']}({last}))")]
            lines += ["#else", emit("U", i), "#endif"]
        lines.append("}")
        return "\n".join(lines) + "\n"


def value_of(abi, header, c, build, macros, work):
    """gcc's value of a command the model says is absent but the header defines:
    (number, None); (None, why it does not compile); or (number, why) when the
    header defines it without _IOC, so it is no ioctl-macro command there."""
    lines = prelude(header)
    if macros is not None and c["name"] in macros:
        lines.append(macros[c["name"]])
    lines += ["void f(void);", "void f(void)", "{",
              emit("N", 0, f"(unsigned int)({call(c)})"), "}"]
    # The same with _IOC replaced: a number that does not change was not
    # built by the ioctl macros (soundcard.h's own encoding on sparc).
    lines += ["#undef _IOC", "#define _IOC(d, t, n, s) 0x5a5a5a5aU",
              "void g(void);", "void g(void)", "{",
              emit("N", 1, f"(unsigned int)({call(c)})"), "}"]
    r = probeengine.alone(compiler(abi, build) + ["-S"], f"absent-{c['name']}",
                          lambda: "\n".join(lines) + "\n", work)
    if r.asm is None:
        msgs = [l for l in r.stderr.splitlines() if "error" in l]
        return None, (msgs[0] if msgs else r.stderr.strip())
    found = {i: v & 0xffffffff for i, v in probeengine.values(r.asm, "N").items()}
    if 0 in found and found.get(1) == found[0]:
        return found[0], "defined without the ioctl macros"
    return found.get(0), None


def broken_commands(stderr):
    """{command index: error message} from the #line "cmd-<i>" of a failed probe;
    an error inside a header macro names cmd-<i> in its expansion notes."""
    out, last = {}, None
    for path, _, _, kind, msg in probeengine.diagnostics(stderr, ("error", "note")):
        if kind == "error":
            last = msg
        if path.startswith("cmd-") and path[4:].isdigit() and last is not None:
            out.setdefault(int(path[4:]), last)
    return out


def run_chunk(abi, probes, build, work):
    """Compile the probes of one ABI in one compiler run; return
    [(probe, {marker: value}, problems)]."""
    for p in probes:
        if not p.header.get("header-test", True):
            p.macros = defined_macros(abi, p.header, build)
    cmd = compiler(abi, build) + ["-S"]
    compiled = probeengine.batch(cmd, {p.stem: p.source() for p in probes}, work)
    out = []
    for p in probes:
        if p.stem in compiled:
            out.append((p, probeengine.markers(probeengine.read(
                os.path.join(work, p.stem + ".s"))), []))
            continue

        def drop(err, p=p):
            # alone, the lines of commands gcc cannot evaluate say cmd-<i>
            new = {i: msg for i, msg in broken_commands(err).items() if i not in p.broken}
            p.broken.update(new)
            return bool(new)
        r = probeengine.alone(cmd, p.stem, p.source, work, drop)
        if r.asm is None:
            out.append((p, {}, [f"{p.header['path']} does not compile on {abi['name']}: " +
                                " / ".join(r.stderr.splitlines()[:12])]))
        else:
            out.append((p, probeengine.markers(r.asm), []))
    return out


def shareable(p):
    """A probe that may share a translation unit: its header compiles on
    its own in userspace (header-test) and needs nothing around it."""
    pre = Prelude.of(p.header)
    return p.header.get("header-test", True) and not (pre.defines or pre.typedefs or pre.internal)


def run_group(abi, probes, build, work):
    """Compile shareable probes of one ABI in one translation unit, the
    n-th as its own function after its header (its markers after "->S n"),
    and before its header a function whose markers after "->B n" say which
    of its names an earlier header of the unit already defines.  Return
    what run_chunk() returns; the probes such names could fool, and all of
    them when the unit does not compile, come from run_chunk()."""
    lines = []
    for n, p in enumerate(probes):
        lines += [f"void gcc_numbers_before_{n}(void);", f"void gcc_numbers_before_{n}(void)", "{",
                  emit("B", n)]
        for j, c in enumerate(p.commands):
            lines += [f"#ifdef {c['name']}", emit("E", j), "#endif"]
        lines.append("}")
        lines += p.source(f"gcc_numbers_probe_{n}", [emit("S", n)]).splitlines()
    r = probeengine.alone(compiler(abi, build) + ["-S"], f"shared-{probes[0].stem}",
                          lambda: "\n".join(lines) + "\n", work)
    if r.asm is None:
        return run_chunk(abi, probes, build, work)
    found, early = {}, set()
    for t, n, part in probeengine.sections(r.asm, ("B", "S")):
        if t == "S":
            found[n] = probeengine.markers(part)
        elif probeengine.markers(part):
            early.add(n)
    alone = [p for n, p in enumerate(probes) if n in early or n not in found]
    out = [(p, found[n], []) for n, p in enumerate(probes) if n not in early and n in found]
    for p, _, _ in out:
        p.shared = True
    return out + (run_chunk(abi, alone, build, work) if alone else [])
