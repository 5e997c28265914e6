# SPDX-License-Identifier: GPL-2.0
"""The models of the test registries for the Python suites:

    import fixtures     # tests/run puts tests/lib on PYTHONPATH
    path = fixtures.model("render")   # ioctlgen's model of tests/fixtures/render/spec

See tests/lib/fixture-model, which writes it.  A registry that does not
give a model ends the suite with ioctlgen's report (exit 1)."""

import os
import subprocess
import sys

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def model(name):
    r = subprocess.run([os.path.join(TOP, "tests", "lib", "fixture-model"), name],
                       capture_output=True, text=True)
    if r.returncode:
        sys.exit(r.stderr.rstrip())
    return os.path.join(TOP, r.stdout.strip())
