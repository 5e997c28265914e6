# SPDX-License-Identifier: GPL-2.0
"""The reference pages render_site.py generates from the project itself:
the YAML format reference from the JSON Schemas of spec/schema/, and the
CLI reference from `ioctlgen --help`."""

import json
import os
import subprocess
import sys

from . import renderlib

TOP = renderlib.TOP


def schema_fields(schema):
    """Flatten a JSON Schema into rows (path, types, required, text, constraints)."""
    defs = schema.get("$defs", schema.get("definitions", {}))
    rows = []
    listed = set()

    def resolve(node, seen):
        ref = node.get("$ref") if isinstance(node, dict) else None
        if ref and ref.startswith("#/"):
            name = ref.split("/")[-1]
            if name in seen:
                return node, name, True
            target = defs.get(name)
            if target is not None:
                merged = dict(target)
                merged.update({k: v for k, v in node.items() if k != "$ref"})
                return merged, name, False
        return node, None, False

    def types(node):
        if not isinstance(node, dict):
            return ""
        if "$ref" in node:
            return node["$ref"].split("/")[-1]
        t = node.get("type")
        if isinstance(t, list):
            t = " or ".join(t)
        alts = node.get("oneOf") or node.get("anyOf")
        if alts and not t:
            t = " or ".join(filter(None, (types(a) for a in alts)))
        if not t and "enum" in node:
            kinds = {type(e).__name__ for e in node["enum"]}
            t = {"str": "string", "int": "integer", "bool": "boolean"}.get(kinds.pop()) \
                if len(kinds) == 1 else ""
        if t == "array" and isinstance(node.get("items"), dict):
            t = f"list of {types(node['items']) or 'items'}"
        if "const" in node:
            t = f"{t or ''} {json.dumps(node['const'])}".strip()
        return t or ""

    def constraints(node):
        out = []
        if "enum" in node:
            out.append("one of " + ", ".join(json.dumps(e) for e in node["enum"]))
        for k, label in (("pattern", "matches"), ("minimum", "at least"), ("maximum", "at most"),
                         ("minItems", "at least {} items"), ("default", "default")):
            if k in node:
                out.append(label.format(node[k]) if "{}" in label
                           else f"{label} {json.dumps(node[k])}")
        return "; ".join(out)

    def walk(node, path, required, seen, depth, emit=True):
        node, name, cyclic = resolve(node, seen)
        if not isinstance(node, dict):
            return
        if path and emit and path not in listed:
            listed.add(path)
            t = types(node)
            rows.append({"path": path, "type": t if name is None else f"{t} ({name})".strip(),
                         "required": required,
                         "doc": node.get("description", node.get("title", "")),
                         "constraints": "see above" if cyclic else constraints(node),
                         "depth": depth})
        if cyclic or depth > 8:
            return
        seen = seen | ({name} if name else set())
        req = set(node.get("required", []))
        for k, sub in node.get("properties", {}).items():
            walk(sub, f"{path}.{k}" if path else k, k in req, seen, depth + 1)
        for k, sub in node.get("patternProperties", {}).items():
            walk(sub, f"{path}.<{k}>" if path else f"<{k}>", False, seen, depth + 1)
        items = node.get("items")
        if isinstance(items, dict):
            walk(items, f"{path}[]", False, seen, depth + 1, emit=False)
        # Alternatives that are objects add their keys under the same path.
        for alt in node.get("oneOf", []) + node.get("anyOf", []) + node.get("allOf", []):
            walk(alt, path, required, seen, depth, emit=False)

    walk(schema, "", True, set(), 0)
    return rows


def schema_pages(schema_dir):
    pages = []
    if not os.path.isdir(schema_dir):
        return pages
    for fn in sorted(os.listdir(schema_dir)):
        if not fn.endswith(".json"):
            continue
        path = os.path.join(schema_dir, fn)
        rel = os.path.relpath(path, TOP)
        try:
            with open(path, encoding="utf-8") as f:
                schema = json.load(f)
        except (OSError, ValueError) as e:
            sys.exit(f"{rel}: error: {e}")
        pages.append({"file": rel, "title": schema.get("title", fn),
                      "doc": schema.get("description", ""), "rows": schema_fields(schema)})
    return pages


def cli_help(ioctlgen):
    if not ioctlgen or not os.access(ioctlgen, os.X_OK):
        return None
    try:
        p = subprocess.run([ioctlgen, "--help"], capture_output=True, text=True, timeout=20)
    except OSError:
        return None
    text = p.stdout or p.stderr
    return text if text.strip() else None


# ---------------------------------------------------------------- output
