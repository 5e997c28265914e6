# SPDX-License-Identifier: GPL-2.0
"""The site's free codes page: what `ioctlgen free --json` wrote, as rows.

Nothing is computed here but the layout: which codes are free whole and
which have free ranges, as ioctlgen's answer lists them (tests/free/run
checks that answer; tests/site/run checks the page against it).
"""
import json


def code_label(code, char):
    return f"0x{code:02x}" + (f" {char}" if char else "")


def free_view(path, pages):
    """The free page's context from ioctlgen free's JSON at path (None: not
    given); pages: the codes that have a magic-code page."""
    if not path:
        return None
    with open(path) as f:
        data = json.load(f)
    whole, partly = [], []
    for c in data["codes"]:
        ranges = [(r["first"], r["last"]) for r in c["free"]]
        v = {"code": c["code"], "label": code_label(c["code"], c["char"]),
             "page": f"magic/0x{c['code']:02x}.html" if c["code"] in pages else None,
             "rows": c["rows"], "used": c["used"], "count": c["free-count"],
             "ranges": [f"0x{a:02x}" if a == b else f"0x{a:02x}-0x{b:02x}" for a, b in ranges]}
        if not c["rows"] and not c["used"] and ranges == [(0, 255)]:
            whole.append(v)
        else:
            partly.append(v)
    return {"whole": whole, "partly": partly, "min": data["min"]}
