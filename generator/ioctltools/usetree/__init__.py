# SPDX-License-Identifier: GPL-2.0
"""tools/use-tree's stages (`make TREE=DIR`), a module each: snapshot (the
tree, its version, the copy of the registry), headers (headers_install per
ARCH), steps (import, sizes, check, model, patches, publish), verify, and
flow, which runs them in order.  Here: what they share (paths, messages,
small file helpers)."""

import json
import os
import sys
import time

from .. import TOP, registry
PROG = "tools/use-tree"
PY = "/usr/bin/python3"
IOCTLGEN = registry.IOCTLGEN
RST = "Documentation/userspace-api/ioctl/ioctl-number.rst"
# Make's own variables must not reach the kernel's make.
MAKE_ENV = ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES", "GNUMAKEFLAGS")


class Fail(Exception):
    """A step failed: the message says which and where its log is."""


def die(msg, status=2):
    print(f"{PROG}: error: {msg}", file=sys.stderr)
    sys.exit(status)


def rel(p):
    """p relative to the project when it is inside it."""
    r = os.path.relpath(p, TOP)
    return p if r.startswith("..") else r


def vkey(v):
    return tuple(int(x) for x in v.split("."))


def say(step, text):
    print(f"  {step:<7} {text}", flush=True)


class Clock:
    def __init__(self):
        self.times = []

    def step(self, name):
        self.times.append([name, time.monotonic()])

    def report(self):
        end = time.monotonic()
        out = []
        for i, (name, t) in enumerate(self.times):
            t2 = self.times[i + 1][1] if i + 1 < len(self.times) else end
            out.append(f"{name} {t2 - t:.0f}s")
        return ", ".join(out)


def write_json(path, doc):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(doc, f, sort_keys=True)
    os.replace(tmp, path)


def read_json(path):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def tail(path, n=25):
    try:
        with open(path, errors="replace") as f:
            lines = f.read().splitlines()
    except OSError:
        return ""
    return "\n".join(lines[-n:])
