# SPDX-License-Identifier: GPL-2.0
"""The lookup table (build/ioctl.table) as the Python programs read it:
through libioctlreg, by `ioctlgen table --dump` (generator/cli/table_dump.c
gives the format), so that decode, the exports and the site's decoder data
come from one table.  Nothing here computes a number."""

import subprocess

from . import jsoncache

DIRS = ("none", "read", "write", "read-write")	# enum ioctlreg_dir


class TableError(Exception):
    pass


def dump(table, ioctlgen):
    """The table's dump as ioctlgen writes it (bytes of JSON)."""
    p = subprocess.run([ioctlgen, "table", "--dump", table], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, check=False)
    if p.returncode:
        raise TableError(p.stderr.decode(errors="replace").strip() or
                         f"{ioctlgen} table --dump exits {p.returncode}")
    return p.stdout


def load(table, ioctlgen, data=None):
    """The table's dump (a dict), read by ioctlgen through libioctlreg
    (data: dump()'s bytes, when the caller has them).  The site and the
    exports read the same one: the second, and the next make after an edit
    that changed no number, get it from a pickle keyed by the dump's bytes
    (jsoncache.py)."""
    if data is None:
        data = dump(table, ioctlgen)
    return jsoncache.loads(data, jsoncache.cache_path(table, "dump"))


def meta(d):
    """What the exports take from the registry besides its rows, in the
    model's words: model-version, versions, abis (name, layout, arch,
    variant-of)."""
    abis = [a[0] for a in d["abis"]]
    return {"model-version": d["model-version"],
            "versions": [{"name": v} for v in d["versions"]],
            "abis": [{"name": a[0], "layout": a[1], "arch": a[2],
                      "variant-of": None if a[3] is None else abis[a[3]]} for a in d["abis"]]}


def shared_groups(d):
    """(abi name, number) -> [(versions, groups)] of the shared numbers, as
    the model's collisions give them (versions: a set of names)."""
    abis = [a[0] for a in d["abis"]]
    out = {}
    for abi, number, mask, names in d["shared"]:
        groups = [[]]
        for n in names:
            if n:
                groups[-1].append(n)
            else:
                groups.append([])
        versions = {v for i, v in enumerate(d["versions"]) if mask >> i & 1}
        out.setdefault((abis[abi], number), []).append((versions, groups))
    return out
