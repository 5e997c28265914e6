#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Add what the browser must see of a registry's history to the expectations
of tests/site/browser.js (tests/site/run):

    history-expect.py EXPECT_FILE MODEL SPEC_DIR [QUERY]

Nothing is added for a model without versions.  The rows' and commands'
versions come from the model (ioctlgen); the decoder's words for each
command come from `build/ioctlgen decode --spec SPEC_DIR`, so the page must
say what the command line says.  QUERY (default: the expectation's command)
is typed into the registry filter with each version picked.
"""

import json
import re
import subprocess
import sys

from ioctltools import model_reader

expect_file, model_file, spec = sys.argv[1:4]
with open(expect_file, encoding="utf-8") as f:
    e = json.load(f)
m = model_reader.load(model_file)
known = [v["name"] for v in m["versions"]]
if not known:
    sys.exit(0)
query = sys.argv[4] if len(sys.argv) > 4 else e["command"]
cmds = [c for _, c in model_reader.commands(m)]


def short(have):
    return f"{have[0]} only" if len(have) == 1 and len(known) > 1 else ", ".join(have)


rows = {f"row-{i}": r["versions"] for i, r in enumerate(m["magic-codes"])}
registered = {r["code"] for r in m["magic-codes"]}
for c in cmds:		# a code no row registers: where its commands are
    if c["magic"] is not None and c["magic"] not in registered:
        rows.setdefault(f"code-{c['magic']}", [])
        rows[f"code-{c['magic']}"] = [v for v in known if v in rows[f"code-{c['magic']}"] or
                                      v in c["versions"]]

abi = m["abis"][0]["name"]
tags = {}		# name -> the words of ioctlgen decode, per number on the first ABI
decode = []
for c in cmds:
    n = c["numbers"].get(abi)
    if n is None or (c["versions"] == known and c["name"] != e["command"]):
        continue
    out = subprocess.run(["build/ioctlgen", "decode", "--spec", spec, "--abi", abi, n["hex"]],
                         capture_output=True, text=True, check=True).stdout
    line = [l for l in out.splitlines() if l.strip().startswith(abi + " ")][-1]
    pairs = []
    # NAME (header) [tag], alias NAME (header) [tag] or NAME (header) [tag]
    for piece in re.split(r" or |, alias ", line.strip()[len(abi):].strip()):
        name = re.sub(r"\(.*\)$", "", piece.split()[0])	# a family member: SPI_IOC_MESSAGE(2)
        tag = next((t for t in re.findall(r"\[([^\]]*)\]", piece)
                    if re.search(r"only|new in|removed in| to ", t)), "")
        pairs.append([name, tag])
        if name == c["name"]:
            tags[name] = tag
    if c["name"] == e["command"]:	# the first decode: the file:// test clicks it
        e["decode"].insert(0, {"number": n["hex"], "abi": abi, "names": [c["name"]],
                               "versions": pairs})
    else:
        decode.append({"number": n["hex"], "abi": abi, "names": [c["name"]],
                       "text": [f"[{t}]" for _, t in pairs if t], "versions": pairs})
e["decode"] += decode

e["history"] = {
    "versions": known,
    "rows": {k: short(v) for k, v in rows.items()},
    "rows_in": {v: sorted(k for k, have in rows.items() if v in have) for v in known},
    "query": query,
    "names_in": {v: sorted(c["name"] for c in cmds if query.lower() in c["name"].lower() and
                           v in c["versions"]) for v in known},
    "names_all": sorted(c["name"] for c in cmds if query.lower() in c["name"].lower()),
    "tags": {k: v for k, v in tags.items() if v},
    "pages": [{"doc": f"{kind}-in-{v}", "version": v, "kind": kind,
               "rows": sorted(f"row-{i}" for i, r in enumerate(m["magic-codes"])
                              if r["since" if kind == "new" else "removed"] == v),
               "commands": sorted(c["name"] for c in cmds
                                  if c["since" if kind == "new" else "removed"] == v)}
              for v in known[1:] for kind in ("new", "removed")],
}
with open(expect_file, "w", encoding="utf-8") as f:
    json.dump(e, f)
