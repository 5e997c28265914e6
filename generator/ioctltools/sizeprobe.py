# SPDX-License-Identifier: GPL-2.0
"""The probes of tools/measure-sizes: one C file per header spec and ABI.

A probe includes the header as userspace does and emits sizeof(T) of every
type its commands need measured (the registry's `measure`, and its
`measure-base`), and a marker for each command macro the header defines,
with the kernel's asm-offsets trick.  The probe engine (probeengine.py)
compiles several probes in one compiler run, and a probe that fails again
on its own, without the types that do not compile, to find out why."""

import os
import re
import shlex

from . import cc, probecache, probeengine, specwrite
from .toolchain import is_kernel_header

MISSING = re.compile(r"^(?:'([^']+)' file not found|([^ :]+): No such file or directory)")
IOC_LINE = re.compile(r"^@@IOC \"([^\"]+)\" (\d+)@@ (.*)$")


class Command:
    def __init__(self, name, mark, nparams=0, plain=False, number=None):
        self.name = name
        self.number = number	# a plain number's registered value
        self.mark = mark	# "path:line:col" of its entry
        self.types = []
        self.nparams = nparams	# a family is expanded with every parameter 0
        # True: spelled as a plain number, present only where it is not an
        # _IOC; None: spelled as another's name, either way
        self.plain = plain

    def call(self):
        """The command as C text: a family with every parameter 0."""
        return self.name + (f"({', '.join(['0'] * self.nparams)})" if self.nparams else "")


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
        self.additions = ()		# C lines after the header (on())
        self.enums = frozenset()	# command names the header declares as enumerators
        for c in header.commands:
            # spelled as another's name: either spelling, as that name is on the ABI
            plain = None if specwrite.spelled_as_name(c) else c.get("number") is not None
            cmd = None if c["reserved"] else Command(c["name"], c["source"], len(c["params"]),
                                                      plain, c.get("number"))
            if cmd:
                self.commands.append(cmd)
            for t in c["measure"]:
                if self.types.get(t) is None:
                    self.types[t] = c["source"]
                if cmd and t not in cmd.types:
                    cmd.types.append(t)

    def on(self, include, require, additions=(), enums=frozenset()):
        """A copy for one ABI, included as include, followed by additions
        (the registry's definitions that header does not have yet); enums:
        the names its header text declares as enumerators there
        (measure.enumerators_of())."""
        q = Probe.__new__(Probe)
        q.__dict__.update(self.__dict__)
        q.include, q.require, q.skip, q.additions = include, require, set(), tuple(additions)
        q.enums = frozenset(c.name for c in self.commands if c.name in enums)
        return q

    def presence_lines(self, i, c, then):
        """#ifdef NAME, then the lines `then`; a name the header declares as an
        enumerator (6.12's linux/android/binder.h) has no #ifdef: the compiler
        confirms it is declared (an undeclared one stops the probe, an error),
        and its value was spelled with the ioctl macros (tools/import-uapi)."""
        lines = [f"#ifdef {c.name}"] + then
        if c.name in self.enums:
            lines += ["#else", f"static const long __measure_enum_{i} "
                      f"__attribute__((unused)) = (long)({c.name});"] + then
        return lines + ["#endif"]

    def where(self, text):
        return self.types[text] or f"{self.header.spec}: (always measured)"

    def index(self):
        """{type text: its marker number}, the probe's own numbering, so that
        the text of a probe depends on its header spec alone."""
        return {t: i for i, t in enumerate(self.types)}

    def source(self):
        """The C text; the line of each type's sizeof: {line: type}."""
        h = self.header
        lines = [f"/* measure-sizes probe: {h.spec} */"]
        lines += cc.prologue(h.includes, self.include if h.header_test else None, h.prelude)
        lines += self.additions
        if h.header_test:
            for i, c in enumerate(self.commands):
                lines += self.presence_lines(i, c, [probeengine.top_marker("DEF", i)])
        lines += ["", "void measure_sizes_probe(void);", "void measure_sizes_probe(void)", "{"]
        at, index = {}, self.index()
        for text in self.types:
            if text not in self.skip:
                at[len(lines) + 1] = text
                lines.append("\t" + probeengine.marker("SIZE", index[text], f"sizeof({text})"))
        lines.append("}")
        if h.header_test:
            lines += self.ioc_check_lines()
        return "\n".join(lines) + "\n", at

    def ioc_check_lines(self):
        """With -DMEASURE_IOC_CHECK: does each defined command expand through
        _IOC on this ABI?  soundcard.h on sparc spells its commands with its
        own SunOS encoding.  _IOC is redefined to a pointer of a type of its
        own, and _Generic tells it from a plain number: "->IOC i 1" or 0 in
        the same compile as the sizes.  A command that does arithmetic on
        _IOC's value does not compile so; the probe is then compiled without
        the check and preprocessed on its own (ioc_check())."""
        lines = ["#ifdef MEASURE_IOC_CHECK", "#undef _IOC",
                 "struct measure_ioc { char c; };",
                 "#define _IOC(d, t, n, s) ((struct measure_ioc *)0)",
                 "void measure_ioc_probe(void);", "void measure_ioc_probe(void)", "{"]
        for i, c in enumerate(self.commands):
            call = c.call()
            if c.name in self.enums:
                lines += [f"#ifndef {c.name}", "\t" + probeengine.marker("IOC", i, "1"), "#endif"]
            lines += [f"#ifdef {c.name}",
                      "\t" + probeengine.marker(
                          "IOC", i, f"_Generic(({call}), struct measure_ioc *: 1, default: 0)")]
            if c.plain:
                # and its value where it is a plain number: arm's <asm/ioctls.h>
                # defines FIOQSIZE 0x545E before asm-generic/ioctls.h, whose
                # FIOQSIZE 0x5460 is then not defined
                lines.append("\t" + probeengine.marker(
                    "VAL", i, f"_Generic(({call}), struct measure_ioc *: 0u, "
                              f"default: (unsigned int)(unsigned long)({call}))"))
            lines.append("#endif")
        return lines + ["}", "#endif"]

    def ioc_text_lines(self):
        """The same question for the preprocessor alone (-E -P
        -DMEASURE_IOC_TEXT): a command built by the ioctl macros expands to
        the marker, one spelled otherwise does not."""
        lines = ["#ifdef MEASURE_IOC_TEXT", "#undef _IOC",
                 "#define _IOC(d, t, n, s) __MEASURE_IOC__"]
        for i, c in enumerate(self.commands):
            call = c.call()
            lines += [f"#ifdef {c.name}", f"@@IOC \"{self.stem}\" {i}@@ {call}", "#endif"]
            if c.name in self.enums:
                lines += [f"#ifndef {c.name}", f"@@IOC \"{self.stem}\" {i}@@ __MEASURE_IOC__",
                          "#endif"]
        return lines + ["#endif"]


