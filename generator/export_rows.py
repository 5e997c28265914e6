# SPDX-License-Identifier: GPL-2.0
"""The rows every export is written from: one per (known version, ABI,
command), each field taken from the model as it stands (numbers, sizes,
fields of a plain number as its ABI's layout splits them, shared numbers
from `collisions`).  Nothing here computes a number."""

import renderlib

# The columns of a row, in the order the CSV writes them (docs: exports).
COLUMNS = ("version", "abi", "name", "header", "number", "hex", "dir", "type",
           "nr", "size", "scope", "since", "removed", "time64", "alias-of",
           "shared-with", "family", "plain", "unit-size", "kind")


def abi_table(model):
    """ABI name -> its model entry; and base ABI -> its time64 variant."""
    abis = {a["name"]: a for a in model["abis"]}
    variant = {a["variant-of"]: a["name"] for a in model["abis"] if a.get("variant-of")}
    return abis, variant


def shared_index(model):
    """(abi, number) -> [(versions, groups)] of the model's collisions."""
    index = {}
    for col in model["collisions"]:
        index.setdefault((col["abi"], col["number"]), []).append(
            (set(col["versions"]), col["groups"]))
    return index


def shared_with(index, abi, number, version, name):
    """The names of the other commands (not aliases of this one) that carry
    the number on the ABI in the version, in the model's order."""
    out = []
    for versions, groups in index.get((abi, number), ()):
        if versions and version not in versions:
            continue
        for g in groups:
            if name not in g:
                out.extend(g)
    return out


def scope(header, command):
    """uapi, or kernel-internal where the model flags the command or its
    header so (issue 33: helper H4's flag; absent, every command is uapi)."""
    if command.get("kernel-internal") or header.get("kernel-internal"):
        return "kernel-internal"
    return "uapi"


def rows(model):
    """Every row of every known version, oldest version first, then the
    model's header and command order, then the model's ABI order.  A
    variant (`variants`) gives the nr and alias-of of the ABIs it names.  A
    model without versions gives rows of version None.  Reserved commands (not
    compiled by their header) carry no number on any ABI and give none."""
    abis, variant = abi_table(model)
    order = [a["name"] for a in model["abis"]]
    index = shared_index(model)
    out = []
    for v in version_list(model):
        view = model if v is None else renderlib.version_view(model, v)
        for h in view["headers"]:
            for c in h["commands"]:
                nums = c["numbers"]
                sc = scope(h, c)
                var = {a: x for x in c["variants"] for a in x["abis"]}
                for a in order:
                    n = nums.get(a)
                    if n is None:
                        continue
                    t64 = None
                    if a in variant:
                        other = nums.get(variant[a])
                        if other is not None and other["number"] != n["number"]:
                            t64 = other["hex"]
                    plain = c["number"] is not None
                    x = var.get(a, {})
                    nr = x.get("nr") if x.get("nr") is not None else c["nr"]
                    alias = x.get("alias-of") or c["alias-of"]
                    out.append({
                        "version": v, "abi": a, "name": c["name"], "header": h["path"],
                        "number": n["number"], "hex": n["hex"],
                        "dir": n.get("dir") if plain else c["dir"],
                        "type": n.get("type") if plain else c["magic"],
                        "nr": n.get("nr") if plain else nr,
                        "size": n["size"], "scope": sc,
                        "since": c["since"], "removed": c["removed"],
                        "time64": t64, "alias-of": alias,
                        "shared-with": shared_with(index, a, n["number"], v, c["name"]),
                        "family": bool(c["params"]),
                        "plain": c["number-text"] if plain else None,
                        "unit-size": n.get("unit-size"),
                        # a protocol code is written into a driver's buffer,
                        # never passed to ioctl() (binder's BC_*, BR_*)
                        "kind": c.get("kind") or "request",
                        "arch-header": h["arch"],
                    })
    return out


def version_list(model):
    """The known versions, oldest first; [None] for a model without any."""
    return renderlib.version_names(model) or [None]


def newest(model):
    """The newest known version (None without versions)."""
    return version_list(model)[-1]


def grouped(rows_):
    """(version, abi) -> its rows, in row order."""
    out = {}
    for r in rows_:
        out.setdefault((r["version"], r["abi"]), []).append(r)
    return out


def by_abi(groups, version, abi, families=False, per_header=False):
    """The rows of one version and ABI (from grouped()), each name once (a
    name two headers define with one number, as FBIO_WAITFORVSYNC on
    powerpc, counts once; per_header: once per header), without families
    (a macro with parameters has no single value) unless asked."""
    seen = set()
    out = []
    for r in groups.get((version, abi), ()):
        key = (r["header"], r["name"]) if per_header else r["name"]
        if key in seen or (r["family"] and not families):
            continue
        seen.add(key)
        out.append(r)
    return out
