#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Print the key paths of a JSON model, one a line, sorted: `.headers[].commands[].name`.
The keys of `numbers` are ABI names and print as `*`; so do those of
`numbers-by-version` (version names) and of each of its entries (ABI names),
those of `not-measured` (ABI names) and those of a magic-code row's
`doc-since` (version names).

usage: keys.py MODEL.json
       keys.py --doc CONTRACTS.md    the example under "## The JSON model"
"""
import json
import re
import sys


def paths(v, at, out):
    if isinstance(v, dict):
        for k, sub in v.items():
            wild = at.endswith(".numbers") or at.endswith(".numbers-by-version") or \
                at.endswith(".numbers-by-version.*") or at.endswith(".doc-since") or \
                at.endswith(".not-measured")
            key = f"{at}.{'*' if wild else k}"
            out.add(key)
            paths(sub, key, out)
    elif isinstance(v, list):
        for sub in v:
            paths(sub, at + "[]", out)


def doc_example(path):
    text = open(path, encoding="utf-8").read()
    m = re.search(r"^## The JSON model.*?^```json\n(.*?)^```", text, re.S | re.M)
    if not m:
        sys.exit(f"{path}: no ```json block under '## The JSON model'")
    return json.loads(m.group(1))


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--doc":
        doc = doc_example(sys.argv[2])
    elif len(sys.argv) == 2:
        # Raw, not through model_reader: the keys of whatever model-version
        # ioctlgen wrote, so that a raised IOCTLGEN_MODEL_VERSION gets its
        # key list (run --update) whatever version the Python package reads.
        doc = json.load(open(sys.argv[1], encoding="utf-8"))
    else:
        sys.exit(__doc__)
    out = set()
    paths(doc, "", out)
    print("\n".join(sorted(out)))


main()
