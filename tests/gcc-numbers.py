#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Cross-check the model's numbers against gcc on the real kernel headers.

For every ABI of the model and every header that applies to it (a per-arch
header, spec/headers/arch/<arch>/, only to the ABIs of that ARCH), a probe
includes the header as `make ARCH=<arch> headers_install` exported it
(build/uapi/<arch>/include) and emits the value of each non-reserved command
macro (families called with 0 for every parameter, e.g. EVIOCGBIT(0,0)) with
the asm-offsets trick; the ABI's compiler (cc and cflags of the model)
compiles it to assembly.  Each value must equal the model's
numbers[abi].number, and a family's members at a few more parameter values
what the model says of them (members(): a size-param family at sizes up to
the size field's largest, N elements of a size-unit as N times its
unit-size, an unused parameter at other values); a mismatch names the command, the ABI, both numbers and
the fields that differ, decoded by the kernel's own _IOC_DIR, _IOC_TYPE,
_IOC_NR and _IOC_SIZE in the same probe.  A command the model leaves without
a number on an ABI (absent) must be absent there for the compiler too: the
header is not exported for that ARCH, or it does not define the macro, or
the macro does not compile.  A command with a number must be defined and
compile.  The probes of one ABI share translation units (one cc1 run
costs some 40 ms here before it reads a line; forty headers in one unit,
a little more than one): a probe whose header would see another header's
definition of one of its names, and every probe of a unit that does not
compile or that disagrees with the model, is compiled on its own, so only
agreement with the model is ever read from a shared unit.  The ABIs run in
parallel.

The layouts are checked the same way: each layout's field widths and
direction values must be the _IOC_* constants of its header in the tree as gcc
evaluates them, and every kernel ARCH must sit in the layout of the
asm/ioctl.h it exports.

