# SPDX-License-Identifier: GPL-2.0
"""The pipeline, defined once:

    tree -> uapi -> import -> sizes -> model -> render -> patches -> verify

Each stage is one command.  This module says which command runs a stage
and with what, and where a kernel version's inputs and outputs are by
default (Where.of: the build/ layout of the Makefile).  Three callers run
the stages and write none of this themselves:

  - the Makefile: its targets (make uapi, import, sizes, the model's
    measure-first, patches, verify) run this module's command line, after
    making what a stage reads (trees, exports, configured trees: make's job);
  - tools/use-tree (`make TREE=`): the same stages on a tree of one's own,
    with its own Where (build/tree/NAME/...);
  - tests/verify/run: the exports it reads and makes (`dir`, `targets`),
    and tools/headers-install, the uapi stage's one command.

render has one caller (the Makefile's render rule) and stays there.
"""

import argparse
import os
import subprocess
import sys
from dataclasses import dataclass

from . import TOP, Error, registry, run_main

PY = sys.executable if sys.executable else "/usr/bin/python3"
TOOLS = "tools"


def module(name):
    """The command of a Python stage: its module, run by this interpreter."""
    return [PY, "-m", f"ioctltools.{name}"]


@dataclass(frozen=True)
class Where:
    """Where one kernel version's stages read and write."""
    version: str
    oldest: bool		# the oldest known version: the unsuffixed names are its
    tree: str			# the kernel source, only read
    uapi: str			# its exports, <uapi>/<ARCH>/include (.done when made)
    spec: str = "spec"
    probes: str = "build"	# measure-sizes' work directory
    probe_cache: str = ""	# its cache (default: below probes)
    patches: str = ""		# the series
    patch_work: str = ""	# make-patches' copy of the tree
    render_cache: str = ""

    @classmethod
    def of(cls, version, versions, build="build", spec="spec"):
        """The Makefile's layout: the oldest version's exports in build/uapi,
        another's in build/uapi-<version>; its series generated-patches/<version>."""
        oldest = version == versions[0]
        suffix = "" if oldest else f"-{version}"
        return cls(version, oldest, tree=f"{build}/linux-source-{version}",
                   uapi=f"{build}/uapi{suffix}", spec=spec, probes=build,
                   probe_cache=f"{build}/sizes/cache{suffix}",
                   patches=f"generated-patches/{version}",
                   patch_work=f"{build}/patches-work{suffix}",
                   render_cache=f"{build}/render-cache{suffix}.pickle")

    def left_out(self):
        """The importer's list of what it left out: left-out.txt for the
        oldest version, left-out-<version>.txt for another."""
        return os.path.join(self.spec, "left-out.txt" if self.oldest
                            else f"left-out-{self.version}.txt")

    def done(self, arches):
        """The make targets of its exports, one per ARCH."""
        return [f"{self.uapi}/{a}/.done" for a in arches]


def headers_install(tree, obj, arch, dest, *make_opts):
    """uapi: `make headers_install` of tree for arch into dest/include."""
    return [os.path.join(TOP, TOOLS, "headers-install"), tree, obj, arch, dest, *make_opts]


def import_uapi(w, jobs=None, quiet=False):
    """import, 1: every ioctl command of the exports into w.spec/headers
    (exit 1: a maintainer's decision is needed, the messages say which)."""
    return [*module("import_uapi"), *(["-q"] if quiet else []),
            *(["-j", str(jobs)] if jobs else []), "--version", w.version, "--uapi", w.uapi,
            "--tree", w.tree, "--spec", w.spec, "--left-out", w.left_out()]


def import_magic(w):
    """import, 2: ioctl-number.rst's magic-code table into w.spec/magic.yaml."""
    return [*module("import_ioctl_number"), "--quiet", "--version", w.version,
            "--spec", w.spec, w.tree]


def measure_sizes(w, only=(), kargs=(), new_headers=None, jobs=None):
    """sizes: every argument type of version w measured against its exports
    (only: of these header specs), merged into w.spec/sizes."""
    return [*module("measure"), *(["-j", str(jobs)] if jobs else []),
            "--version", w.version, "--uapi", w.uapi,
            *(["--new-headers", new_headers] if new_headers else []),
            *(["--cache", w.probe_cache] if w.probe_cache else []), *kargs,
            *[a for f in only for a in ("--only", f)], w.spec, w.probes]


def kernel_context(reg, version, build="build", only=()):
    """measure-sizes' --kernel-context options for version: none when only
    names no kernel-internal header; Error when their configured trees
    (kcontext.targets, below build, made by make) are not there."""
    # imported here: it imports the probe code (0.1 s), which make's
    # measure-first, run on every edit, does not need
    from . import kcontext
    made = kcontext.targets(reg, build, only)
    missing = [os.path.dirname(t) for t in made if not os.path.exists(os.path.join(TOP, t))]
    if missing:
        raise Error(f"error: no kernel context: the trees are not configured: "
                    f"{', '.join(missing)} (make sizes makes them)")
    return kcontext.args(reg, version, build) if made else []