class Result:
    """What one probe found on one ABI."""

    def __init__(self):
        self.sizes = {}		# text -> (size, "path:line:col")
        self.defined = set()	# command names the header defines
        self.failed = {}	# type text -> compiler message
        self.unusable = None	# why the header cannot be used on this ABI
        self.errors = []
        self.other_value = {}	# plain number name -> the value it has here instead
        self.not_ioc = set()	# defined here, but not as the entry spells it: not through
				# the ioctl macros, or through them for a plain number


def read_asm(tc, probe, at, asm, res):
    text = probeengine.read(asm)
    sizes = probeengine.values(text, "SIZE")
    ioc = probeengine.values(text, "IOC")
    vals = probeengine.values(text, "VAL")
    defs = {i for t, i in probeengine.markers(text) if t == "DEF"}
    index = probe.index()
    for t in at.values():
        n = index[t]
        if n not in sizes:
            res.errors.append(f"{probe.where(t)}: error: ABI {tc.name}: no size for "
                              f"'{t}' in {asm}")
            continue
        res.sizes[t] = (sizes[n], probe.where(t))
    res.defined = {probe.commands[i].name for i in defs}
    # a plain number defined here with another value is another header's
    res.other_value = {probe.commands[i].name: v & 0xffffffff for i, v in vals.items()
                       if ioc.get(i) == 0 and v & 0xffffffff != probe.commands[i].number}
    # {index: expands through _IOC} of the defined commands; None when the
    # probe was compiled without -DMEASURE_IOC_CHECK (diagnose())
    return {i: ioc[i] == 1 for i in defs if i in ioc} if ioc or not defs else None


read_deps = cc.read_deps


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
                                          probe.header.prelude)) + "\n")
    r = probeengine.run(tc.cc + ["-E", "-dM", "-MD", "-MF", src[:-2] + ".d", src])
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
    for path, line, _, _, msg in probeengine.diagnostics(stderr):
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


def diagnose(tc, probe, work):
    """Compile a failed probe on its own and tell unusable headers, types that
    do not compile and real errors apart: the types that do not compile are
    left out and the probe compiled again (probeengine.alone())."""
    res = Result()
    at, other = {}, []

    def source():
        src, lines = probe.source()
        at.clear()
        at.update(lines)
        return src

    def drop(stderr):
        unusable, failed, other[:] = classify_failure(tc, probe, stderr, at)
        res.unusable = unusable
        failed = {t: m for t, m in failed.items() if t not in probe.skip}
        if unusable or other or not failed:
            return False
        res.failed.update(failed)
        probe.skip.update(failed)	# retry without the types that failed
        return True

    base = os.path.join(work, probe.stem)
    r = probeengine.alone(tc.cc + ["-S", "-MD", "-MF", base + ".d"], probe.stem, source, work, drop)
    if r.asm is not None:
        if check_deps(tc, probe, base + ".d", res):
            read_asm(tc, probe, at, base + ".s", res)
    elif res.unusable is None:
        what = "; ".join(other[:3]) or "the probe fails without the failing types"
        res.errors.append(f"{probe.header.source}: error: {probe.name} does not compile "
                          f"for ABI {tc.name}: {what}\n  command: {shlex.join(r.cmd)}\n" +
                          "\n".join("  " + l for l in r.stderr.splitlines()[:20]))
    return res


