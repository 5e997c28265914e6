#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The history of a built site, read from its HTML (tests/site/run):

    history-static.py WHAT SITE_DIR MODEL [FIXTURE]

WHAT is one of
  registry   the Versions column of the registry table, per row
  entries    the Versions of each command on its magic-code or plain page
  pages      new-in-V.html / removed-in-V.html: exactly the rows and commands
             the model says V adds or removes, links that reach their entries,
             "None" when there are none, and the index's links to them
  data       ioctl-data.js: the versions and the life of each command
  inert      no text of the spec reaches the HTML unescaped
  versionless  a registry without versions shows no trace of history

Exit 0 when right, else 1 with the reasons on stdout (as '# ' lines).
FIXTURE (site-history, golden) adds the words worked out by hand for that
registry; without it the expectations are derived from the model's
versions, with the rule the issue states ("6.1, 6.12", "6.12 only";
"In 6.1 and 6.12", "New in 6.12", "Removed in 6.12").
"""

import html
import os
import re
import sys

from ioctltools import model_reader

# The words a reader sees, written out by hand for the test registries.
HAND = {
    "site-history": {
        "rows": {"00-1F": "6.1, 6.12, 6.13", "20-2F": "6.12, 6.13", "30-3F": "6.1 only",
                 "all": "6.12 only"},
        "entries": {
            "H_ALWAYS": "In 6.1, 6.12 and 6.13",
            "H_OLD": "Removed in 6.13 (in 6.1 and 6.12)",
            "H_MID": "New in 6.12, removed in 6.13 (in 6.12 only)",
            "H_LATEST": "New in 6.13 (in 6.13 only)",
            "H_NEW": "New in 6.12 (in 6.12 and 6.13)",
            "H_GONE": "Removed in 6.12 (in 6.1 only)",
            "H_SMALL": "New in 6.12, removed in 6.13 (in 6.12 only)",
            "H_PLAIN": "New in 6.12 (in 6.12 and 6.13)",
        },
        "pages": {
            "new-in-6.12": (["20-2F", "all"], ["H_MID", "H_NEW", "H_SMALL", "H_PLAIN"]),
            "removed-in-6.12": (["30-3F"], ["H_GONE"]),
            "new-in-6.13": ([], ["H_LATEST"]),
            "removed-in-6.13": (["all"], ["H_MID", "H_OLD", "H_SMALL"]),
        },
    },
    "golden": {
        "rows": {"00-3F": "6.1, 6.12", "30-4F": "6.1, 6.12", "all": "6.1, 6.12",
                 "50-5F": "6.12 only"},
        "entries": {"G_IO": "In 6.1 and 6.12", "G_PLAIN": "In 6.1 and 6.12",
                    "G_GONE": "Removed in 6.12", "G_NEW": "New in 6.12",
                    "G_REUSE": "New in 6.12", "G_LATE": "New in 6.12"},
        "pages": {
            "new-in-6.12": (["50-5F"], ["G_REUSE", "G_NEW", "G_LATE"]),
            "removed-in-6.12": ([], ["G_GONE"]),
        },
    },
}

problems = []


def bad(msg):
    problems.append(msg)


def read(site, rel):
    with open(os.path.join(site, rel), encoding="utf-8") as f:
        return f.read()


def text(fragment):
    return html.unescape(re.sub(r"<[^>]+>", "", fragment)).strip()


def and_join(xs):
    return xs[0] if len(xs) == 1 else ", ".join(xs[:-1]) + " and " + xs[-1]


def short(known, have):
    return f"{have[0]} only" if len(have) == 1 and len(known) > 1 else ", ".join(have)


def sentence(known, have):
    """For two known versions, as the issue words it."""
    if have == known:
        return "In " + and_join(have)
    parts = []
    if have[0] != known[0]:
        parts.append(f"new in {have[0]}")
    if have[-1] != known[-1]:
        parts.append(f"removed in {known[known.index(have[-1]) + 1]}")
    s = ", ".join(parts)
    return s[0].upper() + s[1:]


def commands(model):
    return [c for h in model["headers"] for c in h["commands"]]


def registry(site, model, hand):
    page = read(site, "registry.html")
    known = [v["name"] for v in model["versions"]]
    head = re.search(r"<table id=\"registry-table\".*?<thead>(.*?)</thead>", page, re.S).group(1)
    ths = [text(t) for t in re.findall(r"<th[^>]*>(.*?)</th>", head, re.S)]
    if ths[-1:] != ["Versions"]:
        bad(f"registry head: {ths}")
    opts = re.findall(r"<option value=\"([^\"]*)\">", re.search(
        r"<select id=\"registry-version\">(.*?)</select>", page, re.S).group(1))
    if opts != [""] + known:
        bad(f"version select offers {opts}, not all and {known}")
    body = re.search(r"<table id=\"registry-table\".*?<tbody>(.*?)</tbody>", page, re.S).group(1)
    seen = 0
    for tr in re.findall(r"<tr (.*?)</tr>", body, re.S):
        cells = re.findall(r"<td[^>]*>(.*?)</td>", tr, re.S)
        if len(cells) != len(ths):
            bad(f"a row of {len(cells)} cells under {len(ths)} headings: {tr[:120]}")
            continue
        m = re.search(r"#row-(\d+)\"", cells[0])
        attr = re.search(r"data-versions=\"([^\"]*)\"", tr)
        if m is None:		# a code no row registers
            continue
        seen += 1
        row = model["magic-codes"][int(m.group(1))]
        want = hand["rows"][row["seq"]] if hand else short(known, row["versions"])
        if text(cells[-1]) != want:
            bad(f"row {row['code-text']} {row['seq']}: Versions says {text(cells[-1])!r}, not {want!r}")
        if attr is None or attr.group(1).split() != row["versions"]:
            bad(f"row {row['code-text']} {row['seq']}: data-versions {attr and attr.group(1)}")
    if seen != len(model["magic-codes"]):
        bad(f"{seen} registered rows in the table, {len(model['magic-codes'])} in the model")


def entries(site, model, hand):
    known = [v["name"] for v in model["versions"]]
    got = {}
    for fn in sorted(os.listdir(os.path.join(site, "magic"))):
        page = read(site, "magic/" + fn)
        for sec in page.split("<section id=\"")[1:]:
            name = re.search(r"<h3>(.*?)<a class=\"headerlink\"", sec, re.S)
            dd = re.search(r"<dt>Versions</dt><dd[^>]*>(.*?)</dd>", sec, re.S)
            if name and "<dl class=\"ioc-fields\">" in sec:
                got.setdefault(text(name.group(1)), []).append(dd and text(dd.group(1)))
    # the plain numbers page, or its parts (generator/ioctltools/site_parts.py)
    plain = "".join(read(site, fn) for fn in sorted(os.listdir(site))
                    if re.match(r"plain(-0x[0-9a-f]+)?\.html$", fn))
    for tr in re.findall(r"<tr id=\"[^\"]*\">(.*?)</tr>", plain, re.S):
        name = text(re.search(r"<a class=\"ioc-cmd\"[^>]*>(.*?)</a>", tr).group(1))
        cells = re.findall(r"<td[^>]*>(.*?)</td>", tr, re.S)
        got.setdefault(name, []).append(text(cells[-1]) if len(cells) == 6 else None)
    cmds = commands(model)
    if sum(len(v) for v in got.values()) != len(cmds):
        bad(f"{sum(len(v) for v in got.values())} entries on the pages, {len(cmds)} commands")
    for c in cmds:
        want = hand["entries"].get(c["name"]) if hand else sentence(known, c["versions"])
        if want is not None and want not in got.get(c["name"], []):
            bad(f"{c['name']}: Versions {got.get(c['name'])}, not {want!r}")
    if hand and set(hand["entries"]) - set(got):
        bad(f"no entry for {sorted(set(hand['entries']) - set(got))}")


def pages(site, model, hand):
    known = [v["name"] for v in model["versions"]]
    index = read(site, "index.html")
    names = [f"{k}-in-{v}" for v in known[1:] for k in ("new", "removed")]
    have = sorted(fn[:-5] for fn in os.listdir(site) if re.match(r"(new|removed)-in-.*\.html$", fn))
    if have != sorted(names):
        bad(f"history pages {have}, expected {sorted(names)}")
    for doc in names:
        kind, v = doc.split("-in-")
        if f"href=\"{doc}.html\"" not in index:
            bad(f"index.html does not link to {doc}.html")
        try:
            page = read(site, doc + ".html")
        except OSError:
            continue
        title = text(re.search(r"<h1>(.*?)<a class=\"headerlink\"", page, re.S).group(1))
        if title != f"{'New' if kind == 'new' else 'Removed'} in {v}":
            bad(f"{doc}: title {title!r}")
        key = "since" if kind == "new" else "removed"
        if hand:
            want_rows, want_cmds = hand["pages"][doc]
        else:
            want_rows = [r["seq"] for r in model["magic-codes"] if r[key] == v]
            want_cmds = [c["name"] for c in commands(model) if c[key] == v]
        rows_part, _, cmds_part = page.partition("<h2>Commands")
        got_rows = [text(a).split(" ", 1)[1] for a in
                    re.findall(r"<a href=\"magic/[^\"]*#row-\d+\">(.*?)</a>", rows_part)]
        got_cmds = [text(a) for a in re.findall(r"<a class=\"ioc-cmd\"[^>]*>(.*?)</a>", cmds_part)]
        if sorted(got_rows) != sorted(want_rows):
            bad(f"{doc}: rows {got_rows}, expected {want_rows}")
        if sorted(got_cmds) != sorted(want_cmds):
            bad(f"{doc}: commands {got_cmds}, expected {want_cmds}")
        what = "new" if kind == "new" else "removed"
        if not want_rows and f"None: no magic-code row is {what} in {v}." not in text(rows_part):
            bad(f"{doc}: no explicit None for the rows")
        if not want_cmds and f"None: no command is {what} in {v}." not in text(cmds_part):
            bad(f"{doc}: no explicit None for the commands")
        # every link reaches an element with its id, whose entry says so
        for href in re.findall(r"<a (?:class=\"ioc-cmd\" )?href=\"([^\"]+)\"", page):
            if "://" in href or href.startswith("_") or "#" not in href or ".html" not in href:
                continue
            path, frag = href.split("#", 1)
            try:
                target = read(site, path)
            except OSError:
                bad(f"{doc}: link {href} to no page")
                continue
            m = re.search(r"id=\"" + re.escape(frag) + "\"(.*?)(?:<section id=|</tr>)", target, re.S)
            if m is None:
                bad(f"{doc}: link {href} to no anchor")
            elif not frag.startswith("row-") and f"{what} in {v}" not in text(m.group(1)).lower():
                bad(f"{doc}: the entry at {href} does not say '{what} in {v}'")


def site_data_of(site):
    """The decoder's data as one dict: the index and its parts joined as the
    pages' ioctl-load.js joins them (generator/ioctltools/site_data.py)."""
    from ioctltools import site_data
    parts = {}
    part_dir = os.path.join(site, site_data.PART_DIR)
    for fn in sorted(os.listdir(part_dir)):
        parts[fn[:-3]] = site_data.parse(read(site, site_data.PART_DIR + fn))
    return site_data.join(site_data.parse(read(site, site_data.INDEX)), parts)


