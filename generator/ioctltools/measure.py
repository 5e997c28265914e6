# SPDX-License-Identifier: GPL-2.0
"""tools/measure-sizes: measure every argument type, and which commands
exist, on every ABI (see the entry point's help)."""

import argparse
import concurrent.futures
import functools
import os
import sys
import time

from . import Error, cc, kconf, kcontext, newheader, probecache, registry, results_of, specwrite
from .cc import userspace_include
from .cheader import HeaderText
from .sizeprobe import Probe, Result, keep, look_up, run_chunk
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


def check_exported(abis, uapi_dir):
    for abi in abis:
        done = os.path.join(uapi_dir, abi.arch, ".done")
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


def write_new_headers(reg, new_inc, rendered=None):
    """Write each `new: true` header into new_inc, the directory the probe
    compilers search first, and remove what is no such header there.  The
    text is the renderer's file rendered/<path> when given, else
    newheader.text()'s."""
    want = {}
    for h in reg.headers:
        if not h.new:
            continue
        if rendered:
            try:
                with open(os.path.join(rendered, h.path), encoding="utf-8") as f:
                    want[h.path] = f.read()
            except OSError as e:
                raise Error(f"{h.source}: error: the rendered new header "
                            f"{os.path.join(rendered, h.path)}: {e.strerror}") from e
        else:
            want[h.path] = newheader.text(h.model)
    os.makedirs(new_inc, exist_ok=True)
    for root, dirs, files in os.walk(new_inc, topdown=False):
        for f in files:
            if os.path.relpath(os.path.join(root, f), new_inc) not in want:
                os.remove(os.path.join(root, f))
        for d in dirs:
            if not os.listdir(os.path.join(root, d)):
                os.rmdir(os.path.join(root, d))
    for path, text in want.items():
        os.makedirs(os.path.dirname(os.path.join(new_inc, path)), exist_ok=True)
        specwrite.write_if_changed(os.path.join(new_inc, path), text)


@functools.lru_cache(maxsize=None)
def exported_header(path):
    """The exported header file read once (cheader.HeaderText), None when
    it is not there: its enumerators and its text serve each probe."""
    return HeaderText(path) if os.path.exists(path) else None


def enumerators_of(path):
    """The names a header file declares as enumerators of an ioctl macro
    call (cheader; binder.h's commands in 6.12), none when it is not there."""
    header = exported_header(path)
    return frozenset(d.name for d in header.enumerators) if header else frozenset()


def probes_for(tc, probes):
    """The probes of one ABI, and the results of the headers it does not export."""
    mine, results = [], []
    for p in probes:
        if not p.header.applies_to(tc.abi) or p.header.kernel_internal:
            continue		# kernel-internal: kcontext.measure(), in kernel context
        if p.header.new:		# the registry's own: in tc.new_inc, included as it is
            mine.append(p.on(p.name, None))
            continue
        inc = userspace_include(p.name)
        if not os.path.exists(os.path.join(tc.inc, inc)):
            res = Result()
            res.unusable = f"ARCH={tc.abi.arch} does not export <{inc}>"
            results.append((p, res))
            continue
        exported = os.path.join(tc.inc, p.name)
        enums = enumerators_of(exported)
        mine.append(p.on(inc, exported if inc != p.name else None,
                         registry_additions(p.header, exported, enums), enums))
    return mine, results


def registry_additions(h, exported, enums=frozenset()):
    """newheader.additions() of a header against its exported file: what
    the registry adds that this tree does not have yet (an enumerator,
    binder.h's commands in 6.12, is there)."""
    if not h.header_test or not (h.model.get("types") or h.model.get("commands")):
        return ()
    header = exported_header(exported)
    if header is None:
        raise Error(f"{h.source}: error: reading {exported}: no such file")
    return tuple(newheader.additions(h.model, header.text, enums))


