#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""generator/ioctltools/site_parts.py on made-up entries: what fits stays one run; a
heavy list is cut only between keys, keeps its order and every item once,
and no run outweighs the budget unless one key alone does; a magic code's
parts cover nr 0x00-0xff without gap or overlap.  Exits 1 naming what
failed.  (The built sites are weighed by page-weight.py.)"""

import sys

from ioctltools import site_parts  # noqa: E402

failed = []


def expect(cond, what):
    if not cond:
        failed.append(what)


w = lambda x: x[1]		# (key, weight)
k = lambda x: x[0]
items = [(0, 10), (0, 10), (1, 30), (2, 5)]
expect(site_parts.pack(items, k, w, budget=55) == [items], "a list that fits is one run")

items = [(n // 3, 7 + n % 5) for n in range(300)]	# 100 keys of 3 items
runs = site_parts.pack(items, k, w, budget=120)
expect([x for r in runs for x in r] == items, "the runs hold every item once, in order")
expect(all(sum(map(w, r)) <= 120 for r in runs), "no run outweighs the budget")
expect(all(k(a[-1]) != k(b[0]) for a, b in zip(runs, runs[1:])), "no key is cut")
expect(all(sum(map(w, a + b)) > 120 for a, b in zip(runs, runs[1:])),
       "no two neighbouring runs would fit in one (no needless cut)")

heavy = [(0, 50), (1, 200), (2, 50)]
runs = site_parts.pack(heavy, k, w, budget=100)
expect([(1, 200)] in runs and [x for r in runs for x in r] == heavy,
       "a key heavier than the budget is a run of its own")


def cmd(nr, doc):
    return {"name": f"C{nr}", "header": f"h{nr % 3}.h", "spelling": "#define C",
            "findings": [], "groups": [{"abis": ["x86_64"]}], "absent": [],
            "not_measured": "", "c": {"nr": nr, "doc": doc, "variants": []}}


cmds = [cmd(nr, "x" * 3000) for nr in range(0, 256, 2) for _ in range(2)]
parts = site_parts.magic_parts("magic/0x64", cmds)
expect(parts is not None and len(parts) > 1, "a heavy code is cut")
if parts:
    expect(parts[0]["first"] == 0 and parts[-1]["last"] == 0xff, "the parts cover 0x00-0xff")
    expect(all(a["last"] + 1 == b["first"] for a, b in zip(parts, parts[1:])),
           "the parts' nr ranges meet")
    expect(all(p["first"] <= c["c"]["nr"] <= p["last"] for p in parts for c in p["commands"]),
           "each command is on the part of its nr")
    expect(len({p["page"] for p in parts}) == len(parts), "each part its own page")
expect(site_parts.magic_parts("magic/0x12", cmds[:4]) is None, "a light code stays whole")

for f in failed:
    print(f"# site_parts: {f}")
sys.exit(1 if failed else 0)
