#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The patch series (TAP): each known version's committed series is what a
fresh make patches gives, a hand edit is caught, and the per-version views
of the model the series are made from.
"""

import glob
import os
import re
import shutil
import tempfile

from common import TOP, MODEL, PY, SERIES, need_tree, run, tap, taplib
from ioctltools import model_reader, pipeline, renderlib  # noqa: E402


def series_versions():
    """[(version, its pristine tree, make-patches' work directory)] of the
    registry's known versions, the model's, where make patches has them
    (pipeline.Where.of)."""
    names = renderlib.version_names(model_reader.load(MODEL))
    return [(v, os.path.join(TOP, w.tree), os.path.join(TOP, w.patch_work))
            for v in names for w in [pipeline.Where.of(v, names)]]


def test_series():
    if not os.path.exists(MODEL):
        tap(False, "committed series equals a fresh make patches", "no build/model.json (make model)")
        return
    versions = series_versions()
    tap(bool(versions), f"the model knows the versions of the series "
        f"({', '.join(v for v, _, _ in versions) or 'none'})")
    for version, tree, work in versions:
        test_series_of(version, tree, work)


def test_series_of(version, tree, work):
    series = os.path.join(SERIES, version)
    shown = f"generated-patches/{version}"
    patches = sorted(glob.glob(os.path.join(series, "*.patch")))
    tap(len(patches) >= 4 and os.path.basename(patches[0]).startswith("0000-cover-letter"),
        f"{shown}/ holds a cover letter and {len(patches) - 1} patches")
    with tempfile.TemporaryDirectory() as d:
        r = run([PY, "-m", "ioctltools.make_patches", "-m", MODEL, "--version", version, "-k", tree,
                 "-w", work, "-o", d])
        if r.returncode:
            tap(False, f"{shown}: committed series equals a fresh make patches", r.stderr + r.stdout)
        else:
            fresh = sorted(os.listdir(d))
            committed = [os.path.basename(p) for p in patches]
            diffs = []
            for f in sorted(set(fresh) | set(committed)):
                a, b = os.path.join(series, f), os.path.join(d, f)
                if not os.path.exists(a):
                    diffs.append(f"{shown}/{f}: missing from the committed series")
                elif not os.path.exists(b):
                    diffs.append(f"{shown}/{f}: stale, make patches no longer makes it")
                elif open(a, "rb").read() != open(b, "rb").read():
                    diffs.append(f"{shown}/{f}: differs from a fresh make patches")
            tap(not diffs, f"{shown}: committed series equals a fresh make patches "
                "(run make patches)", "\n".join(diffs))
    checkpatch = os.path.join(tree, "scripts/checkpatch.pl")
    errors, warnings, lines = 0, 0, []
    # The one warning a series from outside the kernel cannot answer: who
    # maintains the new asm-generic header is for the kernel to decide.
    expected = "WARNING: added, moved or deleted file(s), does MAINTAINERS need updating?"
    maintainers = 0
    # On standard input: checkpatch reads a file that git tracks (the
    # committed series) as a source file, not as a patch.  The cover
    # letter has no diff to check.
    for p in patches:
        if os.path.basename(p).startswith("0000-"):
            continue
        with open(p) as f:
            r = run(["perl", checkpatch, "--no-tree", "--no-color", "-"], stdin=f)
        m = re.search(r"^total: (\d+) errors, (\d+) warnings", r.stdout, re.M)
        if not m:
            errors += 1
            lines.append(f"{p}: no checkpatch summary: {r.stderr[-300:]}")
            continue
        errors += int(m.group(1))
        warnings += int(m.group(2))
        found = r.stdout.split("\n")
        maintainers += found.count(expected)
        for i, ln in enumerate(found):
            if ln.startswith(("ERROR", "WARNING", "CHECK")) and ln != expected:
                lines += [f"{os.path.basename(p)}: {ln}"] + found[i + 1:i + 3]
    tap(errors == 0 and warnings == maintainers and not lines,
        f"{shown}: checkpatch: {errors} errors, {warnings} warnings on {len(patches) - 1} "
        f"patches (the cover letter has no diff), {maintainers} of them the MAINTAINERS question",
        "\n".join(lines))
    # Against the pristine commit of build/patches-work, on a private index:
    # the kernel tree itself sits inside this repository, where git apply
    # would silently skip paths outside the current directory.
    with tempfile.TemporaryDirectory() as d:
        env = dict(os.environ, GIT_INDEX_FILE=os.path.join(d, "index"))
        r = run(["git", "-C", work, "read-tree", "pristine"], env=env)
        if not r.returncode:
            r = run(["git", "-C", work, "apply", "--cached", "--check"] + patches[1:], env=env)
        tap(r.returncode == 0, f"{shown} applies to the pristine {version} tree (git apply --check)",
            r.stderr)


def test_hand_edit():
    """A committed patch edited by hand is neither overwritten nor removed,
    and nothing else is written; --force discards the edit."""
    if not os.path.exists(MODEL):
        tap(False, "hand-edited patch is refused", "no build/model.json (make model)")
        return
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "series")
        version, tree, work = series_versions()[0]
        shutil.copytree(os.path.join(SERIES, version), out)
        victim = sorted(glob.glob(os.path.join(out, "0003-*.patch")))[0]
        other = sorted(glob.glob(os.path.join(out, "0001-*.patch")))[0]
        with open(victim, "a") as f:
            f.write("a hand edit\n")
        before = {f: open(os.path.join(out, f), "rb").read() for f in os.listdir(out)}
        os.utime(other, (1, 1))
        cmd = [PY, "-m", "ioctltools.make_patches", "-m", MODEL, "--version", version, "-k", tree,
               "-w", work, "-o", out]
        r = run(cmd)
        after = {f: open(os.path.join(out, f), "rb").read() for f in os.listdir(out)}
        rel = os.path.basename(victim)
        tap(r.returncode != 0 and f"{rel}:1:1: error: hand-edited since generated" in r.stderr
            and before == after and os.stat(other).st_mtime == 1,
            "a hand-edited patch is refused with path:1:1: error:, and no file is written",
            r.stderr[-600:])
        r = run(cmd + ["--force"])
        with open(victim) as f:
            edited = "a hand edit" in f.read()
        tap(r.returncode == 0 and not edited, "make patches FORCE=1 discards the hand edit",
            r.stderr[-600:])


def test_version_view():
    """renderlib.version_view() on the golden registry, which knows 6.1 and
    6.12: G_GONE (removed in 6.12) is 6.1's only, G_NEW (since 6.12) and
    the magic-code row 6.12 adds are 6.12's only, the rows' overlaps point
    into the view's own table, and an unknown version is refused."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "golden.json")
        r = run([os.path.join(TOP, "build/ioctlgen"), "model", "tests/golden/spec", "-o", path])
        if r.returncode:
            tap(False, "version view: ioctlgen model of tests/golden/spec", r.stderr)
            return
        model = model_reader.load(path)

    def names(m):
        return {c["name"] for h in m["headers"] for c in h["commands"]}

    def rows(m):
        return [(r["code-text"], r["seq"]) for r in m["magic-codes"]]

    every = names(model)
    new_rows = [(r["code-text"], r["seq"]) for r in model["magic-codes"]
                if r["versions"] == ["6.12"]]
    v61, v612 = renderlib.version_view(model, "6.1"), renderlib.version_view(model, "6.12")
    tap("G_GONE" in names(v61) and "G_NEW" not in names(v61),
        "version view 6.1: the command removed in 6.12 is there, the one new in 6.12 is not",
        sorted(names(v61)))
    tap("G_NEW" in names(v612) and "G_GONE" not in names(v612),
        "version view 6.12: the command new in 6.12 is there, the removed one is not",
        sorted(names(v612)))
    tap(names(v61) | names(v612) == every and len(model["headers"]) >= len(v612["headers"]),
        "version views: every command is in one view at least")
    tap(bool(new_rows) and not set(new_rows) & set(rows(v61)) and set(new_rows) <= set(rows(v612)),
        f"version view: the magic-code rows 6.12 adds ({len(new_rows)}) are 6.12's only",
        (new_rows, rows(v61)))
    ok = all(0 <= j < len(v["magic-codes"]) and v["magic-codes"][j]["code"] == r["code"]
             for v in (v61, v612) for r in v["magic-codes"] for j in r["overlaps"])
    tap(ok, "version views: each row's overlaps name rows of the view, of its code")
    try:
        renderlib.version_view(model, "6.13")
        tap(False, "version view: an unknown version is refused")
    except ValueError as e:
        tap("6.1, 6.12" in str(e), "version view: an unknown version is refused, naming the known",
            e)


def main():
    need_tree()
    test_series()
    test_hand_edit()
    test_version_view()
    taplib.done()


if __name__ == "__main__":
    main()
