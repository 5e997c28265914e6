# SPDX-License-Identifier: GPL-2.0
"""tools/use-tree, steps 4 to 7 and the publishing: the project's tools on
the snapshot and the copy of the registry in run/ (import, sizes, check,
model, patches), each with its log in run/log; then run/'s results moved
to build/tree/NAME/, and the change to spec/ as a patch."""

import os
import shutil
import subprocess
import sys

from .. import Error, model_reader, pipeline, registry
from . import IOCTLGEN, TOP, Fail, rel, say


def run_tool(name, cmd, logdir, cwd=TOP, env=None, ok=(0,)):
    """Run one tool, its output in logdir/name.log; Fail unless its exit
    status is in ok.  Returns (status, output)."""
    log = os.path.join(logdir, f"{name}.log")
    with open(log, "w") as lf:
        r = subprocess.run(cmd, cwd=cwd, stdout=lf, stderr=subprocess.STDOUT, env=env)
    with open(log, errors="replace") as f:
        out = f.read()
    if r.returncode not in ok:
        raise Fail(f"{name} failed (exit {r.returncode}; {rel(log)}):\n"
                   + "\n".join(out.splitlines()[-25:]))
    return r.returncode, out


def warnings_of(text):
    return [l for l in text.splitlines() if ": warning: " in l or l.startswith("warning:")]


def commands_by_version(doc, version):
    return {(h["path"], h["arch"], c["name"]) for h in doc["headers"]
            for c in h["commands"] if version in (c.get("versions") or [])}


def fmt_cmds(keys, limit=12):
    names = sorted(f"{n} ({p}{' ' + a if a else ''})" for p, a, n in keys)
    more = f", ... ({len(names) - limit} more)" if len(names) > limit else ""
    return ", ".join(names[:limit]) + more


def spec_diff(spec_from, W):
    """The change from spec_from to W/spec as a patch git apply takes in
    the project (a/spec/..., b/spec/...); its --stat."""
    # both paths as the labels below name them, relative to the project
    r = subprocess.run(["diff", "-ruN", spec_from, rel(os.path.join(W, "spec"))],
                       capture_output=True, cwd=TOP)
    if r.returncode > 1:
        raise Fail(f"diff -ruN {spec_from} {rel(W)}/spec: {r.stderr.decode(errors='replace')}")
    a, b = spec_from.rstrip("/") + "/", rel(os.path.join(W, "spec")) + "/"
    lines = []
    for line in r.stdout.decode("utf-8", "surrogateescape").splitlines(keepends=True):
        if line.startswith("--- " + a):
            line = "--- a/spec/" + line[4 + len(a):]
        elif line.startswith("+++ " + b):
            line = "+++ b/spec/" + line[4 + len(b):]
        elif line.startswith("diff -ruN "):
            line = line.replace(" " + a, " a/spec/", 1).replace(" " + b, " b/spec/", 1)
        lines.append(line)
    path = os.path.join(W, "spec.diff")
    with open(path, "w", encoding="utf-8", errors="surrogateescape") as f:
        f.writelines(lines)
    if not lines:
        return path, ""
    st = subprocess.run(["git", "apply", "--stat", path], capture_output=True, text=True, cwd=TOP)
    return path, st.stdout.rstrip()


def where(version, oldest, W, src="", uapi="", spec="", run=""):
    """Where the stages read and write on a tree of one's own, not the
    Makefile's build/ layout: the snapshot src, its exports uapi, the copy
    of the registry spec, measure-sizes' and make-patches' work in W, the
    series in run (the paths relative to the project, as the tools print)."""
    def r(p):
        return rel(p) if p else ""
    return pipeline.Where(version, version == oldest, tree=r(src), uapi=r(uapi), spec=r(spec),
                          probes=r(W), patches=r(run and os.path.join(run, "generated-patches")),
                          patch_work=r(os.path.join(W, "patches-work")),
                          render_cache=r(os.path.join(W, "render-cache.pickle")))


def import_step(version, oldest, uapi, src, spec, logdir, jobs, summary):
    """Step 4: the tree's commands and magic-code table into the copy; the
    importers' warnings.  A maintainer's decision the importer needs goes
    to summary."""
    w = where(version, oldest, TOP, src=src, uapi=uapi, spec=spec)
    say("IMPORT", f"{w.spec}/headers (tools/import-uapi --version {version})")
    st, out = run_tool("import-uapi", pipeline.import_uapi(w, jobs, quiet=True), logdir,
                       ok=(0, 1))
    import_notes = warnings_of(out)
    if st == 1:
        maint = [l for l in out.splitlines() if ": warning: " not in l and l.strip()]
        summary.append(f"import: exit 1, the registry needs a maintainer's decision "
                       f"({rel(logdir)}/import-uapi.log):")
        summary += ["  " + l for l in maint[:10]]
    say("IMPORT", f"{w.spec}/magic.yaml (tools/import-ioctl-number --version {version})")
    _, out = run_tool("import-ioctl-number", pipeline.import_magic(w), logdir)
    return import_notes + warnings_of(out)


