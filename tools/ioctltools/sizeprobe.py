# SPDX-License-Identifier: GPL-2.0
"""The probes of tools/measure-sizes: one C file per header spec and ABI.

A probe includes the header as userspace does and emits sizeof(T) of every
type its commands need measured (the registry's `measure`, and its
`measure-base`), and a marker for each command macro the header defines,
with the kernel's asm-offsets trick.  Several probes go to one compiler
run; a probe that fails is compiled again on its own to find out why."""

import os
import re
import shlex

from . import Error, cc
from .toolchain import is_kernel_header

MISSING = re.compile(r"^(?:'([^']+)' file not found|([^ :]+): No such file or directory)")
IOC_LINE = re.compile(r"^@@IOC \"([^\"]+)\" (\d+)@@ (.*)$")


class Command:
    def __init__(self, name, mark, nparams=0):
        self.name = name
        self.mark = mark	# "path:line:col" of its entry
        self.types = []
        self.nparams = nparams	# a family is expanded with every parameter 0


class Probe:
    """One header spec: its types, each at the entry that first needs it, and
    its non-reserved commands with the types each one needs."""

    def __init__(self, header, stem, base_types):
        self.header = header
        self.name = header.path
        self.types = {t: None for t in base_types}	# type text -> mark (None: base)
        self.commands = []
        self.stem = stem
        self.include = header.path	# as userspace includes it on one ABI
        self.require = None		# the asm-generic file that include must pull in
        self.skip = set()		# types left out after they failed
        for c in header.commands:
            cmd = None if c["reserved"] else Command(c["name"], c["source"], len(c["params"]))
            if cmd:
                self.commands.append(cmd)
            for t in c["measure"]:
                if self.types.get(t) is None:
                    self.types[t] = c["source"]
                if cmd and t not in cmd.types:
                    cmd.types.append(t)

    def on(self, include, require):
        """A copy for one ABI, included as include."""
        q = Probe.__new__(Probe)
        q.__dict__.update(self.__dict__)
        q.include, q.require, q.skip = include, require, set()
        return q

    def where(self, text):
        return self.types[text] or f"{self.header.spec}: (always measured)"

    def source(self, index):
        """The C text; the line of each type's sizeof: {line: type}."""
        h = self.header
        lines = [f"/* measure-sizes probe: {h.spec} */"]
        lines += cc.prologue(h.includes, self.include if h.header_test else None, h.typedefs)
        if h.header_test:
            for i, c in enumerate(self.commands):
                lines += [f"#ifdef {c.name}", f'__asm__(".ascii \\"->DEF {i}\\"");', "#endif"]
            # Preprocessed only (-E -DMEASURE_IOC_CHECK): with _IOC replaced by a
            # marker, a command built by the ioctl macros expands to the marker;
            # one the header spells otherwise on this ABI does not (soundcard.h
            # on sparc uses its own SunOS encoding).  No type is evaluated.
            lines += ["#ifdef MEASURE_IOC_CHECK", "#undef _IOC",
                      "#define _IOC(d, t, n, s) __MEASURE_IOC__"]
            for i, c in enumerate(self.commands):
                call = c.name + (f"({', '.join(['0'] * c.nparams)})" if c.nparams else "")
                lines += [f"#ifdef {c.name}", f"@@IOC \"{self.stem}\" {i}@@ {call}", "#endif"]
            lines += ["#endif"]
        lines += ["", "void measure_sizes_probe(void);", "void measure_sizes_probe(void)", "{"]
        at = {}
        for text in self.types:
            if text not in self.skip:
                at[len(lines) + 1] = text
                lines.append("\t" + cc.value_marker("SIZE", index[text], f"sizeof({text})"))
        lines.append("}")
        return "\n".join(lines) + "\n", at


class Result:
    """What one probe found on one ABI."""

    def __init__(self):
        self.sizes = {}		# text -> (size, "path:line:col")
        self.defined = set()	# command names the header defines
        self.failed = {}	# type text -> compiler message
        self.unusable = None	# why the header cannot be used on this ABI
        self.errors = []
        self.not_ioc = set()	# defined here, but not through the ioctl macros


def read_asm(tc, probe, at, index, asm, res):
    try:
        with open(asm, encoding="utf-8", errors="replace") as f:
            text = f.read()
    except OSError as e:
        raise Error(f"{asm}: error: reading the probe's assembly: {e.strerror}") from e
    sizes = cc.read_markers(text, "SIZE")
    defs = {int(i) for t, i, _ in cc.MARKER.findall(text) if t == "DEF"}
    for text in at.values():
        n = index[text]
        if n not in sizes:
            res.errors.append(f"{probe.where(text)}: error: ABI {tc.name}: no size for "
                              f"'{text}' in {asm}")
            continue
        res.sizes[text] = (sizes[n], probe.where(text))
    res.defined = {probe.commands[i].name for i in defs}


def read_deps(path):
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read().replace("\\\n", " ")
    except OSError as e:
        raise Error(f"{path}: error: reading the probe's dependencies: {e.strerror}") from e
    _, _, rest = text.partition(":")
    rest = rest.split("\n\n")[0].split("\n")[0]
    return [p.replace("\x00", " ") for p in rest.replace("\\ ", "\x00").split()]


def check_deps(tc, probe, dep, res):
    deps = read_deps(dep)
    if probe.require and probe.require not in {os.path.abspath(d) for d in deps}:
        res.unusable = (f"<{probe.include}> of ARCH={tc.abi.arch} does not include "
                        f"<{probe.name}>")
        return False
    for d in deps:
        rel = tc.foreign_kernel_header(d)
        if rel:
            res.unusable = (f"includes <{rel}>, which ARCH={tc.abi.arch} does not export "
                            f"(the compiler found {d})")
            return False
    return True


