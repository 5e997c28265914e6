# SPDX-License-Identifier: GPL-2.0
"""What the scripts of tests/render/ share: the paths, the fixture model
(ioctlgen's model of tests/fixtures/render/spec) rendered, TAP lines
(tests/lib/tap.py), and small text helpers."""

import os
import re
import shutil
import subprocess

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from ioctltools import model_reader, render  # noqa: E402
import fixtures  # noqa: E402
import tap as taplib  # noqa: E402

PY = "/usr/bin/python3"
KSRC = os.path.join(TOP, "build/linux-source-6.1")
FIXTURE = fixtures.model("render")   # ioctlgen's model of tests/fixtures/render/spec
GOLDEN = os.path.join(TOP, "tests/render/golden")
MODEL = os.path.join(TOP, "build/model.json")
SERIES = os.path.join(TOP, "generated-patches")	# one directory per known version
# The golden files cover what this suite's owner renders; ioctl-number.rst
# has its own tests (rst-roundtrip).
GOLDEN_PREFIXES = ("include/", "arch/")


def tap(ok, text, detail=None):
    """ok/not ok N - text; on failure, the first 40 lines of detail."""
    lines = str(detail).rstrip("\n").split("\n")[:40] if detail else []
    return taplib.check(ok, text, ["  " + line for line in lines])


def need_ioctlgen(what):
    """build/ioctlgen, or None after a failed test that says what needs it."""
    ioctlgen = os.path.join(TOP, "build/ioctlgen")
    if os.path.exists(ioctlgen):
        return ioctlgen
    tap(False, f"{what}: build/ioctlgen is missing (make)")
    return None


def copy_spec(spec, d):
    """A copy of the registry spec to change, d/spec."""
    out = os.path.join(d, "spec")
    shutil.copytree(spec, out)
    return out


def model_of(ioctlgen, spec, path, what):
    """ioctlgen's model of spec, written to path and read; None after a
    failed test, what, with ioctlgen's complaint."""
    r = run([ioctlgen, "model", spec, "-o", path])
    if r.returncode:
        tap(False, what, r.stderr[-800:])
        return None
    return model_reader.load(path)


def need_tree():
    """Every script needs the pristine tree: stop at once without it."""
    if not os.path.isdir(KSRC):
        taplib.not_ok("the pristine tree build/linux-source-6.1 is missing (make tree)")
        taplib.done()


def fixture():
    return model_reader.load(FIXTURE)


def rendered(model):
    return {o.path: o.text for o in render.render_all(model, KSRC)}


def first_diff(a, b):
    al, bl = a.split("\n"), b.split("\n")
    for i, (x, y) in enumerate(zip(al, bl)):
        if x != y:
            return f"line {i + 1}:\n- {x}\n+ {y}"
    return f"length differs: {len(al)} vs {len(bl)} lines"


def run(cmd, cwd=TOP, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, cwd=cwd, **kw)


def define_line(text, name):
    for line in text.split("\n"):
        if re.match(r"#\s*define\s+%s\b" % re.escape(name), line):
            return line
    return None
