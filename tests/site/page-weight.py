#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""What each page of a built site weighs before its own data (no
page over 300 KB): the HTML plus every stylesheet it links (and what those
@import) and every script it loads, as bytes on disk, uncompressed.  Left
out: the data files a page fetches for what it shows (DATA below: the
decoder's and the registry filter's data, Sphinx's search index), which
the issue counts apart.  Also counts the elements of the heaviest page
and names the page with the most.

    page-weight.py SITE_DIR [--max BYTES] [--top N]

Prints the heaviest pages as TAP comments; exits 1 when a page weighs more
than --max (default 300 KB), naming it.
"""

import argparse
import html
import os
import re
import sys
from html.parser import HTMLParser

# Data a page loads for what it shows, by file name: the registry's data
# (generator/ioctltools/render_site.py's DATA_FILE, in parts once it is split) and
# Sphinx's search index (search.html's).
DATA = re.compile(r"^(ioctl-data.*\.js|searchindex\.js)$")
ASSET = re.compile(r"<(?:link\b[^>]*\brel=\"stylesheet\"[^>]*|script\b[^>]*)>")
IMPORT = re.compile(r"@import\s+url\(\"?([^\")]+)\"?\)")


class Count(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.n = 0

    def handle_starttag(self, tag, attrs):
        self.n += 1


def asset_bytes(path, seen):
    """path's bytes and, for a stylesheet, those of what it imports."""
    if path in seen or not os.path.isfile(path):
        return 0
    seen.add(path)
    n = os.path.getsize(path)
    if path.endswith(".css"):
        with open(path, encoding="utf-8", errors="replace") as f:
            for ref in IMPORT.findall(f.read()):
                n += asset_bytes(os.path.normpath(os.path.join(os.path.dirname(path), ref)), seen)
    return n


def weigh(site, rel):
    """(bytes, assets missing) of one page."""
    path = os.path.join(site, rel)
    with open(path, "rb") as f:
        raw = f.read()
    total, seen, missing = len(raw), set(), []
    for tag in ASSET.findall(raw.decode("utf-8", "replace")):
        m = re.search(r"\b(?:href|src)=\"([^\"]+)\"", tag)
        if not m or re.match(r"^[a-z]+:", m.group(1)):
            continue
        ref = html.unescape(m.group(1)).split("?")[0].split("#")[0]
        if DATA.match(os.path.basename(ref)):
            continue
        dst = os.path.normpath(os.path.join(os.path.dirname(path), ref))
        if not os.path.isfile(dst):
            missing.append(ref)
        total += asset_bytes(dst, seen)
    return total, missing


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("site")
    ap.add_argument("--max", type=int, default=300 * 1024)
    ap.add_argument("--top", type=int, default=5)
    a = ap.parse_args()
    pages = []
    for d, dirs, files in os.walk(a.site):
        dirs[:] = sorted(x for x in dirs if not x.startswith("_"))
        pages += [os.path.relpath(os.path.join(d, fn), a.site) for fn in files
                  if fn.endswith(".html")]
    weights = sorted(((weigh(a.site, p), p) for p in pages), key=lambda x: (-x[0][0], x[1]))
    bad = 0
    for (w, missing), p in weights:
        if missing:
            print(f"# {p}: loads {', '.join(missing)}, which is not there")
            bad = 1
        if w > a.max:
            print(f"# {p}: {w} bytes before its data, over {a.max}")
            bad = 1
    for (w, _), p in weights[:a.top]:
        print(f"# {w:8d} bytes  {p}")
    if weights:
        elements = []
        for p in pages:
            c = Count()
            with open(os.path.join(a.site, p), encoding="utf-8") as f:
                c.feed(f.read())
            elements.append((c.n, p))
        n, most = max(elements)
        print(f"# {len(pages)} pages; the heaviest, {weights[0][1]}, has "
              f"{dict((p, k) for k, p in elements)[weights[0][1]]} elements; "
              f"the most elements: {n} on {most}")
    return bad


if __name__ == "__main__":
    sys.exit(main())
