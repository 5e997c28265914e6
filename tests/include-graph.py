#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The include graph of the C sources has no cycle (the design rule "no circle,
no arrow back up").  Every #include "FILE" of generator/, generator/cli/
and libioctlreg/, resolved as the compiler does (the including file's
directory, then -Igenerator -Ilibioctlreg, as the Makefile gives them),
is an edge; a depth-first walk finds any cycle and prints it.  A test of
the walk itself: a made-up graph with a cycle must be found to have one.
Usage: tests/include-graph.py   (TAP output)"""

import os
import re

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
import tap  # noqa: E402

DIRS = ("generator", "generator/cli", "libioctlreg")
SEARCH = ("generator", "libioctlreg")	# -I, in the Makefile's order
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def sources():
    out = []
    for d in DIRS:
        for f in sorted(os.listdir(os.path.join(TOP, d))):
            if f.endswith((".c", ".h")):
                out.append(os.path.join(d, f))
    return out


def resolve(src, name):
    """The repository path #include "name" in src reads, or None (not ours)."""
    for d in (os.path.dirname(src),) + SEARCH:
        p = os.path.normpath(os.path.join(d, name))
        if os.path.isfile(os.path.join(TOP, p)):
            return p
    return None


def graph():
    g, missing = {}, []
    for src in sources():
        with open(os.path.join(TOP, src), encoding="utf-8") as f:
            text = f.read()
        g[src] = []
        for name in INCLUDE.findall(text):
            p = resolve(src, name)
            if p is None:
                missing.append(f"{src}: #include \"{name}\"")
            else:
                g[src].append(p)
    return g, missing


def cycle(g):
    """One cycle of g as a list of nodes (first == last), or None."""
    state, stack = {}, []

    def visit(n):
        state[n] = "open"
        stack.append(n)
        for m in g.get(n, ()):
            if state.get(m) == "open":
                return stack[stack.index(m):] + [m]
            if m not in state:
                found = visit(m)
                if found:
                    return found
        stack.pop()
        state[n] = "done"
        return None

    for n in sorted(g):
        if n not in state:
            found = visit(n)
            if found:
                return found
    return None


def main():
    t = tap.Tap()
    t.check(cycle({"a.h": ["b.h"], "b.h": ["c.h"], "c.h": ["a.h"], "x.c": ["a.h"]}) ==
            ["a.h", "b.h", "c.h", "a.h"], "the walk finds a made-up cycle a.h -> b.h -> c.h -> a.h")
    t.check(cycle({"a.h": ["b.h", "c.h"], "b.h": ["c.h"], "c.h": [], "x.c": ["a.h"]}) is None,
            "and no cycle in a made-up graph without one")
    g, missing = graph()
    edges = sum(len(v) for v in g.values())
    t.check(not missing, f"every #include \"...\" of {', '.join(DIRS)} is a file of the repository",
            missing)
    found = cycle(g)
    t.check(found is None, f"the include graph ({len(g)} files, {edges} includes) has no cycle",
            " -> ".join(found or ()))
    t.done()


if __name__ == "__main__":
    main()