It also checks that the registry covers the headers: every #define in the
kernel source of a header whose value is an _IO*() call (found by a regular
expression, including ones under #if 0 or in comments) must be registered,
and a command is reserved exactly when the preprocessor leaves it undefined.

Commands the headers spell as plain numbers (TCGETS 0x5401) are checked the
same way: the value gcc sees must be the model's on every ABI that has them,
and where the model says absent, the name must not be a plain number there.
Then `ioctlgen decode --abi ABI N` must name the most frequent of them
(TCGETS, FIONREAD, SIOCGIFCONF...), N being what the ABI's compiler makes of
the name on the real headers.

Finally the same checks run on ioctlgen's model of a test registry with
planted mistakes (tests/fixtures/gcc-numbers/spec), which must be reported
as tests/fixtures/gcc-numbers/expect.json says: so this suite can fail.

usage: tests/gcc-numbers.py [--no-self-test] [MODEL [BUILD_DIR [TREE]]]
  (default build/model.json build BUILD_DIR/linux-source-6.1): the numbers
  compiled from BUILD_DIR/uapi/<arch>, the exported headers of TREE;
  --no-self-test: the planted mistakes are left to the suite's own run
  (tests/verify/run's step 3b, whose exports are not the fixture's)
"""

import contextlib
import copy
import io
import json
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
import fixtures  # noqa: E402
from ioctltools import Error, model_reader, renderlib  # noqa: E402
from tap import Tap  # noqa: E402
from ioctltools.cc import stub_dir, stub_flags  # noqa: E402
from gcc_numbers import numbers, probe, tree  # noqa: E402
from gcc_numbers.numbers import check_decode, check_numbers  # noqa: E402
from gcc_numbers.tree import check_coverage, check_layouts  # noqa: E402

EXPECT = os.path.join(HERE, "fixtures", "gcc-numbers", "expect.json")


def borrowed_name(fixture, build):
    """A command the model gives a header that does not define it, while an
    earlier header of its shared translation unit does: in the unit its
    #ifdef would see the other header's macro, with the number the model
    expects.  The guard before each header must send the probe to be
    compiled on its own, which finds the name undefined.  The header has
    that command alone, so that no other disagreement has it compiled on
    its own anyway.  x86_64 alone: (ok, text, details) for Tap.check()."""
    model = copy.deepcopy(fixture)
    model["abis"] = [a for a in model["abis"] if a["name"] == "x86_64"]
    fs, other = model["headers"][0], model["headers"][1]
    cmd = next(c for c in fs["commands"] if c["name"] == "FIFREEZE")
    other["commands"] = [copy.deepcopy(cmd)]
    want = (f"FIFREEZE on x86_64: model {cmd['numbers']['x86_64']['number']:#010x}, gcc: "
            f"not defined by {other['path']} (absent)")
    quiet = io.StringIO()
    with contextlib.redirect_stdout(quiet):
        bad = check_numbers(Tap(quiet), model, build)
    return (want in bad, f"fixture: a name only an earlier header of its shared translation "
                         f"unit defines is not taken for {other['path']}'s: {want}",
            () if want in bad else bad)


def self_test(tap, build):
    """The checks must catch the mistakes planted in the fixture model."""
    fixture = model_reader.load(fixtures.model("gcc-numbers"), "model")
    with open(EXPECT, encoding="utf-8") as f:
        expect = json.load(f)
    # A mistake ioctlgen refuses to write: nr-count one more than ABS_CNT.
    for c in fixture["headers"][1]["commands"]:
        if c["name"] == "EVIOCSABS":
            c["nr-count"] = 0x41
    out = io.StringIO()
    quiet = Tap(out)
    numbers.RECHECKED.clear()
    with contextlib.redirect_stdout(out):
        bad = check_numbers(quiet, fixture, build)
    # The mistakes were seen in the shared translation units first.
    shared = sorted(set(numbers.RECHECKED))
    tap.check(len(shared) >= 2, f"fixture: shared translation units disagree with the model where "
                                f"it is wrong, and the headers are compiled again on their own: "
                                f"{', '.join(f'{h} on {a}' for a, h in shared[:4])}")
    tap.check(*borrowed_name(fixture, build))
    with contextlib.redirect_stdout(out):
        cov = check_coverage(quiet, fixture, build)
        check_layouts(quiet, fixture, build)
    layout_lines = out.getvalue()
    for want in expect["numbers"]:
        tap.check(any(want in b for b in bad), f"fixture: a planted mistake is reported: {want}",
                  bad if not any(want in b for b in bad) else ())
    tap.check(len(bad) == len(expect["numbers"]),
              f"fixture: exactly {len(expect['numbers'])} number mismatches reported", bad)
    for want in expect["coverage"]:
        tap.check(any(want in p for p in cov), f"fixture: coverage reports: {want}")
    for want in expect["layouts"]:
        tap.check(want in layout_lines, f"fixture: the layout check reports: {want}")


def main():
    args = sys.argv[1:]
    self_testing = "--no-self-test" not in args
    args = [a for a in args if a != "--no-self-test"]
    model_path = args[0] if len(args) > 0 else "build/model.json"
    build = args[1] if len(args) > 1 else "build"
    probe.TREE[0] = args[2] if len(args) > 2 else os.path.join(build, "linux-source-6.1")
    tap = Tap()
    try:
        model = model_reader.load(model_path, "model")
        # the version of the tree the numbers are compiled from
        version = renderlib.version_of_tree(model, probe.TREE[0])
        names = renderlib.version_names(model) if model.get("versions") else []
        if version is not None and version != names[0]:
            tree.LEFT_OUT[0] = f"left-out-{version}.txt"
            top = os.path.dirname(HERE)
            tree.OLDER_TREES[:] = [os.path.join(top, "build", f"linux-source-{v}")
                                   for v in names[:names.index(version)]]
        model = renderlib.view_for_tree(model, probe.TREE[0])
    except (Error, OSError, ValueError) as e:
        tap.check(False, f"read {model_path} (make model) as {probe.TREE[0]}'s version has it",
                  [str(e)])
        return 1
    for abi in model["abis"]:
        done = os.path.join(build, "uapi", abi["arch"], ".done")
        if not os.path.exists(done):
            tap.check(False, f"{done} exists (make {done})")
            return 1
    # The kernel-internal headers (include/, not exported): no userspace
    # probe can include them; tests/kernel-internal compiles them in kernel
    # context.
    internal = [h["path"] for h in model["headers"] if h.get("kernel-internal")]
    # What the series adds (new: true, or a new header) is in no pristine
    # tree: verify compiles it in the patched one.
    added = [c["name"] for h in model["headers"] for c in h["commands"] if c.get("new")]
    exported = dict(model, headers=[dict(h, commands=[c for c in h["commands"] if not c.get("new")])
                                    for h in model["headers"]
                                    if not h.get("kernel-internal") and not h.get("new")])
    with tempfile.TemporaryDirectory(prefix="gcc-numbers-") as tmp:
        probe.STUBS[:] = stub_flags(stub_dir(tmp, [p for h in model["headers"]
                                             for p in h.get("stub-includes", [])]))
        check_numbers(tap, exported, build)
        check_coverage(tap, exported, build)
        if internal:
            tap.check(True, f"{len(internal)} kernel-internal headers ({', '.join(internal)}) "
                            f"# SKIP not exported: the kernel-internal suite checks them in "
                            f"kernel context")
        if added:
            tap.skip(f"{len(added)} commands the series adds ({', '.join(added[:5])}"
                     f"{', ...' if len(added) > 5 else ''})",
                     "in no pristine tree: verify checks them in the patched one")
        check_layouts(tap, model, build)
        check_decode(tap, model, build, os.path.join(HERE, "..", "build", "ioctlgen"))
        if not self_testing:
            tap.skip("fixture: the planted mistakes are caught", "--no-self-test")
        elif not tree.OLDER_TREES:
            self_test(tap, build)
        else:	# its planted mistakes are the oldest tree's (build/linux-source-6.1)
            tap.skip("fixture: the planted mistakes are caught",
                     f"the fixture is the oldest tree's; {probe.TREE[0]} is a later version")
    print(f"# {tap.n - tap.failed} passed, {tap.failed} failed")
    return 1 if tap.failed else 0


if __name__ == "__main__":
    sys.exit(main())
