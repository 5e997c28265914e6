# SPDX-License-Identifier: GPL-2.0
"""The site page "Struct layouts" (layouts.rst): every struct and union the
registry defines, as each ABI's compiler lays it out (tools/measure-layouts
writes build/layouts.json; generator/ioctltools/layouts.py measures).  The ABIs
whose layouts are the same share one table; holes and tail padding are rows
of their own.  render_site.py calls page(); without measured layouts the
page says so.  Nothing here computes an offset: it only groups."""

import json
import os

PAGE = "layouts.rst"
TEMPLATE = "layouts.rst.j2"


def groups(t, abis):
    """[([ABI names], layout)] of one type: the ABIs with the same size,
    alignment and rows, in the order of their first ABI."""
    out = []
    for a in abis:
        lay = t["abis"].get(a)
        if lay is None:
            continue
        key = (lay["size"], lay["align"], json.dumps(lay["rows"]))
        for names, other in out:
            if (other["size"], other["align"], json.dumps(other["rows"])) == key:
                names.append(a)
                break
        else:
            out.append(([a], lay))
    return out


def load(path):
    """The types of build/layouts.json, each with its groups; [] without it."""
    if not path or not os.path.exists(path):
        return None	# (not measured, types)
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    return data["not-measured"], [dict(t, name=name, groups=groups(t, data["abis"]),
                                       n_abis=len(data["abis"]))
                                  for name, t in data["types"].items()]


def page(render, layouts_path):
    """Write the page through render(template, rel, **context)."""
    loaded = load(layouts_path)
    render(TEMPLATE, PAGE, types=loaded[1] if loaded else None,
           not_measured=loaded[0] if loaded else [])
