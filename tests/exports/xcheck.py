# SPDX-License-Identifier: GPL-2.0
"""What tests/exports/run checks the exports against: the model read
directly (not through generator/ioctltools/export_rows.py), numbers put together
again from a layout's fields, and the Go and Rust consumer checks."""

import os
import re
import subprocess

import consumers
from ioctltools import export_go
from ioctltools import export_rust
from ioctltools import export_syzkaller
import gocheck
from ioctltools import renderlib
import rustcheck

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SEEN = set()       # the known differences met, for the stale check
STRACE_ROW = re.compile(r'^\{ "([^"]+)", "([^"]+)", ([A-Z_|]+|0), (0x[0-9a-fA-F]+), (0x[0-9a-f]+|0) \},$')
DIR_BITS = {"_IOC_NONE": ("none",), "_IOC_READ": ("read",), "_IOC_WRITE": ("write",),
            "_IOC_READ|_IOC_WRITE": ("read", "write")}


class Truth:
    def __init__(self, model):
        self.versions = renderlib.version_names(model) or [None]
        self.layouts = {x["name"]: x for x in model["layouts"]}
        self.abi_layout = {a["name"]: self.layouts[a["layout"]] for a in model["abis"]}
        self.num = {}       # (version, abi, header, name) -> number (None: a family)
        for v in self.versions:
            for h in model["headers"]:
                for c in h["commands"]:
                    if v is not None and v not in c["versions"]:
                        continue
                    cv = renderlib.numbers_in(c, v) if v else c
                    for abi, n in cv["numbers"].items():
                        self.num[(v, abi, h["path"], c["name"])] = \
                            (n["number"], bool(c["params"]))

    def count(self):
        return len(self.num)

    def number(self, v, abi, header, name):
        x = self.num.get((v, abi, header, name))
        return None if x is None else x[0]

    def plain_number(self, v, abi, header, name):
        """The number, None for a family or a command the ABI lacks."""
        x = self.num.get((v, abi, header, name))
        return None if x is None or x[1] else x[0]

    def compose(self, abi, d, typ, nr, size):
        L = self.abi_layout[abi]
        bits = 0
        for part in {"none": (), "read": ("read",), "write": ("write",),
                     "read-write": ("read", "write")}[d]:
            bits |= L[part]
        if d == "none":
            bits = L["none"]
        return (bits << L["dir-shift"]) | (size << L["size-shift"]) | \
            (typ << L["type-shift"]) | (nr << L["nr-shift"])

    def strace_number(self, abi, dtext, code, size):
        if dtext == "0":
            return code
        d = {"_IOC_NONE": "none", "_IOC_READ": "read", "_IOC_WRITE": "write",
             "_IOC_READ|_IOC_WRITE": "read-write"}[dtext]
        return self.compose(abi, d, code >> 8, code & 0xff, size)

    def _index(self):
        """(version, abi, syzkaller file) -> {name: number}, (abi, name) ->
        {version: number}: made once, on first use."""
        if hasattr(self, "_files"):
            return
        self._files, self._names = {}, {}
        for (v, a, h, name), (n, fam) in self.num.items():
            self._names.setdefault((a, name), {})[v] = n
            if not fam:
                self._files.setdefault((v, a, export_syzkaller.file_name(h)), {})[name] = n

    def number_in_file(self, v, abi, fn, name):
        self._index()
        return self._files.get((v, abi, fn), {}).get(name)

    def names_in_file(self, v, fn, abis):
        self._index()
        out = set()
        for a in abis:
            out |= set(self._files.get((v, a, fn), ()))
        return out

    def newest_number(self, abi, name):
        """The number on the ABI in the newest version it has one in."""
        self._index()
        by_v = self._names.get((abi, name), {})
        return by_v.get(self.versions[-1])

    def known(self, name):
        """Whether any version and ABI has the name."""
        self._index()
        if not hasattr(self, "_all"):
            self._all = {n for (_, n) in self._names}
        return name in self._all

    def any_version(self, abi, name):
        self._index()
        return self._names.get((abi, name), {})


def strace_rows(path):
    with open(path) as f:
        return [x.rstrip("\n") for x in f if x.startswith("{")]


def strace_fields(line):
    m = STRACE_ROW.match(line)
    if not m:
        return (None, line, "0", -1, 0)
    return (m.group(1), m.group(2), m.group(3), int(m.group(4), 16), int(m.group(5), 16))


def confirm(truth, abi, name, theirs, reason):
    """Whether the registry's data confirms the recorded reason:
    abi:<ABI> (theirs is the number on that ABI, e.g. a 64-bit value on a
    32-bit ABI), version:<V> (the number in that known version),
    time64 (the number on the ABI's -time64 variant), note (reviewed
    text only)."""
    kind, _, arg = reason.partition(":")
    if kind == "abi":
        return truth.newest_number(arg, name) == theirs
    if kind == "version":
        return truth.any_version(abi, name).get(arg) == theirs
    if kind == "time64":
        return truth.newest_number(abi + "-time64", name) == theirs
    return kind == "note"


