# SPDX-License-Identifier: GPL-2.0
"""tools/use-tree: a tree the registry already knows.

A tree is known when its version is one of spec/versions.yaml and what
the import and the measurement read of it is byte for byte the registry's
own tree of that version (build/linux-source-V, `make tree`): every file
headers_install reads (headers.HDR_INPUTS: the Makefile, Kbuild, arch/,
include/, scripts/, usr/, tools/include/, which hold every include/uapi
and arch/*/include/uapi header) and ioctl-number.rst.  The registry then
already is that tree's import and measurement: the copy of the registry is
used as it is (no import), its sizes are the registry's, the exported
headers are the build cache's (build/uapi-V; build/uapi for the oldest),
and only the header specs the copy needs measured are measured (those
naming a type no sizes file holds, and the edited ones that define types:
what `make` measures first), with the project's probe cache.  The
import's case-label evidence also reads the drivers' .c files; a tree that
differs from the registry's only there is taken as known (the importer's own scan cache keys the tree the
same way: evidence.CaseLabels)."""

import filecmp
import os
import re
import stat
from dataclasses import replace

from .. import Error, pipeline
from . import RST, TOP, Fail, rel, say
from .headers import hdr_inputs, hdr_manifest, manifest_digest, reference, src_manifest
from .steps import registry_of, run_tool


def identities(root):
    """{name: the file's inode, or a link's target} of what headers_install
    reads under root (headers.hdr_inputs)."""
    return {n: ("link", os.readlink(p)) if stat.S_ISLNK(st.st_mode) else (st.st_dev, st.st_ino)
            for n, p, st in hdr_inputs(root) if stat.S_ISREG(st.st_mode) or stat.S_ISLNK(st.st_mode)}


def recognise(W, src, version, known, arches, append):
    """(the registry's tree of version, None, files compared) when src is
    that tree as the import reads it, else (None, why not, 0).  A snapshot
    of hard links to that tree (cp -al) is the same file for file, by
    inode; any other is compared by content (hashes cached by inode and
    times, as headers.hdr_manifest keeps them)."""
    ref = os.path.join(TOP, "build", f"linux-source-{version}")
    if append:
        return None, f"Linux {version} is new to the registry", 0
    if not os.path.exists(os.path.join(ref, ".extracted")):
        return None, f"no {rel(ref)} to compare with (make tree)", 0
    missing = [a for a in arches if reference(version, known, a) is None]
    if missing:
        return None, (f"the exported headers of {rel(ref)} are not made for "
                      f"{', '.join(missing)} (make sizes makes them)"), 0
    mine, theirs = identities(src), identities(ref)
    if mine.keys() != theirs.keys():
        return None, (f"the files headers_install reads are not {rel(ref)}'s "
                      f"({len(mine.keys() - theirs.keys())} more, "
                      f"{len(theirs.keys() - mine.keys())} fewer)"), 0
    if mine != theirs:
        ref_m = hdr_manifest(ref, os.path.join(TOP, "build", "tree", ".reference",
                                               f"{version}.json"))
        if manifest_digest(ref_m) != src_manifest(W, src)[1]:
            return None, f"the files headers_install reads differ from {rel(ref)}'s", 0
    if not filecmp.cmp(os.path.join(src, RST), os.path.join(ref, RST), shallow=False):
        return None, f"its {RST} differs from {rel(ref)}'s", 0
    return ref, None, len(mine)


def known_sizes_step(versions, arches, spec, spec_from, W, logdir, jobs):
    """Step 5 on a known tree: the registry's sizes, and the header specs
    `make` would measure first (pipeline.to_measure: those naming a type no
    sizes file holds, and those of spec_from edited since the last commit
    that define types) measured into the copy for every version whose
    exports the build cache has (as `make` does: each version's sizes are
    its own tree's), with the project's probe caches.  Its closing line."""
    try:
        only = pipeline.to_measure(rel(spec), spec_from)
    except Error as e:
        raise Fail(str(e)) from None
    if not only:
        say("SIZES", f"reused: {spec_from}/sizes (no header spec names an unmeasured type "
            "or defines types and was edited)")
        return f"the registry's {spec_from}/sizes, nothing measured"
    names = ", ".join(os.path.relpath(p, rel(spec)) for p in only)
    reg = None
    lines = []
    for v in versions:
        refs = [reference(v, versions, a) for a in arches]
        if None in refs:
            say("SIZES", f"{v}: no exports of build/linux-source-{v} in the build cache "
                "(make sizes measures it)")
            continue
        # the build cache's exports and probe cache, the copy's spec, probes in W
        w = replace(pipeline.Where.of(v, versions, spec=rel(spec)), probes=rel(W))
        reg = reg or registry_of(spec)
        try:
            kargs = pipeline.kernel_context(reg, v, "build", only)
        except Error as e:
            say("SIZES", f"{v}: {str(e).removeprefix('error: ')}")
            kargs = []
        say("SIZES", f"reused {spec_from}/sizes; measuring for {v} (against {w.uapi}) "
            f"{len(only)} header specs with new or edited types: {names}")
        _, out = run_tool(f"measure-sizes-{v}", pipeline.measure_sizes(w, only, kargs, jobs=jobs),
                          logdir)
        m = re.search(r"\(([^()]*probes compiled[^()]*)\)$", out.strip())
        lines.append(f"{v}: {len(only)} header specs measured ({m.group(1) if m else 'done'})")
    return "; ".join(lines) or "nothing measured"
