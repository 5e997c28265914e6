#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Run the registry on a kernel tree of one's own: `make TREE=DIR`.

usage: tools/use-tree [--name NAME] [--spec DIR] [--no-verify] [-j JOBS] TREE

TREE is an unpacked kernel source or a git checkout (mainline, a stable
branch, a tree with work in progress).  It is only ever read: everything
happens under build/tree/NAME/ (NAME: --name, default the last component
of TREE), and neither TREE nor the project's spec/ and generated-patches/
are written.  Each step is one of the project's own tools:

  1. snapshot  build/tree/NAME/src: the tree's sources as hard links (copies
               where the file system refuses a link), refreshed on each run.
               A git checkout gives its tracked files as they are in the work
               tree and its untracked files that git does not ignore (`git
               ls-files -co --exclude-standard`, deleted files left out): an
               uncommitted new header counts, build output does not.  An
               unpacked tree gives all its files but Kbuild's in-tree build
               state (.config, include/config/, include/generated/,
               arch/*/include/generated/), which would make the O= builds
               below refuse it.
  2. version   from the tree's Makefile, as MAJOR.MINOR.  A version the
               registry knows (spec/versions.yaml) is used as it is; one newer
               than its newest is appended to the versions.yaml of a copy of
               the registry (build/tree/NAME/spec).  An older one, or one
               between two known versions, is an error.
  3. headers   `make headers_install` of the snapshot for every ARCH of
               spec/abis.yaml into build/tree/NAME/uapi/<arch>, as the
               Makefile's uapi rules do.  When the files headers_install reads
               (Makefile, Kbuild, arch/, include/, scripts/, usr/,
               tools/include/) are byte for byte those of a known version's
               tree (build/linux-source-V), that tree's exported headers
               (build/uapi-V, or build/uapi for the oldest) are copied
               instead; when they are those of the last run, nothing is done.
               Kbuild's objects are kept (build/tree/NAME/kobj-hdr/<arch>) and
               reused only when every changed file is newer than that build.
     known     a tree the registry knows (usetree/known.py): its version is
               known and the files headers_install reads (which hold every
               include/uapi and arch/*/include/uapi header) and
               ioctl-number.rst are byte for byte those of
               build/linux-source-V (hashes kept by inode and mtime in
               build/tree/.reference).  Then nothing is exported, imported
               or measured again: steps 3 to 5 reuse the build cache's
               exports (build/uapi-V), the registry's spec and sizes, and
               measure only the header specs `make` would measure first (a
               type no sizes file holds; an edited one that defines types),
               with the project's probe caches (build/sizes/cache, cache-V).
  4. import    tools/import-uapi and tools/import-ioctl-number --version V
               into the copy of spec/ (left-out list spec/left-out-V.txt, or
               left-out.txt for the oldest version).
  5. sizes     tools/measure-sizes --version V into the copy
               (spec/sizes/V/<abi>.yaml); its probe cache is
               build/tree/NAME/sizes/cache, so a rerun compiles only what
               changed.  The kernel-internal headers need a configured
               tree (kernel context) a tree of one's own does not have:
               for a known version the other header specs are measured
               (--only) and theirs kept as the registry has them.
  6. check     ioctlgen check of the copy (all of it in check.log), then
               ioctlgen model (build/tree/NAME/model.json).
  7. patches   tools/make-patches --version V -k SNAPSHOT into
               build/tree/NAME/generated-patches.
  8. verify    tests/verify/run V on the snapshot, the series and the model
               (output build/tree/NAME/verify, log verify.log).  VERIFY_ARCHES
               passes through; its default here is `none`: the x86_64 kernel
               and its QEMU boot, not the six cross-built layouts (hours on a
               laptop; VERIFY_ARCHES="arm64 powerpc ..." or the names of
               tests/verify/run adds them).  --no-verify stops before it.

Steps 2 to 7 work in build/tree/NAME/run/; only when they all succeed are
spec/, model.json, generated-patches/ and check.log moved to
build/tree/NAME/ (a failed run leaves the last complete results where they
were, and run/ with its logs in log/ to look at).  The run ends with a
summary (also in build/tree/NAME/summary.txt): the version, the commands
of the tree as the registry sees them (new and removed against spec/'s
view of that version, or of its newest for a new one), what check says,
where the series is, verify's closing line, and spec.diff: the change to
spec/ a contribution would start from (`git apply build/tree/NAME/spec.diff`).

