# SPDX-License-Identifier: GPL-2.0
"""tools/measure-sizes: measure every argument type, and which commands
exist, on every ABI (see the entry point's help)."""

import argparse
import concurrent.futures
import os
import sys
import time

from . import Error, cc, registry, results_of, specwrite
from .cc import userspace_include
from .sizeprobe import Probe, Result, run_chunk
from .toolchain import Toolchain, kernel_header_names

CHUNK = 16			# probes per compiler run


def probes_of(reg):
    """One probe per header spec, sorted by spec path."""
    hdir = os.path.join(reg.doc["spec-dir"], "headers")
    out = []
    for h in sorted(reg.headers, key=lambda h: h.spec):
        stem = os.path.splitext(os.path.relpath(h.spec, hdir))[0].replace(os.sep, "-")
        out.append(Probe(h, stem, reg.measure_base))
    return out


def check_exported(abis, build_dir):
    for abi in abis:
        done = os.path.join(build_dir, "uapi", abi.arch, ".done")
        if not os.path.exists(done):
            raise Error(f"{abi.source}: error: no exported headers for ARCH {abi.arch}: "
                        f"run `make {done}` first")


def reference_abis(probes, tcs):
    """The reference ABI of each header: the first ABI it applies to."""
    ref, errors = {}, []
    for p in probes:
        ref[p.header.spec] = next((tc.name for tc in tcs if p.header.applies_to(tc.abi)), None)
        if ref[p.header.spec] is None:
            errors.append(f"{p.header.source}: error: no ABI of abis.yaml has ARCH {p.header.arch}")
    return ref, errors


def probes_for(tc, probes):
    """The probes of one ABI, and the results of the headers it does not export."""
    mine, results = [], []
    for p in probes:
        if not p.header.applies_to(tc.abi):
            continue
        inc = userspace_include(p.name)
        if not os.path.exists(os.path.join(tc.inc, inc)):
            res = Result()
            res.unusable = f"ARCH={tc.abi.arch} does not export <{inc}>"
            results.append((p, res))
            continue
        mine.append(p.on(inc, os.path.join(tc.inc, p.name) if inc != p.name else None))
    return mine, results


def run_probes(tcs, probes, probe_dir, jobs):
    """{ABI: [(probe, Result)]} of every probe on every ABI."""
    results = {tc.name: [] for tc in tcs}
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, jobs)) as ex:
        results_of([ex.submit(tc.check, os.path.join(probe_dir, tc.name)) for tc in tcs])
        futs = []
        for tc in tcs:
            mine, results[tc.name] = probes_for(tc, probes)
            for i in range(0, len(mine), CHUNK):
                futs.append((tc, ex.submit(run_chunk, tc, mine[i:i + CHUNK],
                                           os.path.join(probe_dir, tc.name))))
        for (tc, _), done in zip(futs, results_of([f for _, f in futs])):
            results[tc.name] += done
    return results


def usable(c, res):
    return not res.unusable and not res.errors and c.name in res.defined and \
        c.name not in res.not_ioc and c.name not in res.other_value and \
        not any(t in res.failed for t in c.types)


def why_absent(p, c, res):
    if res.unusable:
        return res.unusable
    if c.name not in res.defined:
        return f"<{p.include}> does not define it"
    if c.name in res.not_ioc:
        return f"<{p.include}> defines it " + ("with the ioctl macros, not as a plain number"
                                               if c.plain else "without the ioctl macros")
    if c.name in res.other_value:
        return f"<{p.include}> defines it as 0x{res.other_value[c.name]:x}, another header's number"
    bad = [t for t in c.types if t in res.failed]
    return f"'{bad[0]}' does not compile: {res.failed[bad[0]]}"


def summarise(tc, results, ref, compiled, verbose, errors, defined_somewhere):
    """(sizes, absent) of one ABI from its probes' results."""
    merged, gone = {}, set()
    for p, res in sorted(results, key=lambda pr: pr[0].header.spec):
        is_ref = ref[p.header.spec] == tc.name
        errors += res.errors
        if res.errors:
            continue
        if res.unusable and is_ref:
            errors.append(f"{p.header.source}: error: {p.name} cannot be used on ABI "
                          f"{tc.name}, its reference ABI: {res.unusable}")
        for text, msg in ({} if res.unusable else res.failed).items():
            # A type that does not compile on the reference ABI is a mistake in
            # the spec unless it compiles on some other ABI: kvm.h defines
            # KVM_CREATE_SPAPR_TCE everywhere, its struct only powerpc's asm/kvm.h.
            if is_ref and (p.header.spec, text) not in compiled:
                errors.append(f"{p.where(text)}: error: type '{text}' does not compile for "
                              f"ABI {tc.name}: {msg}")
        for c in p.commands:
            if usable(c, res):
                defined_somewhere.add((p.header.spec, c.name))
                continue
            gone.add((p.name, c.name))
            if verbose:
                print(f"  absent: {tc.name}: {c.name}: {why_absent(p, c, res)}", file=sys.stderr)
        for text, (size, src) in res.sizes.items():
            if text in merged and merged[text][0] != size:
                errors.append(f"{src}: error: ABI {tc.name}: '{text}' measures {size} "
                              f"here but {merged[text][0]} at {merged[text][1]}")
            merged.setdefault(text, (size, src))
    # A name that another header defines on this ABI (sparc's own
    # asm/ioctls.h TIOCGPTN, where asm-generic/ioctls.h is not included)
    # is absent only from this header: written <header>:<name>.
    present = {c.name for p, res in results for c in p.commands if usable(c, res)}
    return merged, {f"{h}:{n}" if n in present else n for h, n in gone}


