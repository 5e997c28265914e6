#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Rendering again (TAP): byte-identical output, a render over an earlier
one (long comments, a changed type, plain numbers), the renderer's errors
and the normalization of what it reads.
"""

import copy
import json
import os
import re
import shutil
import tempfile
import time

from common import KSRC, TOP, PY, copy_spec, define_line, first_diff, fixture, model_of, \
    need_ioctlgen, need_tree, render, rendered, run, tap, taplib
from ioctltools import model_reader, renderlib  # noqa: E402


def test_stability():
    m = fixture()
    a, b = rendered(m), rendered(copy.deepcopy(m))
    tap(a == b, "rendering twice gives byte-identical output")
    with tempfile.TemporaryDirectory() as d:
        render.write_tree(render.render_all(m, KSRC), d, quiet=True)
        old = time.time() - 3600
        files = [os.path.join(r, f) for r, _, fs in os.walk(d) for f in fs]
        for f in files:
            os.utime(f, (old, old))
        t0 = time.perf_counter()
        written = render.write_tree(render.render_all(m, KSRC), d, quiet=True)
        dt = time.perf_counter() - t0
        touched = [f for f in files if os.path.getmtime(f) != old]
        tap(written == 0 and not touched, "no file is written when nothing changed",
            f"written {written}: {touched}")
        # A time, not a test (make bench measures render): load must not fail it.
        print(f"# rendering every fixture file took {dt * 1000:.0f} ms")
        # A second write of the same tree: byte-identical files.
        with tempfile.TemporaryDirectory() as d2:
            render.write_tree(render.render_all(m, KSRC), d2, quiet=True)
            r = run(["diff", "-r", d, d2])
            tap(r.returncode == 0, "two renders into fresh trees are identical", r.stdout)
        # Idempotent: the rendered tree as input renders to itself.
        hdr = os.path.join(d, "include/uapi/linux/fs.h")
        shutil.copytree(os.path.join(d, "include"), os.path.join(d, "again/include"))
        again = {o.path: o.text for o in render.render_all(m, os.path.join(d, "again"))}
        with open(hdr) as f:
            first = f.read()
        tap(again["include/uapi/linux/fs.h"] == first,
            "rendering an already rendered header changes nothing (block, notes, marker)",
            first_diff(first, again["include/uapi/linux/fs.h"]))


def test_long_comments():
    """A legacy note longer than 80 columns, and a marker and block fences
    longer than 100 (checkpatch's limit), become block comments whose lines
    fit; a rendered header renders to itself with them."""
    m = fixture()
    h = m["headers"][0]
    h["spec"] = "spec/headers/linux/" + "a_rather_long_directory/" * 3 + "fs.yaml"
    c = next(c for c in h["commands"] if c.get("legacy") and c["legacy"]["spell-as"] == "bad")
    c["legacy"]["passes"] = "struct a_rather_long_argument_type_name_for_this_test"
    c["legacy"]["written"] = f"sizeof({c['legacy']['passes']})"
    text = rendered(m)["include/uapi/linux/fs.h"]
    lines = text.split("\n")
    marker = lines[1:5]
    tap(marker == ["/*", " * IOCTL-REGISTRY-GEN: ioctl #defines generated from", f" * {h['spec']}", " */"],
        "a marker over 100 columns is a block comment with the spec on a line of its own",
        "\n".join(marker))
    fences = [lines[i - 1:i + 3] for i, ln in enumerate(lines) if ln.endswith(" of ioctl definitions generated from")]
    tap(fences == [["/*", f" * {w} of ioctl definitions generated from", f" * {h['spec']}", " */"]
                   for w in ("Begin", "End")],
        "so are the Begin and End lines of the block of new definitions", fences)
    at = next(i for i, ln in enumerate(lines) if re.match(r"#\s*define\s+%s\b" % c["name"], ln))
    start = render.legacy_note_start(lines[:at])
    note = lines[start:at]
    tap(len(note) > 3 and note[0] == "/*" and note[-1] == " */" and
        " ".join(ln[3:] for ln in note[1:-1]) ==
        f"legacy: the size field is sizeof({c['legacy']['written']}), not sizeof({c['legacy']['passes']})"
        and all(len(ln) <= 80 for ln in note),
        f"{c['name']}: a legacy note over 80 columns is a block comment of lines that fit",
        "\n".join(note))
    # One command of the block less: rendered over the first render, the
    # block is replaced (not kept beside the header's own #defines).
    fs = next(o for o in render.render_all(m, KSRC) if o.path == "include/uapi/linux/fs.h")
    less = copy.deepcopy(m)
    gone = fs.added["commands"][0]
    less["headers"][0]["commands"] = [c for c in h["commands"] if c["name"] != gone]
    with tempfile.TemporaryDirectory() as d:
        render.write_tree(render.render_all(m, KSRC), d, quiet=True)
        again = {o.path: o.text for o in render.render_all(m, d)}
        changed = {o.path: o.text for o in render.render_all(less, d)}
    tap(again["include/uapi/linux/fs.h"] == text,
        "rendering a header with block-comment note, marker and fences again changes nothing",
        first_diff(text, again["include/uapi/linux/fs.h"]))
    want = rendered(less)["include/uapi/linux/fs.h"]
    tap(changed["include/uapi/linux/fs.h"] == want and gone not in want,
        f"without {gone}, it renders as the pristine header does: the block is replaced",
        first_diff(want, changed["include/uapi/linux/fs.h"]))


def test_type_change():
    m = fixture()
    before = define_line(rendered(m)["include/uapi/linux/fs.h"], "BLKGETDISKSEQ")
    for c in m["headers"][0]["commands"]:
        if c["name"] == "BLKGETDISKSEQ":
            c["type"] = "__u32"
            c["args"] = ["0x12", "128", "__u32"]
    after = define_line(rendered(m)["include/uapi/linux/fs.h"], "BLKGETDISKSEQ")
    tap(before == "#define BLKGETDISKSEQ _IOR(0x12,128,__u64)" and
        after == "#define BLKGETDISKSEQ _IOR(0x12, 128, __u32)",
        "a changed argument type in the model changes the rendered #define", f"{before}\n{after}")
    ioctlgen = need_ioctlgen("spec to header")
    if not ioctlgen:
        return
    with tempfile.TemporaryDirectory() as d:
        spec = copy_spec(os.path.join(TOP, "spec"), d)
        fs = os.path.join(spec, "headers/linux/fs.yaml")
        with open(fs) as f:
            text = f.read()
        new, k = re.subn(r"(- name: BLKGETDISKSEQ\n(?:    .*\n)*?    type: )__u64", r"\1int", text)
        new, k2 = re.subn(r"(- name: BLKBSZGET\n(?:    .*\n)*?      spell-as: )(?:size_t|bad)", r"\1bad", new)
        k += k2 - 1
        with open(fs, "w") as f:
            f.write(new)
        r = run([ioctlgen, "model", spec, "-o", os.path.join(d, "model.json")])
        if k != 1 or r.returncode:
            tap(False, "spec to header: ioctlgen models the changed spec", f"subs {k}\n{r.stderr[-800:]}")
            return
        m2 = renderlib.view_for_tree(model_reader.load(os.path.join(d, "model.json")), KSRC)	# 6.1's commands, against 6.1
        line = define_line(rendered(m2)["include/uapi/linux/fs.h"], "BLKGETDISKSEQ")
        tap(line == "#define BLKGETDISKSEQ _IOR(0x12, 128, int)",
            "spec to header: BLKGETDISKSEQ typed int in the spec renders as int", line)
        outs = render.render_all(m2, KSRC)
        fs_h = [o for o in outs if o.path == "include/uapi/linux/fs.h"][0]
        line = define_line(fs_h.text, "BLKBSZGET")
        tap(line == "#define BLKBSZGET  _IOR_BAD(0x12, 112, sizeof(int))",
            "spec to header: BLKBSZGET with spell-as: bad renders with _IOR_BAD", line)
        from ioctltools import make_patches as mp
        env = renderlib.environment("patches")
        subj = [mp.message(env, kind, ctx).split("\n")[0]
                for kind, ctx, o in mp.group_outputs(outs, m2) if o == [fs_h]]
        tap(subj == ["fs: spell legacy ioctl numbers with the _IO*_BAD macros"],
            "spec to patch: the fs.h patch says it moves to the _BAD macros", subj)


def test_plain():
    """Commands spelled as plain numbers are no _IO* macros: the rendered
    headers do not change for them, and a header that has only such
    commands is not rendered at all (no marker, no patch)."""
    ioctlgen = need_ioctlgen("plain numbers")
    if not ioctlgen:
        return
    with tempfile.TemporaryDirectory() as d:
        spec = copy_spec(os.path.join(TOP, "tests/fixtures/render/spec"), d)
        m1 = model_of(ioctlgen, spec, os.path.join(d, "before.json"),
                      "plain numbers: ioctlgen models the fixture")
        if m1 is None:
            return
        with open(os.path.join(spec, "headers/linux/fs.yaml"), "a") as f:
            f.write("  - name: FS_PLAIN\n    number: 0x1260\n    passes: int\n"
                    "    doc: A plain number among the _IO* commands.\n")
        with open(os.path.join(spec, "headers/linux/sockios.yaml"), "w") as f:
            f.write("# SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note\n"
                    "header: linux/sockios.h\ndoc: Only plain numbers.\ncommands:\n"
                    "  - name: SIOCGIFCONF\n    number: 0x8912\n    doc: Get the interfaces.\n")
        m2 = model_of(ioctlgen, spec, os.path.join(d, "model.json"),
                      "plain numbers: ioctlgen models the fixture with plain numbers")
        if m2 is None:
            return
        plain = [c["name"] for h in m2["headers"] for c in h["commands"] if c["number"] is not None]
        before, after = rendered(m1), rendered(m2)
        same = before == after
        tap(plain == ["FS_PLAIN", "SIOCGIFCONF"] and same,
            "plain numbers: the rendered files are byte-identical with and without them",
            f"plain commands {plain}; " + ("" if same else
            f"paths {sorted(set(after) ^ set(before))} " +
            "; ".join(f"{p}: {first_diff(before[p], after[p])}"
                      for p in before if p in after and before[p] != after[p])[:1500]))


def test_errors():
    m = fixture()
    m["headers"][0]["path"] = "linux/no-such-header.h"
    with tempfile.TemporaryDirectory() as d:
        mp = os.path.join(d, "model.json")
        with open(mp, "w") as f:
            json.dump(m, f)
        out = os.path.join(d, "out")
        r = run([PY, "-m", "ioctltools.render", "-q", "-m", mp, "-k", KSRC, "-o", out])
        tap(r.returncode == 1 and re.match(r"spec/headers/linux/fs\.yaml: error: linux/no-such-header\.h: "
                                           r"cannot read ", r.stderr) and not os.path.exists(out),
            "a header missing from the tree: error naming the spec, exit 1, nothing written",
            f"rc {r.returncode}: {r.stderr}")
    # A block of an earlier run whose End line was edited away: an error at
    # its Begin line, not a header with two blocks.
    m = fixture()
    with tempfile.TemporaryDirectory() as d:
        render.write_tree(render.render_all(m, KSRC), d, quiet=True)
        fs = os.path.join(d, "include/uapi/linux/fs.h")
        with open(fs) as f:
            lines = f.read().split("\n")
        begin = next(i for i, ln in enumerate(lines) if ln.startswith("/* Begin of ioctl definitions"))
        with open(fs, "w") as f:
            f.write("\n".join(ln for ln in lines if not ln.startswith("/* End of ioctl definitions")))
        try:
            render.render_all(m, d)
            tap(False, "a generated block without its End line is an error at its Begin line")
        except render.RenderError as e:
            tap(str(e).startswith(f"{fs}:{begin + 1}:1: error: the block generated from "
                                  "spec/headers/linux/fs.yaml has no \"End of\" line"),
                "a generated block without its End line is an error at its Begin line", e)
    m = fixture()
    m["layouts"][3]["headers"] = ["arch/nowhere/include/uapi/asm/ioctl.h"]
    try:
        render.render_all(m, KSRC)
        tap(False, "a layout header without a template is an error")
    except render.RenderError as e:
        tap("no template templates/kernel/arch/nowhere/include/uapi/asm/ioctl.h.j2" in str(e),
            "a layout header without a template is an error", e)


def test_normalize():
    same = [("0x12", "18"), ("'E'", "0x45"), ("0x40 + (abs)", "0x40+abs"),
            ("_IOC_READ|_IOC_WRITE", "_IOC_READ | _IOC_WRITE"), ("struct  foo", "struct foo"),
            ("sizeof (int)", "sizeof(int)")]
    differ = [("size_t", "int"), ("0x12", "0x13"), ("struct foo", "struct foobar"),
              ("unsigned int", "unsignedint")]
    bad = [p for p in same if render.normalize(p[0]) != render.normalize(p[1])]
    bad += [p for p in differ if render.normalize(p[0]) == render.normalize(p[1])]
    tap(not bad, "argument comparison ignores spelling, not meaning", bad)
    parts = render.split_args("_IOW(0xB1 ,0, size_t)", 4)[0]
    tap(render.respell("_IOW", "", parts, "_IOW", ["0xB1", "0", "size_t"]) == "_IOW(0xB1 ,0, size_t)"
        and render.respell("_IOW", "", parts, "_IOW_BAD", ["0xB1", "0", "sizeof(int)"])
        == "_IOW_BAD(0xB1, 0, sizeof(int))",
        "respelling keeps an unchanged call as written (if_pppox.h's odd spacing), writes a changed one in kernel style")
    cases = [
        # a named magic and an nr offset from a named base stay: verify checks their values
        ("_IOW(VAS_MAGIC, 0x20, struct vas_tx_win_open_attr)", "_IOW",
         ["'v'", "0x20", "struct vas_tx_win_open_attr"], None),
        ("_IOW('a',ATMIOC_ITF+14,struct atmif_sioc)", "_IOW", ["'a'", "0x8e", "struct atmif_sioc"], None),
        # direction flags in either order, a type on a continuation line
        ("_IOC(_IOC_WRITE|_IOC_READ, 'H', 0x0A, len)", "_IOC",
         ["_IOC_READ|_IOC_WRITE", "'H'", "0x0a", "len"], None),
        ("_IOW( 'a', ATMIOC_BACKEND + 0, \\\n\t\t\t\tstruct br2684_filter_set)", "_IOW",
         ["'a'", "0x90", "struct br2684_filter_set"], None),
        # but a changed type, or a literal the model changes, is respelled
        ("_IOW(VAS_MAGIC, 0x20, struct a)", "_IOW", ["'v'", "0x20", "struct b"],
         "_IOW('v', 0x20, struct b)"),
        ("_IOW('v', 0x20, int)", "_IOW", ["'v'", "0x21", "int"], "_IOW('v', 0x21, int)"),
    ]
    bad = []
    for text, macro, args, want in cases:
        name = text[:text.index("(")].rstrip()
        parts = render.split_args(text, text.index("("))[0]
        got = render.respell(name, "", parts, macro, args)
        if got != (want or text):
            bad.append((text, got))
    tap(not bad, "named constants, flag order and continuation lines keep a call; real changes do not",
        bad)


def main():
    need_tree()
    test_stability()
    test_long_comments()
    test_type_change()
    test_plain()
    test_errors()
    test_normalize()
    taplib.done()


if __name__ == "__main__":
    main()
