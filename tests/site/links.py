#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Every link inside a built site reaches something: each relative href of
each page names a file of the site and, with #anchor, an element of that
page with that id (or an <a name>).  A page cut into parts moves its
entries; a link left behind would land on the top of the wrong page.

    links.py SITE_DIR

The decoder's links carry a number, not an anchor, after the '#'
(decoder.html#0x80081272, read by decoder.js): only their page is checked.
Exits 1 and names each broken link (the first 20; then a count).
"""

import os
import sys
from html.parser import HTMLParser
from urllib.parse import unquote, urlsplit

# Pages whose fragment is input for their script, not an anchor.
SCRIPTED = {"decoder.html"}


class Page(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.ids, self.hrefs = set(), []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if a.get("id"):
            self.ids.add(a["id"])
        if tag == "a" and a.get("name"):
            self.ids.add(a["name"])
        if tag == "a" and a.get("href"):
            self.hrefs.append(a["href"])


def main(site):
    pages = {}
    for d, dirs, files in os.walk(site):
        dirs[:] = sorted(x for x in dirs if not x.startswith("_"))
        for fn in sorted(files):
            if fn.endswith(".html"):
                p = Page()
                with open(os.path.join(d, fn), encoding="utf-8") as f:
                    p.feed(f.read())
                pages[os.path.relpath(os.path.join(d, fn), site)] = p
    broken, links = [], 0
    for rel, p in sorted(pages.items()):
        for href in p.hrefs:
            u = urlsplit(href)
            if u.scheme or u.netloc or href.startswith("//"):
                continue		# outside the site
            links += 1
            target = os.path.normpath(os.path.join(os.path.dirname(rel), unquote(u.path))) \
                if u.path else rel
            if target not in pages:
                if not os.path.exists(os.path.join(site, target)):
                    broken.append(f"{rel}: {href}: no such file")
                continue
            if u.fragment and os.path.basename(target) not in SCRIPTED and \
                    unquote(u.fragment) not in pages[target].ids:
                broken.append(f"{rel}: {href}: no id {u.fragment!r} on {target}")
    for b in broken[:20]:
        print(f"# {b}")
    if len(broken) > 20:
        print(f"# ... and {len(broken) - 20} more")
    print(f"# {links} links inside the site on {len(pages)} pages, {len(broken)} broken")
    return 1 if broken else 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: links.py SITE_DIR")
    sys.exit(main(sys.argv[1]))
