#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Validate every spec file against its JSON Schema: a second opinion beside
ioctlgen's own checker.  The kind of a file comes from its path:

    spec/layouts.yaml        spec/schema/layouts.schema.json
    spec/abis.yaml           spec/schema/abis.schema.json
    spec/magic.yaml          spec/schema/magic.schema.json
    spec/headers/**.yaml     spec/schema/header.schema.json
    spec/sizes/*.yaml        spec/schema/sizes.schema.json
    spec/versions.yaml       spec/schema/versions.schema.json

A file also fails when it does not start with the SPDX line, repeats a key
in one mapping, or has no schema for its path.  Then a few broken documents
make sure the schemas reject what they must (unknown keys, missing docs,
sizeof() as a type), so that this suite can fail.

usage: tests/schema-check.py [SPEC_DIR]      (TAP lines on stdout)
"""

import copy
import json
import os
import sys

import jsonschema
import yaml

from tap import Tap  # noqa: E402

SPDX = "# SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note"


class Loader(yaml.SafeLoader):
    """Safe loading that rejects duplicate keys, as ioctlgen does."""


def _mapping(loader, node, deep=False):
    loader.flatten_mapping(node)
    seen = {}
    for knode, _ in node.value:
        key = loader.construct_object(knode, deep=True)
        if key in seen:
            raise yaml.constructor.ConstructorError(
                None, None, f"duplicate key '{key}' (first at line {seen[key] + 1})",
                knode.start_mark)
        seen[key] = knode.start_mark.line
    return yaml.SafeLoader.construct_mapping(loader, node, deep=True)


Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _mapping)


def kind_of(rel):
    parts = rel.split("/")
    if rel in ("layouts.yaml", "abis.yaml", "magic.yaml", "versions.yaml"):
        return rel[:-5]
    if parts[0] == "headers" and len(parts) > 1:
        return "header"
    if parts[0] == "sizes" and len(parts) in (2, 3):
        return "sizes"
    return None


def node_at(node, path):
    """The YAML node at a jsonschema error path, or the deepest one that exists."""
    for step in path:
        if isinstance(node, yaml.MappingNode):
            nxt = [v for k, v in node.value if k.value == step]
            if not nxt:
                break
            node = nxt[0]
        elif isinstance(node, yaml.SequenceNode) and isinstance(step, int) \
                and step < len(node.value):
            node = node.value[step]
        else:
            break
    return node


def validate(validator, text, name):
    """Return a list of 'name:line:col: error: ...' strings; empty when valid."""
    errs = []
    if not text.startswith(SPDX + "\n"):
        errs.append(f"{name}:1:1: error: the file must start with '{SPDX}'")
    try:
        data = yaml.load(text, Loader=Loader)
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError as e:
        m = getattr(e, "problem_mark", None)
        where = f"{name}:{m.line + 1}:{m.column + 1}" if m else name
        return errs + [f"{where}: error: {getattr(e, 'problem', None) or e}"]
    for e in sorted(validator.iter_errors(data), key=lambda e: list(map(str, e.absolute_path))):
        n = node_at(root, e.absolute_path)
        line, col = (n.start_mark.line + 1, n.start_mark.column + 1) if n else (1, 1)
        at = "/".join(map(str, e.absolute_path)) or "(top)"
        errs.append(f"{name}:{line}:{col}: error: {at}: {e.message}")
    return errs


def main():
    spec = sys.argv[1] if len(sys.argv) > 1 else "spec"
    validators = {}
    for kind in ("layouts", "abis", "magic", "header", "sizes", "versions"):
        path = os.path.join(spec, "schema", f"{kind}.schema.json")
        with open(path, encoding="utf-8") as f:
            schema = json.load(f)
        jsonschema.Draft202012Validator.check_schema(schema)
        validators[kind] = jsonschema.Draft202012Validator(schema)

    tap = Tap()
    files = []
    for root, _, names in os.walk(spec):
        files += [os.path.join(root, n) for n in names if n.endswith(".yaml")]
    good = {}
    for path in sorted(files):
        rel = os.path.relpath(path, spec).replace(os.sep, "/")
        kind = kind_of(rel)
        if kind is None:
            tap.check(False, f"{path}: no schema for this path")
            continue
        with open(path, encoding="utf-8") as f:
            text = f.read()
        errs = validate(validators[kind], text, path)
        tap.check(not errs, f"{path} validates against {kind}.schema.json", errs)
        if not errs:
            good.setdefault(kind, (path, yaml.safe_load(text)))

    # The schemas must reject broken documents, or the checks above prove nothing.
    # spec/versions.yaml is optional (the example driver's registry, the
    # fixtures have none): its checks start from a document of their own.
    samples = {"versions": {"doc": "Versions.", "versions": [{"name": "6.1", "doc": "A tree."}]}}
    for kind, data in samples.items():
        if kind not in good:
            errs = validate(validators[kind], SPDX + "\n" + yaml.safe_dump(data, sort_keys=False),
                            f"<a valid {kind} file>")
            if tap.check(not errs, f"{kind} schema accepts a valid {kind} file of the test's own",
                         errs):
                good[kind] = (f"the test's own {kind} file", data)

    def rejects(kind, mutate, what):
        if kind not in good:
            tap.check(False, f"{kind} schema rejects {what}: no valid {kind} file to start from")
            return
        path, data = good[kind]
        bad = copy.deepcopy(data)
        mutate(bad)
        text = SPDX + "\n" + yaml.safe_dump(bad, sort_keys=False)
        errs = validate(validators[kind], text, f"<{what}>")
        tap.check(bool(errs), f"{kind} schema rejects {what} (from {path})",
                  errs[:1] or ["accepted: the schema is too loose"])

    def cmd0(d):
        return d["commands"][0]

    rejects("header", lambda d: cmd0(d).update({"sise": 4}), "an unknown command key")
    rejects("header", lambda d: d.update({"comment": "x"}), "an unknown top-level key")
    rejects("header", lambda d: cmd0(d).pop("doc"), "a command without doc")
    rejects("header", lambda d: d.pop("doc"), "a header without doc")
    rejects("header", lambda d: cmd0(d).update({"dir": "read", "type": "sizeof(int)"}),
            "sizeof() as a type")
    rejects("header", lambda d: cmd0(d).update({"dir": "read", "type": "4"}), "a number as a type")
    rejects("header", lambda d: cmd0(d).update({"magic": "E"}), "an unquoted magic char")
    rejects("header", lambda d: cmd0(d).update({"dir": "up"}), "an unknown dir")
    # versions are YAML strings: 6.10 unquoted is the float 6.1
    rejects("header", lambda d: cmd0(d).update({"since": 6.12}), "an unquoted version in since")
    rejects("header", lambda d: cmd0(d).update({"removed": "6.x"}), "removed that is no version")
    rejects("magic", lambda d: d["magic-codes"][0].update({"since": 6.1}),
            "an unquoted version in a row's since")
    rejects("magic", lambda d: d["magic-codes"][0].update({"doc-since": {6.12: "x"}}),
            "an unquoted version in a row's doc-since")
    rejects("magic", lambda d: d["magic-codes"][0].update({"doc-since": {}}), "an empty doc-since")
    rejects("magic", lambda d: d["magic-codes"][0].update({"doc-since": {"6.12": 12}}),
            "a doc-since text that is no string")
    rejects("versions", lambda d: d["versions"][0].update({"name": 6.1}), "an unquoted version name")
    rejects("versions", lambda d: d["versions"][0].pop("doc"), "a version without doc")
    plain = {"name": "X_PLAIN", "number": 0x5401, "passes": "struct termios", "doc": "A plain number."}

    def plain0(**kw):
        return lambda d: d["commands"].__setitem__(0, dict(plain, **kw))

    rejects("header", lambda d: cmd0(d).update({"number": 0x5401}), "number beside dir, magic and nr")
    rejects("header", plain0(number=2 ** 32), "a plain number wider than 32 bits")
    rejects("header", plain0(number="0x5401"), "a plain number written as a string")
    rejects("header", plain0(passes="sizeof(int)"), "sizeof() as what a plain number passes")
    rejects("header", plain0(type="int"), "a type beside a plain number")
    rejects("header", plain0(accept=["outside-range"]), "a plain number accepting outside-range")
    if "header" in good:
        path, data = good["header"]
        ok = copy.deepcopy(data)
        plain0()(ok)
        errs = validate(validators["header"], SPDX + "\n" + yaml.safe_dump(ok, sort_keys=False),
                        "<plain>")
        tap.check(not errs, f"header schema accepts a command spelled as a plain number (from {path})",
                  errs[:1])
    # The literal size (zcrypt), the count of elements (spidev) and the
    # parameter the number ignores (vboxguest): accepted as written, and
    # each refused where it cannot stand.
    forms = {
        "a literal _IOC size": {"name": "X_SIZE", "dir": "read-write", "magic": "'z'", "nr": 5,
                                "macro": "ioc", "size": 0, "doc": "A literal size."},
        "a count of size-unit elements": {"name": "X_MSG", "dir": "write", "magic": "'k'", "nr": 0,
                                          "params": ["N"], "size-param": "N",
                                          "size-unit": "struct spi_ioc_transfer", "doc": "N transfers."},
        "an unused parameter": {"name": "X_LOG", "dir": "none", "magic": "'V'", "nr": 9,
                                "params": ["s"], "unused-params": ["s"], "doc": "Ignores s."}}

    def form(what, **kw):
        c = dict(forms[what], **kw)
        return lambda d: d["commands"].__setitem__(0, {k: v for k, v in c.items() if v is not None})

    if "header" in good:
        path, data = good["header"]
        for what in forms:
            ok = copy.deepcopy(data)
            form(what)(ok)
            errs = validate(validators["header"], SPDX + "\n" + yaml.safe_dump(ok, sort_keys=False),
                            f"<{what}>")
            tap.check(not errs, f"header schema accepts {what} (from {path})", errs[:1])
    rejects("header", form("a literal _IOC size", macro=None), "a literal size without macro: ioc")
    rejects("header", form("a literal _IOC size", type="int"), "a literal size beside a type")
    rejects("header", form("a literal _IOC size", size=-1), "a negative literal size")
    rejects("header", form("a count of size-unit elements", **{"size-param": None}),
            "a size-unit without size-param")
    rejects("header", form("a count of size-unit elements", dir="none"), "a size-unit with dir none")
    rejects("header", form("a count of size-unit elements", **{"size-unit": "sizeof(int)"}),
            "sizeof() as a size-unit")
    rejects("header", form("an unused parameter", **{"unused-params": []}), "an empty unused-params")
    rejects("header", form("an unused parameter", **{"unused-params": ["s", "s"]}),
            "an unused parameter listed twice")
    rejects("header", lambda d: cmd0(d).update({"alias-of": "BASE-GET"}),
            "an alias-of that is no C identifier")
    rejects("header", lambda d: cmd0(d).update({"alias-of": 12}), "an alias-of that is a number")
    rejects("layouts", lambda d: d["layouts"][0].update({"size-bit": 14}), "an unknown key")
    rejects("layouts", lambda d: d["layouts"][0].pop("doc"), "a layout without doc")
    rejects("abis", lambda d: d["abis"][0].pop("doc"), "an ABI without doc")
    rejects("abis", lambda d: d["abis"][0].update({"flags": []}), "an unknown key")
    rejects("sizes", lambda d: d.update({"measured": True}), "an unknown key")
    rejects("sizes", lambda d: d["sizes"].update({"int": "4"}), "a size that is not an integer")
    rejects("sizes", lambda d: d.update({"absent": ["BLK GET"]}), "an absent name that is not a C name")
    rejects("sizes", lambda d: d.update({"absent": ["BLKPG", "BLKPG"]}), "an absent name twice")
    rejects("sizes", lambda d: d.update({"absent": []}), "an empty absent list")

    # Duplicate keys are lost by most YAML readers; this one must see them.
    dup = SPDX + "\nabis:\n  - name: a\n    name: b\n"
    errs = validate(validators["abis"], dup, "<duplicate>")
    tap.check(any("duplicate key" in e for e in errs), "a duplicate key is reported", errs[:1])

    tap.done()


if __name__ == "__main__":
    main()
