#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Turn the rendered kernel files into a git format-patch series.

    tools/make-patches [-m MODEL] [-k KERNEL_TREE] [-w WORKDIR] [-o OUTDIR] [--cache FILE]

The files of the pristine kernel tree that the series changes are
committed into a scratch repository (WORKDIR, default build/patches-work;
cached, made again when the series touches other files).  The series
is built there by one `git fast-import` (blobs, trees and commits in one
process) and one `git format-patch`, so no work tree is checked out, no
index of the whole tree is written, and the pristine tree is only ever
read; when what git would be given is what it was given last time, its
last output is reused and git does not run.  One commit per logical change:

  1. the asm ioctl.h headers, from the layout table;
  2. one commit per uapi header with legacy commands;
  3. one commit for the other registry headers (the marker line);
  4. Documentation/userspace-api/ioctl/ioctl-number.rst, without the rows
     that name a new header;
  5. one commit for the kernel-internal headers (include/<path>, not UAPI:
     the marker line);
  6. one commit per existing header that gains commands, types or constants
     the pristine header lacks (render.Output.added), in its generated block;
  7. one commit per whole new header (`new: true`), with the rows of
     ioctl-number.rst that name it.

What the registry adds (6 and 7) comes last: a new command or header
appends a patch and every patch before it keeps its bytes.  Without them,
the series is what it was before they existed.

Author, committer and dates are fixed, format-patch runs with --zero-commit,
--no-signature and without the user's git configuration, so the same model
gives byte-identical patches.  Files in OUTDIR are written only when they
change, through renderlib.write_generated() (a patch edited by hand is
refused); stale *.patch files there are removed.
"""

import argparse
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile

from . import render, renderlib

IDENT_NAME = "ioctl-registry"
IDENT_EMAIL = "ioctl-registry@example.org"
IDENT = f"{IDENT_NAME} <{IDENT_EMAIL}>"
# A fixed date for every commit and the cover letter: the day the seed
# commit c5ace2068b9b was made, 2003-09-07.
DATE = "1062936000 +0000"
BRANCH = "series"


def git_env(index=None):
    env = dict(os.environ)
    for k in list(env):
        if k.startswith("GIT_"):
            del env[k]
    env.update({
        "GIT_CONFIG_GLOBAL": "/dev/null",
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_AUTHOR_NAME": IDENT_NAME, "GIT_AUTHOR_EMAIL": IDENT_EMAIL,
        "GIT_COMMITTER_NAME": IDENT_NAME, "GIT_COMMITTER_EMAIL": IDENT_EMAIL,
        "GIT_AUTHOR_DATE": DATE, "GIT_COMMITTER_DATE": DATE,
        "LC_ALL": "C", "TZ": "UTC",
    })
    if index:
        env["GIT_INDEX_FILE"] = index
    return env


def git(workdir, *args, index=None, input=None, work_tree=None):
    cmd = ["git", "-C", workdir]
    if work_tree:
        cmd += ["--work-tree", work_tree]
    r = subprocess.run(cmd + list(args), env=git_env(index), input=input,
                       capture_output=True, text=True)
    if r.returncode:
        sys.exit(f"make-patches: error: git {' '.join(args)}: {r.stderr.strip()}")
    return r.stdout.strip()


def first_line(path):
    """The first line of a file, stripped; "" when it cannot be read."""
    try:
        with open(path) as f:
            return f.readline().strip()
    except OSError:
        return ""


def base_commit(workdir, tree, paths):
    """The pristine commit: the files of the pristine tree the series
    touches (paths), as the tree has them.  format-patch reads nothing
    else of it, so the series is the same as against a commit of the whole
    tree (about 30 s of git for 80,000 files, here a fraction of a second).
    Cached; made again when the series touches other files or the tree was
    extracted again (its .extracted stamp is newer): then the repository
    is made anew too, so the old tree's objects do not pile up."""
    stamp = os.path.join(workdir, "base")
    key_file = os.path.join(workdir, "base.paths")
    src_stamp = os.path.join(tree, ".extracted")
    present = sorted({p for p in paths if os.path.lexists(os.path.join(tree, p))})
    key = hashlib.sha256("\0".join(present).encode()).hexdigest()
    fresh = os.path.exists(stamp) and os.path.exists(os.path.join(workdir, ".git")) and (
        not os.path.exists(src_stamp) or os.path.getmtime(stamp) >= os.path.getmtime(src_stamp))
    if fresh and first_line(key_file) == key:
        return first_line(stamp)
    if not fresh:
        shutil.rmtree(os.path.join(workdir, ".git"), ignore_errors=True)
    os.makedirs(workdir, exist_ok=True)
    if not os.path.exists(os.path.join(workdir, ".git")):
        git(workdir, "init", "-q")
        git(workdir, "config", "core.abbrev", "12")
        git(workdir, "config", "gc.auto", "0")
    # A private index: the work tree is the pristine tree, only ever read.
    with tempfile.TemporaryDirectory() as d:
        index = os.path.join(d, "index")
        if present:
            git(workdir, "add", "-f", "--", *present, index=index, work_tree=os.path.abspath(tree))
        tree_id = git(workdir, "write-tree", index=index)
    version = renderlib.tree_version(tree) or "(version unknown)"
    commit = git(workdir, "commit-tree", tree_id, "-m",
                 f"Linux {version} ({os.path.basename(os.path.normpath(tree))}): "
                 f"the {len(present)} files the series writes")
    git(workdir, "update-ref", "refs/heads/pristine", commit)
    renderlib.write_if_changed(stamp, commit + "\n")
    os.utime(stamp)
    renderlib.write_if_changed(key_file, key + "\n")
    return commit


