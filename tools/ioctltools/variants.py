# SPDX-License-Identifier: GPL-2.0
"""A generic header as the other ABIs read it.

Commands spelled otherwise there (an #ifdef on the word size or the ARCH)
cannot be held by one entry; commands that are no ioctl macro there
(soundcard.h's own encoding on sparc) are reported for tools/measure-sizes."""

from . import expand


def check(unit, variants):
    """variants: [(label, Compiler)], i386 and each other ARCH."""
    if not unit.commands or not unit.text.has_conditionals():
        return
    src = expand.probe_source(unit.includes, unit.rel, unit.typedefs,
                              [expand.probe_call(f.name, f.params) for f in unit.commands])
    for label, compiler in variants:
        r = compiler(["-E", "-w"], src)
        if r.returncode != 0:
            continue		# the header is not there: measure-sizes says absent
        _, exps = expand.read_preprocessed(r.stdout)
        for i, f in enumerate(unit.commands):
            exp = exps.get(i, "")
            here = expand.parse_call(exp)
            if here is not None and here.spelling == f.call.spelling:
                continue
            if here is None and not expand.is_ioctl_expansion(exp):
                if exp.strip() != f.name + ("(" if f.params is not None else ""):
                    unit.not_ioctl.setdefault(label, []).append(f.name)
                continue
            unit.variant.setdefault(f.name, (label, here))
