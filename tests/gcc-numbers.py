#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Cross-check the model's numbers against gcc on the real kernel headers.

For every ABI of the model and every header that applies to it (a per-arch
header, spec/headers/arch/<arch>/, only to the ABIs of that ARCH), a probe
includes the header as `make ARCH=<arch> headers_install` exported it
(build/uapi/<arch>/include) and emits the value of each non-reserved command
macro (families called with 0 for every parameter, e.g. EVIOCGBIT(0,0)) with
the asm-offsets trick; the ABI's compiler (cc and cflags of the model)
compiles it to assembly.  Each value must equal the model's
numbers[abi].number, and a family's members at a few more parameter values
what the model says of them (members(): a size-param family at sizes up to
the size field's largest, N elements of a size-unit as N times its
unit-size, an unused parameter at other values); a mismatch names the command, the ABI, both numbers and
the fields that differ, decoded by the kernel's own _IOC_DIR, _IOC_TYPE,
_IOC_NR and _IOC_SIZE in the same probe.  A command the model leaves without
a number on an ABI (absent) must be absent there for the compiler too: the
header is not exported for that ARCH, or it does not define the macro, or
the macro does not compile.  A command with a number must be defined and
compile.  The probes of one ABI share translation units (one cc1 run
costs some 40 ms here before it reads a line; forty headers in one unit,
a little more than one): a probe whose header would see another header's
definition of one of its names, and every probe of a unit that does not
compile or that disagrees with the model, is compiled on its own, so only
agreement with the model is ever read from a shared unit.  The ABIs run in
parallel.

The layouts are checked the same way: each layout's field widths and
direction values must be the _IOC_* constants of its header in the tree as gcc
evaluates them, and every kernel ARCH must sit in the layout of the
asm/ioctl.h it exports.

