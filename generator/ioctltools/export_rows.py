# SPDX-License-Identifier: GPL-2.0
"""The rows every export is written from: one per (known version, ABI,
command), each field taken from the lookup table decode answers from
(generator/ioctltools/table_reader.py: numbers, sizes, fields of a plain number as its
ABI's layout splits them, the shared numbers).  Nothing here computes a
number."""

from . import renderlib
from . import table_reader

# The columns of a row, in the order the CSV writes them (docs: exports).
COLUMNS = ("version", "abi", "name", "header", "number", "hex", "dir", "type",
           "nr", "size", "scope", "since", "removed", "time64", "alias-of",
           "shared-with", "family", "plain", "unit-size", "kind")


def shared_with(index, abi, number, version, name):
    """The names of the other commands (not aliases of this one) that carry
    the number on the ABI in the version, in the registry's order
    (index: table_reader.shared_groups())."""
    out = []
    for versions, groups in index.get((abi, number), ()):
        if versions and version not in versions:
            continue
        for g in groups:
            if name not in g:
                out.extend(g)
    return out


def table_rows(d):
    """Every row of every known version, oldest version first, then the
    table's header and command order (the model's), then its ABI order,
    from the table's dump (table_reader.load()).  A plain number's fields,
    and every command's nr, are its number's on the ABI's layout
    (ioctlreg_split()): a variant's nr is the one its number carries.  A
    table without versions gives rows of version None.  Reserved commands
    carry no number on any ABI and give none."""
    abis = [a[0] for a in d["abis"]]
    variant = {abis[a[3]]: a[0] for a in d["abis"] if a[3] is not None}
    index = table_reader.shared_groups(d)
    versions = d["versions"] or [None]
    headers = d["headers"]
    out = []
    for vi, v in enumerate(versions):
        for c in d["commands"]:
            (name, h, cdir, magic, _, n_params, ntext, since, removed, proto, internal,
             first, end, alias_of, numbers) = c[:15]
            if v is not None and not first <= vi < end:
                continue
            nums = dict(zip(abis, numbers[vi]))
            # spelled as a number (0x5401): its fields as the layout splits
            # it; as another's name (FIONREAD): none
            plain = cdir is None and ntext is not None
            named = cdir is None and ntext is None
            for a in abis:
                n = nums[a]
                if n is None:
                    continue
                number, size, unit, variable, ndir, ntype, nnr = n
                t64 = None
                if a in variant:
                    other = nums.get(variant[a])
                    if other is not None and other[0] != number:
                        t64 = "0x%08x" % other[0]
                out.append({
                    "version": v, "abi": a, "name": name, "header": headers[h][0],
                    "number": number, "hex": "0x%08x" % number,
                    "dir": None if named or (plain and ndir is None)
                    else table_reader.DIRS[ndir if plain else cdir],
                    "type": None if named else ntype if plain else magic,
                    "nr": None if named else nnr,
                    "size": None if variable else size,
                    "scope": "kernel-internal" if internal else "uapi",
                    "since": since, "removed": removed,
                    "time64": t64, "alias-of": alias_of[abis.index(a)] or None,
                    "shared-with": shared_with(index, a, number, v, name)
                    if (a, number) in index else [],
                    "family": n_params > 0,
                    "plain": ntext if plain else None,
                    "unit-size": unit or None,
                    "kind": "protocol-code" if proto else "request",
                    "arch-header": headers[h][1] or None,
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