def run_probes(tcs, probes, probe_dir, jobs, cache_dir, kernel_names, partial=False):
    """{ABI: [(probe, Result)]} of every probe on every ABI, and the cache's
    figures: (hits, misses).  A probe whose result the cache holds for its
    key and dependencies is not compiled (probecache)."""
    files = probecache.Files({})
    stores = {tc.name: probecache.Store(cache_dir, tc.name, files, partial) for tc in tcs}
    code = probecache.code_hash()
    names = probecache.sha("\n".join(sorted(kernel_names)))
    results = {tc.name: [] for tc in tcs}
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, jobs)) as ex:
        idents = results_of([ex.submit(probecache.compiler_identity, tc.cc, files)
                             for tc in tcs])
        checks = []
        for tc, ident in zip(tcs, idents):
            k = probecache.key("toolchain", probecache.VERSION, code, tc.cc, ident)
            search = stores[tc.name].get(k, None, count=False)
            if search is not None:
                tc.search = search
            else:
                checks.append((tc, k, ex.submit(tc.check, os.path.join(probe_dir, tc.name))))
        for (tc, k, _), (deps, ignored) in zip(checks, results_of([f for _, _, f in checks])):
            stores[tc.name].put(k, tc.search, deps, [], ignored)
        futs = []
        for tc, ident in zip(tcs, idents):
            mine, results[tc.name] = probes_for(tc, probes)
            base = probecache.key(probecache.VERSION, code, tc.cc, ident, tc.search, names)
            held, todo = look_up(stores[tc.name], base, mine, tc.search)
            results[tc.name] += held
            for i in range(0, len(todo), CHUNK):
                chunk = todo[i:i + CHUNK]
                futs.append((tc, [k for _, k in chunk],
                             ex.submit(run_chunk, tc, [p for p, _ in chunk],
                                       os.path.join(probe_dir, tc.name))))
        for (tc, keys, _), done in zip(futs, results_of([f for _, _, f in futs])):
            results[tc.name] += keep(stores[tc.name], keys, done)
    for s in stores.values():
        s.save()
    return results, (sum(s.hits for s in stores.values()), sum(s.misses for s in stores.values()))


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


def redefined(results):
    """(header, name) of the plain numbers of a generic header that an ARCH
    header including it defines again with the ioctl macros: sparc's
    asm/fbio.h, after linux/fb.h's FBIOGETCMAP 0x4604, makes it _IOW('F',
    4, struct fbcmap).  Where both are included the ARCH's wins, and one
    name has one number per ABI: the generic entry is absent there."""
    macro = {}		# name -> the generic headers its ARCH header includes
    for p, res in results:
        if p.header.arch:
            for c in p.commands:
                if c.plain is False and usable(c, res):
                    macro.setdefault(c.name, set()).update(p.header.includes)
    return {(p.name, c.name) for p, res in results if not p.header.arch
            for c in p.commands if c.plain and usable(c, res) and p.name in macro.get(c.name, ())}


def route(sizes, kernel, ksizes, user):
    """Put the kernel-context sizes ksizes of one ABI into sizes, or into
    kernel, the kernel-sizes: map, where a user-space measurement of the
    type (in sizes, a type of user) differs: linux/videodev2.h's struct
    v4l2_event has a __kernel_timespec under #ifdef __KERNEL__, 128 bytes
    in kernel context on i386 and 120 in user space."""
    for t, (n, src) in sorted(ksizes.items()):
        if t in user and t in sizes and sizes[t][0] != n:
            kernel[t] = (n, src)
        else:
            sizes[t] = (n, src)
            kernel.pop(t, None)
    return sizes, kernel


def summarise(tc, results, ref, compiled, verbose, errors, defined_somewhere):
    """(sizes, kernel-context sizes, absent, gone) of one ABI from its probes'
    results; route() puts the second into the first or kernel-sizes:."""
    merged, kmerged, gone = {}, {}, set()
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
        # kernel context (kcontext) is compared with kernel context only
        into = kmerged if p.header.kernel_internal else merged
        for text, (size, src) in res.sizes.items():
            if text in into and into[text][0] != size:
                errors.append(f"{src}: error: ABI {tc.name}: '{text}' measures {size} "
                              f"here but {into[text][0]} at {into[text][1]}")
            into.setdefault(text, (size, src))
    gone |= redefined(results)
    # A name that another header defines on this ABI (sparc's own
    # asm/ioctls.h TIOCGPTN, where asm-generic/ioctls.h is not included)
    # is absent only from this header: written <header>:<name>.
    present = {c.name for p, res in results for c in p.commands if usable(c, res)
               if (p.name, c.name) not in gone}
    return merged, kmerged, {f"{h}:{n}" if n in present else n for h, n in gone}, gone


