# SPDX-License-Identifier: GPL-2.0
"""The model's numbers of one ABI in one known version, both ways: name to
number and number to names, families included (a range of nr, a size the
caller gives).  What the consumer checks (tests/consumers, tools/audit)
compare a consumer's table with."""

import os
import sys
from collections import defaultdict

from . import Error

# the model read as the renderers read it (a pickle keyed by its content)
sys.path.append(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "generator"))
import jsoncache  # noqa: E402


def load_model(path):
    try:
        model = jsoncache.load(path)
    except OSError as e:
        raise Error(f"{path}: error: {e.strerror}") from None
    except ValueError as e:
        raise Error(f"{path}: error: not a model: {e}") from None
    if model.get("stage") != "model":
        raise Error(f"{path}: error: not a model with numbers (stage {model.get('stage')!r})")
    return model


def version_names(model):
    return [v["name"] for v in model.get("versions") or []]


def numbers_in(cmd, version):
    """A command's numbers in a known version: `numbers-by-version` where
    that version's differ from the newest's (`numbers`)."""
    return (cmd.get("numbers-by-version") or {}).get(version) or cmd.get("numbers") or {}


class Entry:
    """One command on one ABI."""
    __slots__ = ("name", "number", "cmd", "header", "family")

    def __init__(self, name, number, cmd, header, family):
        self.name, self.number, self.cmd, self.header, self.family = name, number, cmd, header, family


class AbiView:
    """The commands of `abi` that exist in `version`."""

    def __init__(self, model, abi, version):
        abis = {a["name"]: a for a in model["abis"]}
        if abi not in abis:
            raise Error(f"ABI {abi!r} is none the registry knows ({', '.join(abis)})")
        if version not in version_names(model):
            raise Error(f"version {version!r} is none the registry knows "
                        f"({', '.join(version_names(model))})")
        self.abi, self.version = abis[abi], version
        lay = {l["name"]: l for l in model["layouts"]}[self.abi["layout"]]
        self.layout = lay
        self.size_mask = ((1 << lay["size-bits"]) - 1) << lay["size-shift"]
        self.nr_mask = ((1 << lay["nr-bits"]) - 1) << lay["nr-shift"]
        self.by_name = {}
        self.by_number = defaultdict(list)
        self.families = []
        for h in model["headers"]:
            for c in h["commands"]:
                if version not in c.get("versions", [version]):
                    continue
                n = numbers_in(c, version).get(abi)
                if n is None:
                    continue
                fam = bool(c.get("size-param")) or (c.get("nr-count") or 1) > 1
                e = Entry(c["name"], n["number"], c, h["path"], fam)
                self.by_name.setdefault(c["name"], e)
                if fam:
                    self.families.append(e)
                else:
                    self.by_number[n["number"]].append(e)

    def field(self, number, what):
        lay = self.layout
        return (number >> lay[what + "-shift"]) & ((1 << lay[what + "-bits"]) - 1)

    def family_matches(self, e, number):
        """Whether a family's member has this number."""
        c = e.cmd
        keep = ~(self.size_mask if c.get("size-param") else 0)
        if (c.get("nr-count") or 1) > 1:
            keep &= ~self.nr_mask
            nr = self.field(number, "nr")
            if not c["nr"] <= nr < c["nr"] + c["nr-count"]:
                return False
        if c.get("size-param"):
            unit = e.cmd["numbers"].get(self.abi["name"], {}).get("unit-size")
            if unit and self.field(number, "size") % unit:
                return False
        return (number & keep) == (e.number & keep)

    def names_for(self, number):
        """Every name the registry gives this number: [Entry]."""
        out = list(self.by_number.get(number, ()))
        out += [e for e in self.families if self.family_matches(e, number)]
        return out

    def numbers(self):
        """Every number of a single command (families by their first member)."""
        return sorted(set(self.by_number) | {e.number for e in self.families})
