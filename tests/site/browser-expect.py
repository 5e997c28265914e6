#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""tests/site/browser-expect.py CHECKS OVER MODEL EXPECT_JSON: write the
browser tests' expectations (tests/site/browser.js) for the site of MODEL.

CHECKS is the run's JSON of hand-picked checks, OVER a JSON object whose
keys replace CHECKS' (another registry's command and page).  The decode
checks are kept for the ABIs and names MODEL has; the counts, the plain
command and every command's number on every ABI come from the model
(ioctlgen's encoding), not from the decoder under test.  history-expect.py
and log-expect.py then add to EXPECT_JSON."""
import json
import sys

from ioctltools import model_reader

checks, over, model_path, out = sys.argv[1:5]
m = model_reader.load(model_path)
e = json.loads(checks)
e.update(json.loads(over))
names = {c["name"] for _, c in model_reader.commands(m)}
abis = {a["name"] for a in m["abis"]}
e["decode"] = [d for d in e["decode"] if d["abi"] in abis and
               all(n in names for n in d["names"])]
e["min_rows"] = len(m["magic-codes"])
e["plain"] = next((c["name"] for _, c in model_reader.commands(m)
                   if c["name"] == "SIOCGIFCONF" and c["number"] is not None), None)
e["abis"] = len(m["abis"])
e["abis_named"] = sorted(abis)
# Every command on every ABI as ioctlgen encoded it: the decoder must split
# each number back into the command's own fields and find its name.
# A size beyond the layout's size field (an accepted size-overflow) spills
# into the dir bits, and the decoder rightly reads what the kernel reads:
# those pairs are left out here.
size_max = {a["name"]: (1 << lay["size-bits"]) - 1 for a in m["abis"]
            for lay in m["layouts"] if lay["name"] == a["layout"]}


def nr_on(c, abi):
    """A command with variants has the variant's nr on its ABIs."""
    return next((v["nr"] for v in c.get("variants", []) if abi in v["abis"]), c["nr"])


# A plain number, or a name defined as another's (SIOCINQ), has no fields of
# its own: the model splits it per ABI.
e["every"] = [[c["name"], abi, n["number"], c["dir"], c["magic"], nr_on(c, abi), n["size"], 0]
              if c["macro"] is not None else
              [c["name"], abi, n["number"], n["dir"], n["type"], n["nr"], n["size"], 1]
              for _, c in model_reader.commands(m)
              for abi, n in c["numbers"].items()
              if n["size"] is None or n["size"] <= size_max[abi]]
with open(out, "w") as f:
    json.dump(e, f)
