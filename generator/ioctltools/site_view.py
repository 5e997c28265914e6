# SPDX-License-Identifier: GPL-2.0
"""What the site's pages show, taken from the model: the Site class (the
registry rows, each magic code's page, collisions, ABI differences, time64,
history, legacy and plain commands) and the helpers its pages share.  It
lays out and groups; every number comes from the model.  render_site.py
writes the pages from it."""

from . import renderlib
from . import site_parts
from .escape import rst_text

from docutils.nodes import make_id

# The page of the commands spelled as plain numbers, which have no magic code page.
PLAIN_PAGE = "plain"


def rst_title(s, ch):
    t = rst_text(s)
    return f"{t}\n{ch * len(t)}"


def by_number(abis):
    """[{"hex", "abis": [names]}] of [{"abi", "hex"}]: each number once, with
    the ABIs that have it, in the order of its first ABI."""
    out, at = [], {}
    for a in abis:
        if a["hex"] not in at:
            at[a["hex"]] = {"hex": a["hex"], "abis": []}
            out.append(at[a["hex"]])
        at[a["hex"]]["abis"].append(a["abi"])
    return out


def split_source(source):
    """'spec/x.yaml:12:5' -> ('spec/x.yaml', 12); no line -> 0."""
    parts = source.rsplit(":", 2)
    if len(parts) == 3 and parts[1].isdigit():
        return parts[0], int(parts[1])
    return source, 0


def code_page(code):
    return f"magic/0x{code:02x}"


def lifetime(known, entry):
    """Where an entry (a command or a magic-code row) exists among the known
    versions, from the model's `versions` and `lifetime-text` of the entry:
    None when the registry knows no versions.  `first` and `end` index the
    known versions (the first it is in, the first it is no longer in:
    len(known) while it is still there); `short` is the registry's Versions
    cell and `text` the sentence for its entry, as ioctlgen words them
    (generator/lifetime_text.c)."""
    if not known:
        return None
    have = entry.get("versions") or []
    words = entry["lifetime-text"]
    first, end = (known.index(have[0]), known.index(have[-1]) + 1) if have else (0, 0)
    return {"first": first, "end": end, "every": first == 0 and end == len(known),
            "versions": have, "short": words["cell"], "text": words["sentence"]}


def code_lifetime(known, use):
    """lifetime() of a magic code no row registers, from the model's
    `unregistered-codes` entry: the versions some command of it is in."""
    if not known:
        return None
    have = use["versions"]
    return {"versions": have, "every": len(have) == len(known), "short": use["versions-cell"]}


def code_label(text, code):
    """'E' (0x45), or just 0x12 when the code is written as a number."""
    hexa = f"0x{code:02x}"
    return text if text.lower() == hexa else f"{text} ({hexa})"



def doc_before(row, names):
    """The comments a row had before its newest one, oldest first, as
    [{"versions": "6.1", "doc": text}]: empty for a row with one text."""
    if not row.get("doc-since"):
        return []
    there = row.get("versions") or []
    spans = []
    for v in there:
        text = renderlib.doc_in(row, v, names)
        if spans and spans[-1]["doc"] == text:
            spans[-1]["last"] = v
        else:
            spans.append({"first": v, "last": v, "doc": text})
    return [{"versions": s["first"] if s["first"] == s["last"] else f"{s['first']} to {s['last']}",
             "doc": s["doc"]} for s in spans[:-1]]

