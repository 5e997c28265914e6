#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Propose lines of spec/consumers/strace.txt for the names strace prints
that the registry does not give that number and that the file does not
explain yet: the kind and category from where the kernel trees define the
name (build/linux-source-6.1, then 6.12).  Its output is for review, not
for the file as it is: read each line, then add it.

    tests/consumers/propose_strace_notes.py > /tmp/proposed.txt"""

import os
import re
import subprocess

import strace_live as live  # noqa: E402
from ioctltools import consumer_notes, regindex, strace_elf  # noqa: E402

TREES = [os.path.join(live.TOP, "build", f"linux-source-{v}") for v in ("6.1", "6.12")]
PLAIN = re.compile(r"^\(?\s*(0x[0-9a-fA-F]+|[0-9]+)[uUlL]*\s*\)?\s*(/\*.*)?$")


def definitions(names, tree):
    """{name: (path, kind, value)}: where a tree defines each name, UAPI first."""
    alt = "|".join(sorted(names))
    pat = rf"^\s*#\s*define\s+({alt})\b|^\s*({alt})\s*=|^\s*({alt})\s*,?\s*$"
    res = subprocess.run(["grep", "-rnE", "--include=*.h", pat, "."], cwd=tree,
                         capture_output=True, text=True)
    found = {}
    for line in res.stdout.splitlines():
        path, _, text = line.split(":", 2)
        path = path[2:]
        m = re.match(rf"^\s*#\s*define\s+({alt})\b(.*)$", text)
        kind, name, value = ("define", m[1], m[2].strip()) if m else ("enum", None, "")
        if not m:
            name = re.match(rf"^\s*({alt})\b", text)[1]
        # the generic UAPI first (fb.h's FBIOGETCMAP, not sparc's fbio.h)
        where = 0 if path.startswith("include/uapi") else 1 if "/uapi/" in path else 2
        rank = (where, 0 if kind == "define" else 1)
        if name not in found or rank < found[name][0]:
            found[name] = (rank, path, kind, value)
    return {n: v[1:] for n, v in found.items()}


ZFS = ("ZFS_", "KSTAT_IOC_", "BLKZNAME")
# strace's own decoders name numbers by type and nr alone: the size or the
# direction the kernel's macro fixes, which they do not look at.
DECODED = {"MIXER_READ": ("size", 4), "MIXER_WRITE": ("size", 4),
           "HIDIOCSFEATURE": ("dir", 3), "HIDIOCGFEATURE": ("dir", 3)}


def propose(name, number, view, defs):
    if name in DECODED:
        what, want = DECODED[name]
        have = view.field(number, what)
        if have != want:
            return (f"{name} {number:#x} wrong-number: strace's decoder names it by type and "
                    f"nr alone; the kernel's {name} has {what} {want}, this number {have}")
    if name in view.by_name:
        have = view.by_name[name].number
        return (f"{name} {number:#x} wrong-number: strace has size field "
                f"{view.field(number, 'size')}, the registry measures "
                f"{view.field(have, 'size')} on x86_64 ({have:#x})")
    if name not in defs:
        why = ("strace's ZFS table (OpenZFS and its SPL, not Linux)" if name.startswith(ZFS)
               else "no header of Linux 6.1 or 6.12 defines it (kept by strace from an older kernel)")
        return f"{name} {number:#x} not-in-kernel: {why}"
    path, kind, value = defs[name]
    tree_path = path.replace("include/uapi/", "").replace("include/", "")
    if "/uapi/" not in path and not path.startswith("include/uapi"):
        cat = "kernel-internal"
    elif "android/binder.h" in path:
        cat = "protocol-code"
    elif kind == "enum":
        cat = "enum"
    elif PLAIN.match(value):
        cat = "plain-number"
    else:
        cat = "macro"
    return f"{name} {number:#x} not-in-registry/{cat}: {tree_path} ({path})"


def main():
    view = regindex.AbiView(regindex.load_model(live.MODEL), live.ABI, live.VERSION)
    table = strace_elf.native_table(live.STRACE)
    notes = consumer_notes.read(live.NOTES)
    numbers, printed = live.probe(view, table)
    todo = [(name, n) for n in numbers for name in printed[n]
            if name not in {e.name for e in view.names_for(n)} and (name, n) not in notes]
    defs = {}
    for tree in TREES:
        left = {name for name, _ in todo} - set(defs)
        if left and os.path.isdir(tree):
            defs.update(definitions(left, tree))
    for name, n in todo:
        print(propose(name, n, view, defs))


if __name__ == "__main__":
    main()
