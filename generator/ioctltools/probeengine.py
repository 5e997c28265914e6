# SPDX-License-Identifier: GPL-2.0
"""The probe engine: C probes compiled to assembly, their values read back.

Every value a tool or a test takes from a C compiler comes through here
(tools/measure-sizes, tools/measure-layouts, the importers, the
gcc-numbers suites and verify's step 3b, kernel-internal, render-new).  A
probe's statements carry markers (marker()) whose values the compiler
writes into its assembly, the kernel's asm-offsets trick; values() and
markers() read them back.  A compiler start is what costs (cc1 some 40 ms
before it reads a line; forty headers in one unit cost little more than
one), so probes are compiled many at a time:

- batch(): several probe files in one compiler run, which goes on past a
  file that fails;
- alone(): a probe that failed compiled on its own, again and again while
  the caller can leave out what failed (drop(): a type that does not
  compile, a command gcc cannot evaluate), so one bad part costs the
  probe that part only;
- sections(): several probes in one translation unit, each function after
  a section marker of its own, the assembly cut back into their parts.

The engine knows C and assembly, nothing of ioctl numbers: the tests that
check the registry's numbers against gcc use it as they use gcc itself."""

import contextlib
import os
import re
import shlex
import subprocess
import tempfile
from dataclasses import dataclass

from . import Error, read_text

MARKER = re.compile(r'->(\w+) (\d+)(?: [$#]?(-?\d+))?')
# file:line[:col]: [fatal ]error|warning|note: message
DIAG = re.compile(r'^(.*?):(\d+):(?:(\d+):)? (?:fatal )?(error|warning|note): (.*)$')


def marker(tag, i, expr=None):
    """A statement whose assembly carries "->TAG i <value of expr>", or
    "->TAG i" without expr: that the line was compiled (an #ifdef taken)."""
    if expr is None:
        return f'asm volatile(".ascii \\"->{tag} {i}\\"");'
    return f'asm volatile(".ascii \\"->{tag} {i} %0\\"" :: "i"({expr}));'


def top_marker(tag, i):
    """marker() without a value, outside any function (file-scope asm takes
    no volatile)."""
    return f'__asm__(".ascii \\"->{tag} {i}\\"");'


def values(asm, tag):
    """{i: value} of the TAG markers with a value in assembly text."""
    return {int(i): int(v) for t, i, v in MARKER.findall(asm) if t == tag and v}


def markers(asm, mask=0xffffffff):
    """{(tag, i): value & mask, or None for a marker without one}."""
    return {(t, int(i)): int(v) & mask if v else None for t, i, v in MARKER.findall(asm)}


def sections(asm, tags):
    """[(tag, n, text)] of assembly cut at the markers "->TAG n" of the
    given tags: each function of a shared unit starts with one, and its
    markers follow it, in whatever order the compiler emits the functions."""
    parts = re.split(r'->(' + "|".join(map(re.escape, tags)) + r') (\d+)', asm)
    return [(t, int(n), text) for t, n, text in zip(parts[1::3], parts[2::3], parts[3::3])]


def diagnostics(stderr, kinds=("error",)):
    """[(path, line, col or None, kind, message)] of the compiler's
    diagnostics of those kinds (a `fatal error` is an error)."""
    out = []
    for line in stderr.splitlines():
        m = DIAG.match(line)
        if m and m.group(4) in kinds:
            out.append((m.group(1), int(m.group(2)), int(m.group(3)) if m.group(3) else None,
                        m.group(4), m.group(5)))
    return out


def first_error(stderr, default):
    """The first error's message, for a one-line report."""
    m = re.search(r"error: (.*)", stderr)
    return m.group(1) if m else default


def run(cmd, cwd=None, stdin=None):
    try:
        return subprocess.run(cmd, capture_output=True, text=True, cwd=cwd, input=stdin)
    except OSError as e:
        raise Error(f"error: cannot run {shlex.join(cmd)}: {e.strerror}") from e


def read(path):
    """A probe's assembly (or another output of the compiler) as text."""
    return read_text(path, "reading the probe's output")


@dataclass
class Compiled:
    """One compile of one probe: its assembly, None when it did not
    compile; the compiler's messages and command (for error text)."""
    asm: str
    stderr: str
    cmd: list


def run_source(cmd, source):
    """Run cmd on source, written to a temporary .c file."""
    fd, path = tempfile.mkstemp(suffix=".c")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(source)
        return run(cmd + [path])
    finally:
        os.unlink(path)


def text(cmd, source):
    """Compile one C text to assembly on stdout (cmd with its -S): a probe
    with nothing to keep on disk."""
    r = run_source(cmd + ["-o", "-"], source)
    return Compiled(r.stdout if r.returncode == 0 else None, r.stderr, cmd + ["-o", "-"])


def write(work, stem, source, stale=()):
    """WORK/<stem>.c with source; the outputs of an earlier compile of it
    (<stem>.s and <stem><ext> for ext in stale) removed."""
    base = os.path.join(work, stem)
    for ext in (".s",) + tuple(stale):
        with contextlib.suppress(FileNotFoundError):
            os.remove(base + ext)
    with open(base + ".c", "w", encoding="utf-8") as f:
        f.write(source)


def batch(cmd, sources, work, stale=()):
    """Compile several probes in one compiler run: sources is {stem: C
    text}, written to WORK/<stem>.c (write()); cmd (with its -S) gets the
    file names and runs in WORK.  The compiler goes on past a file that
    fails, so a stem without its .s did not compile: alone() tells why.
    Returns the stems that compiled."""
    for stem, source in sources.items():
        write(work, stem, source, stale)
    run(cmd + [stem + ".c" for stem in sources], cwd=work)
    return {stem for stem in sources if os.path.exists(os.path.join(work, stem + ".s"))}


def alone(cmd, stem, source, work, drop=None):
    """Compile one probe on its own: `cmd -o WORK/<stem>.s WORK/<stem>.c`,
    source() giving its text.  While it fails and drop(stderr) says it left
    something out of the next source() (true), compile again; each round
    must drop something, so the rounds end.  Returns the last Compiled."""
    base = os.path.join(work, stem)
    while True:
        write(work, stem, source())
        full = cmd + ["-o", base + ".s", base + ".c"]
        r = run(full)
        if r.returncode == 0:
            return Compiled(read(base + ".s"), r.stderr, full)
        if drop is None or not drop(r.stderr):
            return Compiled(None, r.stderr, full)
