#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Render the kernel files of the registry from the JSON model.

    render.py [-m MODEL] [-k KERNEL_TREE] [-o OUTDIR] [-q] [--cache FILE]

Writes into OUTDIR a tree that mirrors the kernel's paths:

  - the asm ioctl.h headers, one template per file under templates/kernel/,
    filled in from the layout table of the model;
  - every uapi header of the registry: the pristine header from the kernel
    tree with its ioctl #defines rewritten in place (see UapiRewriter), or
    for a header spec with `new: true` the whole header (NewHeader);
  - Documentation/userspace-api/ioctl/ioctl-number.rst, when its template
    templates/kernel/ioctl-number.rst.j2 exists.

A file is written only when its content changes; files of an earlier run
that this run does not produce are removed.  The renderer computes no
request number: every number, width and spelling comes from the model (the
asm headers' comments quote the masks and limits ioctlgen writes for each
layout, see layout_context()).
"""

import argparse
import os
import pickle
import sys
import time

from . import escape
from . import renderlib

RST_TEMPLATE = "ioctl-number.rst.j2"
RST_PATH = "Documentation/userspace-api/ioctl/ioctl-number.rst"
GROUP_ASM = "asm"
GROUP_RST = "rst"

# ---------------------------------------------------------------- asm ioctl.h

def layout_headers(model):
    """Map each asm ioctl.h path to the layout that defines it: the layout
    that names the file first in its `headers`.  A kernel-side header
    (include/asm-generic/ioctl.h, arch/alpha/include/asm/ioctl.h) goes with
    its uapi twin when it has a template."""
    owner = {}
    for lay in model["layouts"]:
        hdrs = lay.get("headers") or []
        if hdrs and hdrs[0] not in owner:
            owner[hdrs[0]] = lay
    for lay in model["layouts"]:
        for h in lay.get("headers") or []:
            if h not in owner:
                raise RenderError(f"{layout_source(model, lay)}: error: layout {lay['name']}: "
                                  f"{h} is not the first header of any layout")
    twins = {}
    for path in owner:
        if "include/uapi/" in path:
            kpath = path.replace("include/uapi/", "include/", 1)
            if os.path.exists(template_file(kpath)):
                twins[kpath] = owner[path]
    owner.update(twins)
    return owner


def template_file(path):
    return os.path.join(renderlib.TEMPLATES, "kernel", path + ".j2")


def layout_source(model, lay):
    src = lay.get("source")
    if src:
        return src.split(":")[0]
    return os.path.join(model["spec-dir"], "layouts.yaml")


def layout_context(lay):
    """The layout with the optional keys of the contract filled in, so that
    templates under StrictUndefined can test them, and the figures the
    headers' comments quote as they quote them: ioctlgen derives them from
    the widths and shifts (model 9: total-bits, command-bits, upper-bits,
    size-limit, masks, size-overlaps), so that no comment keeps a number a
    changed layout would make wrong; here they are only formatted
    (size-limit "16kB", each mask as 0x%08X, the overlapped directions'
    names in capitals)."""
    L = dict(lay)
    L.setdefault("self-contained", False)
    L.setdefault("xsize-bits", None)
    limit = lay["size-limit"]
    L["size-limit"] = f"{limit >> 10}kB" if limit % 1024 == 0 else f"{limit} bytes"
    L["size-overlaps"] = [d.upper() for d in lay["size-overlaps"]]
    L["mask"] = {k: f"0x{v:08X}" for k, v in lay["masks"].items()}
    return L


def render_asm(env, model):
    out = []
    owners = layout_headers(model)
    for path in sorted(owners):
        if not os.path.exists(template_file(path)):
            lay = owners[path]
            raise RenderError(f"{layout_source(model, lay)}: error: layout {lay['name']}: "
                              f"no template templates/kernel/{path}.j2 for {path}")
    tdir = os.path.join(renderlib.TEMPLATES, "kernel")
    for root, _dirs, files in os.walk(tdir):
        for f in files:
            rel = os.path.relpath(os.path.join(root, f), tdir)
            if rel.endswith(".h.j2") and rel[:-3] not in owners:
                raise RenderError(f"templates/kernel/{rel}: error: no layout of the model "
                                  f"names {rel[:-3]} in its headers")
    for path in sorted(owners):
        lay = owners[path]
        tname = path + ".j2"
        spec = layout_source(model, lay)
        text = env.get_template(tname).render(L=layout_context(lay), layout=lay,
                                              model=model, spec=spec)
        out.append(Output(path, text, GROUP_ASM, spec))
    return out


from .render_uapi import (  # noqa: E402
    INCLUDE_RE, Output, RenderError, UapiRewriter, check_definitions, header_includes,
    include_guard, uapi_path)
# what the tests and tools/make-patches call as render.X
from .render_uapi import (  # noqa: E402,F401
    LEGACY_BLOCK_START, LEGACY_NOTE_START, legacy_note_start, normalize, respell, split_args)


class NewHeader:
    """A whole uapi header that the tree does not have (`new: true` in its
    spec), from templates/kernel/uapi-header.j2: the SPDX line, the
    generated-file banner, the include guard, its #includes, then the
    constants, types and commands of the spec in order, each with its doc
    as a comment (types as kernel-doc).  Every name, type, value and
    argument is checked again with escape.c_code(), every doc escaped with
    escape.c_comment() (renderlib.c_doc_comment(), kernel_doc())."""

    def __init__(self, env, model, header, kernel_tree):
        self.env = env
        self.model = model
        self.header = header
        self.path = uapi_path(header)
        self.src = os.path.join(kernel_tree, self.path)

    def error(self, entry, msg):
        where = entry["source"] if entry else self.header["spec"]
        return RenderError(f"{where}: error: {msg}")

    def render(self):
        h = self.header
        if os.path.lexists(self.src):
            raise self.error(None, f"{h['path']}: 'new: true', but the tree has {self.path}: "
                             f"describe the header as it is (no 'new')")
        types = [t for t in h["types"] if not t["kernel-internal"]]
        cmds = [c for c in h["commands"] if not c["reserved"]]
        check_definitions(self.error, h["constants"], types, cmds)
        incs = header_includes(self.model, h, types, cmds)
        bad = [i for i in incs if not INCLUDE_RE.fullmatch(i)]
        if bad:
            raise self.error(None, f"{h['path']}: include {bad[0]!r} is no header path")
        guard = include_guard(h)
        escape.c_code(guard, "include guard")
        text = self.env.get_template("uapi-header.j2").render(
            header=h, spec=h["spec"], guard=guard, includes=incs, types=types, commands=cmds)
        added = {"constants": [k["name"] for k in h["constants"]],
                 "types": [t["c-name"] for t in types], "commands": [c["name"] for c in cmds]}
        return Output(self.path, text, h["spec"], h["spec"],
                      {c["name"]: "added" for c in cmds}, None, added, new=True)


# ---------------------------------------------------------------- ioctl-number.rst

def new_header_rows(model):
    """[(header, [row indexes])] for each new header in model order: the
    magic-code rows whose Include File names it (as linux/x.h,
    uapi/linux/x.h or include/uapi/linux/x.h) and no header before it.
    tools/make-patches adds these rows in the header's own patch."""
    out, taken = [], set()
    for h in model["headers"]:
        if not h.get("new"):
            continue
        names = {h["path"], "uapi/" + h["path"], uapi_path(h)}
        rows = [i for i, r in enumerate(model["magic-codes"])
                if i not in taken and names & set(r["headers"])]
        taken.update(rows)
        out.append((h, rows))
    return out


