# SPDX-License-Identifier: GPL-2.0
"""tools/use-tree, step 8: tests/verify/run on the snapshot, the series and
the model, its TAP lines echoed, all of it in build/tree/NAME/verify.log."""

import json
import os
import shutil
import subprocess

from .. import pipeline
from . import MAKE_ENV, TOP, rel, say


def verify_step(version, W, fp, model):
    """(verify's closing line, its exit status)."""
    vout = os.path.join(W, "verify")
    vfp = os.path.join(W, "state", "verify.fingerprint")
    if (open(vfp).read().strip() if os.path.exists(vfp) else None) != fp:
        # tests/verify/run keeps its copy of the pristine tree while
        # it has one: a changed snapshot needs a new copy.
        shutil.rmtree(os.path.join(vout, "linux"), ignore_errors=True)
        shutil.rmtree(os.path.join(vout, "kobj"), ignore_errors=True)
    # The model names its registry "spec" (the series' notes say so);
    # verify reads that registry's left-out list and layouts.yaml, so
    # its copy of the model names where the copy of spec/ is.
    vmodel = os.path.join(W, "verify-model.json")
    with open(vmodel + ".tmp", "w", encoding="utf-8") as f:
        json.dump(dict(model, **{"spec-dir": os.path.join(W, "spec")}), f)
    os.replace(vmodel + ".tmp", vmodel)
    cmd, venv = pipeline.verify(version, vmodel, pristine=os.path.join(W, "src"),
                                patches=os.path.join(W, "generated-patches"), out=vout)
    env = dict(os.environ, **venv)
    env.setdefault("VERIFY_ARCHES", "none")
    for k in MAKE_ENV:
        env.pop(k, None)
    say("VERIFY", f"tests/verify/run {version} (VERIFY_ARCHES={env['VERIFY_ARCHES']}; "
        f"{rel(W)}/verify.log)")
    vlog = os.path.join(W, "verify.log")
    with open(vlog, "w") as lf:
        p = subprocess.Popen(cmd, cwd=TOP, env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        last = ""
        for line in p.stdout:
            lf.write(line)
            lf.flush()
            if line.startswith(("ok ", "not ok ", "Bail out")):
                print("    " + line.rstrip(), flush=True)
            if line.strip():
                last = line.strip()
        verify_rc = p.wait()
    with open(vfp, "w") as f:
        f.write(fp + "\n")
    return f"{last} (exit {verify_rc}; {rel(vlog)})", verify_rc