def measure(reg, build_dir, probe_dir, jobs, verbose):
    """Run every probe on every ABI; return (per-ABI sizes, per-ABI absent, errors)."""
    probes = probes_of(reg)
    names = kernel_header_names(build_dir, sorted({a.arch for a in reg.abis}))
    tcs = [Toolchain(a, build_dir, names) for a in reg.abis]
    stubs = cc.stub_flags(cc.stub_dir(probe_dir, reg.stub_includes()))
    for tc in tcs:
        tc.cc += stubs
    ref, errors = reference_abis(probes, tcs)
    results = run_probes(tcs, probes, probe_dir, jobs)
    compiled = {(p.header.spec, t) for rs in results.values() for p, res in rs for t in res.sizes}
    sizes, absent, defined_somewhere = {}, {}, set()
    for tc in tcs:
        sizes[tc.name], absent[tc.name] = summarise(tc, results[tc.name], ref, compiled,
                                                    verbose, errors, defined_somewhere)
    if not errors:
        for p in probes:
            for c in p.commands:
                if (p.header.spec, c.name) not in defined_somewhere:
                    errors.append(f"{c.mark}: error: {c.name} is defined on no ABI: "
                                  f"{p.name} never defines it (run with -v for the reasons)")
    return sizes, absent, errors, probes


def render(abi, sizes, absent):
    out = [specwrite.SPDX, f"abi: {abi}", "doc: Measured by `make sizes`; do not edit by hand.",
           "sizes:"]
    for text in sorted(sizes, key=lambda t: t.encode()):
        out.append(f"  {specwrite.scalar(text)}: {sizes[text][0]}")
    if absent:
        out.append("absent:")
        out += [f"  - {specwrite.scalar(n)}" for n in sorted(absent, key=lambda t: t.encode())]
    return "\n".join(out) + "\n"


def main(argv=None):
    ap = argparse.ArgumentParser(prog="tools/measure-sizes",
                                 description="Measure ioctl argument sizes per ABI.")
    ap.add_argument("spec_dir")
    ap.add_argument("build_dir")
    ap.add_argument("-o", "--out", help="where to write <abi>.yaml (default SPEC_DIR/sizes)")
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("-v", "--verbose", action="store_true", help="list absent commands")
    args = ap.parse_args(argv)
    start = time.monotonic()
    out_dir = args.out or os.path.join(args.spec_dir, "sizes")
    # Probes stay for inspection: BUILD_DIR/sizes/<abi>/, or OUTDIR/.probes/<abi>/ with -o.
    probe_dir = os.path.join(args.out, ".probes") if args.out else \
        os.path.join(args.build_dir, "sizes")
    try:
        reg = registry.load(args.spec_dir, "dump")
        check_exported(reg.abis, args.build_dir)
    except Error as e:
        print(e, file=sys.stderr)
        return 2
    try:
        sizes, absent, errors, probes = measure(reg, args.build_dir, probe_dir, args.jobs,
                                                args.verbose)
    except Error as e:
        errors = [str(e)]
    if errors:
        print("\n".join(errors), file=sys.stderr)
        return 1
    for abi in reg.abis:
        path = os.path.join(out_dir, abi.name + ".yaml")
        if specwrite.write_if_changed(path, render(abi.name, sizes[abi.name], absent[abi.name])):
            print(f"  {'SIZES':<7} {path}")
    ncmd = sum(len(p.commands) for p in probes)
    print(f"  {'SIZES':<7} {len(reg.abis)} ABIs, {len(probes)} headers, {ncmd} commands: " +
          ", ".join(f"{a.name} {len(absent[a.name])} absent" for a in reg.abis) +
          f" ({time.monotonic() - start:.1f} s)")
    return 0