def sizes_step(version, oldest, uapi, spec, W, logdir, jobs, append):
    """Step 5: measure-sizes into the copy; its closing line.  The
    kernel-internal headers need a configured tree (kernel context), which
    a tree of one's own does not have: for a version the registry knows,
    every other header spec is measured (--only) and merged, so that their
    sizes stay as the registry has them instead of going."""
    w = where(version, oldest, W, uapi=uapi, spec=spec)
    only = []
    if not append:
        reg = registry_of(spec)
        if any(h.kernel_internal for h in reg.headers):
            only = [h.spec for h in reg.headers if not h.kernel_internal]
            say("SIZES", f"{len(reg.headers) - len(only)} kernel-internal header specs not "
                "measured (no kernel context on a tree of one's own): their sizes kept")
    say("SIZES", f"{w.spec}/sizes (tools/measure-sizes --version {version})")
    _, out = run_tool("measure-sizes", pipeline.measure_sizes(w, only, jobs=jobs), logdir)
    return (out.strip().splitlines() or [""])[-1].strip()


def registry_of(spec):
    """The copy's registry as `ioctlgen dump` gives it; Fail when it does not read."""
    try:
        return registry.load(rel(spec), "dump")
    except Error as e:
        raise Fail(str(e)) from None


def check_step(spec, run):
    """Step 6: ioctlgen check of the copy, all of it in run/check.log;
    Fail on errors.  Its summary line, as `ioctlgen check --summary` says
    it (the errors, and the warnings counted by rule)."""
    r = subprocess.run([IOCTLGEN, "check", rel(spec)], capture_output=True, text=True)
    check_log = os.path.join(run, "check.log")
    with open(check_log, "w") as f:
        f.write(r.stdout + r.stderr)
    if r.returncode not in (0, 1):
        raise Fail(f"ioctlgen check {rel(spec)} failed (exit {r.returncode}):\n{r.stderr}")
    s = subprocess.run([IOCTLGEN, "check", "--summary", rel(spec)], capture_output=True,
                       text=True)
    head = rel(spec) + ": "
    summary = [l for l in (s.stdout + s.stderr).splitlines() if l.startswith(head)]
    check_line = summary[-1][len(head):].split("; list them")[0] if summary else "?"
    say("CHECK", f"{rel(spec)}: {check_line}")
    errors = [l for l in (r.stdout + r.stderr).splitlines() if ": error: " in l]
    if errors:
        print("\n".join(errors[:40]), file=sys.stderr)
        raise Fail(f"ioctlgen check: {len(errors)} errors in the copy {rel(spec)} "
                   f"(above; all in {rel(check_log)}).  Fix them in a copy of it and "
                   "run again with TREE_SPEC=that copy (--spec)")
    return check_line


def model_step(src, run, logdir):
    """Step 6: run/model.json, read.  The model names its spec files as
    spec/...: the series' notes say so."""
    say("MODEL", f"{rel(run)}/model.json")
    run_tool("model", pipeline.model("spec", src, "model.json", ["--summary"]), logdir, cwd=run)
    try:
        return model_reader.load(os.path.join(run, "model.json"), stage="model")
    except model_reader.ModelError as e:
        raise Fail(str(e)) from None


def patches_step(version, oldest, src, run, W, logdir):
    """Step 7: the series in run/generated-patches; make-patches' closing line."""
    w = where(version, oldest, W, src=src, run=run)
    say("PATCHES", f"{w.patches} (tools/make-patches --version {version})")
    _, out = run_tool("make-patches", pipeline.make_patches(w, rel(run) + "/model.json"), logdir)
    return (out.strip().splitlines() or [""])[-1]


def publish(run, W):
    """Every step up to here passed: run/'s results replace the last ones."""
    for item in ("spec", "model.json", "generated-patches", "check.log"):
        dst = os.path.join(W, item)
        old = dst + ".old"
        shutil.rmtree(old, ignore_errors=True) if os.path.isdir(old) else \
            (os.path.exists(old) and os.unlink(old))
        if os.path.lexists(dst):
            os.rename(dst, old)
        os.rename(os.path.join(run, item), dst)
        shutil.rmtree(old, ignore_errors=True) if os.path.isdir(old) else \
            (os.path.exists(old) and os.unlink(old))