def number_groups(cmd, abis):
    """[(hex, [ABI names])] of a command, one per distinct number, in ABI
    order: sixteen ABIs and their time64 variants on one line would not
    read in a commit message."""
    groups = {}
    for a in abis:
        n = cmd["numbers"].get(a["name"])
        if n:
            groups.setdefault(n["hex"], []).append(a["name"])
    return list(groups.items())


def staged(o):
    """The Output of a uapi header as its legacy or marker patch leaves it:
    without the constants, types and commands it adds (o.base), which
    come in a patch of their own."""
    if o.base is None:
        return o
    return render.Output(o.path, o.base, o.group, o.spec,
                         {n: k for n, k in o.changes.items() if k != "added"})


def rst_stages(rst, model, kernel_tree):
    """The ioctl-number.rst Output of step 5 (without the rows that name a
    new header) and, per new header spec, the rst as its patch leaves it
    (the rows of the headers up to it added), with the rows it adds."""
    stages = render.new_header_rows(model)
    if not rst or not any(rows for _h, rows in stages):
        return rst, {}
    env = renderlib.environment("kernel")
    dropped = {i for _h, rows in stages for i in rows}
    first = render.render_rst(env, renderlib.without_rows(model, dropped), kernel_tree)
    after = {}
    for h, rows in stages:
        dropped -= set(rows)
        if rows:
            after[h["spec"]] = (render.render_rst(env, renderlib.without_rows(model, dropped),
                                                  kernel_tree),
                                [model["magic-codes"][i] for i in rows])
    return first, after


def compat(cmds, abis):
    """What the patch says about 32-bit callers on a 64-bit kernel: the ABIs
    measured, and the commands whose argument size differs between them
    (each a new command that accepted abi-size: ioctlgen refuses the others;
    the registry's types also have one layout, or ioctlgen refuses them)."""
    differ = [c["name"] for c in cmds
              if len({n["size"] for n in c["numbers"].values()
                      if n and n["size"] is not None}) > 1]
    return {"abis": len(abis), "differ": differ}


def added_context(o, h, model):
    """What a patch that adds constants, types and commands says about them."""
    cmds = [c for c in h["commands"] if c["name"] in o.added["commands"]]
    return {"header": h, "path": o.path, "added": o.added, "commands": cmds,
            "numbers": {c["name"]: number_groups(c, model["abis"]) for c in cmds},
            "compat": compat(cmds, model["abis"])}


