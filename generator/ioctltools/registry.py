# SPDX-License-Identifier: GPL-2.0
"""The registry as ioctlgen writes it, the only way the Python tools read spec/.

`ioctlgen dump` is the registry checked file by file, without sizes or
numbers, for the stages that run before the sizes exist (the importer,
tools/measure-sizes); `ioctlgen model` is the whole model.  The rules that
decide what a tool does come from there: which types each command needs
measured (`measure`, `measure-base`), the C type of a legacy `written` text
(`written-type`) and the smallest size field (`smallest-size-bits`)."""

import json
import os
import shlex
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field

from . import Error, cc, model_reader, run_main
from .cwords import IOCTLGEN, TOP  # noqa: F401 (tools take them from here)


@dataclass(frozen=True)
class Abi:
    name: str
    arch: str
    cc: str
    cflags: tuple
    source: str			# path:line:col of its entry in abis.yaml
    variant_of: str | None = None	# a variant's base ABI (i386 of i386-time64)

    @property
    def compiler(self):
        return [self.cc, *self.cflags]


@dataclass
class Header:
    path: str			# as installed: linux/fs.h, asm/ioctls.h
    arch: str | None		# the kernel ARCH of an arch header
    spec: str			# its spec file
    doc: str
    includes: list
    header_test: bool
    patch_prefix: str | None
    commands: list = field(default_factory=list)	# the registry's command objects
    prelude: cc.Prelude = cc.Prelude()	# its defines and typedefs
    stub_includes: list = field(default_factory=list)	# unexported headers it includes
    new: bool = False		# a header the kernel tree does not have (the registry's own)
    kernel_internal: bool = False	# include/<path> of the tree: measured in kernel context
    model: dict = field(default_factory=dict, repr=False)	# its object in the model

    @property
    def source(self):
        return f"{self.spec}:1:1"

    def applies_to(self, abi):
        return self.arch in (None, abi.arch)


class Registry:
    """One `ioctlgen dump` or `ioctlgen model` document."""

    def __init__(self, doc):
        self.doc = doc
        self.abis = [Abi(a["name"], a["arch"], a["cc"], tuple(a["cflags"]), a["source"],
                         a.get("variant-of"))
                     for a in doc["abis"]]
        self.headers = [Header(h["path"], h["arch"], h["spec"], h["doc"], list(h["includes"]),
                               h["header-test"], h["patch-prefix"], h["commands"],
                               cc.Prelude.of(h),
                               list(h["stub-includes"]), bool(h.get("new")),
                               bool(h.get("kernel-internal")), h)
                        for h in doc["headers"]]
        self.magic_codes = doc["magic-codes"]
        self.measure_base = doc["measure-base"]
        self.smallest_size_bits = doc["smallest-size-bits"]

    def reference_compilers(self):
        """The compiler of each ARCH's reference ABI: its first ABI."""
        out = {}
        for a in self.abis:
            out.setdefault(a.arch, a.compiler)
        return out

    def stub_includes(self):
        """Every header spec's stub-includes."""
        return sorted({p for h in self.headers for p in h.stub_includes})

    def header_by_spec(self):
        return {os.path.normpath(h.spec): h for h in self.headers}

    def versions(self):
        """The kernel versions the registry knows (spec/versions.yaml), oldest first."""
        return [v["name"] for v in self.doc.get("versions") or ()]

    def restrict_to(self, version):
        """Keep only what exists in the known kernel version: each header's
        commands of that version (model 5 `versions`), and the headers that
        keep one (a header whose every command is gone, drm/i810_drm.h in
        6.12, is not in that tree)."""
        known = self.versions()
        if version not in known:
            raise Error(f"error: version {version!r} is none the registry knows "
                        f"(spec/versions.yaml: {', '.join(known) or 'none'})")
        kept = []
        self.not_in_version = set()
        for h in self.headers:
            cmds = [c for c in h.commands if version in c["versions"]]
            if h.commands and not cmds:
                self.not_in_version.add(os.path.normpath(h.spec))
                continue
            if len(cmds) != len(h.commands):
                h.commands = cmds
                h.model = dict(h.model, commands=cmds)
            kept.append(h)
        self.headers = kept