def run_chunk(tc, chunk, work):
    """Compile several probes in one compiler run; diagnose the ones that fail."""
    os.makedirs(work, exist_ok=True)
    sources, ats = {}, {}
    for p in chunk:
        sources[p.stem], ats[p.stem] = p.source()
    # failures: diagnose()
    probeengine.batch(tc.cc + ["-S", "-MD", "-DMEASURE_IOC_CHECK"], sources, work,
                      stale=(".d", "-defines.d", "-ioc.d"))
    out = []
    for p in chunk:
        base, at = os.path.join(work, p.stem), ats[p.stem]
        ioc_of = None
        if os.path.exists(base + ".s"):
            res = Result()
            if check_deps(tc, p, base + ".d", res):
                ioc_of = read_asm(tc, p, at, base + ".s", res)
        else:
            res = diagnose(tc, p, work)
        if not p.header.header_test and res.unusable is None and not res.errors:
            defines_of_untested(tc, p, work, res)
        if p.header.header_test and not res.unusable and not res.errors:
            if ioc_of is None:		# compiled without the check
                ioc_of = ioc_check(tc, p, work)
            # A plain number is absent where its name expands through _IOC,
            # an _IO* command where it does not.
            res.not_ioc = {c.name for i, c in enumerate(p.commands)
                           if i in ioc_of and ioc_of[i] == c.plain}
        out.append((p, res, None if res.errors else probe_deps(tc, p, work)))
    return out


def probe_deps(tc, p, work):
    """(files, missing include names) that the probe's compiles of this run
    read, for the cache (probecache); None when they cannot be told."""
    base = os.path.join(work, p.stem)
    files, missing = [], []
    for f in (base + ".d", base + "-defines.d", base + "-ioc.d"):
        if os.path.exists(f):
            files += read_deps(f)
    if not os.path.exists(base + ".d"):
        # The compile stopped at a header it did not find, and wrote no .d:
        # the preprocessor alone, taking what it cannot find as generated.
        r = probeengine.run(tc.cc + ["-M", "-MG", "-DMEASURE_IOC_CHECK", os.path.abspath(base + ".c")])
        if r.returncode != 0:
            return None
        _, _, rest = r.stdout.replace("\\\n", " ").partition(":")
        for d in rest.split():
            (files if os.path.isabs(d) else missing).append(d)
    return [d for d in files if not d.endswith(".c")], missing


def to_cache(res):
    """A Result without errors as JSON, for probecache; its spec marks are
    not kept (from_cache() takes them from the probe of the run)."""
    return {"sizes": {t: n for t, (n, _) in res.sizes.items()}, "defined": sorted(res.defined),
            "failed": res.failed, "unusable": res.unusable, "other_value": res.other_value,
            "not_ioc": sorted(res.not_ioc)}


def from_cache(p, doc):
    res = Result()
    res.sizes = {t: (n, p.where(t)) for t, n in doc["sizes"].items()}
    res.defined = set(doc["defined"])
    res.failed = dict(doc["failed"])
    res.unusable = doc["unusable"]
    res.other_value = dict(doc["other_value"])
    res.not_ioc = set(doc["not_ioc"])
    return res


def look_up(store, base, probes, search):
    """([(probe, Result)] the probe cache's store holds for the toolchain
    key base, [(probe, key)] of the others, to compile)."""
    held, todo = [], []
    for p in probes:
        k = probecache.probe_key(base, p)
        doc = store.get(k, search)
        if doc is None:
            todo.append((p, k))
        else:
            held.append((p, from_cache(p, doc)))
    return held, todo


def keep(store, keys, done):
    """[(probe, Result)] of run_chunk's done, each stored under its key
    when its dependencies are known."""
    out = []
    for k, (p, res, deps) in zip(keys, done):
        out.append((p, res))
        if deps is not None:
            store.put(k, to_cache(res), deps[0], deps[1])
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


def ioc_check(tc, probe, work):
    """For a probe that does not compile with -DMEASURE_IOC_CHECK: whether
    each defined command expands through _IOC on this ABI, by the
    preprocessor alone: {index: bool}.  A probe that does not preprocess
    is left to the compile's own diagnosis."""
    src, _ = probe.source()
    name = probe.stem + "-ioc.c"
    with open(os.path.join(work, name), "w", encoding="utf-8") as f:
        f.write(src + "\n".join(probe.ioc_text_lines()) + "\n")
    r = probeengine.run(tc.cc + ["-E", "-P", "-DMEASURE_IOC_TEXT", "-MD", "-MF", probe.stem + "-ioc.d",
                        name], cwd=work)
    ioc_of = {}
    for line in r.stdout.splitlines():
        m = IOC_LINE.match(line)
        if m and m.group(1) == probe.stem:
            ioc_of[int(m.group(2))] = "__MEASURE_IOC__" in m.group(3)
    return ioc_of