def render_rst(env, model, kernel_tree):
    if not os.path.exists(os.path.join(renderlib.TEMPLATES, "kernel", RST_TEMPLATE)):
        return []
    ctx = dict((k.replace("-", "_"), v) for k, v in model.items())
    ctx["model"] = model
    ctx["kernel_tree"] = kernel_tree
    try:
        text = env.get_template(RST_TEMPLATE).render(**ctx)
    except escape.UnsafeText as e:
        raise RenderError(str(e)) from None
    spec = os.path.join(model["spec-dir"], "magic.yaml")
    return [Output(RST_PATH, text, GROUP_RST, spec)]


# ---------------------------------------------------------------- driver

class HeaderCache:
    """The uapi headers rendered last time (--cache FILE: `make` passes
    build/render-cache.pickle), each under the hash of all it is made from:
    its entry in the model, the kernel templates, the renderer's code (this
    file, render_uapi.py, renderlib.py, escape.py), and the pristine header's path, size
    and mtime.  After a one-command edit only that command's header is
    rewritten; render.py and make-patches both render everything, so both
    gain.  Without a file (tests, determinism) every header is rendered."""

    def __init__(self, kernel_tree, path):
        self.path = path
        self.kernel_tree = kernel_tree
        tdir = os.path.join(renderlib.TEMPLATES, "kernel")
        here = os.path.dirname(os.path.abspath(__file__))
        self.code = renderlib.files_hash(
            [os.path.join(here, f) for f in ("render.py", "render_uapi.py", "renderlib.py",
                                              "escape.py")] +
            sorted(os.path.join(tdir, f) for f in os.listdir(tdir) if f.endswith(".j2")))
        try:
            with open(self.path, "rb") as f:
                self.old = pickle.load(f)
        except (TypeError, OSError, pickle.PickleError, EOFError, AttributeError, ValueError):
            self.old = {}       # no cache file, or an unreadable one: render all
        self.new = {}

    def key(self, header, src):
        try:
            st = os.stat(src)
            stamp = [st.st_size, st.st_mtime_ns]
        except OSError:
            return None
        return renderlib.context_key([self.code, os.path.abspath(self.kernel_tree), src,
                                      stamp, header])

    def render(self, env, model, header):
        if header.get("new"):
            # no pristine file to key on, and cheap: rendered every time
            return NewHeader(env, model, header, self.kernel_tree).render()
        rw = UapiRewriter(env, model, header, self.kernel_tree)
        key = self.key(header, rw.src)
        # plain tuples: render.py pickles as __main__, make-patches as render
        old = self.old.get(key) if key else None
        out = Output(*old) if old else rw.render()
        if key:
            self.new[key] = out.fields()
        return out

    def save(self):
        if self.path is None or self.new.keys() == self.old.keys():
            return
        try:
            renderlib.write_bytes_if_changed(self.path, pickle.dumps(self.new, protocol=4))
        except OSError:
            pass        # a read-only build directory: render all again next time


