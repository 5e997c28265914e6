# SPDX-License-Identifier: GPL-2.0
"""The decoder's data (Site.data()) as the files the pages load: no
page loads more than it shows.  One file held it all (1.38 MB, loaded
by the registry and decoder pages whatever they showed); now:

  _static/ioctl-data.js              the index, with each page: ABIs and
                                     their layouts, codes, versions, headers
  _static/ioctl-data/commands.js     every command but its numbers (names,
                                     links, types, lifetimes): the registry's
                                     filter and the decoder's answers
  _static/ioctl-data/abi-<ABI>.js    the numbers of each command on one ABI

docs/_static/ioctl-load.js loads a part when a page first needs it and puts
it back where the single file had it, so that decoder.js and registry.js
read window.IOCTL_DATA as before.  join() is that merge in Python: tests
check that the parts give back Site.data() exactly.  Each part is a script
(not JSON) so that the site works from file:// too."""

import json
import re

INDEX = "_static/ioctl-data.js"
PART_DIR = "_static/ioctl-data/"
NAME, HREF, COUNT, NUMS, FREE, RESERVED, MAGIC, ALIAS = 0, 1, 3, 4, 5, 7, 8, 10


def build(site, table):
    """The decoder's data: the site's (Site.data(): links, code labels,
    headers as the pages name them, argument types, legacy) with every
    number, size, nr count, flag, alias-of and lifetime taken from the
    lookup table decode answers from (table_reader.load()), so that the
    decoder and `ioctlgen decode` cannot disagree.  A table of another
    registry than the model's is an error, not a mix."""
    d = site.data()
    index, k = {}, 0
    for h in site.m["headers"]:	# the table keeps the model's order
        for c in h["commands"]:
            t = table["commands"][k] if k < len(table["commands"]) else None
            if t is None or t[0] != c["name"] or table["headers"][t[1]][0] != h["path"]:
                raise ValueError(f"the lookup table is not the model's registry "
                                 f"({h['path']}: {c['name']}): remake it (make)")
            index[id(c)] = (k, t)
            k += 1
    nv = len(table["versions"])
    # decode's words for a number a command carries in some of its versions
    # only, {table index: {ABI index: {number: words}}} (as strings: JSON keys)
    nwords = {}
    for k, abi, number, text in table.get("number-words", ()):
        nwords.setdefault(k, {}).setdefault(str(abi), {})[str(number)] = text
    lives, byver = [], []
    site_cmds = [c for v in site.codes + [{"commands": site.plain}] for c in v["commands"]]
    for x, c in zip(d["commands"], site_cmds):
        k, (_, _, cdir, magic, _, _, _, _, _, _, _, first, end, alias_of, numbers,
            nr_count, reserved, per_version) = index[id(c["c"])]
        newest = numbers[end - 1] if nv else numbers[0]
        alias = [a or None for a in alias_of]
        per = [[n and n[0] for n in numbers[v]] if first <= v < end else None for v in range(nv)]
        if per_version and any(p is not None and p != per[end - 1] for p in per):
            # its numbers differ between versions: which, and decode's words
            byver.append([len(lives), per, nwords.get(k, {})])
        lives.append((first, end))
        x[COUNT], x[NUMS], x[RESERVED] = nr_count, [n and n[0] for n in newest], reserved
        x[FREE] = 1 if any(n and n[3] for n in newest) else 0
        x[MAGIC] = None if cdir is None else magic
        # one name, or per ABI where a variant names another (as before)
        x[ALIAS] = alias if isinstance(x[ALIAS], list) else alias[0]
    if nv:
        # the words are the model's (lifetime-text); first and end the table's
        words = {l[0]: l[3] for l in d.get("life", ())}
        d["life"] = []
        for k, (f, e) in enumerate(lives):
            if (f, e) == (0, nv):
                continue
            if k not in words:
                raise ValueError(f"the lookup table gives {d['commands'][k][0]} a lifetime "
                                 f"the model does not: remake it (make)")
            d["life"].append([k, f, e, words[k]])
        d["by-version"] = byver
    return d


def _json(x):
    return json.dumps(x, separators=(",", ":"), sort_keys=True)


def slug(name):
    """docutils' make_id() of a command name, as ioctl-load.js spells it:
    a link whose anchor is this is stored as its page's index alone."""
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def split(data):
    """{part name: its dict}: "index", "commands", "abi-<ABI>"."""
    index = {k: data[k] for k in ("abis", "codes", "headers", "versions") if k in data}
    pages, page_of, cmds = [], {}, []
    for c in data["commands"]:
        page, _, anchor = c[HREF].partition("#")
        href = c[HREF]
        if anchor and anchor == slug(c[NAME]):
            if page not in page_of:
                page_of[page] = len(pages)
                pages.append(page)
            href = page_of[page]
        cmds.append(c[:HREF] + [href] + c[HREF + 1:NUMS] + [None] + c[NUMS + 1:])
    commands = {"commands": cmds, "pages": pages}
    byver = data.get("by-version")
    if "versions" in data:
        commands["life"] = data["life"]
        # which versions each command is in: the ABI parts fill them
        commands["by-version"] = [[k, [None if p is None else 1 for p in per], *w]
                                  for k, per, *w in byver]
    parts = {"index": index, "commands": commands}
    for i, a in enumerate(data["abis"]):
        part = {"abi": i, "numbers": [c[NUMS][i] for c in data["commands"]]}
        if byver is not None:
            part["by-version"] = [[p and p[i] for p in per] for _, per, *_ in byver]
        parts["abi-" + a["name"]] = part
    return parts


def files(data, banner):
    """{path below the Sphinx source: text} of every part."""
    head = "/* " + banner + " */\n"
    out = {INDEX: head + "window.IOCTL_DATA = " + _json(split(data)["index"]) + ";\n"}
    for name, part in split(data).items():
        if name != "index":
            out[PART_DIR + name + ".js"] = (head + "window.IOCTL_DATA_PART(" + _json(name) + ", " +
                                            _json(part) + ");\n")
    return out


def parse(text):
    """A part file's dict (the index's, or a part's)."""
    body = text[text.index("*/") + 2:].strip().rstrip(";")
    if body.startswith("window.IOCTL_DATA ="):
        return json.loads(body[body.index("=") + 1:])
    return json.loads(body[body.index(",") + 1:-1])


def join(index, parts):
    """The single dict again, as ioctl-load.js merges the parts."""
    d = dict(index)
    c = parts["commands"]
    cmds = []
    for x in c["commands"]:
        x = list(x)
        if isinstance(x[HREF], int):
            x[HREF] = c["pages"][x[HREF]] + "#" + slug(x[NAME])
        x[NUMS] = [parts["abi-" + a["name"]]["numbers"][len(cmds)] for a in d["abis"]]
        cmds.append(x)
    d["commands"] = cmds
    if "life" in c:
        d["life"] = c["life"]
        d["by-version"] = [
            [k, [None if have is None else
                 [parts["abi-" + a["name"]]["by-version"][j][v] for a in d["abis"]]
                 for v, have in enumerate(per)], *w]
            for j, (k, per, *w) in enumerate(c["by-version"])]
    return d
