# SPDX-License-Identifier: GPL-2.0
"""The site's heavy pages cut into parts (no page over 300 KB
before its own data).  A list page whose entries would weigh more than
PAGE_BUDGET is cut into runs of whole groups (a magic code's commands by
nr, the plain numbers by number, the findings by rule); a page that fits
stays one page, as before.  The weights are estimates of the HTML an
entry becomes, from its text lengths, not measurements: tests/site/run
checks the pages as built (tests/site/page-weight.py)."""

from docutils.nodes import make_id

# Estimated bytes of entries per page.  The theme's CSS and scripts and the
# page's frame add about 55 KB; the estimates run within about 10% of the
# HTML on the real registry.  180 KB leaves room under 300 KB.
PAGE_BUDGET = 180_000


def pack(items, key, weight, budget=PAGE_BUDGET):
    """items (in order) as runs: [items] when all fit in budget, else the
    groups of consecutive items with one key, packed greedily into runs of
    about equal weight, at most budget each (a group heavier than budget is
    a run of its own)."""
    total = sum(weight(x) for x in items)
    if total <= budget:
        return [items]
    target = total / -(-total // budget)	# the weight of ceil(total / budget) even runs
    groups = []
    for x in items:
        if groups and key(groups[-1][-1]) == key(x):
            groups[-1].append(x)
        else:
            groups.append([x])
    runs, w = [[]], 0
    for g in groups:
        gw = sum(weight(x) for x in g)
        if runs[-1] and w + gw > target and (w + gw / 2 > target or w + gw > budget):
            runs.append([])
            w = 0
        runs[-1] += g
        w += gw
    return runs


def headers_of(cmds):
    """The headers of cmds, each once, in order of first use."""
    out = []
    for c in cmds:
        if c["header"] not in out:
            out.append(c["header"])
    return out


def command_weight(c):
    """A command's entry on a magic code's page, in bytes of HTML."""
    m = c["c"]
    w = 600 + 3 * len(c["name"]) + len(m.get("doc") or "") + len(c["spelling"]) + len(c["header"])
    w += sum(120 + len(f["message"]) + len(f["rule"]) for f in c["findings"])
    w += sum(100 + sum(len(a) + 2 for a in g["abis"]) for g in c["groups"])
    w += sum(len(a) + 2 for a in c["absent"]) + len(c["not_measured"])
    w += sum(60 + len(v.get("doc") or "") for v in m["variants"])
    return w


def plain_weight(c):
    """A command's row on the plain numbers page (its number split per
    layout: about one line per group of ABIs)."""
    m = c["c"]
    return (350 + 2 * len(c["name"]) + len(c["header"]) + len(c["spelling"]) +
            len(m.get("doc") or "") + len(m.get("passes") or "") +
            130 * max(1, len({n["hex"] for n in m["numbers"].values()})) +
            sum(len(a) + 2 for a in c["absent"]) + len(c["not_measured"]))


def finding_weight(x):
    f = x["f"]
    return (120 + len(f["source"]) + len(f["rule"]) + len(f["message"]) +
            (60 + 2 * len(x["command"]["name"]) if x["command"] else 0))


def magic_parts(code, cmds):
    """The parts of a magic code's page ({page, first, last, range, label,
    commands, headers}, nr ranges that cover 0x00-0xff), or None when one page holds
    every command.  cmds are sorted by nr."""
    runs = pack(cmds, lambda c: c["c"]["nr"], command_weight)
    if len(runs) == 1:
        return None
    parts = []
    for i, run in enumerate(runs):
        first = 0 if i == 0 else run[0]["c"]["nr"]
        last = 0xff if i == len(runs) - 1 else runs[i + 1][0]["c"]["nr"] - 1
        parts.append({"page": f"{code}-nr-0x{first:02x}", "first": first, "last": last,
                      "range": f"0x{first:02x}-0x{last:02x}",
                      "label": f"nr 0x{first:02x}-0x{last:02x}", "commands": run,
                      "headers": headers_of(run)})
    return parts


def plain_parts(page, cmds, number):
    """The parts of the plain numbers page, by number (number(c): the
    number a command is sorted by), as magic_parts(); None: one page."""
    runs = pack(cmds, number, plain_weight)
    if len(runs) == 1:
        return None
    parts = []
    for i, run in enumerate(runs):
        first = 0 if i == 0 else number(run[0])
        last = 0xffffffff if i == len(runs) - 1 else number(runs[i + 1][0]) - 1
        parts.append({"page": f"{page}-0x{first:08x}", "first": first, "last": last,
                      "range": f"0x{first:08x}-0x{last:08x}",
                      "label": f"0x{first:08x}-0x{last:08x}", "commands": run,
                      "headers": headers_of(run)})
    return parts


def finding_parts(page, findings):
    """The parts of the findings page, one per rule in the order the rules
    first appear ({page, rule, label, findings}), or None: one page."""
    if len(pack(findings, lambda x: x["f"]["rule"], finding_weight)) == 1:
        return None
    rules = {}
    for x in findings:
        rules.setdefault(x["f"]["rule"], []).append(x)
    return [{"page": f"{page}-{make_id(rule) or 'rule'}", "rule": rule, "label": rule,
             "findings": xs}
            for rule, xs in rules.items()]