def header_defines(tc, probe, work):
    """For a header-test: false header: the macros its text defines."""
    src = os.path.join(work, probe.stem + "-defines.c")
    with open(src, "w", encoding="utf-8") as f:
        f.write("\n".join(cc.prologue(probe.header.includes, probe.include,
                                          probe.header.typedefs)) + "\n")
    r = cc.run(tc.cc + ["-E", "-dM", "-MD", "-MF", src[:-2] + ".d", src])
    if r.returncode != 0:
        return None, r.stderr
    names = {c.name for c in probe.commands}
    found = set()
    for line in r.stdout.splitlines():
        m = re.match(r'#define ([A-Za-z_]\w*)', line)
        if m and m.group(1) in names:
            found.add(m.group(1))
    return found, ""


def classify_failure(tc, probe, stderr, at):
    """Why a probe alone failed: (unusable reason | None, {type: message}, [errors])."""
    failed, other = {}, []
    for l in stderr.splitlines():
        m = cc.DIAG.match(l)
        if not m:
            continue
        path, line, msg = m.group(1), int(m.group(2)), m.group(4)
        miss = MISSING.match(msg)
        if miss:
            name = miss.group(1) or miss.group(2)
            if is_kernel_header(name, tc.kernel_names):
                return f"includes <{name}>, which ARCH={tc.abi.arch} does not export", {}, []
            other.append(f"{path}:{line}: cannot find <{name}>, a C library header: the "
                         f"toolchain of ABI {tc.name} is incomplete")
            continue
        if tc.is_error_directive(path, line):
            return f"{os.path.relpath(path, tc.inc)}:{line}: #error {msg}", {}, []
        if os.path.basename(path) == probe.stem + ".c" and line in at:
            failed.setdefault(at[line], msg)
        else:
            other.append(f"{path}:{line}: {msg}")
    return None, failed, other


def diagnose(tc, probe, index, work):
    """Compile a failed probe on its own and tell unusable headers, types that
    do not compile and real errors apart."""
    res = Result()
    base = os.path.join(work, probe.stem)
    while True:		# each round drops at least one type, or ends
        src, at = probe.source(index)
        with open(base + ".c", "w", encoding="utf-8") as f:
            f.write(src)
        cmd = tc.cc + ["-S", "-MD", "-MF", base + ".d", "-o", base + ".s", base + ".c"]
        r = cc.run(cmd)
        if r.returncode == 0:
            if check_deps(tc, probe, base + ".d", res):
                read_asm(tc, probe, at, index, base + ".s", res)
            return res
        unusable, failed, other = classify_failure(tc, probe, r.stderr, at)
        if unusable:
            res.unusable = unusable
            return res
        failed = {t: m for t, m in failed.items() if t not in probe.skip}
        if other or not failed:
            what = "; ".join(other[:3]) or "the probe fails without the failing types"
            res.errors.append(f"{probe.header.source}: error: {probe.name} does not compile "
                              f"for ABI {tc.name}: {what}\n  command: {shlex.join(cmd)}\n" +
                              "\n".join("  " + l for l in r.stderr.splitlines()[:20]))
            return res
        res.failed.update(failed)
        probe.skip.update(failed)	# retry without the types that failed


def run_chunk(tc, chunk, index, work):
    """Compile several probes in one compiler run; diagnose the ones that fail."""
    os.makedirs(work, exist_ok=True)
    files, ats = [], []
    for p in chunk:
        src, at = p.source(index)
        base = os.path.join(work, p.stem)
        for ext in (".s", ".d"):
            if os.path.exists(base + ext):
                os.remove(base + ext)
        with open(base + ".c", "w", encoding="utf-8") as f:
            f.write(src)
        files.append(p.stem + ".c")
        ats.append(at)
    cc.run(tc.cc + ["-S", "-MD"] + files, cwd=work)	# failures: diagnose() below
    not_ioc = ioc_check(tc, files, work)
    out = []
    for p, at in zip(chunk, ats):
        base = os.path.join(work, p.stem)
        if os.path.exists(base + ".s"):
            res = Result()
            if check_deps(tc, p, base + ".d", res):
                read_asm(tc, p, at, index, base + ".s", res)
        else:
            res = diagnose(tc, p, index, work)
        if not p.header.header_test and res.unusable is None and not res.errors:
            defines_of_untested(tc, p, work, res)
        if p.header.header_test and not res.unusable and not res.errors:
            res.not_ioc = {p.commands[i].name for i in not_ioc.get(p.stem, ())}
        out.append((p, res))
    return out


def defines_of_untested(tc, p, work, res):
    """A header-test: false header defines what its text defines."""
    defs, err = header_defines(tc, p, work)
    if defs is None:
        unusable, _, other = classify_failure(tc, p, err, {})
        if unusable:
            res.unusable = unusable
        else:
            res.errors.append(f"{p.header.source}: error: {p.name} does not preprocess for "
                              f"ABI {tc.name}: {'; '.join(other[:3])}")
    elif check_deps(tc, p, os.path.join(work, p.stem + "-defines.d"), res):
        res.defined = defs


def ioc_check(tc, files, work):
    """Which defined commands of each probe do not expand through _IOC on
    this ABI: {stem: {index}}.  A probe that does not preprocess is left to
    the compile's own diagnosis."""
    r = cc.run(tc.cc + ["-E", "-P", "-DMEASURE_IOC_CHECK"] + files, cwd=work)
    found = {}
    for line in r.stdout.splitlines():
        m = IOC_LINE.match(line)
        if m and "__MEASURE_IOC__" not in m.group(3):
            found.setdefault(m.group(1), set()).add(int(m.group(2)))
    return found