def tree_version(spec_dir, versions, wanted):
    """The known version an importer's tree is: --version (wanted), which
    must be one of versions; without it the only known version, or None
    when the registry knows none.  Both importers ask it."""
    if wanted is not None and wanted not in versions:
        raise Error(f"{spec_dir}/versions.yaml: error: --version {wanted}: no version "
                    f"the registry knows ({', '.join(versions) or 'none'})")
    if wanted is None and len(versions) > 1:
        raise Error(f"{spec_dir}/versions.yaml: error: the registry knows {len(versions)} "
                    f"versions ({', '.join(versions)}): say which one the tree is (--version)")
    return wanted or (versions[0] if versions else None)


def run_ioctlgen(cmd, what, shown=3):
    """Run cmd (ioctlgen and its arguments); its standard output, or an
    Error with ioctlgen's error lines and the first shown words of cmd."""
    try:
        r = subprocess.run(cmd, capture_output=True, text=True)
    except OSError as e:
        raise Error(f"error: reading {what}: cannot run {cmd[0]}: {e.strerror} "
                    f"(run `make {os.path.relpath(cmd[0], TOP)}`)") from e
    if r.returncode != 0:
        errors = "\n".join(l for l in r.stderr.splitlines() if "error" in l)
        raise Error(f"{errors}\nerror: reading {what}: {shlex.join(cmd[:shown])} "
                    f"failed (exit {r.returncode})".lstrip("\n"))
    return r.stdout


def load(spec_dir, stage="dump", ioctlgen=IOCTLGEN):
    """Run `ioctlgen STAGE SPEC_DIR` and read what it writes."""
    with tempfile.TemporaryDirectory(prefix="ioctltools-") as tmp:
        out = os.path.join(tmp, "registry.json")
        cmd = [ioctlgen, stage, spec_dir, "-o", out]
        run_ioctlgen(cmd, "the registry")
        try:
            return Registry(model_reader.load(out, stage=stage))
        except model_reader.ModelError as e:
            raise Error(f"{e}\nerror: reading the registry: {shlex.join(cmd)} wrote no "
                        f"usable model") from None
        except KeyError as e:
            raise Error(f"error: reading the registry: {shlex.join(cmd)} wrote no "
                        f"usable JSON: {e}") from e


def sizes_files(paths, ioctlgen=IOCTLGEN):
    """{path: what the sizes file says} of sizes files anywhere (a spec's
    sizes/, or measure-sizes -o's directory), through `ioctlgen dump
    --sizes`, which checks each as it checks sizes/<abi>.yaml: each a dict
    with "abi", "sizes" and "kernel-sizes" ({type: size}), "absent" and
    "kernel-context" (lists)."""
    if not paths:
        return {}
    cmd = [ioctlgen, "dump", "--sizes", *paths]
    out = run_ioctlgen(cmd, "sizes files", shown=4)
    try:
        return {f["file"]: f for f in json.loads(out)["files"]}
    except (ValueError, KeyError, TypeError) as e:
        raise Error(f"error: reading sizes files: {shlex.join(cmd[:4])} ... wrote no "
                    f"usable JSON: {e}") from e


def arches(reg):
    """The kernel ARCHes of the ABIs, in ABI order: the first is the one
    whose headers stand for every ARCH's generic headers."""
    return list(reg.reference_compilers())


def main(argv):
    """`python3 -m ioctltools.registry arches|versions [SPEC_DIR]`: one ARCH
    a line (the Makefile's list of the headers to export), or one known
    kernel version a line, oldest first."""
    if len(argv) not in (1, 2) or argv[0] not in ("arches", "versions"):
        print("usage: python3 -m ioctltools.registry arches|versions [SPEC_DIR]",
              file=sys.stderr)
        return 2
    reg = load(argv[1] if len(argv) > 1 else "spec")
    out = arches(reg) if argv[0] == "arches" else reg.versions()
    if out:
        print("\n".join(out))
    return 0


if __name__ == "__main__":
    run_main(main)