def uncommitted(spec):
    """The files below spec, relative to it, that differ from the last
    commit or are not committed yet (none outside a git work tree)."""
    out = set()
    for args in (["diff", "--name-only", "--relative", "HEAD"],
                 ["ls-files", "-o", "--exclude-standard"]):
        r = subprocess.run(["git", "-c", "core.quotepath=off", "-C", spec, *args, "--", "."],
                           capture_output=True, text=True)
        if r.returncode == 0:
            out.update(l for l in r.stdout.splitlines() if l)
    return sorted(out)


def to_measure(spec, edited_from=None, ioctlgen=registry.IOCTLGEN):
    """The header specs of spec to measure before its model (measure
    first): those naming a type no sizes file holds, and those edited
    since the last commit of edited_from (default spec; a copy of it names
    the original) that define types, as `ioctlgen check --to-measure`
    decides."""
    edited = [a for n in uncommitted(edited_from or spec)
              for a in ("--edited", os.path.join(spec, n))]
    out = registry.run_ioctlgen([ioctlgen, "check", "--to-measure", *edited, spec],
                                "what to measure first")
    return sorted(out.split())


def model(spec, tree, out, report=(), ioctlgen=registry.IOCTLGEN):
    """model: ioctlgen's model of spec, its rst lint against tree."""
    return [ioctlgen, "model", *report, "--tree", tree, spec, "-o", out]


def make_patches(w, model_json, force=False):
    """patches: the series of version w against its pristine tree."""
    return [*module("make_patches"), "-m", model_json, "--version", w.version, "-k", w.tree,
            "-w", w.patch_work, "-o", w.patches, "--cache", w.render_cache,
            *(["--force"] if force else [])]


def verify(version, model_json, pristine=None, patches=None, out=None):
    """verify: (the command, the environment it adds) that applies the
    series to a copy of the pristine tree, builds and boots it."""
    env = {"VERIFY_MODEL": model_json}
    for k, v in (("VERIFY_PRISTINE", pristine), ("VERIFY_PATCHES", patches),
                 ("VERIFY_OUT", out)):
        if v:
            env[k] = v
    return [os.path.join(TOP, "tests", "verify", "run"), version], env


# ---------------------------------------------------------------- the Makefile's entry
def exports_order(targets):
    """make uapi's order: a tree's ARCHes go one at a time (the Makefile's
    HDRINST lock), so alternate between trees, and x86 last after them all."""
    return sorted(targets, key=lambda t: (1 if "/x86/.done" in t[1] else 0, t[0]))


def main(argv):
    ap = argparse.ArgumentParser(prog="python3 -m ioctltools.pipeline",
                                 description="The pipeline's stages on the build/ layout "
                                             "(the Makefile's entry).")
    ap.add_argument("--spec", default="spec")
    ap.add_argument("--build", default="build")
    ap.add_argument("--version", action="append", default=[], metavar="V",
                    help="only this known version (default: every one)")
    sub = ap.add_subparsers(dest="stage", required=True)
    d = sub.add_parser("dir", help="print a version's exports directory")
    d.add_argument("what", choices=["uapi"])
    t = sub.add_parser("targets", help="print the make targets of the exports, every ARCH")
    t.add_argument("what", choices=["uapi"])
    sub.add_parser("to-measure", help="print the header specs to measure first")
    sub.add_parser("import", help="import each version's tree, oldest first")
    s = sub.add_parser("sizes", help="measure each version's sizes")
    s.add_argument("--only", action="append", default=[])
    s.add_argument("--new-headers")
    p = sub.add_parser("patches", help="each version's series")
    p.add_argument("-m", "--model", default="build/model.json")
    p.add_argument("--force", action="store_true")
    v = sub.add_parser("verify", help="verify each version's series, the newest first")
    v.add_argument("-m", "--model", default="build/model.json")
    a = ap.parse_args(argv)
    os.chdir(TOP)

    if a.stage == "to-measure":
        print("\n".join(to_measure(a.spec)))
        return 0
    reg = registry.load(a.spec, "dump")
    known = reg.versions()
    for v in a.version:
        if v not in known:
            raise Error(f"{a.spec}/versions.yaml: error: version {v} is none the registry "
                        f"knows ({', '.join(known)})")
    where = [Where.of(v, known, a.build, a.spec) for v in known if v in a.version or not a.version]

    if a.stage == "dir":
        print("\n".join(w.uapi for w in where))
    elif a.stage == "targets":
        arches = registry.arches(reg)
        print("\n".join(t for _, t in exports_order(
            [(i, x) for w in where for i, x in enumerate(w.done(arches))])))
    elif a.stage in ("import", "sizes", "patches"):
        for w in where:
            if a.stage == "import":
                steps = [import_uapi(w), import_magic(w)]
            elif a.stage == "sizes":
                steps = [measure_sizes(w, a.only, kernel_context(reg, w.version, a.build, a.only),
                                       a.new_headers)]
            else:
                print(f"  PATCHES {w.patches}", flush=True)
                steps = [make_patches(w, a.model, a.force)]
            for cmd in steps:
                rc = subprocess.run(cmd).returncode
                if rc:
                    return rc
    elif a.stage == "verify":
        rc = 0
        for w in reversed(where):
            cmd, env = verify(w.version, a.model)
            rc |= 1 if subprocess.run(cmd, env=dict(os.environ, **env)).returncode else 0
        return rc
    return 0


if __name__ == "__main__":
    run_main(main)
