# SPDX-License-Identifier: GPL-2.0
"""The history an import writes into a header spec (tools/import-uapi):
the order of a spec file's entries, an entry's `since:` and `removed:`,
and what stays as the registry has it (its own additions, `new: true`)."""

import sys
from dataclasses import replace

from . import specwrite


def warn(msg):
    print(msg, file=sys.stderr)


def in_registry_order(entries, old):
    """The entries in the registry's order, a new one after the entry the
    tree has before it: the newest version's tree decides the order of a
    spec file (6.12 moved vhost.h's VHOST_VDPA_GET_VQS_COUNT), so that
    importing an older tree moves nothing."""
    pos = {e.name: i for i, e in enumerate(old.records)}
    keyed, last = [], -1
    for i, e in enumerate(entries):
        last = pos.get(e.name, last)
        keyed.append((last, e.name not in pos, i, e))
    return [e for *_, e in sorted(keyed, key=lambda k: k[:3])]


def history_of_import(ctx, old, entries, merged, unmatched):
    """The history the import of version V writes: an entry new to the
    registry is `since: V` (unless V is the oldest version, where every
    command simply is); an entry of V that V's tree no longer defines is
    `removed: V` when V is the newest version (before it, the entry would
    come back later: a mistake to say).  Returns (merged, the unmatched
    entries left to warn about, the names marked removed)."""
    V, versions = ctx.version, ctx.versions
    if V is None:
        return merged, [e for e in unmatched if not e.reserved and
                        not getattr(e, "new", False)], []
    known = {e.name for e in old.records} if old else set()
    if V != versions[0]:
        for e in entries:
            if e.name not in known and e.since is None:
                e.since = V
    for e in entries:
        if e.name in known and not specwrite.exists_in(next(o for o in old.records if o.name == e.name),
                                               V, versions):
            warn(f"{old.path}: warning: {e.name}: the registry says it is not in {V}, but "
                 f"the {V} tree defines it; kept as the registry says")
    # a command the registry adds (new: true) is in no tree: neither gone nor unknown
    unmatched = [e for e in unmatched if not getattr(e, "new", False)]
    gone = {id(e) for e in unmatched if not e.reserved and specwrite.exists_in(e, V, versions)}
    if V == versions[-1] and V != versions[0]:
        merged = [(replace(r, removed=V), None) if id(r) in gone else (r, b) for r, b in merged]
        return merged, [], sorted(e.name for e in unmatched if id(e) in gone)
    return merged, [e for e in unmatched if id(e) in gone], []