class Site:
    def __init__(self, model):
        self.m = model
        self.abis = [a["name"] for a in model["abis"]]
        # each layout's ABIs, for abis_text()
        self.by_layout = {}
        for a in model["abis"]:
            self.by_layout.setdefault(a["layout"], []).append(a["name"])
        # The known kernel versions, oldest first ([]: everything exists always).
        self.versions = [v["name"] for v in model.get("versions", [])]
        layouts = {l["name"]: l for l in model["layouts"]}
        self.abi_layout = {a["name"]: layouts[a["layout"]] for a in model["abis"]}
        self.commands = []
        for h in model["headers"]:
            for c in h["commands"]:
                self.commands.append(self.command_view(h, c))
        # ioctlgen says which command a finding is about; names are unique
        # within a header's spec file, not across ARCHes' asm/ioctls.h.
        by_entry = {(split_source(c["c"]["source"])[0], c["name"]): c for c in self.commands}
        self.finding_command = []
        for f in model["findings"]:
            owner = None
            if f["command"] is not None:
                owner = by_entry.get((split_source(f["source"])[0], f["command"]))
            self.finding_command.append(owner)
            if owner is not None:
                owner["findings"].append(f)
        self.by_name = {}
        for c in self.commands:
            self.by_name.setdefault(c["name"], c)
        self.codes = self.code_views()
        for c in self.commands:		# alias-of: a link to the other name
            t = c["c"].get("alias-of")
            c["alias_of"] = ({"name": t, "href": self.by_name[t]["href"]} if t in self.by_name
                             else {"name": t}) if t else None

    # ------------------------------------------------------------ views
    def command_view(self, header, c):
        groups = []
        for abi in self.abis:
            n = c["numbers"].get(abi)
            if n is None:
                continue
            # N elements of a size-unit: "N × 32", the number shown is N = 0's
            size = n["size"] if "unit-size" not in n else f"{c['size-param']} × {n['unit-size']}"
            key = (n["hex"], size)
            for g in groups:
                if g["key"] == key:
                    g["abis"].append(abi)
                    break
            else:
                groups.append({"key": key, "hex": n["hex"], "number": n["number"],
                               "size": size, "abis": [abi]})
        sizes = {g["size"] for g in groups}
        common = max(sizes, key=lambda s: sum(len(g["abis"]) for g in groups
                                              if g["size"] == s)) if sizes else None
        for g in groups:
            g["size_differs"] = len(sizes) > 1 and g["size"] != common
        size_groups = []
        for g in groups:
            for sg in size_groups:
                if sg["size"] == g["size"]:
                    sg["abis"] += g["abis"]
                    break
            else:
                size_groups.append({"size": g["size"], "abis": list(g["abis"]),
                                    "size_differs": g["size_differs"]})
        head = f"{c['name']}({', '.join(c['params'])})" if c["params"] else c["name"]
        if c["number"] is not None:	# spelled as a plain number: no magic code
            spelling = f"#define {head} {c['number-text']}"
            page = PLAIN_PAGE
        elif c["macro"] is None:	# spelled as another's name: neither
            spelling = f"#define {head} {c['alias-of']}" + "".join(
                f"; {v['alias-of']} on {', '.join(v['abis'])}" for v in c["variants"])
            page = PLAIN_PAGE
        else:
            spelling = f"#define {head} {c['macro']}({', '.join(c['args'])})"
            page = code_page(c["magic"])
        return {
            "c": c,
            "name": c["name"],
            "id": make_id(c["name"]) or "cmd",
            "page": page,
            "header": header["path"] + (f" ({header['arch']})" if header.get("arch") else "") +
            (" (kernel-internal, not in the UAPI)" if header.get("kernel-internal") else ""),
            "path": header["path"],
            "spelling": spelling,
            "groups": groups,
            "size_groups": size_groups,
            "size_differs": len(sizes) > 1,
            "all_same": len(groups) == 1 and len(groups[0]["abis"]) == len(self.abis),
            "absent": [a for a in self.abis if a not in c["numbers"] and
                       a not in c.get("not-measured", {})],
            "not_measured": not_measured_text(c.get("not-measured", {})),
            "life": lifetime(self.versions, c),
            "findings": [],
        }

    def code_views(self):
        codes = {}

        def get(code, text):
            if code not in codes:
                codes[code] = {"code": code, "text": text, "label": code_label(text, code),
                               "page": code_page(code), "rows": [], "commands": []}
            return codes[code]

        for i, row in enumerate(self.m["magic-codes"]):
            v = dict(row)
            v["index"] = i
            v["id"] = f"row-{i}"
            v["accepted_overlap"] = "overlap" in row["accept"]
            v["life"] = lifetime(self.versions, row)
            # the comment the newest version the row is in writes, and the
            # earlier ones where a version's table wrote another (doc-since)
            v["doc"] = renderlib.newest_doc(row, self.versions)
            v["doc_before"] = doc_before(row, self.versions)
            get(row["code"], row["code-text"])["rows"].append(v)
        for c in self.commands:
            if c["c"]["macro"] is not None:
                get(c["c"]["magic"], c["c"]["magic-text"])["commands"].append(c)
        # no _IO* macro: a plain number, or another's name (by its first number)
        self.plain = [c for c in self.commands if c["c"]["macro"] is None]
        self.plain.sort(key=lambda c: (first_number(c["c"]), c["name"], c["header"]))
        for v in codes.values():
            v["commands"].sort(key=lambda c: (c["c"]["nr"], c["name"]))
            # a code too heavy for one page: its commands on parts by nr
            v["parts"] = site_parts.magic_parts(v["page"], v["commands"])
            for p in v["parts"] or []:
                for c in p["commands"]:
                    c["page"] = p["page"]
        self.plain_parts = site_parts.plain_parts(
            PLAIN_PAGE, self.plain, lambda c: first_number(c["c"]))
        for p in self.plain_parts or []:
            for c in p["commands"]:
                c["page"] = p["page"]
        for cmds in [v["commands"] for v in codes.values()] + [self.plain]:
            ids = {}
            for c in cmds:
                # Sphinx ids the section by make_id(title); a second title
                # with the same id (a name in two headers, or case-folded)
                # gets an anchor of its own in the raw HTML.
                c["extra_id"] = None
                if c["id"] in ids:
                    ids[c["id"]] += 1
                    c["extra_id"] = c["id"] = f"{c['id']}--{ids[c['id']]}"
                else:
                    ids[c["id"]] = 1
                c["href"] = f"{c['page']}.html#{c['id']}"
        # A code no row registers exists where one of its commands does.
        uses = {u["code"]: u for u in self.m["unregistered-codes"]}
        for v in codes.values():
            if not v["rows"]:
                v["life"] = code_lifetime(self.versions, uses[v["code"]])
        return [codes[k] for k in sorted(codes)]

    def row_ref(self, i):
        r = self.m["magic-codes"][i]
        return {"index": i, "text": r["code-text"], "seq": r["seq"],
                "href": f"{code_page(r['code'])}.html", "headers": r["headers"]}

    # ------------------------------------------------------------ pages
    def registry_rows(self):
        rows = []
        for v in self.codes:
            for r in v["rows"]:
                rows.append({"row": r, "code": v,
                             "overlaps": [self.row_ref(i) for i in r["overlaps"]]})
            if not v["rows"]:
                rows.append({"row": None, "code": v, "overlaps": []})
        return rows

    def legacy(self):
        out = []
        for c in self.commands:
            if not c["c"]["legacy"]:
                continue
            out.append(c)
        return out

    def collisions(self):
        """Sets of names that share a number, with the ABIs where they do:
        `groups` are the names of each command (aliases, alias-of), and
        `conflict` says whether two distinct commands or more remain."""
        groups = []
        index = {}
        for col in self.m["collisions"]:
            key = tuple(col["names"])
            if key not in index:
                index[key] = {"names": [self.by_name.get(n, {"name": n}) for n in col["names"]],
                              "groups": [[self.by_name.get(n, {"name": n}) for n in g]
                                         for g in col["groups"]],
                              "conflict": col["conflict"], "abis": []}
                groups.append(index[key])
            index[key]["abis"].append({"abi": col["abi"], "hex": col["hex"]})
        for g in groups:
            g["numbers"] = by_number(g["abis"])
        return groups

    def overlaps(self):
        pairs = []
        for i, r in enumerate(self.m["magic-codes"]):
            for j in r["overlaps"]:
                if j > i:
                    o = self.m["magic-codes"][j]
                    pairs.append({"a": self.row_ref(i), "b": self.row_ref(j),
                                  "accepted": "overlap" in r["accept"] or "overlap" in o["accept"]})
        return pairs

    def history(self):
        """Per known version after the oldest: the magic-code rows and the
        commands it adds (`since`) and removes (`removed`), in registry order
        (rows as the table lists them, commands by code and nr, then the plain
        ones)."""
        out = []
        rows = [r for v in self.codes for r in v["rows"]]
        cmds = [c for v in self.codes for c in v["commands"]] + self.plain
        for i, name in enumerate(self.versions[1:], 1):
            for kind, key in (("new", "first"), ("removed", "end")):
                out.append({
                    "kind": kind, "version": name, "doc": f"{kind}-in-{name}",
                    "title": f"{'New' if kind == 'new' else 'Removed'} in {name}",
                    "rows": [{"row": r, "ref": self.row_ref(r["index"])} for r in rows
                             if r["life"][key] == i],
                    "commands": [c for c in cmds if c["life"][key] == i]})
        return out

    def unregistered(self):
        return [v for v in self.codes if not v["rows"]]

    def findings(self, rule):
        return [{"f": f, "command": c}
                for f, c in zip(self.m["findings"], self.finding_command)
                if rule is None or f["rule"] == rule]

    def abi_differences(self):
        """Sizes that differ: a plain number has no argument size, only a
        field its layouts read differently."""
        return [c for c in self.commands if c["size_differs"] and c["c"]["macro"] is not None]

    def plain_view(self, cmds=None):
        """The commands spelled as plain numbers (cmds: those of one part),
        each number split by the layouts of the ABIs that have it (the
        model's numbers entries)."""
        out = []
        for c in self.plain if cmds is None else cmds:
            split = {}
            for abi in self.abis:
                n = c["c"]["numbers"].get(abi)
                if n is None:
                    continue
                key = (n["hex"], n["dir"], n["type"], n["nr"], n["size"])
                split.setdefault(key, {"abis": [], "hex": n["hex"], "dir": n["dir"],
                                       "type": n["type"], "nr": n["nr"], "size": n["size"]})
                split[key]["abis"].append(abi)
            split = list(split.values())
            for s in split:
                s["who"] = self.abis_text(s["abis"])
            out.append({"cmd": c, "split": split})
        return out

    def abis_text(self, names):
        """ABIs in few words: "every ABI", or whole layouts by name ("the
        generic layout's 16 ABIs") and the rest one by one."""
        have = set(names)
        if have == set(self.abis):
            return "every ABI"
        parts = []
        for lay, members in self.by_layout.items():
            if len(members) > 1 and set(members) <= have:
                parts.append(f"the {lay} layout's {len(members)} ABIs")
                have -= set(members)
        return ", ".join(parts + [a for a in names if a in have])

    def time64(self):
        """The time64 variants: per variant ABI its base and how many commands
        differ, and per command that differs on any variant, each pair's
        numbers and sizes (the model's variant-differs, nothing recomputed)."""
        by_id = {}
        for c in self.commands:		# arch headers share a path: asm/ioctls.h
            by_id.setdefault((c["path"], c["name"]), []).append(c)
        variants, rows = [], {}
        for a in self.m["abis"]:
            base = a.get("variant-of")
            if not base:
                continue
            diff = a.get("variant-differs", [])
            variants.append({"name": a["name"], "base": base, "count": len(diff)})
            for d in diff:
                c = next((c for c in by_id.get((d["header"], d["command"]), [])
                          if a["name"] in c["c"]["numbers"]), None)
                if c is None:
                    continue
                row = rows.setdefault(id(c), {"c": c, "pairs": []})
                row["pairs"].append({"base": base, "abi": a["name"],
                                     "from": c["c"]["numbers"].get(base),
                                     "to": c["c"]["numbers"][a["name"]]})
        order = {id(c): i for i, c in enumerate(self.commands)}
        return variants, sorted(rows.values(), key=lambda r: order[id(r["c"])])

    def data(self):
        """The decoder's data: the layout of each ABI and, per command, its
        number on every ABI (the model's numbers, nothing recomputed)."""
        layout_keys = ["nr-bits", "type-bits", "size-bits", "dir-bits", "nr-shift",
                       "type-shift", "size-shift", "dir-shift", "none", "read", "write"]
        abis = []
        for a in self.m["abis"]:
            lay = self.abi_layout[a["name"]]
            base = a.get("variant-of")
            abis.append({"name": a["name"], "layout": lay["name"],
                         "variant-of": self.abis.index(base) if base else None,
                         "xsize-bits": lay["xsize-bits"],
                         **{k: lay[k] for k in layout_keys}})
        codes = {}
        for v in self.codes:
            owners = []
            for r in v["rows"]:
                owners += [h for h in r["headers"] if h not in owners]
            owner = ", ".join(owners[:3]) + (f" and {len(owners) - 3} more"
                                             if len(owners) > 3 else "")
            codes[v["code"]] = [v["label"], v["page"] + ".html", owner]
        cmds = []
        lives = []
        byver = []
        headers = {}
        for v in self.codes + [{"commands": self.plain}]:
            for c in v["commands"]:
                cc = c["c"]
                lives.append((c["life"], (cc["lifetime-text"] or {}).get("describe")))
                if cc.get("numbers-by-version"):
                    byver.append([len(cmds), self.version_numbers(cc)])
                nums = [cc["numbers"][a]["number"] if a in cc["numbers"] else None
                        for a in self.abis]
                free = [1 if a in cc["numbers"] and cc["numbers"][a]["size"] is None else 0
                        for a in self.abis]
                argt = cc["arg-text"] or ""
                cmds.append([c["name"], c["href"], argt, cc["nr-count"],
                             nums, 1 if any(free) else 0,
                             1 if cc["legacy"] else 0, 1 if cc["reserved"] else 0,
                             cc["magic"], headers.setdefault(c["header"], len(headers)),
                             alias_per_abi(cc, self.abis)])
        data = {"abis": abis, "codes": codes, "commands": cmds, "headers": list(headers)}
        if self.versions:
            # The known versions and, only for the commands not in every one,
            # [index in commands, first, end, words]: the first version it is
            # in and the first it is no longer in (len(versions): still there),
            data["versions"] = self.versions
            # and ioctlgen's words for it, which the scripts show as they are.
            data["life"] = [[k, life["first"], life["end"], words] for k, (life, words)
                            in enumerate(lives) if not life["every"]]
            # [index in commands, [per known version: its number per ABI, or
            # null outside the command's versions]], only for the commands
            # whose numbers differ between versions (a struct that grew, an
            # ABI that lacks it in one): the decoder finds them by any.
            data["by-version"] = byver
        return data

    def version_numbers(self, c):
        """Per known version, c's number on each ABI there (null where the
        ABI lacks it), or null for a version c is not in."""
        out = []
        for v in self.versions:
            if v not in c["versions"]:
                out.append(None)
                continue
            nums = (c.get("numbers-by-version") or {}).get(v, c["numbers"])
            out.append([nums[a]["number"] if a in nums else None for a in self.abis])
        return out


def not_measured_text(nm):
    """A kernel-internal command's not-measured ({ABI: [versions]}) in
    words: "x86_64 in 6.12; i386, x32 in 6.1, 6.12", or ""."""
    groups = {}
    for abi, versions in nm.items():
        groups.setdefault(tuple(versions), []).append(abi)
    return "; ".join(", ".join(abis) + (" in " + ", ".join(v) if any(v) else "")
                     for v, abis in groups.items())


def first_number(c):
    """A plain command's number, or the first of a command spelled as a name."""
    if c["number"] is not None:
        return c["number"]
    return min((n["number"] for n in c["numbers"].values()), default=0)


def alias_per_abi(c, abis):
    """alias-of for the decoder: the name, or per ABI where a variant names another."""
    named = [v for v in c["variants"] if v.get("alias-of")]
    if not named:
        return c.get("alias-of")
    on = {a: v["alias-of"] for v in named for a in v["abis"]}
    return [on.get(a, c["alias-of"]) for a in abis]


# ---------------------------------------------------------------- schema
