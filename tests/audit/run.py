#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""`ioctlgen audit` on what Debian ships and on committed excerpts.

- Debian's strace binary (x86_64), golang-golang-x-sys-dev's
  zerrors_linux_*.go, librust-linux-raw-sys-dev's src/*/ioctl.rs, and the
  excerpts of syzkaller's .const and strace's rows in
  tests/fixtures/consumers/: each audited by build/ioctlgen audit within
  1 s of CPU, every difference given a reason;
- the known consumer errors appear with the registry's reason, and both
  numbers are the compiler's, measured here, not read from the model:
  strace's USBDEVFS_SUBMITURB32 (gcc on the kernel's struct), linux-raw-sys'
  FS_IOC_SETVERSION on powerpc (powerpc-linux-gnu-gcc on Debian's headers),
  syzkaller's FBIO_CURSOR and SNDRV_PCM_IOCTL_SYNC_PTR on i386 and armhf
  (gcc -m32 and arm-linux-gnueabihf-gcc, with and without time64);
- bad inputs: a clear path:line:col error and exit 1.
The counts per consumer and ABI go to the TAP diagnostics."""

import json
import os
import re
import resource
import subprocess
import tempfile

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import tap  # noqa: E402

IOCTLGEN = os.path.join(TOP, "build", "ioctlgen")
MODEL = os.environ.get("MODEL", os.path.join(TOP, "build", "model.json"))
FIX = os.path.join(TOP, "tests", "fixtures", "consumers")
TREE = os.path.join(TOP, "build", "linux-source-6.1")
GO = "/usr/share/gocode/src/golang.org/x/sys/unix"
RUST = "/usr/share/cargo/registry/linux-raw-sys-0.0.46/src"
STRACE = "/usr/bin/strace"
# Debian has no i386 asm/ headers on amd64; x86_64-linux-gnu's serve both (__i386__).
M32 = ["-m32", "-I/usr/include/x86_64-linux-gnu"]

SOURCES = [
    ("strace", ["strace-binary", STRACE], STRACE, "strace"),
    ("go", ["go", GO], GO, "golang-golang-x-sys-dev"),
    ("rust", ["rust", RUST], RUST, "librust-linux-raw-sys-dev"),
    ("syzkaller", ["syzkaller", os.path.join(FIX, "syzkaller-excerpt.txt.const")], FIX, None),
    ("strace-rows-64", ["--abi", "x86_64", "strace-rows",
                        os.path.join(FIX, "strace-6.1-64-ioctls_inc.h")], FIX, None),
    ("strace-rows-32", ["--abi", "i386", "strace-rows",
                        os.path.join(FIX, "strace-6.1-32-ioctls_inc_align32.h")], FIX, None),
]


def audit(args, work, name):
    out = os.path.join(work, name + ".json")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    r = subprocess.run([IOCTLGEN, "audit", "--model", MODEL, "--summary", "--json", out] + args,
                       capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    result = json.load(open(out)) if r.returncode == 0 else None
    return r, result, cpu


def compiled(cc, flags, includes, expr, run=False):
    """The value of a C expression as the compiler makes it."""
    with tempfile.TemporaryDirectory() as d:
        src = os.path.join(d, "v.c")
        with open(src, "w") as f:
            f.write("#include <linux/ioctl.h>\n" + includes + f"\nunsigned int v = {expr};\n" +
                    ("#include <stdio.h>\nint main(void) { printf(\"%u\\n\", v); return 0; }\n"
                     if run else ""))
        if run:
            subprocess.run([cc] + flags + ["-o", os.path.join(d, "v"), src], check=True)
            return int(subprocess.run([os.path.join(d, "v")], capture_output=True,
                                      text=True, check=True).stdout)
        asm = subprocess.run([cc] + flags + ["-S", "-o", "-", src], capture_output=True,
                             text=True, check=True).stdout
        m = re.search(r"^v:\s*\n\s*\.(?:long|4byte|word)\s+(-?\d+)", asm, re.M)
        return int(m[1]) & 0xffffffff


def urb32_struct():
    """The kernel's struct usbdevfs_urb32 and its command, from the tree."""
    text = open(os.path.join(TREE, "include", "linux", "usbdevice_fs.h")).read()
    struct = re.search(r"struct usbdevfs_urb32 \{.*?\n\};", text, re.S)[0]
    return ("#include <linux/usbdevice_fs.h>\n"
            "typedef int compat_int_t; typedef unsigned int compat_uint_t;\n"
            "typedef unsigned int compat_caddr_t;\n" + struct + "\n")


def find(result, abi, name):
    for d in result["abis"].get(abi, {}).get("different", []):
        if d["name"] == name:
            return d
    return None


def known_errors(results):
    checks = []
    if "strace" in results and os.path.isdir(TREE):
        kernel = compiled("gcc", ["-m64"], urb32_struct(),
                          "_IOR('U', 10, struct usbdevfs_urb32)", run=True)
        checks.append(("strace", "x86_64", "USBDEVFS_SUBMITURB32", 0x802a550a, kernel, "size"))
    if "rust" in results:
        right = compiled("powerpc-linux-gnu-gcc", [], "#include <linux/fs.h>", "FS_IOC_SETVERSION")
        checks.append(("rust", "powerpc", "FS_IOC_SETVERSION", 0x80087602, right, "64-bit"))
    for abi, cc, flags in (("i386", "gcc", M32), ("armhf", "arm-linux-gnueabihf-gcc", [])):
        cursor = compiled(cc, flags, "#include <linux/fb.h>", "FBIO_CURSOR")
        sync = compiled(cc, flags, "#include <sound/asound.h>", "SNDRV_PCM_IOCTL_SYNC_PTR")
        sync64 = compiled(cc, flags + ["-D_TIME_BITS=64", "-D_FILE_OFFSET_BITS=64"],
                          "#include <sound/asound.h>", "SNDRV_PCM_IOCTL_SYNC_PTR")
        checks.append(("syzkaller", abi, "FBIO_CURSOR", 0xc0684608, cursor, "64-bit"))
        checks.append(("syzkaller", abi, "SNDRV_PCM_IOCTL_SYNC_PTR", sync64, sync, "time64"))
    for consumer, abi, name, theirs, right, reason in checks:
        if consumer not in results:
            continue
        d = find(results[consumer], abi, name)
        tap.check(d is not None and int(d["consumer"], 16) == theirs and
                  int(d["registry"], 16) == right and d["reason"] == reason and theirs != right,
                  f"{consumer} {abi} {name}: {theirs:#x}, the compiler's {right:#x}, "
                  f"reason {reason!r}", json.dumps(d))


def bad_inputs(work):
    cases = [
        ("syzkaller", "bad.txt.const", "arches = 386, amd64\nFOO = 1\nBAR 2\n",
         r"bad\.txt\.const:3:1: error: expected 'NAME = value'"),
        ("syzkaller", "noarch.txt.const", "FOO = 1\n",
         r"noarch\.txt\.const:1:1: error: a value before the 'arches"),
        ("syzkaller", "arch.txt.const", "arches = 386\nFOO = 1, amd64:2\n",
         r"arch\.txt\.const:2:1: error: 'amd64' is not in the arches line"),
        ("strace-rows", "rows.h", '{ "a.h", "FOO", _IOC_BAD, 0x4501, 0x08 },\n',
         r"rows\.h:1:1: error: direction"),
    ]
    for fmt, fn, text, want in cases:
        path = os.path.join(work, fn)
        with open(path, "w") as f:
            f.write(text)
        extra = ["--abi", "x86_64"] if fmt == "strace-rows" else []
        r = subprocess.run([IOCTLGEN, "audit", "--model", MODEL] + extra + [fmt, path],
                           capture_output=True, text=True)
        tap.check(r.returncode == 1 and re.search(want, r.stderr), f"bad input {fn}: exit 1, "
                  f"{want!r}", f"exit {r.returncode}: {r.stderr.strip()}")
    notes = os.path.join(work, "notes")
    os.makedirs(notes)
    with open(os.path.join(notes, "strace.txt"), "w") as f:
        f.write("# c\nFOO 0x1 wrong-number/plain-number: x\n")
    r = subprocess.run([IOCTLGEN, "audit", "--model", MODEL, "--notes-dir", notes,
                        "--abi", "x86_64", "strace-rows", os.path.join(FIX, "strace-6.1-64-ioctls_inc.h")],
                       capture_output=True, text=True)
    tap.check(r.returncode == 1 and "strace.txt:2:" in r.stderr and "error:" in r.stderr,
              "a reasons file with a category on the wrong kind: exit 1 at its line",
              r.stderr.strip())


def site_page(work):
    """The site page from these results (generator/ioctltools/render_audit.py, as
    render_site.py calls it): each known error in its consumer's section,
    with both numbers and the reason."""
    from ioctltools import render_audit
    from ioctltools import render_site
    from ioctltools import renderlib
    env = renderlib.environment("site")
    env.filters.update(rst=render_site.rst_text, title=render_site.rst_title, e=render_site.html_text)
    pages = {}
    render_audit.page(lambda t, rel, **kw: pages.update({rel: env.get_template(t).render(
        banner="test", **kw)}), work)
    text = pages.get(render_audit.PAGE, "")
    sections = dict(re.findall(r"^(\S[^\n]*)\n-+\n(.*?)(?=^\S[^\n]*\n-+\n|\Z)", text, re.M | re.S))
    for title, abi, name, theirs, right, reason in (
            ("strace", "x86_64", "USBDEVFS_SUBMITURB32", "0x802a550a", "0x802c550a", "a different size"),
            ("Rust", "powerpc", "FS_IOC_SETVERSION", "0x80087602", "0x80047602",
             "a 64-bit value on a 32-bit ABI"),
            ("syzkaller", "i386", "FBIO_CURSOR", "0xc0684608", "0xc0484608",
             "a 64-bit value on a 32-bit ABI"),
            ("syzkaller", "armhf", "SNDRV_PCM_IOCTL_SYNC_PTR", "0xc0884123", "0xc0844123",
             "the other time ABI")):
        row = (f"<tr><td>{abi}</td><td><code>{name}</code><br><small>[^<]*</small></td>"
               f"<td><code>{theirs}</code></td><td><code>{right}</code></td><td><b>{reason}</b>: ")
        tap.check(re.search(row, sections.get(title, "")), f"site page, {title}: {name} on {abi}, "
                  f"{theirs} against {right}, {reason!r}", sorted(sections))


def each(work, results):
    """--each (make audit, tools/audit-debian): several consumers in one run,
    each JSON byte for byte the one its own run wrote."""
    jobs = [(n, args) for n, args, _, _ in SOURCES if n in results and args[0] != "--abi"]
    if len(jobs) < 2:
        tap.skip("audit --each", "fewer than two consumers installed")
        return
    argv = [IOCTLGEN, "audit", "--model", MODEL, "--summary"]
    for n, (fmt, path) in jobs:
        argv += ["--each", fmt, path, os.path.join(work, n + ".each.json")]
    r = subprocess.run(argv, capture_output=True, text=True)
    same = []
    for n, _ in jobs:
        with open(os.path.join(work, n + ".json"), "rb") as a:
            try:
                with open(os.path.join(work, n + ".each.json"), "rb") as b:
                    same.append(a.read() == b.read())
            except OSError:
                same.append(False)
    tap.check(r.returncode == 0 and all(same),
              f"audit --each {' '.join(n for n, _ in jobs)}: each JSON as its own run's",
              r.stderr.strip() + f" {same}")


def help_text():
    r = subprocess.run([IOCTLGEN, "audit", "--help"], capture_output=True, text=True)
    tap.check(r.returncode == 0 and r.stdout.startswith("usage: ioctlgen audit ") and not r.stderr,
              "ioctlgen audit --help: usage on stdout, exit 0", r.stdout[:200] + r.stderr)


def main():
    if not (os.access(IOCTLGEN, os.X_OK) and os.path.exists(MODEL)):
        tap.not_ok("build/ioctlgen and the model exist (make build/model.json)")
        tap.done()
    results = {}
    with tempfile.TemporaryDirectory() as work:
        for name, args, need, package in SOURCES:
            if not os.path.exists(need):
                tap.skip(f"audit {name}", f"{need} is missing (apt-get install {package})")
                continue
            r, result, cpu = audit(args, work, name)
            if not tap.check(r.returncode == 0, f"audit {name}: exit 0", r.stderr.strip()):
                continue
            results[name] = result
            tap.check(cpu <= 1.0, f"audit {name}: {cpu:.2f} s of CPU (at most 1 s)")
            vague = [f"{abi} {d['name']}: {d['why']}" for abi, a in result["abis"].items()
                     for d in a["different"] if d["reason"] == "encoding" and not d["note"]]
            tap.check(not vague, f"audit {name}: every different number has a reason", vague[:20])
            for abi, a in result["abis"].items():
                reasons = {}
                for d in a["different"]:
                    reasons[d["reason"]] = reasons.get(d["reason"], 0) + 1
                tap.diag(f"{name} {abi}: compared {a['compared']}, equal {a['equal']}, different "
                         f"{len(a['different'])} {reasons or ''}, consumer lacks "
                         f"{len(a['consumer-lacks'])}, registry lacks {len(a['registry-lacks'])}")
        known_errors(results)
        each(work, results)
        site_page(work)
        bad_inputs(work)
        help_text()
    tap.done()


if __name__ == "__main__":
    main()