def render_all(model, kernel_tree, cache=None):
    """Every output of the model, in patch order: asm headers, uapi headers
    by path, ioctl-number.rst.  cache: a HeaderCache file, or None.
    Commands spelled as plain numbers are not rendered (macro_model())."""
    model = renderlib.macro_model(model)
    env = renderlib.environment("kernel")
    outs = render_asm(env, model)
    cache = HeaderCache(kernel_tree, cache)
    for h in model["headers"]:
        outs.append(cache.render(env, model, h))
    cache.save()
    outs.extend(render_rst(env, model, kernel_tree))
    return outs


def write_tree(outs, outdir, quiet=False):
    """Write outs under outdir, each only when changed, and remove files of
    earlier runs.  Returns the number of files written."""
    written = 0
    keep = set()
    for o in outs:
        dst = os.path.join(outdir, o.path)
        keep.add(os.path.normpath(dst))
        if renderlib.write_if_changed(dst, o.text):
            written += 1
            if not quiet:
                print(f"  GEN     {dst}")
    for root, _dirs, files in os.walk(outdir):
        for f in files:
            p = os.path.normpath(os.path.join(root, f))
            if p not in keep:
                os.unlink(p)
                if not quiet:
                    print(f"  RM      {p}")
    return written


def main(argv=None):
    ap = argparse.ArgumentParser(description="Render kernel files from the ioctl registry model.")
    ap.add_argument("-m", "--model", default="build/model.json")
    ap.add_argument("-k", "--kernel-tree", default="build/linux-source-6.1",
                    help="pristine kernel tree the uapi headers are read from")
    ap.add_argument("-o", "--outdir", default="build/render")
    ap.add_argument("--version", metavar="V",
                    help="render the registry as kernel version V has it (spec/versions.yaml; "
                         "default: the kernel tree's version)")
    ap.add_argument("-q", "--quiet", action="store_true")
    ap.add_argument("--cache", metavar="FILE",
                    help="keep rendered uapi headers in FILE between runs (make: build/render-cache.pickle)")
    ap.add_argument("--time", action="store_true", help="print the time taken to stderr")
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    model = renderlib.load_model(args.model)
    try:
        # without --version: the version the tree is, read from its Makefile
        model = renderlib.version_view(model, args.version) if args.version else \
            renderlib.view_for_tree(model, args.kernel_tree)
        # CACHE=0 (make check CACHE=0) ignores every cache, this one too.
        cache = None if os.environ.get("CACHE") == "0" else args.cache
        outs = render_all(model, args.kernel_tree, cache)
    except ValueError as e:
        print(f"{args.model}: error: {e}", file=sys.stderr)
        return 2
    except RenderError as e:
        print(e, file=sys.stderr)
        return 1
    n = write_tree(outs, args.outdir, args.quiet)
    if args.time:
        print(f"render: {len(outs)} files, {n} written, {time.perf_counter() - t0:.3f} s",
              file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