def only_probes(probes, only):
    """The probes of the header spec files named in only."""
    want = {os.path.normpath(f) for f in only}
    have = {os.path.normpath(p.header.spec) for p in probes}
    unknown = sorted(want - have)
    if unknown:
        raise Error(f"{unknown[0]}: error: --only names no header spec of the registry")
    # an ARCH header that includes a chosen one may define its names again
    # (redefined()): measured with it
    paths = {p.header.path for p in probes if os.path.normpath(p.header.spec) in want}
    return [p for p in probes if os.path.normpath(p.header.spec) in want or
            p.header.arch and paths & set(p.header.includes)]


def measure(reg, uapi_dir, probe_dir, jobs, verbose, cache_dir=None, rendered=None,
            only=None, trees=None):
    """Run every probe (or the probes of the header specs in only) on every
    ABI, the kernel-internal ones in kernel context on the ABIs of trees
    (kcontext); return (per-ABI sizes, per-ABI absent, errors, probes, cache
    figures, per-ABI kernel-internal headers measured, per-ABI kernel-context
    sizes, for route())."""
    probes = probes_of(reg)
    if only:
        probes = only_probes(probes, only)
    names = kernel_header_names(uapi_dir, sorted({a.arch for a in reg.abis}))
    new_inc = os.path.join(probe_dir, "new-include")
    write_new_headers(reg, new_inc, rendered)
    tcs = [Toolchain(a, uapi_dir, names, new_inc) for a in reg.abis]
    stubs = cc.stub_flags(cc.stub_dir(probe_dir, reg.stub_includes()))
    for tc in tcs:
        tc.cc += stubs
    ref, errors = reference_abis(probes, tcs)
    results, hits = run_probes(tcs, probes, probe_dir, jobs, cache_dir, names, bool(only))
    kresults, khits = kcontext.measure(reg, probes, trees or {}, probe_dir, jobs, cache_dir,
                                       bool(only))
    hits = (hits[0] + khits[0], hits[1] + khits[1])
    measured = {a: sorted({p.name for p, _ in rs}) for a, rs in kresults.items()}
    for a, rs in kresults.items():
        results[a] += rs
    compiled = {(p.header.spec, t) for rs in results.values() for p, res in rs for t in res.sizes}
    sizes, ksizes, absent, gone, defined_somewhere = {}, {}, {}, {}, set()
    for tc in tcs:
        sizes[tc.name], ksizes[tc.name], absent[tc.name], gone[tc.name] = summarise(
            tc, results[tc.name], ref, compiled, verbose, errors, defined_somewhere)
    if only:
        absent = gone		# merge() writes the names again
    if not errors:
        for p in probes:
            for c in p.commands:
                # a kernel-internal header measured nowhere (no configured tree) is
                # not measured, not absent
                if (p.header.spec, c.name) not in defined_somewhere and \
                        (not p.header.kernel_internal or
                         any(p.name in hs for hs in measured.values())):
                    errors.append(f"{c.mark}: error: {c.name} is defined on no ABI: "
                                  f"{p.name} never defines it (run with -v for the reasons)")
    return sizes, absent, errors, probes, hits, measured, ksizes


def read_sizes(paths):
    """{path: (sizes, absent, kernel-context, kernel-sizes)} of sizes files
    as render() writes them, read by ioctlgen (registry.sizes_files())."""
    for path in paths:
        if not os.path.exists(path):
            raise Error(f"{path}: error: no such file: --only merges into the sizes files "
                        f"of a full `make sizes`")
    return {p: (f["sizes"], set(f["absent"]), list(f["kernel-context"]), f["kernel-sizes"])
            for p, f in registry.sizes_files(paths).items()}


def merge(reg, abi, old, sizes, ksizes, absent, measured):
    """The sizes file of one ABI after measuring only the probes in
    measured: their types' sizes replace the old ones (the kernel-context
    ones by route(), against the user-space sizes), the sizes no probe of
    the registry asks for any more go, and the absent list is written
    again by summarise()'s rule (<header>:<name> when another header
    defines the name on this ABI), each header's commands absent as the
    old list says unless it was measured now.  (sizes, kernel-sizes, absent)."""
    old_sizes, old_absent, _, old_kernel = old
    everyone = probes_of(reg)
    needed = {t for p in everyone for t in p.types}
    kneeded = {t for p in everyone if p.header.kernel_internal for t in p.types}
    done = {p.header.spec for p in measured}
    # user space's sizes: measured now, or kept for a header not measured now
    user = set(sizes) | {t for p in everyone if not p.header.kernel_internal and
                         p.header.spec not in done and p.header.applies_to(abi)
                         for t in p.types}
    merged = {t: (n, None) for t, n in old_sizes.items() if t in needed}
    kernel = {t: (n, None) for t, n in old_kernel.items() if t in kneeded}
    merged.update(sizes)
    route(merged, kernel, ksizes, user)
    gone, present = set(), set()
    for h in reg.headers:
        if not h.applies_to(abi):
            continue
        for c in h.commands:
            if c["reserved"]:
                continue
            n = c["name"]
            if h.spec in done:
                out = (h.path, n) in absent
            else:
                out = n in old_absent or f"{h.path}:{n}" in old_absent
            if out:
                gone.add((h.path, n))
            else:
                present.add(n)
    return merged, kernel, {f"{h}:{n}" if n in present else n for h, n in gone}


