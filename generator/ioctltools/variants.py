# SPDX-License-Identifier: GPL-2.0
"""A generic header as the other ABIs read it.

Commands spelled otherwise there (an #ifdef on the word size or the ARCH)
cannot be held by one entry; commands that are no ioctl macro there
(soundcard.h's own encoding on sparc) are reported for tools/measure-sizes."""

import re

from . import cc, expand, probeengine

INT_LIT = re.compile(r"0[xX][0-9A-Fa-f]+|[0-9]+")


def check(unit, variants):
    """variants: [(label, Compiler)], i386 and each other ARCH."""
    if not unit.commands or not unit.text.has_conditionals():
        return
    src = expand.probe_source(unit.includes, unit.rel, unit.prelude,
                              [f.probe_text() for f in unit.commands])
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
            unit.variant_all.setdefault(f.name, []).append((label, here))


DIR_EXP = re.compile(r"\s*\(?\s*(\d+)U?\s*\)?\s*(?:\|\s*\(?\s*(\d+)U?\s*\)?\s*)*")


def dir_bits(exp):
    """The value of an expanded _IOC direction argument (`2U | 1U`), or None."""
    if not DIR_EXP.fullmatch(exp):
        return None
    v = 0
    for n in re.findall(r"\d+", exp):
        v |= int(n)
    return v


def only_nr_differs(ref, other, same_dir):
    """The other ABI's call is the reference's with another literal nr."""
    return other is not None and other.macro == ref.macro and \
        other.magic_raw == ref.magic_raw and other.size_raw == ref.size_raw and \
        same_dir(ref, other) and INT_LIT.fullmatch(other.nr_raw) is not None


def propose(f, found, abis_of, same_dir):
    """The `variants:` of a command spelled otherwise on some ABIs, when every
    other spelling differs from the reference ABI's only in a literal nr:
    [(abis, nr text, the spelling there)], ABIs in abis.yaml order; else None.
    found: [(label, Call | None)] of variants.check; abis_of(label): the
    ABIs a label stands for (an ABI, or every ABI of an ARCH); same_dir(label,
    ref, call): the two calls' directions mean the same (their values
    differ between layouts)."""
    by_nr = {}
    for label, call in found:
        if not only_nr_differs(f.call, call, lambda a, b: same_dir(label, a, b)):
            return None
        entry = by_nr.setdefault(int(call.nr_raw, 0), ([], call))
        entry[0].extend(abis_of(label))
    return [(abis, "0x%02x" % nr, call) for nr, (abis, call) in sorted(by_nr.items())]


NAME = re.compile(r"\b[A-Z][A-Z0-9_]*[A-Z0-9]\b")


def name_candidates(unit, e):
    """The names e's #defines in the header may make it (SIOCGSTAMP_OLD
    and SIOCGSTAMP_NEW), in the order they are written."""
    out = []
    for d in unit.text.defines:
        if d.name == e.name and d.params is None:
            out += [n for n in NAME.findall(d.body) if n != e.name and n not in out]
    return out


def name_targets(unit, entries, compilers):
    """{label: {entry name: the name it is on that label's ABI, or None}} of
    the entries spelled as another's name, each compiler (label, Compiler)
    comparing the values: on x86_64 SIOCGSTAMP is SIOCGSTAMP_OLD, under a
    64-bit time_t SIOCGSTAMP_NEW."""
    asks = [(e, t) for e in entries for t in name_candidates(unit, e)]
    body = cc.prologue(unit.includes, unit.rel, unit.prelude)
    body += ["void __imp_names(void);", "void __imp_names(void)", "{"]
    for i, (e, t) in enumerate(asks):
        body += [f"#if defined({e.name}) && defined({t})",
                 "\t" + probeengine.marker("N", i, f"(long)(({e.name}) == ({t}))"), "#endif"]
    body.append("}")
    out = {}
    for label, compiler in compilers:
        r = compiler(["-S", "-o", "-", "-w"], "\n".join(body) + "\n")
        if r.returncode != 0:
            continue		# the header is not there: measure-sizes says absent
        vals = probeengine.values(r.stdout, "N")
        mine = out.setdefault(label, {e.name: None for e in entries})
        for i, (e, t) in enumerate(asks):
            if vals.get(i) and mine[e.name] is None:
                mine[e.name] = t
    return out
