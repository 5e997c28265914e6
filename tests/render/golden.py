#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The renderer's kernel files against tests/render/golden/ (TAP): the
fixture model renders exactly the golden files, they say what they must,
and the rendered ioctl.h headers give the numbers worked out by hand.

    tests/render/golden.py [--update-golden]

--update-golden rewrites tests/render/golden/ (each rendered file as a diff
against the pristine one) from the fixture model: review it before committing.
"""

import difflib
import glob
import os
import re
import shutil
import sys
import tempfile

from common import GOLDEN, GOLDEN_PREFIXES, KSRC, define_line, first_diff, fixture, \
    need_tree, rendered, run, tap, taplib
from ioctltools import renderlib  # noqa: E402


def golden_diff(path, text):
    """The golden form of a rendered file: its unified diff against the
    pristine file, so that no kernel source is committed here and the
    golden file shows exactly what the renderer changes."""
    try:
        with open(os.path.join(KSRC, path), encoding="utf-8") as f:
            old = f.read()
    except FileNotFoundError:
        old = ""
    return "".join(difflib.unified_diff(old.splitlines(True), text.splitlines(True),
                                        "a/" + path, "b/" + path))


def test_golden(update):
    out = {p + ".diff": golden_diff(p, t) for p, t in rendered(fixture()).items()
           if p.startswith(GOLDEN_PREFIXES)}
    if update:
        shutil.rmtree(GOLDEN, ignore_errors=True)
        for p, t in out.items():
            renderlib.write_if_changed(os.path.join(GOLDEN, p), t)
    have = sorted(os.path.relpath(p, GOLDEN)
                  for p in glob.glob(os.path.join(GOLDEN, "**", "*"), recursive=True)
                  if os.path.isfile(p))
    tap(have == sorted(out), "fixture renders exactly the golden file set",
        f"golden: {have}\nrendered: {sorted(out)}")
    for p in sorted(out):
        g = os.path.join(GOLDEN, p)
        try:
            with open(g, encoding="utf-8") as f:
                want = f.read()
        except FileNotFoundError:
            tap(False, f"golden {p}", f"missing {g}")
            continue
        tap(out[p] == want, f"golden {p}", first_diff(want, out[p]))


def test_golden_content():
    """What the golden files must say, written here rather than derived from
    the renderer: a regenerated golden file cannot drop these silently."""
    out = rendered(fixture())
    fs = out["include/uapi/linux/fs.h"]
    want = [
        "#define BLKBSZGET  _IOR_BAD(0x12, 112, sizeof(int))",
        "#define BLKBSZSET  _IOW(0x12,113,size_t)",
        "#define BLKGETSIZE64 _IOR(0x12,114,size_t)\t/* return device size in bytes (u64 *arg) */",
        "#define BLKELVGET  _IOR(0x12,106,size_t)/* elevator get */",
        "#define BLKROSET   _IO(0x12,93)\t/* set device read-only (0 = read-write) */",
        "#define BLKFIXTURENEW\t_IOW(0x12, 200, __u32)",
    ]
    missing = [w for w in want if w not in fs.split("\n")]
    tap(not missing, "fs.h: legacy spellings, untouched lines, reserved line, new command",
        "\n".join(missing))
    lines = fs.split("\n")
    i = lines.index("#define BLKGETSIZE64 _IOR(0x12,114,size_t)\t/* return device size in bytes (u64 *arg) */")
    tap(lines[i - 1].startswith("/* legacy:") and "__u64" in lines[i - 1],
        "fs.h: the legacy note sits above the #define and names the type passed", lines[i - 1])
    tap(lines[1].startswith("/* IOCTL-REGISTRY-GEN: ") and "spec/headers/linux/fs.yaml" in lines[1],
        "fs.h: marker on line 2, naming the spec", lines[1])
    b = lines.index("/* Begin of ioctl definitions generated from spec/headers/linux/fs.yaml */")
    e = lines.index("/* End of ioctl definitions generated from spec/headers/linux/fs.yaml */")
    tap(lines[b + 1:e] == ["/* A command the fixture adds: not in the 6.1 header. */",
                           "#define BLKFIXTURENEW\t_IOW(0x12, 200, __u32)"]
        and lines[e + 2].startswith("#endif /* _UAPI_LINUX_FS_H */"),
        "fs.h: new commands, each under its doc, in one fenced block before the include guard's #endif",
        "\n".join(lines[b - 1:e + 3]))
    inp = out["include/uapi/linux/input.h"]
    tap(define_line(inp, "EVIOCSFF") ==
        "#define EVIOCSFF\t\t_IOC(_IOC_WRITE, 'E', 0x80, sizeof(struct ff_effect))"
        "\t/* send a force effect to a force feedback device */",
        "input.h: _IOC respelling keeps the tab layout and the trailing comment",
        define_line(inp, "EVIOCSFF"))
    tap(define_line(inp, "EVIOCGABS") ==
        "#define EVIOCGABS(abs)\t\t_IOR('E', 0x40 + (abs), struct input_absinfo)\t/* get abs value/limits */",
        "input.h: a family that already means the model's spelling is left alone")
    for p, text in out.items():
        if not p.startswith(GOLDEN_PREFIXES):
            continue
        lines = text.split("\n")
        # the whole-file banner (lines 2-4) or the marker, up to the end of
        # its comment (a block comment when it is too long for one line)
        if lines[1].startswith("/* Do not edit directly"):
            head = "\n".join(lines[1:4])
        else:
            k = next((i for i, ln in enumerate(lines) if "IOCTL-REGISTRY-GEN" in ln), 0)
            e = next((i for i in range(k, len(lines)) if "*/" in lines[i]), k)
            head = "\n".join(lines[k:e + 1])
        ok = "IOCTL-REGISTRY-GEN" in head and "spec/" in head and not re.search(
            r"\b(19|20)\d\d\b|version", head, re.I)
        tap(ok, f"{p}: banner with marker and spec, no date or version", head)
    for a in ("alpha", "sparc"):
        t = out[f"arch/{a}/include/uapi/asm/ioctl.h"]
        has = [m for m in ("_IOR_BAD", "_IOW_BAD", "_IOWR_BAD", "_IOC_TYPECHECK")
               if re.search(r"#define %s\(" % m, t)]
        tap(len(has) == 4, f"{a}: defines _IOR_BAD, _IOW_BAD, _IOWR_BAD and _IOC_TYPECHECK", has)


def test_layout_numbers():
    """Compile the rendered self-contained headers and check numbers worked
    out by hand from the layouts (sparc/alpha: dir bits 31..29 with read 2,
    size bits 28..16; generic: read 2 at bit 30, size 14 bits)."""
    out = rendered(fixture())
    cases = [
        # header, expected _IOR('x', 1, int), _IOR_BAD('x', 1, sizeof(int)) on LP64
        ("arch/sparc/include/uapi/asm/ioctl.h", 0x40047801, 0x40087801),
        ("arch/alpha/include/uapi/asm/ioctl.h", 0x40047801, 0x40087801),
        ("include/uapi/asm-generic/ioctl.h", 0x80047801, 0x80087801),
    ]
    with tempfile.TemporaryDirectory() as d:
        for path, good, bad in cases:
            h = os.path.join(d, "ioctl.h")
            with open(h, "w") as f:
                f.write(out[path])
            src = os.path.join(d, "t.c")
            with open(src, "w") as f:
                f.write('#include <stdio.h>\n#include "ioctl.h"\n'
                        'int main(void) { printf("%#x %#x\\n", (unsigned)_IOR(\'x\', 1, int), '
                        "(unsigned)_IOR_BAD('x', 1, sizeof(int))); return 0; }\n")
            r = run(["gcc", "-m64", "-std=c90", "-Wall", "-Werror", "-o", os.path.join(d, "t"), src])
            if r.returncode:
                tap(False, f"{path}: compiles with _IOR_BAD", r.stderr)
                continue
            got = run([os.path.join(d, "t")]).stdout.split()
            tap(got == ["%#x" % good, "%#x" % bad], f"{path}: _IOR and _IOR_BAD numbers",
                f"got {got}, want {['%#x' % good, '%#x' % bad]}")
        # The pristine sparc header lacks _IOR_BAD: the same program fails.
        shutil.copy(os.path.join(KSRC, "arch/sparc/include/uapi/asm/ioctl.h"), os.path.join(d, "ioctl.h"))
        r = run(["gcc", "-m64", "-std=c90", "-Wall", "-Werror", "-o", os.path.join(d, "t"),
                 os.path.join(d, "t.c")])
        tap(r.returncode != 0 and "_IOR_BAD" in r.stderr,
            "pristine sparc ioctl.h does not build _IOR_BAD (the test can fail)", r.stderr[-400:])


def main():
    need_tree()
    test_golden("--update-golden" in sys.argv[1:])
    test_golden_content()
    test_layout_numbers()
    taplib.done()


if __name__ == "__main__":
    main()