def group_outputs(outs, model, kernel_tree=None):
    """[(kind, context, [Output])] in series order.  kernel_tree: the
    pristine tree, for ioctl-number.rst as it reads before the rows of new
    headers (only needed when the model has new headers with rows)."""
    heads = {h["spec"]: h for h in model["headers"]}
    asm = [o for o in outs if o.group == render.GROUP_ASM]
    rst = [o for o in outs if o.group == render.GROUP_RST]
    legacy_groups, rest, adds, news = [], [], [], []
    for o in outs:
        if o.group in heads:
            h = heads[o.group]
            if o.new:
                news.append((o, h))
                continue
            if o.base is not None:
                adds.append((o, h))
            legacy = [c for c in h["commands"] if c.get("legacy") and not c["reserved"]
                      and c["name"] not in o.added["commands"]]
            (legacy_groups if legacy else rest).append((staged(o), h, legacy))
    series = []
    if asm:
        series.append(("asm", {"files": [o.path for o in asm], "layouts": model["layouts"]}, asm))
    # the commands spelled with an _IO*_BAD macro (the model's ioctl-macros)
    bad_macros = {m["name"] for m in model["ioctl-macros"] if m["legacy"]}
    for o, h, legacy in legacy_groups:
        ctx = {"header": h, "legacy": legacy,
               "bad": [c for c in legacy if c["macro"] in bad_macros],
               "added": [n for n, k in o.changes.items() if k == "added"],
               "changes": o.changes,
               "numbers": {c["name"]: number_groups(c, model["abis"]) for c in legacy}}
        series.append(("header", ctx, [o]))
    uapi = [r for r in rest if not r[1].get("kernel-internal")]
    internal = [r for r in rest if r[1].get("kernel-internal")]
    if uapi:
        ctx = {"added": [n for o, _h, _l in uapi for n, k in o.changes.items() if k == "added"]}
        series.append(("marker", ctx, [o for o, _h, _l in uapi]))
    # What the registry adds comes last, after the kernel's own headers and
    # the rst: a new command or header appends a patch and leaves every
    # patch before it as it was.
    rst, after = rst_stages(rst, model, kernel_tree) if news else (rst, {})
    if rst:
        shown = model if not after else renderlib.without_rows(
            model, {i for _h, rows in render.new_header_rows(model) for i in rows})
        conflicts = sum(1 for r in shown["magic-codes"] if r["overlaps"])
        series.append(("rst", {"model": shown, "conflicts": conflicts}, rst))
    # the kernel-internal headers (include/, not UAPI): a marker patch of
    # their own, after the UAPI ones and before what the registry adds
    if internal:
        ctx = {"added": [n for o, _h, _l in internal for n, k in o.changes.items()
                         if k == "added"],
               "headers": [h for _o, h, _l in internal]}
        series.append(("marker-internal", ctx, [o for o, _h, _l in internal]))
    for o, h in adds:
        series.append(("added", added_context(o, h, model), [o]))
    for o, h in news:
        ctx = added_context(o, h, model)
        rst_o, rows = after.get(h["spec"], ([], []))
        ctx["rows"] = rows
        series.append(("new-header", ctx, [o] + rst_o))
    return series


def message(env, kind, ctx):
    text = env.get_template(kind + ".j2").render(ident=IDENT, **ctx)
    text = re.sub(r"\n{3,}", "\n\n", text).strip("\n") + "\n"
    return text


def fast_import_stream(base, series, env):
    """The commits of the series as one git fast-import stream: one commit
    per patch on top of base, each file inline.  fast-import builds the
    blobs and trees itself, so no index of the whole kernel tree is read or
    written and git runs once, not once per file or per patch."""
    who = f"{IDENT} {DATE}".encode()
    out = [b"reset refs/heads/" + BRANCH.encode() + b"\nfrom " + base.encode() + b"\n\n"]
    for kind, ctx, outs in series:
        msg = message(env, kind, ctx).encode("utf-8")
        out += [b"commit refs/heads/", BRANCH.encode(), b"\nauthor ", who, b"\ncommitter ", who,
                b"\ndata %d\n" % len(msg), msg, b"\n"]
        for o in outs:
            data = o.text.encode("utf-8")
            out += [b"M 100644 inline ", o.path.encode(), b"\ndata %d\n" % len(data), data, b"\n"]
        out.append(b"\n")
    return b"".join(out)


# --no-numbered: "[PATCH] subject", not "[PATCH 09/10]", so that a patch
# appended to the series leaves the bytes of those before it alone; the
# file names (0009-...) keep the order.
FORMAT_PATCH = ["format-patch", "-q", "--zero-commit", "--no-signature", "--cover-letter",
                "--no-numbered",
                "--cover-from-description=subject", "--no-thread", "--stat=72", "--summary",
                "--abbrev=12", "--diff-algorithm=myers"]


def build_series(workdir, base, series, env, model):
    """The directory of the series as format-patch wrote it.  The stream,
    the cover letter and the format-patch options are all git is given, and
    its output depends on nothing else: when they are the same as last
    time, the last output (WORKDIR/series, with their hash) is the series
    and git does not run (an edit that changes no rendered file nor commit
    message, such as a command's doc text, costs no git)."""
    stream = fast_import_stream(base, series, env)
    commands = sum(len(h["commands"]) for h in model["headers"])
    legacy = sum(1 for h in model["headers"] for c in h["commands"] if c.get("legacy"))
    heads = [h for h in model["headers"]
             if any(c.get("legacy") and not c["reserved"] for c in h["commands"])]
    cover = message(env, "cover", {"model": model, "commands": commands, "legacy": legacy,
                                   "headers": heads,
                                   "new_headers": [h for h in model["headers"] if h.get("new")]})
    key = hashlib.sha256(b"\0".join([stream, cover.encode("utf-8")] +
                                     [a.encode() for a in FORMAT_PATCH])).hexdigest()
    out, stamp = os.path.join(workdir, "series"), os.path.join(workdir, "series.sha256")
    try:
        with open(stamp) as f:
            if f.read().strip() == key and os.path.isdir(out):
                return out
    except OSError:
        pass
    r = subprocess.run(["git", "-C", workdir, "fast-import", "--quiet", "--force"],
                       input=stream, env=git_env(), capture_output=True)
    if r.returncode:
        sys.exit(f"make-patches: error: git fast-import: {r.stderr.decode(errors='replace').strip()}")
    if os.path.exists(stamp):
        os.unlink(stamp)
    shutil.rmtree(out, ignore_errors=True)
    git(workdir, "-c", f"branch.{BRANCH}.description={cover}", *FORMAT_PATCH,
        "-o", os.path.abspath(out), f"{base}..{BRANCH}")
    renderlib.write_if_changed(stamp, key + "\n")
    return out