def render(abi, sizes, absent, kernel_context=(), unmeasured=None, kernel_sizes=None):
    """The sizes file's text; unmeasured: why the ABI measures no
    kernel-internal header (kconf.NOT_MEASURED), said in its doc."""
    doc = "Measured by `make sizes`; do not edit by hand."
    if unmeasured:
        doc += f" Kernel-internal headers are not measured on this ABI, because {unmeasured}."
    out = [specwrite.SPDX, f"abi: {abi}", f"doc: {specwrite.scalar(doc)}"]
    if kernel_context:	# the kernel-internal headers measured here (kcontext)
        out.append("kernel-context:")
        out += [f"  - {specwrite.scalar(h)}" for h in sorted(kernel_context)]
    out.append("sizes:")
    for text in sorted(sizes, key=lambda t: t.encode()):
        out.append(f"  {specwrite.scalar(text)}: {sizes[text][0]}")
    if kernel_sizes:	# route(): kernel context's where it differs from sizes:
        out.append("kernel-sizes:")
        for text in sorted(kernel_sizes, key=lambda t: t.encode()):
            out.append(f"  {specwrite.scalar(text)}: {kernel_sizes[text][0]}")
    if absent:
        out.append("absent:")
        out += [f"  - {specwrite.scalar(n)}" for n in sorted(absent, key=lambda t: t.encode())]
    return "\n".join(out) + "\n"


def changes(old, new):
    """What measuring changed in one sizes file, in words: old and new as
    read_sizes() gives them, old None for a file that was not there."""
    if old is None:
        return f"new: {len(new[0])} sizes, {len(new[1])} absent"
    words = []
    for what, o, n in (("sizes", old[0], new[0]), ("kernel-sizes", old[3], new[3]),
                       ("absent", dict.fromkeys(old[1]), dict.fromkeys(new[1])),
                       ("kernel-context", dict.fromkeys(old[2]), dict.fromkeys(new[2]))):
        counts = ((len(n.keys() - o.keys()), "added"),
                  (sum(n[t] != o[t] for t in n.keys() & o.keys()), "changed"),
                  (len(o.keys() - n.keys()), "removed"))
        if any(k for k, _ in counts):
            words.append(f"{what}: " + ", ".join(f"{k} {w}" for k, w in counts if k))
    return "; ".join(words) or "its doc"