def compare(tap, consumer, arch, abi, theirs, ours, truth, known):
    """Counts as a TAP line; -> (equal names, explained {name: (t, o)})."""
    both, equal, diff, only_t, only_o = consumers.compare(theirs, ours)
    explained, bad = {}, []
    for name, t, o in diff:
        k = known.get((consumer, arch, name))
        SEEN.add((consumer, arch, name))
        if k is None:
            bad.append(f"{name}: theirs {t:#x}, ours {o:#x}: unexplained")
        elif (k[0], k[1]) != (t, o) or not confirm(truth, abi, name, t, k[2]):
            bad.append(f"{name}: theirs {t:#x}, ours {o:#x}: the record (line {k[4]}) "
                       f"says {k[0]:#x}/{k[1]:#x}, {k[2]}")
        else:
            explained[name] = (t, o)
    removed = [n for n in only_t if truth.any_version(abi, n)]
    elsewhere = [n for n in only_t if n not in removed and truth.known(n)]
    tap.check(not bad, f"{consumer} {arch} ({abi}): {len(both)} compared, {len(equal)} equal, "
              f"{len(diff)} different ({len(explained)} explained), {len(only_t)} only theirs "
              f"(the registry has {len(removed)} in an older version or as a family, {len(elsewhere)} on "
              f"other ABIs only, {len(only_t) - len(removed) - len(elsewhere)} nowhere), {len(only_o)} only ours",
              bad[:20])
    return equal, explained


def go(tap, out, work, truth, known):
    pkg = os.path.join(out, "go", export_go.PACKAGE)
    p = subprocess.run(["/usr/lib/go-1.19/bin/gofmt", "-l", pkg], capture_output=True, text=True)
    tap.check(p.returncode == 0 and not p.stdout, "go: gofmt leaves the package as it is", p.stdout + p.stderr)
    gopath = os.path.join(work, "gopath")
    gocheck.setup(gopath, pkg)
    e = gocheck.env(gopath, os.path.join(TOP, "build", "go-cache"))
    sources = {}
    for goarch, abi in export_go.GOARCHES.items():
        ours = consumers.go_consts(os.path.join(pkg, f"zioctl_linux_{goarch}.go"))
        equal, explained = compare(tap, "go", goarch, abi, consumers.xsys(goarch), ours, truth, known)
        sources[goarch] = gocheck.check_file(goarch, equal, explained)
    gocheck.write_program(gopath, sources)
    for goarch in export_go.GOARCHES:
        if goarch not in gocheck.GC_ARCHES:
            tap.skip(f"go vet, go build and the x/sys check for GOARCH={goarch}",
                     "Debian's golang-go (gc) has no linux/" + goarch + " (x/sys keeps it for gccgo)")
            continue
        msgs = []
        for args in (["vet", "ioctlregistry/ioctls"], ["build", "ioctlregistry/ioctls"],
                     ["build", "-o", os.devnull, "ioctlcheck"]):
            rc, text = gocheck.go(args, goarch, e)
            if rc:
                msgs.append(f"go {' '.join(args)}: {text[-2000:]}")
        tap.check(not msgs, f"go vet and go build GOARCH={goarch}; the program asserting x/sys's "
                  "values compiles", msgs)
    wrong = os.path.join(gopath, "src", "ioctlcheck", "wrong_amd64.go")
    with open(wrong, "w") as f:
        f.write("package main\n\nimport \"golang.org/x/sys/unix\"\n\n"
                "var _ = [1]struct{}{}[unix.BLKGETSIZE64-0x80081273]\n")
    rc, _ = gocheck.go(["build", "-o", os.devnull, "ioctlcheck"], "amd64", e)
    os.unlink(wrong)
    tap.check(rc != 0, "go: the check refuses a wrong value (BLKGETSIZE64 off by one)")


def rust(tap, out, work, truth, known):
    src = os.path.join(out, "rust", "src")
    obj = os.path.join(work, "rust")
    os.makedirs(obj, exist_ok=True)
    msgs = []
    for d in export_rust.ARCHES:
        rc, text = rustcheck.rustc(["--crate-name", f"ioctl_{d}", os.path.join(src, d, "ioctl.rs")], obj)
        if rc or text.strip():
            msgs.append(f"{d}: {text[-2000:]}")
    rc, text = rustcheck.rustc(["--crate-name", "ioctls", os.path.join(src, "lib.rs")], obj)
    if rc or text.strip():
        msgs.append(f"lib.rs: {text[-2000:]}")
    tap.check(not msgs, f"rust: rustc compiles the {len(export_rust.ARCHES)} modules and lib.rs "
              "without a warning", msgs)
    pairs = {}
    for d, (abi, _) in export_rust.ARCHES.items():
        theirs_path = os.path.join(consumers.RAWSYS, d, "ioctl.rs")
        ours_path = os.path.join(src, d, "ioctl.rs")
        equal, explained = compare(tap, "rust", d, abi, consumers.rawsys(d),
                                   consumers.rust_consts(ours_path), truth, known)
        pairs[d] = (theirs_path, ours_path, equal, explained)
    crate = os.path.join(obj, "check.rs")
    with open(crate, "w") as f:
        f.write(rustcheck.check_crate(pairs))
    rc, text = rustcheck.rustc(["--crate-name", "ioctlcheck", crate], obj)
    tap.check(rc == 0, "rust: the crate asserting linux-raw-sys's values compiles", text[-3000:])
    with open(crate, "a") as f:
        f.write("const _: () = assert!(theirs_x86_64::BLKGETSIZE64 == 0x80081273);\n")
    rc, _ = rustcheck.rustc(["--crate-name", "ioctlcheck", crate], obj)
    tap.check(rc != 0, "rust: the check refuses a wrong value (BLKGETSIZE64 off by one)")