Every step says on one line what it does, or what it reused.  The spec
it starts from is taken as it is, uncommitted changes included (a `new:
true` driver not committed yet is in the copy, not a removal); the
summary lists those files.

--spec DIR starts from another registry than spec/ (a copy of run/spec or
spec/ that you fixed, for instance an abi-change reason a new tree needs).

Exit status: 0 when every step passed (verify included), 1 when one failed
or check found errors, 2 on bad usage or a bad TREE.  Messages are
`tools/use-tree: error: ...`, or the tools' own `path:line:col: error: ...`.
The steps are generator/ioctltools/usetree/, a module per stage: snapshot (1,
2), headers (3), steps (4 to 7 and publishing), verify (8); known (the
recognition of a known tree); flow runs them.
"""

import argparse
import fcntl
import os
import re
import sys
import time

from .. import Error, registry
from . import IOCTLGEN, PROG, TOP, Clock, Fail, die, rel, vkey
from .flow import flow
from .snapshot import is_git_checkout, kernel_tree


def main():
    ap = argparse.ArgumentParser(prog=PROG, description=__doc__.split("\n\n")[0],
                                 usage="%(prog)s [--name NAME] [--spec DIR] [--no-verify] "
                                       "[-j JOBS] TREE")
    ap.add_argument("tree", nargs="?", metavar="TREE")
    ap.add_argument("--name", help="work in build/tree/NAME (default: TREE's last component)")
    ap.add_argument("--spec", default="spec", help="the registry to start from (default spec)")
    ap.add_argument("--no-verify", action="store_true", help="stop before tests/verify/run")
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    args = ap.parse_args()
    os.chdir(TOP)
    os.environ.setdefault("PYTHONDONTWRITEBYTECODE", "1")

    tree, full = kernel_tree(args.tree)
    version = ".".join(full.split(".")[:2])
    name = args.name or os.path.basename(tree)
    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._+-]*", name) or name in (".", ".."):
        die(f"--name {name!r}: a work directory name is letters, digits and ._+- "
            "(TREE_NAME=... in make)")
    spec_from = os.path.relpath(os.path.abspath(args.spec), TOP)
    if not os.path.isfile(os.path.join(spec_from, "versions.yaml")):
        die(f"--spec {args.spec}: no versions.yaml there: not a registry that knows "
            "kernel versions")
    if not os.access(IOCTLGEN, os.X_OK):
        die(f"{rel(IOCTLGEN)} is missing: run `make {rel(IOCTLGEN)}` first")
    try:
        base_reg = registry.load(spec_from, "dump")
    except Error as e:
        die(f"reading the registry {spec_from}:\n{e}", 1)
    known = base_reg.versions()
    if not known:
        die(f"{spec_from}/versions.yaml lists no version")
    if version in known:
        append = False
    elif vkey(version) > vkey(known[-1]):
        append = True
    elif vkey(version) < vkey(known[0]):
        die(f"{args.tree}: Linux {full} is older than the oldest version the registry "
            f"knows ({known[0]}; {spec_from}/versions.yaml): it describes {known[0]} and later")
    else:
        die(f"{args.tree}: Linux {full} falls between the versions the registry knows "
            f"({', '.join(known)}): only one of them or one newer than {known[-1]} "
            "can be used")

    W = os.path.join(TOP, "build", "tree", name)
    os.makedirs(W, exist_ok=True)
    lock = open(os.path.join(W, ".lock"), "w")
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        print(f"# waiting for another {PROG} in {rel(W)}", flush=True)
        fcntl.flock(lock, fcntl.LOCK_EX)
    is_git = is_git_checkout(tree)
    clock = Clock()
    summary = []
    status_file = os.path.join(W, "status")
    with open(status_file, "w") as f:
        f.write(f"running: {tree} (Linux {full}) since {time.ctime()}\n")
    try:
        rc = flow(args, tree, full, version, known, append, is_git, name, W, spec_from,
                  base_reg, clock, summary)
    except Fail as e:
        print(f"{PROG}: error: {e}", file=sys.stderr)
        print(f"{PROG}: nothing published: the last complete results (if any) stay in "
              f"{rel(W)}; this run's work and logs are in {rel(W)}/run", file=sys.stderr)
        with open(status_file, "w") as f:
            f.write(f"failed: {str(e).splitlines()[0]}\n")
        return 1
    with open(status_file, "w") as f:
        f.write("passed\n" if rc == 0 else "finished with failures: see summary.txt\n")
    return rc


if __name__ == "__main__":
    sys.exit(main())
