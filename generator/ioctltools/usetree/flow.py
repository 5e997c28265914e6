# SPDX-License-Identifier: GPL-2.0
"""tools/use-tree's steps in order (its docstring lists them), and the
summary of a run (also build/tree/NAME/summary.txt)."""

import os

from .. import registry
from . import PROG, RST, rel, say
from .headers import headers, reference, src_manifest
from ..pipeline import uncommitted
from .edits import changed_commands
from .known import known_sizes_step, recognise
from .snapshot import extraversion, snapshot_step, spec_step
from .steps import check_step, commands_by_version, fmt_cmds, import_step, model_step, \
    patches_step, publish, sizes_step, spec_diff
from .verify import verify_step


def flow(args, tree, full, version, known, append, is_git, name, W, spec_from, base_reg,
         clock, summary):
    run = os.path.join(W, "run")
    logdir = os.path.join(run, "log")
    src = os.path.join(W, "src")
    oldest = known[0]

    # 1. the snapshot
    clock.step("snapshot")
    fp = snapshot_step(tree, is_git, W, src)

    # 2. the copy of the registry, and the version
    clock.step("spec")
    spec, reg = spec_step(run, logdir, spec_from, tree, full, version, known, append, is_git)
    arches = registry.arches(reg)

    # A tree the registry knows: its import, sizes and exports are reused.
    clock.step("known")
    ref, why, nfiles = recognise(W, src, version, known, arches, append)
    if ref:
        say("KNOWN", f"the registry's {version} tree: what the import reads ({nfiles} files "
            f"headers_install reads, {RST.rsplit('/', 1)[1]}) is {rel(ref)}'s")
    else:
        say("KNOWN", f"no: {why}; importing and measuring it")

    # 3. headers_install
    clock.step("headers")
    if ref:
        uapi = os.path.dirname(reference(version, known, arches[0])[1])
        say("HDRINST", f"reused: {rel(uapi)}/<arch> for {len(arches)} ARCHes "
            f"(the build cache's exports of {rel(ref)})")
    else:
        cur, digest = src_manifest(W, src)
        made = headers(W, src, cur, digest, arches, version, None if append else known,
                       args.jobs, logdir)
        say("HDRINST", f"{len(arches)} ARCHes: {made['same']} as last run, {made['copied']} "
            f"copied from a known tree, {made['built'] + made['rebuilt']} made "
            f"({made['rebuilt']} incrementally)")
        uapi = os.path.join(W, "uapi")

    # 4. import
    clock.step("import")
    if ref:
        say("IMPORT", f"reused: {spec_from}/ is the import of {rel(ref)} (tools/import-uapi "
            "and tools/import-ioctl-number not run)")
        import_notes = []
    else:
        import_notes = import_step(version, oldest, uapi, src, spec, logdir, args.jobs, summary)

    # 5. sizes
    clock.step("sizes")
    if ref:
        sizes_line = known_sizes_step(known, arches, spec, spec_from, W, logdir, args.jobs)
    else:
        sizes_line = sizes_step(version, oldest, uapi, spec, W, logdir, args.jobs, append)

    # 6. check and model
    clock.step("check")
    check_line = check_step(spec, run)
    model = model_step(src, run, logdir)

    # 7. patches
    clock.step("patches")
    patches_line = patches_step(version, oldest, src, run, W, logdir)

    # Publish: every step up to here passed.
    clock.step("publish")
    publish(run, W)
    diff_path, diff_stat = spec_diff(spec_from, W)
    npatches = len([f for f in os.listdir(os.path.join(W, "generated-patches"))
                    if f.endswith(".patch")])

    # What the tree has, as the registry sees it.
    cmds = commands_by_version(model, version)
    base_version = version if not append else known[-1]
    base = commands_by_version(base_reg.doc, base_version)
    new, gone = cmds - base, base - cmds

    # 8. verify
    verify_line = "not run (TREE_VERIFY=0 / --no-verify)"
    verify_rc = 0
    if not args.no_verify:
        clock.step("verify")
        verify_line, verify_rc = verify_step(version, W, fp, model)

    clock.step("end")
    s = [f"{PROG}: {tree}",
         f"  version   Linux {full}{extraversion(tree)} = {version}" +
         (f" (new: after {known[-1]}, added to {rel(W)}/spec/versions.yaml)" if append
          else " (known to the registry)")]
    s.append("  known     " + (f"yes: the registry's {version} tree ({rel(ref)}): its exports, "
                                 "import and sizes reused" if ref else f"no: {why}"))
    edits = uncommitted(spec_from)
    if edits:
        s.append(f"  edits     {len(edits)} files of {spec_from}/ not committed, in the copy as "
                 f"they are (changes, not removals): {', '.join(edits[:8])}"
                 + (", ..." if len(edits) > 8 else ""))
        mine = changed_commands(spec_from, base_reg.doc)
        s.append(f"    their commands: {len(mine)} on entries changed since the last commit"
                 + (f" ({', '.join(mine[:12])}{', ...' if len(mine) > 12 else ''})" if mine else ""))
    s.append(f"  commands  {len(cmds)} in {version}; against {spec_from}/'s {base_version}: "
             f"{len(new)} new, {len(gone)} removed")
    if new:
        s.append(f"    new:     {fmt_cmds(new)}")
    if gone:
        s.append(f"    removed: {fmt_cmds(gone)}")
    s.append(f"  import    {len(import_notes)} warnings ({rel(logdir)}/import-*.log)")
    s += summary
    s.append(f"  sizes     {sizes_line}")
    s.append(f"  check     {check_line} ({rel(W)}/check.log)")
    s.append(f"  patches   {npatches} patches in {rel(W)}/generated-patches ({patches_line})")
    s.append(f"  verify    {verify_line}")
    if diff_stat:
        s.append(f"  spec      {rel(diff_path)}: what this tree changes in {spec_from}/ "
                 f"(to contribute: git apply {rel(diff_path)}; keep what you mean):")
        s += ["    " + l for l in diff_stat.splitlines()]
    else:
        s.append(f"  spec      no change to {spec_from}/ ({rel(W)}/spec is the same)")
    s.append(f"  time      {clock.report()}")
    with open(os.path.join(W, "summary.txt"), "w") as f:
        f.write("\n".join(s) + "\n")
    print("\n".join(s), flush=True)
    return 0 if verify_rc == 0 and not summary else 1
