# SPDX-License-Identifier: GPL-2.0
"""The layout of every struct and union the registry defines (a header
spec's `types:`), measured on every ABI with its own compiler: the size and
alignment of the type, and each member's offset and size, with the
kernel's asm-offsets trick (probeengine.marker()).  The site's struct layout
view shows them (generator/ioctltools/render_layouts.py); holes are where a member
starts after the end of the one before it, tail padding what follows the
last one.

A registry type has only fixed-width members and the registry's own
structs and unions (ioctlgen refuses anything else), so one probe per ABI
defines them all after <linux/types.h> from the ABI's exported headers, in
spec order, written by cc.type_lines() from the model."""

import hashlib
import json
import os
import shlex

from . import Error, cc, probeengine

TAG = "L"


def registry_types(model):
    """[(header path, model type)] of the structs and unions, in spec order."""
    return [(h["path"], t) for h in model["headers"] for t in h.get("types") or ()
            if t["kind"] in ("struct", "union")]


def probe_source(model):
    """The C text of the probe, and what each marker measures:
    [(type name, member name or None, what)], what in size, align, offset."""
    lines = ["#include <linux/types.h>", "#include <stddef.h>", ""]
    for h in model["headers"]:
        lens = {c["name"]: c["value"] for c in h.get("constants") or ()
                if type(c.get("value")) is int}
        for t in h.get("types") or ():
            kind, name, members, values = cc.model_type(t)
            lines += cc.type_lines(kind, name, members, values, lens) + [""]
    what, body = [], []
    for _path, t in registry_types(model):
        ctype = f"{t['kind']} {t['name']}"
        for expr, member, kind in [(f"sizeof({ctype})", None, "size"),
                                   (f"_Alignof({ctype})", None, "align")] + \
                [(e, m["name"], k) for m in t["members"]
                 for e, k in ((f"offsetof({ctype}, {m['name']})", "offset"),
                              (f"sizeof((({ctype} *)0)->{m['name']})", "size"))]:
            body.append("\t" + probeengine.marker(TAG, len(what), expr))
            what.append((t["name"], member, kind))
    lines += ["void layouts(void);", "void layouts(void)", "{"] + body + ["}"]
    return "\n".join(lines) + "\n", what


def measure_abi(abi, uapi_dir, src, what):
    """{type: {"size", "align", "members": [{"name", "offset", "size"}]}} on
    one ABI; None when its ARCH's headers are not exported (not measured)."""
    inc = os.path.join(uapi_dir, abi["arch"], "include")
    if not os.path.exists(os.path.join(uapi_dir, abi["arch"], ".done")):
        return None
    cmd = shlex.split(abi["cc"]) + list(abi["cflags"]) + ["-I", inc, "-S", "-o", "-", "-x", "c"]
    r = probeengine.run_source(cmd, src)
    if r.returncode:
        raise Error(f"{abi['source']}: error: ABI {abi['name']}: the layout probe does not "
                    f"compile: {probeengine.first_error(r.stderr, r.stderr.strip()[:300])}\n"
                    f"  command: {shlex.join(cmd)}")
    values = probeengine.values(r.stdout, TAG)
    if len(values) != len(what):
        raise Error(f"{abi['source']}: error: ABI {abi['name']}: {len(values)} of "
                    f"{len(what)} layout markers in the assembly")
    out = {}
    for i, (tname, member, kind) in enumerate(what):
        t = out.setdefault(tname, {"members": []})
        if member is None:
            t[kind] = values[i]
        elif kind == "offset":
            t["members"].append({"name": member, "offset": values[i]})
        else:
            t["members"][-1]["size"] = values[i]
    return out


def holes(t):
    """The layout with its gaps: [(kind, name, offset, size)], kind member,
    hole or tail (padding after the last member)."""
    rows, end = [], 0
    for m in sorted(t["members"], key=lambda m: m["offset"]):
        if m["offset"] > end:
            rows.append(("hole", None, end, m["offset"] - end))
        rows.append(("member", m["name"], m["offset"], m["size"]))
        end = max(end, m["offset"] + m["size"])
    if t["size"] > end:
        rows.append(("tail", None, end, t["size"] - end))
    return rows


def inputs_key(model, uapi_dir, src):
    """What a measurement depends on: the probe, each ABI's compiler command
    and the exported <linux/types.h> and <asm/types.h> it reads (by content),
    and this module.  The same key gives the same layouts: an edit that
    changes no type (a command's nr) measures nothing.  src: the probe's
    text (probe_source())."""
    h = hashlib.sha256(src.encode())
    with open(__file__, "rb") as f:
        h.update(f.read())
    for abi in model["abis"]:
        h.update(json.dumps([abi["name"], abi["cc"], abi["cflags"], abi["arch"]]).encode())
        inc = os.path.join(uapi_dir, abi["arch"], "include")
        for rel in ("linux/types.h", "asm/types.h", "asm-generic/int-ll64.h"):
            try:
                with open(os.path.join(inc, rel), "rb") as f:
                    h.update(rel.encode() + b"\0" + f.read())
            except OSError:
                h.update(rel.encode() + b"\0-")
    return h.hexdigest()


def measure(model, uapi_dir, probe):
    """{"abis": [measured], "not-measured": [ABIs without exported headers],
    "types": {type: {"header", "kind", "kernel-internal", "abis": {abi: layout}}}}.
    probe: probe_source(model)."""
    src, what = probe
    types = {t["name"]: {"header": path, "kind": t["kind"],
                         "kernel-internal": bool(t.get("kernel-internal")), "abis": {}}
             for path, t in registry_types(model)}
    measured, missing = [], []
    for abi in model["abis"]:
        found = measure_abi(abi, uapi_dir, src, what) if types else {}
        if found is None:
            missing.append(abi["name"])
            continue
        measured.append(abi["name"])
        for name, lay in found.items():
            lay["rows"] = holes(lay)
            types[name]["abis"][abi["name"]] = lay
    return {"abis": measured, "not-measured": missing, "types": types}
