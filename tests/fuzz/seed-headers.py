# SPDX-License-Identifier: GPL-2.0
"""Fuzz seeds small enough to mutate: for each header spec of SPEC_DIR, one
input (tests/fuzz/pack format) with layouts.yaml, the x86_64 and i386 ABIs,
magic.yaml, and those two ABIs' sizes cut down to the types and names this
header uses, so that the seed checks as the header does in the registry.

usage: seed-headers.py SPEC_DIR OUT_DIR"""

import os
import re
import sys

import yaml

spec, out = sys.argv[1], sys.argv[2]
SPDX = "# SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note\n"
ABIS = ("x86_64", "i386")
os.makedirs(out, exist_ok=True)


def read(rel):
    with open(os.path.join(spec, rel), encoding="utf-8") as f:
        return f.read()


def dump(data):
    return SPDX + yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=1000)


abis = yaml.safe_load(read("abis.yaml"))
abis["abis"] = [a for a in abis["abis"] if a["name"] in ABIS]
sizes = {a: yaml.safe_load(read(f"sizes/{a}.yaml")) for a in ABIS
         if os.path.exists(os.path.join(spec, f"sizes/{a}.yaml"))}
common = [("layouts.yaml", read("layouts.yaml")), ("abis.yaml", dump(abis)),
          ("magic.yaml", read("magic.yaml"))]

for root, dirs, files in os.walk(os.path.join(spec, "headers")):
    dirs.sort()
    for f in sorted(files):
        if not f.endswith(".yaml"):
            continue
        rel = os.path.relpath(os.path.join(root, f), spec)
        text = read(rel)
        hdr = yaml.safe_load(text)
        types, names = {"int", "size_t"}, set()
        for c in hdr.get("commands") or []:
            names.add(c.get("name"))
            for t in (c.get("type"), (c.get("legacy") or {}).get("passes"),
                      (c.get("legacy") or {}).get("spell-as")):
                if isinstance(t, str):
                    types.add(t)
        parts = list(common)
        for a, s in sizes.items():
            cut = {"abi": s["abi"], "doc": s["doc"],
                   "sizes": {k: v for k, v in s["sizes"].items() if k in types}}
            absent = [n for n in s.get("absent") or [] if n in names]
            if absent:
                cut["absent"] = absent
            parts.append((f"sizes/{a}.yaml", dump(cut)))
        parts.append((rel, text))
        name = "hdr-" + re.sub(r"[^A-Za-z0-9_.-]", "_", rel[len("headers/"):-5])
        with open(os.path.join(out, name), "w", encoding="utf-8") as fh:
            for r, t in parts:
                fh.write(f"#@ {r}\n{t}")
