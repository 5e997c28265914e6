# SPDX-License-Identifier: GPL-2.0
"""The model as the Python programs read it: the one reader of the JSON
ioctlgen writes (`ioctlgen model`, build/model.json; `ioctlgen dump`, the
same document without numbers), and the one check of its version.

load() opens the file, parses it and checks `model-version` (and, when
asked, `stage`) once; what it returns is the parsed document, typed by the
TypedDicts below: the top-level parts every consumer uses (versions,
layouts, ABIs, magic-code rows, headers and their commands), with the keys
docs/dev/model.md describes.  They are dicts at run time, so a renderer
reads exactly what ioctlgen wrote; a type checker sees the keys.

The shell scripts read it through the CLI (main()), not a json.load of
their own:

    python3 -m ioctltools.model_reader FIELD MODEL

prints the values at FIELD, one a line (a string as it is, anything else
as JSON): "versions.name", "abis.arch", "spec-dir", "headers[new].path"."""

import json
import re
import sys
from typing import Iterator, TypedDict

from . import Error, jsoncache, run_main

# The model-version this package reads (IOCTLGEN_MODEL_VERSION, generator/model.h).
MODEL_VERSION = 9


class ModelError(Error):
    """The file is no model this package reads: its text says which and why."""


Version = TypedDict("Version", {"name": str, "doc": str, "source": str})

Layout = TypedDict("Layout", {
    "name": str, "doc": str, "nr-bits": int, "type-bits": int, "size-bits": int,
    "dir-bits": int, "nr-shift": int, "type-shift": int, "size-shift": int, "dir-shift": int,
    "none": int, "read": int, "write": int, "xsize-bits": int, "self-contained": bool,
    "command-bits": int, "upper-bits": int, "total-bits": int, "size-limit": int,
    "masks": dict, "size-overlaps": list, "arches": list, "headers": list, "source": str,
}, total=False)

Abi = TypedDict("Abi", {
    "name": str, "doc": str, "layout": str, "arch": str, "cc": str, "cflags": list,
    "size-t": int, "int": int, "sizes": str, "variant-of": "str | None", "source": str,
    "variant-differs": list,
}, total=False)

MagicCode = TypedDict("MagicCode", {
    "code": int, "code-text": str, "seq": str, "seq-first": int, "seq-last": int,
    "headers": list, "doc": str, "doc-since": dict, "contact": "str | None", "accept": list,
    "overlaps": list, "commands": int, "include-cell": "list | None", "seq-cell": "list | None",
    "since": "str | None", "removed": "str | None", "versions": list, "lifetime-text": dict,
    "in-version": dict, "source": str,
}, total=False)

Command = TypedDict("Command", {
    "name": str, "kind": str, "dir": "str | None", "magic": "int | None",
    "magic-text": "str | None", "nr": "int | None", "nr-text": "str | None", "nr-count": int,
    "params": list, "nr-param": "str | None", "size-param": "str | None",
    "size-unit": "str | None", "unused-params": list, "type": "str | None",
    "size": "int | None", "measure": list, "reserved": bool, "new": bool, "uapi": bool,
    "alias-of": "str | None", "macro": "str | None", "args": list, "number": "int | None",
    "number-text": "str | None", "passes": "str | None", "arg-kind": str,
    "arg-text": "str | None", "legacy": "dict | None", "variants": list,
    "since": "str | None", "removed": "str | None", "versions": list, "lifetime-text": dict,
    "abi-change": "str | None", "numbers": "dict[str, int]",
    "numbers-by-version": "dict[str, dict[str, int]]", "not-measured": dict, "doc": str,
    "accept": list, "accept-reason": "str | None", "source": str, "evidence": list,
}, total=False)

Header = TypedDict("Header", {
    "path": str, "arch": "str | None", "spec": str, "doc": str, "defines": list,
    "includes": list, "header-test": bool, "kernel-internal": bool,
    "patch-prefix": "str | None", "versions": list, "typedefs": list, "stub-includes": list,
    "new": bool, "constants": list, "types": list, "commands": "list[Command]",
}, total=False)

Model = TypedDict("Model", {
    "model-version": int, "generator": str, "stage": str, "spec-dir": str,
    "smallest-size-bits": int, "measure-base": list, "ioctl-macros": list,
    "fixed-width-types": list, "versions": "list[Version]", "layouts": "list[Layout]",
    "abis": "list[Abi]", "magic-codes": "list[MagicCode]", "unregistered-codes": list,
    "headers": "list[Header]", "collisions": list, "abi-changes": list, "findings": list,
    "lint": dict,
}, total=False)


def check(doc, path, stage=None) -> Model:
    """doc (read from path, named in messages), its version checked, and its
    stage when stage is given ("model": with numbers; "dump": without)."""
    if not isinstance(doc, dict):
        raise ModelError(f"{path}: error: not a model: a JSON {type(doc).__name__}")
    if doc.get("model-version") != MODEL_VERSION:
        raise ModelError(f"{path}: error: model version {doc.get('model-version')!r}, "
                         f"generator/ioctltools reads version {MODEL_VERSION}")
    if stage and doc.get("stage") != stage:
        what = "a model with numbers" if stage == "model" else f"an ioctlgen {stage}"
        raise ModelError(f"{path}: error: not {what} (stage {doc.get('stage')!r})")
    return doc


def load(path, stage=None) -> Model:
    """The model (or dump) in the file path, read through jsoncache (a model
    below build/ is parsed once, then loaded from its pickle): see check()."""
    try:
        doc = jsoncache.load(path)
    except OSError as e:
        raise ModelError(f"{path}: error: {e.strerror}") from None
    except ValueError as e:
        raise ModelError(f"{path}: error: not a model: {e}") from None
    return check(doc, path, stage)


def commands(model: Model) -> Iterator[tuple[Header, Command]]:
    """Every command with its header, in spec order."""
    for h in model["headers"]:
        for c in h["commands"]:
            yield h, c


def values(model: Model, field, path="model") -> list:
    """The values at field: keys joined by dots ("abis.arch"), a list on the
    way standing for each of its items in turn; KEY[FLAG] keeps the items of
    KEY whose FLAG is true ("headers[new].path").  A key the model lacks is
    an error (ModelError, naming path)."""
    items = [model]
    for step in field.split("."):
        m = re.fullmatch(r"([^.\[\]]+)(?:\[([^.\[\]]+)\])?", step)
        if not m:
            raise ModelError(f"{path}: error: {field!r}: no field (KEY.KEY[FLAG]...)")
        key, flag = m.groups()
        out = []
        for item in items:
            if not isinstance(item, dict) or key not in item:
                raise ModelError(f"{path}: error: {field!r}: no {key!r} in the model")
            v = item[key]
            if flag is not None:
                if not isinstance(v, list):
                    raise ModelError(f"{path}: error: {field!r}: {key!r} is no list")
                v = [x for x in v if isinstance(x, dict) and x.get(flag)]
            out.extend(v if isinstance(v, list) else [v])
        items = out
    return items


def main(argv):
    if len(argv) != 2:
        print("usage: python3 -m ioctltools.model_reader FIELD MODEL", file=sys.stderr)
        return 2
    field, path = argv
    sys.stdout.write("".join((v if isinstance(v, str) else json.dumps(v)) + "\n"
                             for v in values(load(path), field, path)))
    return 0


if __name__ == "__main__":
    run_main(main)
