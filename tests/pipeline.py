#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The pipeline defined once (generator/ioctltools/pipeline.py), against
what else says where things are: the Makefile's rules, the committed
spec/ and generated-patches/, the exports make check made, and ioctlgen.
And the shell scripts' reader of the model the stages pass on
(`python3 -m ioctltools.model_reader FIELD MODEL`), against the dump.
Usage: tests/pipeline.py   (TAP output; after make check's set-up: the
model, the exports of every version)"""

import os
import shutil
import subprocess
import tempfile

import tap
from ioctltools import TOP, pipeline, registry

PY = "/usr/bin/python3"


def cli(*args):
    return subprocess.run([PY, "-m", "ioctltools.pipeline", *args], cwd=TOP,
                          capture_output=True, text=True)


def make_n(targets):
    """make -n of targets: does the Makefile have a rule for each?"""
    return subprocess.run(["make", "-n", "-s", *targets], cwd=TOP, capture_output=True,
                          text=True)


def model_cli(versions, arches):
    """model_reader's command line on build/model.json: the values the
    dump gives too, and its errors."""
    model = os.path.join(TOP, "build", "model.json")
    if not os.path.exists(model):
        tap.skip("model_reader FIELD MODEL", "no build/model.json (make model)")
        return

    def mr(field, path=model):
        return subprocess.run([PY, "-m", "ioctltools.model_reader", field, path], cwd=TOP,
                              capture_output=True, text=True)
    r = mr("versions.name")
    tap.check(r.returncode == 0 and r.stdout.split() == versions,
              "model_reader versions.name: the versions the dump gives, oldest first",
              r.stdout + r.stderr)
    r = mr("abis.arch")
    tap.check(r.returncode == 0 and set(r.stdout.split()) == set(arches),
              "model_reader abis.arch: the ARCHes the dump gives", r.stdout + r.stderr)
    r = mr("abis.no-such-key")
    tap.check(r.returncode == 1 and f"{model}: error: 'abis.no-such-key': no 'no-such-key'"
              in r.stderr, "model_reader: a field the model lacks is an error naming the "
              "model, exit 1", f"exit {r.returncode}: {r.stderr}")
    with tempfile.NamedTemporaryFile("w", suffix=".json") as f:
        f.write('{"model-version": 0}')
        f.flush()
        r = mr("versions.name", f.name)
        tap.check(r.returncode == 1 and "error: model version 0" in r.stderr and not r.stdout,
                  "model_reader: a model of another model-version is refused, exit 1",
                  f"exit {r.returncode}: {r.stderr}")


def main():
    reg = registry.load(os.path.join(TOP, "spec"), "dump")
    versions = reg.versions()
    arches = registry.arches(reg)

    # The exports: where pipeline.py says they are is where make makes them.
    r = cli("targets", "uapi")
    targets = r.stdout.split()
    tap.check(r.returncode == 0 and len(targets) == len(versions) * len(arches),
              f"targets uapi: {len(versions)} versions x {len(arches)} ARCHes",
              r.stderr or targets)
    m = make_n(targets)
    tap.check(m.returncode == 0, "the Makefile has a rule for every export target pipeline.py "
              "names", m.stderr.splitlines()[-3:])
    m = make_n(["build/uapi-0.0/x86/.done"])
    tap.check(m.returncode != 0 and "No rule to make target" in m.stderr,
              "and make refuses an export target no rule makes (the check above can fail)",
              m.stderr.splitlines()[-3:])
    for v in versions:
        w = pipeline.Where.of(v, versions)
        missing = [a for a in arches
                   if not os.path.isdir(os.path.join(TOP, w.uapi, a, "include"))]
        tap.check(not missing, f"{v}: the exports are in {w.uapi}/<ARCH>/include, as make "
                  "uapi made them", f"missing: {missing}")
        d = cli("--version", v, "dir", "uapi")
        tap.check(d.stdout.strip() == w.uapi, f"{v}: `pipeline dir uapi` says {w.uapi}",
                  d.stdout + d.stderr)
        # the importer wrote its left-out lists, the series are committed
        tap.check(os.path.isfile(os.path.join(TOP, w.left_out())),
                  f"{v}: the import's left-out list is {w.left_out()}, committed")
        tap.check(os.path.isfile(os.path.join(TOP, w.patches, "0000-cover-letter.patch")),
                  f"{v}: the series is {w.patches}, committed")
    model_cli(versions, arches)
    r = cli("--version", "0.0", "dir", "uapi")
    tap.check(r.returncode == 1 and "versions.yaml: error: version 0.0 is none" in r.stderr,
              "an unknown --version: an error naming versions.yaml, exit 1",
              f"exit {r.returncode}: {r.stderr}")

    # Measure first: nothing in a committed copy; a new command's new type.
    with tempfile.TemporaryDirectory(prefix="pipeline-") as tmp:
        spec = os.path.join(tmp, "spec")	# its git repository above it: no .git in spec/
        shutil.copytree(os.path.join(TOP, "spec"), spec)
        git = ["git", "-C", tmp, "-c", "user.name=t", "-c", "user.email=t@invalid"]
        ok = all(subprocess.run(git + a, capture_output=True).returncode == 0
                 for a in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "copy"]))
        if not ok:
            tap.skip("measure first: a committed copy of spec/", "git init/commit failed")
            return
        tap.check(pipeline.to_measure(spec) == [],
                  "measure first: nothing in a committed copy of spec/")
        f = os.path.join(spec, "headers", "linux", "atmsvc.yaml")
        with open(f, encoding="utf-8") as fh:
            text = fh.read()
        with open(f, "w", encoding="utf-8") as fh:
            fh.write(text.replace("    dir: none\n", "    dir: read\n    type: struct atmsvc_msg\n"))
        got = pipeline.to_measure(spec)
        tap.check(got == [os.path.join(spec, "headers", "linux", "atmsvc.yaml")],
                  "measure first: an edit that names a type no sizes file holds", got)
        tap.check(pipeline.uncommitted(spec) == ["headers/linux/atmsvc.yaml"],
                  "the edit is the copy's one uncommitted file", pipeline.uncommitted(spec))


if __name__ == "__main__":
    main()
    tap.done()
