# SPDX-License-Identifier: GPL-2.0
"""tools/use-tree: the registry's edits not committed yet
(pipeline.uncommitted names the files).  The copy of the registry holds
them as they are; the summary names them, and the commands on the entries
they change, so that a new driver not committed yet reads as a change of
the registry, not as something the tree lacks."""

import os
import subprocess

from . import TOP


def changed_commands(spec_from, doc):
    """The names of doc's commands (doc: a dump of spec_from) whose entry
    changed since the last commit, as tools/changed-entries finds them for
    make: a file not committed yet is changed whole."""
    d = os.path.dirname(os.path.abspath(spec_from))
    r = subprocess.run([os.path.join(TOP, "tools", "changed-entries"),
                        os.path.basename(os.path.abspath(spec_from))],
                       capture_output=True, text=True, cwd=d)
    spans = {}
    for arg in r.stdout.split():
        f, _, span = arg.partition(":")
        a, _, b = span.partition("-")
        spans.setdefault(os.path.normpath(os.path.join(d, f)), []).append(
            (int(a), int(b)) if span else (0, float("inf")))
    out = set()
    for h in doc["headers"]:
        for c in h["commands"]:
            f, line = c["source"].rsplit(":", 2)[:2]
            if any(a <= int(line) <= b for a, b in spans.get(os.path.normpath(os.path.join(TOP, f)), ())):
                out.add(c["name"])
    return sorted(out)
