#!/usr/bin/python3
"""The JSON Schemas of spec/schema name exactly the fields ioctlgen knows.

ioctlgen's table of spec fields (generator/spec_table.c, printed by
build/test-fields) says which fields each kind of spec file has and which
grammar each follows; the schemas (spec/schema/*.schema.json) are the
second description, for editors and tests/schema-check.py.  This test walks
every schema (properties, items, additional and pattern properties, $ref,
allOf/anyOf/oneOf/if-then-else) into the same paths (key.key, key[] for
each item, key{} for each mapping key) and compares the two sets per file:
a field one of them adds and the other does not is a failure that names it.
Paths with children (a mapping or a list of mappings) are compared by their
leaves, as the table lists them.
"""
import json
import os
import subprocess

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
import tap  # noqa: E402

SCHEMAS = {"layouts.yaml": "layouts", "abis.yaml": "abis", "magic.yaml": "magic",
           "versions.yaml": "versions", "headers/": "header", "sizes/": "sizes"}


def leaves(schema, node, path, out, depth=0):
    """Add to out the leaf paths of node (a schema) reached at path."""
    if depth > 40:
        raise RuntimeError(f"{path}: $ref nesting too deep")
    if "$ref" in node:
        ref = node["$ref"]
        assert ref.startswith("#/$defs/"), ref
        leaves(schema, schema["$defs"][ref[len("#/$defs/"):]], path, out, depth + 1)
    for k in ("allOf", "anyOf", "oneOf"):
        for sub in node.get(k, []):
            leaves(schema, sub, path, out, depth + 1)
    for k in ("if", "then", "else"):
        if k in node and isinstance(node[k], dict) and "properties" in node[k]:
            leaves(schema, node[k], path, out, depth + 1)
    before = len(out)
    for key, sub in node.get("properties", {}).items():
        leaves(schema, sub, f"{path}.{key}" if path else key, out, depth + 1)
    items = node.get("items")
    if isinstance(items, dict):
        leaves(schema, items, path + "[]", out, depth + 1)
    extra = node.get("additionalProperties")
    for sub in list(node.get("patternProperties", {}).values()) + (
            [extra] if isinstance(extra, dict) else []):
        out.add(path + "{}")
        leaves(schema, sub, path + "{:}", out, depth + 1)
    if len(out) == before and path and not isinstance(items, dict) and \
            "properties" not in node and not any(k in node for k in ("$ref", "allOf", "anyOf",
                                                                      "oneOf")):
        out.add(path)


def schema_paths(name):
    with open(os.path.join(TOP, "spec/schema", name + ".schema.json"), encoding="utf-8") as f:
        schema = json.load(f)
    out = set()
    leaves(schema, schema, "", out)
    # a value whose own schema has children leaves its children only
    return {p for p in out if not any(q.startswith(p + ".") or q.startswith(p + "[]")
                                      for q in out if q != p)}


def main():
    prog = os.path.join(TOP, "build/test-fields")
    r = subprocess.run(["make", "-s", "--no-print-directory", "build/test-fields"], cwd=TOP,
                       capture_output=True, text=True)
    if r.returncode:
        tap.not_ok("build/test-fields builds", r.stdout + r.stderr)
        tap.done()
    table = {}
    for line in subprocess.run([prog], capture_output=True, text=True, check=True).stdout.splitlines():
        kind, path, _grammar = line.split("\t")
        table.setdefault(kind, set()).add(path)
    tap.check(set(table) == set(SCHEMAS), "the table has the six kinds of spec file", sorted(table))
    for kind, name in SCHEMAS.items():
        want = table.get(kind, set())
        got = schema_paths(name)
        # the table lists a mapping's values only where they are text (key{:})
        got = {p for p in got if not (p.endswith("{:}") and p not in want)}
        only_table = sorted(want - got)
        only_schema = sorted(got - want)
        tap.check(not only_table and not only_schema,
                  f"spec/schema/{name}.schema.json names the {len(want)} fields ioctlgen has for "
                  f"{kind}",
                  [f"only in ioctlgen: {p}" for p in only_table] +
                  [f"only in the schema: {p}" for p in only_schema])
    tap.done()


if __name__ == "__main__":
    main()
