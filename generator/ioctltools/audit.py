# SPDX-License-Identifier: GPL-2.0
"""A consumer's table against the registry, ABI by ABI: the names both have
with equal numbers, the names with different numbers (each with what the
registry measured and why they differ), the names the consumer lacks and
the names the registry lacks.  tools/audit prints it; the site page
"Where the tools disagree" (generator/ioctltools/render_audit.py) is made from its JSON.

Why two numbers differ is worked out from the registry, in this order:
- another kernel version: the consumer's number is the registry's in
  another known version;
- the other time ABI: it is the number of this ABI's time64 variant (or of
  its base, on a time64 ABI);
- a 64-bit value on a 32-bit ABI: it is the number of a 64-bit ABI of the
  same layout;
- a different size: same direction, type and nr; the size field is not the
  size the registry measured (a stub struct; the size on another ABI);
- a different encoding: anything else, field by field.
A reviewed line of spec/consumers/<consumer>.txt adds its own words."""

from . import regindex

REASONS = {
    "version": "another kernel version",
    "time64": "the other time ABI",
    "64-bit": "a 64-bit value on a 32-bit ABI",
    "size": "a different size",
    "encoding": "a different encoding",
}


def _num(abi_numbers, abi):
    n = abi_numbers.get(abi)
    return None if n is None else n["number"]


class Auditor:
    def __init__(self, model, version):
        self.model, self.version = model, version
        self.versions = regindex.version_names(model)
        self.abis = {a["name"]: a for a in model["abis"]}
        self.views = {}
        # every command of every version and ABI, for the names one view lacks
        self.known = {}
        for h in model["headers"]:
            for c in h["commands"]:
                self.known.setdefault(c["name"], c)

    def elsewhere(self, name):
        """Where the registry has a name this view lacks: another known
        version, or other ABIs; None when nowhere."""
        cmd = self.known.get(name)
        if cmd is None:
            return None
        if self.version not in cmd.get("versions", [self.version]):
            return f"the registry has it in Linux {', '.join(cmd['versions'])}"
        abis = sorted(regindex.numbers_in(cmd, self.version), key=list(self.abis).index)
        return f"the registry has it on {', '.join(abis) or 'no ABI'}, not this one"

    def view(self, abi):
        if abi not in self.views:
            self.views[abi] = regindex.AbiView(self.model, abi, self.version)
        return self.views[abi]

    def why(self, view, entry, value):
        """(reason key, words) for a consumer value that differs.  Where
        several known numbers explain it (i386's time64 number is also
        x86_64's), the first in REASONS' order gives the key and the words
        name every one."""
        found = self.known_numbers(view, entry, value)
        if found:
            return found[0][0], "; also ".join(words for _, words in found)
        return self.field_reason(view, entry, value)

    def known_numbers(self, view, entry, value):
        """[(key, words)]: the registry's numbers, other than this ABI's
        in this version, that the consumer's value is."""
        cmd, abi = entry.cmd, view.abi["name"]
        found = []
        for v in self.versions:
            if v != self.version and v in cmd.get("versions", []) and \
                    _num(regindex.numbers_in(cmd, v), abi) == value:
                found.append(("version", f"the registry's number in Linux {v}"))
        nums = regindex.numbers_in(cmd, self.version)
        for other, a in self.abis.items():
            if other != abi and (a["variant-of"] == abi or view.abi["variant-of"] == other) \
                    and _num(nums, other) == value:
                found.append(("time64", f"the number of {other}"))
        if view.abi["size-t"] == 4:
            wide = [o for o, a in self.abis.items() if a["size-t"] == 8 and
                    a["layout"] == view.abi["layout"] and _num(nums, o) == value]
            if wide:
                found.append(("64-bit", f"the number of {', '.join(wide)}"))
        return found

    def field_reason(self, view, entry, value):
        """A different size, or a different encoding, field by field."""
        cmd, abi = entry.cmd, view.abi["name"]
        nums = regindex.numbers_in(cmd, self.version)
        reg = entry.number
        same = all(view.field(value, f) == view.field(reg, f) for f in ("dir", "type", "nr"))
        if same and value >> 32 == 0:
            have, want = view.field(value, "size"), view.field(reg, "size")
            others = sorted(o for o in self.abis if _num(nums, o) is not None and
                            self.abis[o]["layout"] == view.abi["layout"] and
                            _num(nums, o) == value)
            of = f"sizeof({cmd['type']})" if cmd.get("type") else "the size"
            more = f"; {have} is the size on {', '.join(others)}" if others else ""
            return "size", f"size field {have}, the registry measured {of} = {want} on {abi}{more}"
        diff = [f"{f} {view.field(value, f)} (registry {view.field(reg, f)})"
                for f in ("dir", "type", "nr", "size") if view.field(value, f) != view.field(reg, f)]
        return "encoding", ", ".join(diff) or f"{value:#x} is wider than 32 bits"

    def audit(self, table, notes=None, name_notes=None):
        """notes: {(name, value): Note} of this consumer; name_notes: {name:
        Note} of any consumer, for what a name is whatever its number."""
        notes = dict(notes or {})
        for (name, _), note in (name_notes or {}).items():
            notes.setdefault(name, note)
        out = {"consumer": table.consumer, "source": table.source, "version": self.version,
               "skipped-arches": table.skipped, "abis": {}}
        for abi in sorted(table.abis, key=list(self.abis).index):
            out["abis"][abi] = self.audit_abi(self.view(abi), table, table.abis[abi], notes)
        return out

    def audit_abi(self, view, table, names, notes):
        equal, different, registry_lacks = [], [], []
        for name in sorted(names):
            values = names[name]
            entry = view.by_name.get(name)
            if entry is None:
                # a table of every kind of constant (Go, syzkaller): only the
                # names the registry or spec/consumers/ knows as ioctl commands
                where = self.elsewhere(name)
                shown = [v for v in values if not table.every_constant or where or
                         name in notes or (name, v) in notes]
                for v in shown:
                    note = notes.get((name, v)) or notes.get(name)
                    registry_lacks.append({
                        "name": name, "value": f"{v:#x}", "elsewhere": where,
                        "registry-names": sorted({e.name for e in view.names_for(v)}),
                        "note": note and (note.kind + (f"/{note.category}" if note.category else ""),
                                          note.why)})
                continue
            ok = [v for v in values if v == entry.number or
                  (entry.family and view.family_matches(entry, v))]
            if ok:
                equal.append(name)
                continue
            for v in values:
                key, words = self.why(view, entry, v)
                note = notes.get((name, v))
                different.append({"name": name, "header": entry.header,
                                  "consumer": f"{v:#x}", "registry": f"{entry.number:#x}",
                                  "reason": key, "reason-text": REASONS[key], "why": words,
                                  "note": note and note.why})
        consumer_lacks = sorted(n for n in view.by_name if n not in names)
        return {"compared": len(equal) + len({d["name"] for d in different}),
                "equal": len(equal), "different": different,
                "consumer-lacks": consumer_lacks, "registry-lacks": registry_lacks}