It also checks that the registry covers the headers: every #define in the
kernel source of a header whose value is an _IO*() call (found by a regular
expression, including ones under #if 0 or in comments) must be registered,
and a command is reserved exactly when the preprocessor leaves it undefined.

Commands the headers spell as plain numbers (TCGETS 0x5401) are checked the
same way: the value gcc sees must be the model's on every ABI that has them,
and where the model says absent, the name must not be a plain number there.
Then `ioctlgen decode --abi ABI N` must name the most frequent of them
(TCGETS, FIONREAD, SIOCGIFCONF...), N being what the ABI's compiler makes of
the name on the real headers.

Finally the same checks run on ioctlgen's model of a test registry with
planted mistakes (tests/fixtures/gcc-numbers/spec), which must be reported
as tests/fixtures/gcc-numbers/expect.json says: so this suite can fail.

usage: tests/gcc-numbers.py [--no-self-test] [MODEL [BUILD_DIR [TREE]]]
  (default build/model.json build BUILD_DIR/linux-source-6.1): the numbers
  compiled from BUILD_DIR/uapi/<arch>, the exported headers of TREE;
  --no-self-test: the planted mistakes are left to the suite's own run
  (tests/verify/run's step 3b, whose exports are not the fixture's)
"""

import concurrent.futures
import contextlib
import copy
import io
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
import fixtures  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tools"))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "generator"))
import renderlib  # noqa: E402
from ioctltools import Error  # noqa: E402
from ioctltools.cc import MARKER, Prelude, prologue, read_markers, stub_dir, stub_flags, \
    userspace_include, value_marker  # noqa: E402
from ioctltools.cheader import HeaderText  # noqa: E402

TREE = ["build/linux-source-6.1"]	# the kernel source tree (main(): its third argument)
EXPECT = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                      "fixtures", "gcc-numbers", "expect.json")
DIAG = re.compile(r'^(.*?):\d+:(?:\d+:)? (?:fatal )?(error|note): (.*)$')
FIELDS = ("dir", "type", "nr", "size")
CHUNK = 16		# probes compiled on their own per compiler run
GROUP = 40		# probes per shared translation unit
JOBS = os.cpu_count() or 1
STUBS = []		# compiler flags: the empty stand-ins of the headers' stub-includes
NUMBERED = set()	# (ABI, name, number) of every command the model numbers
RECHECKED = []		# (ABI, header) read from a shared unit, compiled again on its own


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
    r = subprocess.run(cmd, input=stdin, capture_output=True, text=True, cwd=cwd)
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
    return "\t" + value_marker(tag, i, expr)


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
    src = os.path.join(work, f"absent-{c['name']}.c")
    with open(src, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    rc, _, err = run(compiler(abi, build) + ["-S", "-o", src[:-2] + ".s", src])
    if rc != 0:
        msgs = [l for l in err.splitlines() if "error" in l]
        return None, (msgs[0] if msgs else err.strip())
    with open(src[:-2] + ".s", encoding="utf-8") as f:
        found = {i: v & 0xffffffff for i, v in read_markers(f.read(), "N").items()}
    if 0 in found and found.get(1) == found[0]:
        return found[0], "defined without the ioctl macros"
    return found.get(0), None


def broken_commands(stderr):
    """{command index: error message} from the #line "cmd-<i>" of a failed probe;
    an error inside a header macro names cmd-<i> in its expansion notes."""
    out, last = {}, None
    for line in stderr.splitlines():
        m = DIAG.match(line)
        if not m:
            continue
        if m.group(2) == "error":
            last = m.group(3)
        c = re.fullmatch(r'cmd-(\d+)', m.group(1))
        if c and last is not None:
            out.setdefault(int(c.group(1)), last)
    return out


def markers(asm):
    """{(tag, i): value, or None for a marker without one} in assembly text."""
    return {(t, int(i)): int(v) & 0xffffffff if v else None for t, i, v in MARKER.findall(asm)}


def run_chunk(abi, probes, build, work):
    """Compile the probes of one ABI in one compiler run; return
    [(probe, {marker: value}, problems)]."""
    for p in probes:
        if not p.header.get("header-test", True):
            p.macros = defined_macros(abi, p.header, build)
        for ext in (".s",):
            with contextlib.suppress(FileNotFoundError):
                os.remove(os.path.join(work, p.stem + ext))
        with open(os.path.join(work, p.stem + ".c"), "w", encoding="utf-8") as f:
            f.write(p.source())
    run(compiler(abi, build) + ["-S"] + [p.stem + ".c" for p in probes], cwd=work)
    out = []
    for p in probes:
        asm = os.path.join(work, p.stem + ".s")
        problems = []
        for _ in range(len(p.commands) + 1):
            if os.path.exists(asm):
                break
            # Compile it alone: the lines of commands gcc cannot evaluate say cmd-<i>.
            rc, _, err = run(compiler(abi, build) + ["-S", "-o", asm, p.stem + ".c"], cwd=work)
            if rc == 0:
                break
            new = {i: msg for i, msg in broken_commands(err).items() if i not in p.broken}
            if not new:
                problems.append(f"{p.header['path']} does not compile on {abi['name']}: " +
                                " / ".join(err.splitlines()[:12]))
                break
            p.broken.update(new)
            with open(os.path.join(work, p.stem + ".c"), "w", encoding="utf-8") as f:
                f.write(p.source())
        found = {}
        if os.path.exists(asm):
            with open(asm, encoding="utf-8") as f:
                found = markers(f.read())
        out.append((p, found, problems))
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
    src = os.path.join(work, f"shared-{probes[0].stem}.c")
    lines = []
    for n, p in enumerate(probes):
        lines += [f"void gcc_numbers_before_{n}(void);", f"void gcc_numbers_before_{n}(void)", "{",
                  emit("B", n)]
        for j, c in enumerate(p.commands):
            lines += [f"#ifdef {c['name']}", emit("E", j), "#endif"]
        lines.append("}")
        lines += p.source(f"gcc_numbers_probe_{n}", [emit("S", n)]).splitlines()
    with open(src, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    asm = src[:-2] + ".s"
    with contextlib.suppress(FileNotFoundError):
        os.remove(asm)
    rc, _, _ = run(compiler(abi, build) + ["-S", "-o", asm, src], cwd=work)
    if rc != 0:
        return run_chunk(abi, probes, build, work)
    with open(asm, encoding="utf-8") as f:
        text = f.read()
    # Each function's markers follow its first, in whatever order the
    # compiler emits the functions.
    parts = re.split(r'->([BS]) (\d+)', text)
    found, early = {}, set()
    for t, n, asm_part in zip(parts[1::3], parts[2::3], parts[3::3]):
        if t == "S":
            found[int(n)] = markers(asm_part)
        elif markers(asm_part):
            early.add(int(n))
    alone = [p for n, p in enumerate(probes) if n in early or n not in found]
    out = [(p, found[n], []) for n, p in enumerate(probes) if n not in early and n in found]
    for p, _, _ in out:
        p.shared = True
    return out + (run_chunk(abi, alone, build, work) if alone else [])


def compare(abi, p, found, build, work):
    """The mismatches of one header on one ABI, and (numbers, absences) checked."""
    name = abi["name"]
    bad, n_num, n_abs = [], 0, 0
    for i, c in enumerate(p.commands):
        if name not in c["numbers"]:
            n_abs += 1
            if ("D", i) in found:
                real, why = value_of(abi, p.header, c, build, p.macros, work)
                # a command spelled as a plain number is absent where the
                # name is an ioctl-macro command, and must be where it is not
                # and where the name has another registered command's value
                # (arm's FIOQSIZE 0x545E, before asm-generic/ioctls.h's 0x5460)
                plain_here = why == "defined without the ioctl macros" and \
                    (name, c["name"], real) not in NUMBERED
                if (why is None) if c.get("number") is None else plain_here:
                    bad.append(f"{c['name']} on {name}: model absent, gcc {real:#010x}: "
                               f"{p.header['path']} defines it and it compiles")
            elif ("U", i) not in found:
                bad.append(f"{c['name']} on {name}: no marker in the assembly")
            continue
        n_num += 1
        want = c["numbers"][name]["number"]
        if i in p.broken:
            bad.append(f"{c['name']} on {name}: model {want:#010x}, gcc cannot compute it: "
                       f"{p.broken[i]}")
            continue
        if ("U", i) in found:
            bad.append(f"{c['name']} on {name}: model {want:#010x}, gcc: not defined by "
                       f"{p.header['path']} (absent)")
            continue
        if ("N", i) not in found:
            bad.append(f"{c['name']} on {name}: no value in the assembly")
            continue
        real = found[("N", i)]
        rf = {f: found[("F" + f, i)] for f in FIELDS}
        mf = {f: found[("M" + f, i)] for f in FIELDS}
        if c.get("nr-param"):
            last = c["nr"] + c["nr-count"] - 1
            lnr, ltype = found.get(("Lnr", i)), found.get(("Ltype", i))
            if (lnr, ltype) != (last, c["magic"]):
                bad.append(f"{c['name']} on {name}: {c['nr-param']} = "
                           f"{c['nr-count'] - 1} gives nr {lnr:#x} and type {ltype:#x}, "
                           f"not nr {last:#x} and type {c['magic']:#x}: nr-count "
                           f"{c['nr-count']} overflows the nr field")
        if real != want:
            diff = ", ".join(f"{f} {mf[f]:#x} vs {rf[f]:#x}" for f in FIELDS if rf[f] != mf[f])
            bad.append(f"{c['name']} on {name}: model {want:#010x}, gcc {real:#010x} "
                       f"(differs in {diff or 'bits outside the fields'}; model vs gcc)")
        for j, (member, number) in enumerate(members(c, p.layout, c["numbers"][name])):
            got = found.get((f"P{j}", i))
            n_num += 1
            if got != number:
                bad.append(f"{member} on {name}: model {number:#010x}, gcc "
                           f"{'no value' if got is None else f'{got:#010x}'}")
    return bad, n_num, n_abs


def check_numbers(tap, model, build, label=""):
    """One TAP line per ABI; returns the mismatch texts."""
    all_bad = []
    NUMBERED.update((a, c["name"], n["number"]) for h in model["headers"] for c in h["commands"]
                    for a, n in c["numbers"].items())
    with tempfile.TemporaryDirectory() as tmp, \
            concurrent.futures.ThreadPoolExecutor(max_workers=JOBS) as ex:
        futs, unexported = [], {a["name"]: [] for a in model["abis"]}
        layouts = {lay["name"]: lay for lay in model["layouts"]}
        for abi in model["abis"]:
            work = os.path.join(tmp, abi["name"])
            os.makedirs(work)
            probes = []
            for k, h in enumerate(model["headers"]):
                cmds = [c for c in h["commands"] if not c["reserved"]]
                if not cmds or not applies(h, abi):
                    continue
                why = unusable(abi, h, build)
                if why:
                    unexported[abi["name"]].append((h, cmds, why))
                    continue
                probes.append(Probe(abi, h, cmds, f"h{k}", layouts.get(abi["layout"])))
            shared = [p for p in probes if shareable(p)]
            alone = [p for p in probes if not shareable(p)]
            for i in range(0, len(shared), GROUP):
                futs.append((abi, work, ex.submit(run_group, abi, shared[i:i + GROUP],
                                                  build, work)))
            for i in range(0, len(alone), CHUNK):
                futs.append((abi, work, ex.submit(run_chunk, abi, alone[i:i + CHUNK],
                                                  build, work)))
        results = {a["name"]: [] for a in model["abis"]}
        for abi, work, fut in futs:
            try:
                for p, found, problems in fut.result():
                    results[abi["name"]].append((work, p, found, problems))
            except (RuntimeError, OSError) as e:
                results[abi["name"]].append((work, None, None, [str(e)]))
        for abi in model["abis"]:
            name = abi["name"]
            bad, n_num, n_abs, n_hdr, n_shared = [], 0, 0, 0, 0
            for h, cmds, why in unexported[name]:
                for c in cmds:
                    if name in c["numbers"]:
                        bad.append(f"{c['name']} on {name}: model "
                                   f"{c['numbers'][name]['number']:#010x}, gcc: not defined, "
                                   f"{why}")
                        n_num += 1
                    else:
                        n_abs += 1
            for work, p, found, problems in results[name]:
                if p is not None and not problems:
                    b, nn, na = compare(abi, p, found, build, work)
                    if b and p.shared:
                        # Only agreement is read from a shared unit: the
                        # header on its own says what differs.
                        p.shared = False
                        RECHECKED.append((name, p.header["path"]))
                        [(p, found, problems)] = run_chunk(abi, [p], build, work)
                        if not problems:
                            b, nn, na = compare(abi, p, found, build, work)
                bad += problems
                if p is None or problems:
                    continue
                n_hdr += 1
                n_shared += p.shared
                bad += b
                n_num += nn
                n_abs += na
            tap.check(not bad, f"{label}{name}: {n_num} numbers of {n_hdr} headers and "
                      f"{n_abs} absent commands checked against the compiler, "
                      f"{len(bad)} differ", bad)
            print(f"# {label}{name}: {n_shared} of the {n_hdr} headers compiled in shared "
                  f"translation units, the others each on its own")
            all_bad += bad
    return all_bad


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
                got = read_markers(f.read(), "L")
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


# The most frequent ioctls of any trace, which their headers spell as plain
# numbers (and powerpc and mips otherwise): ABI, the header userspace
# includes, the name.
DECODE_CASES = [("x86_64", "asm/ioctls.h", "TCGETS"), ("x86_64", "asm/ioctls.h", "FIONREAD"),
                ("x86_64", "linux/sockios.h", "SIOCGIFCONF"),
                ("i386", "asm/ioctls.h", "TIOCGWINSZ"),
                ("powerpc64le", "asm/ioctls.h", "TCGETS"), ("powerpc64le", "asm/ioctls.h", "FIONREAD"),
                ("mips", "asm/ioctls.h", "TCGETS"), ("mips", "asm/ioctls.h", "FIONREAD"),
                ("sparc64", "asm/ioctls.h", "TCGETS"), ("alpha", "linux/sockios.h", "SIOCGIFCONF")]


def check_decode(tap, model, build, ioctlgen):
    """`ioctlgen decode --abi ABI N` names the command, where N is what the
    ABI's compiler makes of the name on the real exported headers."""
    abis = {a["name"]: a for a in model["abis"]}
    for abi_name, inc, name in DECODE_CASES:
        abi = abis.get(abi_name)
        if abi is None:
            tap.skip(f"decode {name} on {abi_name}", f"the model has no ABI {abi_name}")
            continue
        # asm/ioctls.h names struct termios, which <asm/termbits.h> defines
        pre = "#include <asm/termbits.h>\n" if inc == "asm/ioctls.h" else ""
        src = pre + f"#include <{inc}>\nvoid f(void);\nvoid f(void)\n{{\n" + \
            emit("N", 0, f"(unsigned int)({name})") + "\n}\n"
        rc, out, err = run(compiler(abi, build) + ["-S", "-o", "-", "-x", "c", "-"], src)
        found = [v & 0xffffffff for v in read_markers(out, "N").values()]
        if rc != 0 or len(found) != 1:
            tap.check(False, f"decode {name} on {abi_name}: the compiler gives its number",
                      err.splitlines()[:5])
            continue
        num = f"{found[0]:#010x}"
        rc, out, err = run([ioctlgen, "decode", "--spec", model["spec-dir"], "--abi", abi_name, num])
        # the ABI's line after "abi commands" (a layout line may bear its name too)
        rows = re.split(r"(?m)^  abi +commands\n", out, maxsplit=1)[-1].splitlines()
        line = [l for l in rows if l.split()[:1] == [abi_name]]
        names = re.findall(r"([A-Za-z_]\w*) \(", line[0]) if line else []
        tap.check(rc == 0 and name in names,
                  f"ioctlgen decode --abi {abi_name} {num} names {name} (<{inc}>, {abi['cc']})",
                  (out + err).splitlines()[-4:])


def borrowed_name(fixture, build):
    """A command the model gives a header that does not define it, while an
    earlier header of its shared translation unit does: in the unit its
    #ifdef would see the other header's macro, with the number the model
    expects.  The guard before each header must send the probe to be
    compiled on its own, which finds the name undefined.  The header has
    that command alone, so that no other disagreement has it compiled on
    its own anyway.  x86_64 alone: (ok, text, details) for Tap.check()."""
    model = copy.deepcopy(fixture)
    model["abis"] = [a for a in model["abis"] if a["name"] == "x86_64"]
    fs, other = model["headers"][0], model["headers"][1]
    cmd = next(c for c in fs["commands"] if c["name"] == "FIFREEZE")
    other["commands"] = [copy.deepcopy(cmd)]
    want = (f"FIFREEZE on x86_64: model {cmd['numbers']['x86_64']['number']:#010x}, gcc: "
            f"not defined by {other['path']} (absent)")
    with contextlib.redirect_stdout(io.StringIO()):
        bad = check_numbers(Tap(), model, build)
    return (want in bad, f"fixture: a name only an earlier header of its shared translation "
                         f"unit defines is not taken for {other['path']}'s: {want}",
            () if want in bad else bad)


def self_test(tap, build):
    """The checks must catch the mistakes planted in the fixture model."""
    with open(fixtures.model("gcc-numbers"), encoding="utf-8") as f:
        fixture = json.load(f)
    with open(EXPECT, encoding="utf-8") as f:
        expect = json.load(f)
    # A mistake ioctlgen refuses to write: nr-count one more than ABS_CNT.
    for c in fixture["headers"][1]["commands"]:
        if c["name"] == "EVIOCSABS":
            c["nr-count"] = 0x41
    quiet = Tap()
    out = io.StringIO()
    RECHECKED.clear()
    with contextlib.redirect_stdout(out):
        bad = check_numbers(quiet, fixture, build)
    # The mistakes were seen in the shared translation units first.
    shared = sorted(set(RECHECKED))
    tap.check(len(shared) >= 2, f"fixture: shared translation units disagree with the model where "
                                f"it is wrong, and the headers are compiled again on their own: "
                                f"{', '.join(f'{h} on {a}' for a, h in shared[:4])}")
    tap.check(*borrowed_name(fixture, build))
    with contextlib.redirect_stdout(out):
        cov = check_coverage(quiet, fixture, build)
        check_layouts(quiet, fixture, build)
    layout_lines = out.getvalue()
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
    args = sys.argv[1:]
    self_testing = "--no-self-test" not in args
    args = [a for a in args if a != "--no-self-test"]
    model_path = args[0] if len(args) > 0 else "build/model.json"
    build = args[1] if len(args) > 1 else "build"
    TREE[0] = args[2] if len(args) > 2 else os.path.join(build, "linux-source-6.1")
    tap = Tap()
    try:
        with open(model_path, encoding="utf-8") as f:
            # the version of the tree the numbers are compiled from
            model = json.load(f)
            version = renderlib.version_of_tree(model, TREE[0])
            names = renderlib.version_names(model) if model.get("versions") else []
            if version is not None and version != names[0]:
                LEFT_OUT[0] = f"left-out-{version}.txt"
                top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
                OLDER_TREES[:] = [os.path.join(top, "build", f"linux-source-{v}")
                                  for v in names[:names.index(version)]]
            model = renderlib.view_for_tree(model, TREE[0])
    except (OSError, ValueError) as e:
        tap.check(False, f"read {model_path} (make model) as {TREE[0]}'s version has it", [str(e)])
        return 1
    for abi in model["abis"]:
        done = os.path.join(build, "uapi", abi["arch"], ".done")
        if not os.path.exists(done):
            tap.check(False, f"{done} exists (make {done})")
            return 1
    with tempfile.TemporaryDirectory(prefix="gcc-numbers-") as tmp:
        STUBS[:] = stub_flags(stub_dir(tmp, [p for h in model["headers"]
                                             for p in h.get("stub-includes", [])]))
        check_numbers(tap, model, build)
        check_coverage(tap, model, build)
        check_layouts(tap, model, build)
        check_decode(tap, model, build, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                     "..", "build", "ioctlgen"))
        if not self_testing:
            tap.check(True, "fixture: the planted mistakes are caught # SKIP --no-self-test")
        elif not OLDER_TREES:
            self_test(tap, build)
        else:	# its planted mistakes are the oldest tree's (build/linux-source-6.1)
            tap.check(True, f"fixture: the planted mistakes are caught # SKIP the fixture is "
                            f"the oldest tree's; {TREE[0]} is a later version")
    print(f"# {tap.n - tap.failed} passed, {tap.failed} failed")
    return 1 if tap.failed else 0


if __name__ == "__main__":
    sys.exit(main())