def data(site, model, hand):
    d = site_data_of(site)
    known = [v["name"] for v in model["versions"]]
    if d.get("versions") != known:
        bad(f"data versions {d.get('versions')}, not {known}")
    life = {x[0]: x for x in d.get("life", [])}
    by_href = {}
    for h in model["headers"]:
        for c in h["commands"]:
            by_href.setdefault(c["name"], []).append(c["versions"])
    for k, c in enumerate(d["commands"]):
        l = life.get(k)
        got = known[l[1]:l[2]] if l else known
        if got not in by_href.get(c[0], []):
            bad(f"data: {c[0]} in {got}, the model says {by_href.get(c[0])}")
    if len(life) != sum(1 for c in commands(model) if c["versions"] != known):
        bad(f"data: {len(life)} life entries for "
            f"{sum(1 for c in commands(model) if c['versions'] != known)} commands with a history")


def inert(site, model, hand):
    for d, _, files in os.walk(site):
        for fn in files:
            if fn.endswith(".html") and "<script>alert(" in read(site, os.path.relpath(
                    os.path.join(d, fn), site)):
                bad(f"{os.path.relpath(os.path.join(d, fn), site)}: a <script> of the spec, unescaped")
    page = read(site, "new-in-6.12.html")
    if "&lt;script&gt;alert(&#x27;H_NEW&#x27;)&lt;/script&gt;" not in page:
        bad("new-in-6.12.html does not show H_NEW's doc as text")
    if "&lt;b&gt;bold&lt;/b&gt; &amp; *emphasis*" not in page:
        bad("new-in-6.12.html does not show the row's note as text")
    # doc-since: the newest text, then the earlier one, both as text
    want = ("<td>6.13 writes &lt;i&gt;this&lt;/i&gt; &amp; *that*<br>"
            "<small class=\"ioc-history\">in 6.1 to 6.12: In every version.</small></td>")
    for rel in ("registry.html", "magic/0x48.html"):
        if want not in read(site, rel):
            bad(f"{rel} does not show the row's 6.13 text and its earlier one as text")


def versionless(site, model, hand):
    if model["versions"]:
        bad("the model knows versions")
    for rel in ("registry.html", "plain.html", "index.html"):
        page = read(site, rel)
        for s in ("Versions", "registry-version", "new-in-", "removed-in-", "Kernel versions"):
            if s in page:
                bad(f"{rel} mentions {s!r}")
    for fn in os.listdir(os.path.join(site, "magic")):
        if "<dt>Versions</dt>" in read(site, "magic/" + fn):
            bad(f"magic/{fn} has a Versions entry")
    if "life" in site_data_of(site):
        bad("the decoder's data has life")


def main():
    what, site, model_path = sys.argv[1:4]
    hand = HAND[sys.argv[4]] if len(sys.argv) > 4 else None
    model = model_reader.load(model_path)
    globals()[what](site, model, hand)
    for p in problems[:20]:
        print("# " + p)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
