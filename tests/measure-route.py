#!/usr/bin/python3
"""Where measure-sizes writes a kernel-context size (generator/ioctltools/measure.py).

A type that a UAPI header and a kernel-internal header both use may measure
differently in kernel context (#ifdef __KERNEL__): struct v4l2_event on
i386.  route() must keep user space's size in sizes: and write kernel
context's in kernel-sizes: only then; merge() (--only) must do the same
against the sizes kept for the headers not measured now; render() must
write no kernel-sizes: key when there is nothing to say, so that every
other sizes file keeps its bytes; changes() says what a run changed.  The
inputs are made up: this checks the routing, `tests/run kernel-internal`
and sizes-fresh check the numbers.
"""
import os
import subprocess
import tempfile
from types import SimpleNamespace as NS

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
import tap  # noqa: E402
from ioctltools import measure, registry  # noqa: E402

EV, INT, ONLY_K = "struct v4l2_event", "int", "struct kpriv"


def header(spec, internal):
    return NS(spec=spec, kernel_internal=internal, applies_to=lambda abi: True, commands=[],
              path=spec)


def probe(h, *types):
    return NS(header=h, types=set(types))


def sized(d):
    return {t: (n, "src") for t, n in d.items()}


def plain(d):
    return {t: v[0] for t, v in d.items()}


def main():
    s, k = measure.route(sized({EV: 120, INT: 4}), {}, sized({EV: 128, ONLY_K: 16}), {EV, INT})
    tap.check(plain(s) == {EV: 120, INT: 4, ONLY_K: 16} and plain(k) == {EV: 128},
              "route(): a differing kernel-context size goes to kernel-sizes, a type only "
              "kernel context measures to sizes", [plain(s), plain(k)])
    s, k = measure.route(sized({EV: 136}), {EV: (999, None)}, sized({EV: 136}), {EV})
    tap.check(plain(s) == {EV: 136} and k == {},
              "route(): an equal kernel-context size leaves no kernel-sizes entry", [plain(k)])

    uapi, kint = header("videodev2.yaml", False), header("v4l2-subdev.yaml", True)
    probes = [probe(uapi, EV, INT), probe(kint, EV, ONLY_K)]
    reg, abi = NS(headers=[]), NS(name="i386")
    measure.probes_of = lambda _reg: probes
    old = ({EV: 120, INT: 4, ONLY_K: 8}, set(), [], {})
    s, k, _ = measure.merge(reg, abi, old, sized({}), sized({EV: 128, ONLY_K: 16}), set(),
                            [probes[1]])
    tap.check(plain(s) == {EV: 120, INT: 4, ONLY_K: 16} and plain(k) == {EV: 128},
              "merge(), --only the kernel-internal header: the user-space size stays, the "
              "kernel's goes to kernel-sizes", [plain(s), plain(k)])
    old = ({EV: 120, INT: 4, ONLY_K: 16}, set(), [], {EV: 128})
    s, k, _ = measure.merge(reg, abi, old, sized({EV: 120, INT: 4}), {}, set(), [probes[0]])
    tap.check(plain(s) == {EV: 120, INT: 4, ONLY_K: 16} and plain(k) == {EV: 128},
              "merge(), --only the UAPI header: kernel-sizes is kept", [plain(s), plain(k)])
    probes.pop(1)
    s, k, _ = measure.merge(reg, abi, old, sized({EV: 120, INT: 4}), {}, set(), [probes[0]])
    tap.check(k == {} and ONLY_K not in s,
              "merge(): sizes no header asks for any more go, kernel-sizes too",
              [plain(s), plain(k)])

    base = measure.render("i386", sized({INT: 4}), {"X"})
    tap.check(measure.render("i386", sized({INT: 4}), {"X"}, kernel_sizes={}) == base and
              "kernel-sizes" not in base, "render(): no kernel-sizes: key when it is empty")
    text = measure.render("i386", sized({INT: 4}), {"X"}, kernel_sizes=sized({EV: 128}))
    tap.check(text == base.replace("absent:", f"kernel-sizes:\n  {EV}: 128\nabsent:"),
              "render(): kernel-sizes: after sizes:, before absent:", [text])

    old = ({INT: 4, EV: 120, ONLY_K: 8}, {"A", "B"}, ["x.h"], {EV: 128})
    new = ({INT: 4, EV: 136, "long": 4}, {"B", "C", "D"}, ["x.h"], {})
    said = measure.changes(old, new)
    tap.check(said == "sizes: 1 added, 1 changed, 1 removed; kernel-sizes: 1 removed; "
              "absent: 2 added, 1 removed",
              "changes(): what measuring changed in a sizes file, section by section", [said])
    tap.check(measure.changes(old, old) == "its doc" and
              measure.changes(None, new) == "new: 3 sizes, 3 absent",
              "changes(): an unchanged content, and a new file",
              [measure.changes(old, old), measure.changes(None, new)])

    only_gone_header()
    tap.done()


def only_gone_header():
    """--only a header spec whose commands are all gone from the version
    measured (make sizes ONLY=... runs every version) measures nothing
    there and succeeds, instead of calling the file unknown."""
    reg = registry.load(os.path.join(TOP, "spec"), "dump")
    last = reg.versions()[-1]
    reg.restrict_to(last)
    if not reg.not_in_version:
        tap.skip(f"--only a header not in {last}", "every header spec has a command there")
        return
    spec = sorted(reg.not_in_version)[0]
    with tempfile.TemporaryDirectory() as out:
        r = subprocess.run([os.path.join(TOP, "tools/measure-sizes"), "--version", last,
                            "-o", out, "--only", spec, os.path.join(TOP, "spec"),
                            os.path.join(TOP, "build")], capture_output=True, text=True)
        tap.check(r.returncode == 0 and "not measured there" in r.stderr and
                  not os.listdir(out),
                  f"--only {os.path.relpath(spec, TOP)} on {last}, where none of its "
                  "commands is: nothing measured, nothing written, exit 0",
                  [r.returncode, r.stderr, os.listdir(out)])


if __name__ == "__main__":
    main()