def main(argv=None):
    ap = argparse.ArgumentParser(prog="tools/measure-sizes",
                                 description="Measure ioctl argument sizes per ABI.")
    ap.add_argument("spec_dir")
    ap.add_argument("build_dir")
    ap.add_argument("-o", "--out", help="where to write <abi>.yaml (default SPEC_DIR/sizes)")
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("-v", "--verbose", action="store_true", help="list absent commands")
    ap.add_argument("--cache", metavar="DIR",
                    help="the result cache (default: the probe directory's cache/)")
    ap.add_argument("--no-cache", action="store_true", help="compile every probe")
    ap.add_argument("--version", metavar="V",
                    help="measure what exists in kernel version V (spec/versions.yaml), "
                         "into SPEC_DIR/sizes/V/ unless V is the oldest")
    ap.add_argument("--uapi", metavar="DIR",
                    help="the exported headers, as DIR/<arch>/include (default BUILD_DIR/uapi)")
    ap.add_argument("--only", metavar="SPEC", action="append",
                    help="measure only the probes of this header spec file (repeatable) "
                         "and merge them into the sizes files: an edit's few headers")
    ap.add_argument("--kernel-context", metavar="ABI=SRC:OBJ", action="append",
                    help="measure the kernel-internal headers on ABI in kernel context, with "
                         "kernel tree SRC configured in OBJ (repeatable; kcontext)")
    ap.add_argument("--new-headers", metavar="DIR",
                    help="the rendered `new: true` headers, as DIR/<path> (default: "
                         "measure-sizes writes their text from the registry)")
    args = ap.parse_args(argv)
    start = time.monotonic()
    uapi_dir = args.uapi or os.path.join(args.build_dir, "uapi")
    out_dir = args.out or os.path.join(args.spec_dir, "sizes")
    # Probes stay for inspection: BUILD_DIR/sizes/<abi>/, or OUTDIR/.probes/<abi>/ with -o.
    probe_dir = os.path.join(args.out, ".probes") if args.out else \
        os.path.join(args.build_dir, "sizes")
    try:
        reg = registry.load(args.spec_dir, "dump")
        if args.version:
            reg.restrict_to(args.version)
            if not args.out and args.version != reg.versions()[0]:
                out_dir = os.path.join(args.spec_dir, "sizes", args.version)
            # a header spec of the registry whose commands are all gone from
            # this version (video/da8xx-fb.h in 6.12) has nothing to measure here
            gone = [f for f in args.only or () if os.path.normpath(f) in reg.not_in_version]
            for f in gone:
                print(f"{f}: none of its commands is in {args.version}: not measured there",
                      file=sys.stderr)
            if gone and len(gone) == len(args.only):
                return 0
            args.only = [f for f in args.only or () if f not in gone]
        check_exported(reg.abis, uapi_dir)
    except Error as e:
        print(e, file=sys.stderr)
        return 2
    try:
        # CACHE=0 (make check CACHE=0) ignores every cache, this one too.
        no_cache = args.no_cache or os.environ.get("CACHE") == "0"
        cache_dir = None if no_cache else args.cache or os.path.join(probe_dir, "cache")
        trees = kcontext.parse(args.kernel_context, reg.abis)
        sizes, absent, errors, probes, hits, kctx, ksizes = measure(
            reg, uapi_dir, probe_dir, args.jobs, args.verbose, cache_dir, args.new_headers,
            args.only, trees)
        if not args.only:
            for abi in reg.abis:
                sizes[abi.name], ksizes[abi.name] = route(sizes[abi.name], {}, ksizes[abi.name],
                                                          set(sizes[abi.name]))
        if args.only and not errors:
            before = read_sizes([os.path.join(out_dir, a.name + ".yaml") for a in reg.abis])
            for abi in reg.abis:
                old = before[os.path.join(out_dir, abi.name + ".yaml")]
                sizes[abi.name], ksizes[abi.name], absent[abi.name] = merge(
                    reg, abi, old, sizes[abi.name], ksizes[abi.name], absent[abi.name], probes)
                # kept for the headers not measured now
                now = {p.name for p in probes if p.header.kernel_internal}
                kctx[abi.name] = sorted(set(kctx.get(abi.name, ())) |
                                        {h for h in old[2] if h not in now})
    except Error as e:
        errors = [str(e)]
    if errors:
        print("\n".join(errors), file=sys.stderr)
        return 1
    why = kconf.unmeasured(reg) if any(p.header.kernel_internal for p in probes_of(reg)) else {}
    if not args.only:		# the files as they were, to say what changed
        try:
            before = read_sizes([p for p in (os.path.join(out_dir, a.name + ".yaml")
                                             for a in reg.abis) if os.path.exists(p)])
        except Error:
            before = None	# a file that does not load: rewritten, whatever it said
    for abi in reg.abis:
        path = os.path.join(out_dir, abi.name + ".yaml")
        if specwrite.write_if_changed(path, render(abi.name, sizes[abi.name], absent[abi.name],
                                                   kctx.get(abi.name, ()), why.get(abi.name),
                                                   ksizes[abi.name])):
            now = ({t: n for t, (n, _) in sizes[abi.name].items()}, set(absent[abi.name]),
                   list(kctx.get(abi.name, ())),
                   {t: n for t, (n, _) in ksizes[abi.name].items()})
            said = "rewritten" if before is None else changes(before.get(path), now)
            print(f"  {'SIZES':<7} {path}: {said}")
    ncmd = sum(len(p.commands) for p in probes)
    print(f"  {'SIZES':<7} {len(reg.abis)} ABIs, {len(probes)} headers, {ncmd} commands: " +
          ", ".join(f"{a.name} {len(absent[a.name])} absent" for a in reg.abis) +
          f" ({time.monotonic() - start:.1f} s; {hits[1]} probes compiled, {hits[0]} cached)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
