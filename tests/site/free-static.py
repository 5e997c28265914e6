#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""tests/site/free-static.py SITE_DIR SPEC_DIR: the free codes page shows
what `ioctlgen free --json --spec SPEC_DIR` answers now, code by code and
range by range (the page is made from a file the Makefile wrote; this asks
ioctlgen again).  Exit 0 when they agree, else print the differences."""
import html
import json
import os
import re
import subprocess
import sys

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
site, spec = sys.argv[1], sys.argv[2]
answer = json.loads(subprocess.run([os.path.join(TOP, "build", "ioctlgen"), "free", "--json",
                                    "--spec", spec], capture_output=True, text=True,
                                   check=True).stdout)
want = {c["code"]: [(r["first"], r["last"]) for r in c["free"]] for c in answer["codes"]}
page = open(os.path.join(site, "free.html")).read()
got = {}
whole = re.search(r'<p class="ioc-free-whole">(.*?)</p>', page, re.S)
for code in re.findall(r"<code>0x([0-9a-f]{2})", whole.group(1) if whole else ""):
    got[int(code, 16)] = [(0, 255)]
for code, cell in re.findall(r'<tr data-code="(\d+)"><td>.*?</td><td>(.*?)</td>', page, re.S):
    got[int(code)] = [(int(a, 16), int(b or a, 16)) for a, b in
                      re.findall(r"0x([0-9a-f]{2})(?:-0x([0-9a-f]{2}))?", html.unescape(cell))]
diff = sorted(set(want) ^ set(got)) + sorted(c for c in want if c in got and want[c] != got[c])
print(f"# free page: {len(got)} codes, {sum(b - a + 1 for r in got.values() for a, b in r)} "
      f"free nrs; ioctlgen: {len(want)} codes; {len(page)} bytes")
if diff or not want:
    print("# differ at codes " + ", ".join(f"0x{c:02x}" for c in diff[:20]))
    sys.exit(1)
