# SPDX-License-Identifier: GPL-2.0
"""Write a synthetic registry FACTOR times the size of SPEC_DIR into OUT_DIR.

Every header spec is copied FACTOR times: copy r > 0 is <path>_r<r>.h with
every command (and every alias-of target) renamed <NAME>_R<r> and its magic
code moved by 37 * r (mod 256), so that copies carry numbers of their own
as a larger UAPI would (a number two commands share in the original is
shared in each copy too, and an alias names the copy of its command);
each sizes file's `absent:` list grows the same way, so a copy checks as
the original does.  The magic table, layouts and ABIs are kept, so moved
codes give outside-range or unregistered-magic warnings: one per command.

usage: synth.py SPEC_DIR OUT_DIR FACTOR"""

import os
import re
import shutil
import sys

spec, out, factor = sys.argv[1], sys.argv[2], int(sys.argv[3])
shutil.rmtree(out, ignore_errors=True)
NAME = re.compile(r"^(\s*-?\s*(?:name|alias-of):\s*)([A-Za-z_][A-Za-z0-9_]*)(\s*(#.*)?)$")
ITEM = re.compile(r"^(\s*-\s+)([A-Za-z_][A-Za-z0-9_]*)(\s*)$")
QITEM = re.compile(r"^(\s*-\s+)(\S+)\.h:([A-Za-z_][A-Za-z0-9_]*)(\s*)$")   # header:NAME
MAGIC = re.compile(r"""^(\s*-?\s*magic:\s*)(0[xX][0-9a-fA-F]+|[0-9]+|"'(?:.|\\\\.)'")(\s*)$""")
HEADER = re.compile(r"^(header:\s*)(\S+)\.h(\s*)$")



def move(code, r):
    if code.startswith('"'):
        v = ord(code[-3])   # "'E'" or "'\\'"
    else:
        v = int(code, 0)
    return f"0x{(v + 37 * r) % 256:02X}"


for root, dirs, files in os.walk(spec):
    dirs.sort()
    rel = os.path.relpath(root, spec)
    if rel.split(os.sep)[0] == "schema":
        continue
    for f in sorted(files):
        if not f.endswith(".yaml"):
            continue
        src = os.path.join(root, f)
        with open(src, encoding="utf-8") as fh:
            lines = fh.read().split("\n")
        top = rel.split(os.sep)[0]
        os.makedirs(os.path.join(out, rel), exist_ok=True)
        if top == "headers":
            for r in range(factor):
                dst = os.path.join(out, rel, f if r == 0 else f"{f[:-5]}_r{r}.yaml")
                res = []
                for line in lines:
                    if r:
                        line = NAME.sub(lambda m: f"{m[1]}{m[2]}_R{r}{m[3]}", line)
                        line = MAGIC.sub(lambda m: f"{m[1]}{move(m[2], r)}{m[3]}", line)
                        line = HEADER.sub(lambda m: f"{m[1]}{m[2]}_r{r}.h{m[3]}", line)
                    res.append(line)
                with open(dst, "w", encoding="utf-8") as fh:
                    fh.write("\n".join(res))
        elif top == "sizes":
            res, in_absent = [], False
            for line in lines:
                if re.match(r"^absent:", line):
                    in_absent = True
                elif re.match(r"^\S", line):
                    in_absent = False
                res.append(line)
                m = ITEM.match(line) if in_absent else None
                q = QITEM.match(line) if in_absent else None
                if m:
                    res += [f"{m[1]}{m[2]}_R{r}{m[3]}" for r in range(1, factor)]
                elif q:
                    res += [f"{q[1]}{q[2]}_r{r}.h:{q[3]}_R{r}{q[4]}" for r in range(1, factor)]
            with open(os.path.join(out, rel, f), "w", encoding="utf-8") as fh:
                fh.write("\n".join(res))
        else:
            shutil.copy(src, os.path.join(out, rel, f))