BANNER = ("@generated by tools/make-patches from spec/: change the registry or the templates, "
          "not this file")


def with_banner(name, text):
    """The patch text with a banner that records its hash (renderlib.
    write_generated): in a patch, in the notes after '---' that git am
    drops; in the cover letter, as its last line."""
    lines = text.split("\n")
    if "---" in lines and name != "0000-cover-letter.patch":
        i = lines.index("---")
        lines.insert(i + 1, BANNER)
    else:
        lines.insert(len(lines) - 1 if lines[-1] == "" else len(lines), BANNER)
    return "\n".join(lines)


def sync(src, dst, force=False):
    """Copy the fresh series into dst through renderlib.write_generated().
    A committed patch edited by hand is neither overwritten nor removed
    unless force: every file is checked before any is written."""
    os.makedirs(dst, exist_ok=True)
    new = sorted(os.listdir(src))
    texts = {}
    for f in new:
        with open(os.path.join(src, f), encoding="utf-8") as fh:
            texts[f] = with_banner(f, fh.read())
    stale = [f for f in sorted(os.listdir(dst)) if f.endswith(".patch") and f not in new]
    if not force:
        problems = [renderlib.generated_refusal(os.path.join(dst, f),
                                                renderlib.stamp_generated(texts[f]) if f in texts
                                                else None)
                    for f in new + stale]
        if any(problems):
            raise renderlib.HandEditedError("\n".join(p for p in problems if p))
    written = 0
    for f in new:
        if renderlib.write_generated(os.path.join(dst, f), texts[f], force=True):
            written += 1
            print(f"  PATCH   {os.path.join(dst, f)}")
    for f in stale:
        os.unlink(os.path.join(dst, f))
        print(f"  RM      {os.path.join(dst, f)}")
    return new, written


def main():
    ap = argparse.ArgumentParser(prog="make-patches", description="Make the kernel patch series from the model.")
    ap.add_argument("-m", "--model", default="build/model.json")
    ap.add_argument("-k", "--kernel-tree", default="build/linux-source-6.1")
    ap.add_argument("-w", "--workdir", default="build/patches-work")
    ap.add_argument("-o", "--outdir", default="generated-patches")
    ap.add_argument("--version", metavar="V",
                    help="the series for kernel version V (spec/versions.yaml): its commands "
                         "and magic-code rows only, against its tree")
    ap.add_argument("--cache", metavar="FILE",
                    help="rendered uapi headers kept between runs (see render.py --cache)")
    ap.add_argument("--force", action="store_true",
                    help="overwrite or remove patches edited by hand")
    args = ap.parse_args()
    model = renderlib.load_model(args.model)
    try:
        # without --version: the version the tree is, read from its Makefile
        model = renderlib.version_view(model, args.version) if args.version else \
            renderlib.view_for_tree(model, args.kernel_tree)
    except ValueError as e:
        sys.exit(f"{args.model}: error: {e}")
    model = renderlib.macro_model(model)
    try:
        # CACHE=0 (make check CACHE=0) ignores every cache, this one too.
        cache = None if os.environ.get("CACHE") == "0" else args.cache
        outs = render.render_all(model, args.kernel_tree, cache)
    except render.RenderError as e:
        sys.exit(str(e))
    env = renderlib.environment("patches")
    series = group_outputs(outs, model, args.kernel_tree)
    base = base_commit(args.workdir, args.kernel_tree,
                       [o.path for _kind, _ctx, outs in series for o in outs])
    out = build_series(args.workdir, base, series, env, model)
    try:
        files, written = sync(out, args.outdir, args.force)
    except renderlib.HandEditedError as e:
        sys.exit(str(e))
    print(f"make-patches: {len(files)} files ({len(series)} patches and a cover letter) "
          f"in {args.outdir}, {written} written")


if __name__ == "__main__":
    main()
