# SPDX-License-Identifier: GPL-2.0
"""tools/import-uapi: import every ioctl command of the exported UAPI headers
into spec/headers/ (see the entry point's help for what an entry gets)."""

import argparse
import concurrent.futures
import os
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field, replace

from . import Error, argtypes, cc, classify, evidence, internal, leftout, registry, results_of, \
    specwrite, variants
from .cc import Compiler
from .cheader import HeaderText
from .classify import LeftOut, Unit
from .importhistory import history_of_import, in_registry_order
from .specwrite import Entry, NamedEntry, NameVariant, OldFile, Variant, c_int

# Headers that define the ioctl macros themselves.
SKIP = {"linux/ioctl.h", "asm/ioctl.h", "asm-generic/ioctl.h"}


def warn(msg):
    print(msg, file=sys.stderr)


@dataclass
class Context:
    """What every unit's import needs: the compilers and the registry."""
    uapi: str
    incdirs: list
    arches: list
    compilers: dict		# ARCH -> its reference ABI's compiler command
    abis: list			# registry.Abi
    old: dict			# spec file relative to headers/ -> OldFile
    old_headers: dict		# the same -> registry.Header
    size_limit: int		# the largest size every layout's size field holds
    size_field: str
    registry: object = None	# the registry.Registry it was made from
    version: str | None = None	# the known kernel version the tree is (--version)
    versions: list = field(default_factory=list)	# every known version, oldest first
    stubs: list = field(default_factory=list)	# compiler flags: the stub-includes
    defined_in: dict = field(default_factory=dict)	# constant -> generic header
    arch_defined_in: dict = field(default_factory=dict)	# (ARCH, constant) -> its asm/ header
    types: argtypes.TypeIndex = field(default_factory=argtypes.TypeIndex)
    command_header: dict = field(default_factory=dict)	# command -> its spec file (headers/)

    def compiler(self, arch, cmd=None):
        return Compiler(list(cmd or self.compilers[arch]) + self.stubs,
                        [os.path.join(self.uapi, arch, "include")] + self.incdirs)

    def variants(self):
        """How every other ABI reads a generic header, each with its own
        compiler and options: i386 and x32, mips64el beside mips, the time64
        variants (an #if on __BITS_PER_LONG or on the size of time_t)."""
        ref = self.abis[0]
        return [(abi.name, self.compiler(abi.arch, abi.compiler)) for abi in self.abis
                if abi is not ref]


def discover(uapi, tree, arches):
    """The generic headers (from the first ARCH) and every ARCH's own asm/ headers."""
    units = []
    base = os.path.join(uapi, arches[0], "include")
    for root, dirs, files in os.walk(base):
        dirs.sort()
        for f in sorted(files):
            p = os.path.join(root, f)
            rel = os.path.relpath(p, base)
            if f.endswith(".h") and not rel.startswith("asm/") and rel not in SKIP:
                units.append(Unit(arches[0], rel, p, "generic"))
    for arch in arches:
        adir = os.path.join(uapi, arch, "include", "asm")
        for root, dirs, files in os.walk(adir):
            dirs.sort()
            for f in sorted(files):
                p = os.path.join(root, f)
                rel = os.path.relpath(p, os.path.join(uapi, arch, "include"))
                if f.endswith(".h") and rel not in SKIP and \
                        os.path.exists(os.path.join(tree, "arch", arch, "include", "uapi", rel)):
                    units.append(Unit(arch, rel, p, "arch"))
    return units


def analyse(u, ctx):
    """Read one header: its commands, what is left out, the includes its types need."""
    old = ctx.old_headers.get(u.spec_rel)
    # a kernel-internal header counts on what its .c files include first
    # (map_benchmark.h's __u64, saa6588.h's bool): <linux/types.h>
    includes = list(old.includes) if old else ["linux/types.h"] if u.kcompiler else []
    u.prelude = old.prelude if old else cc.Prelude()
    comp = u.kcompiler or ctx.compiler(u.arch)
    u.reset(includes)
    classify.analyse(u, comp)
    need = needed_includes(u, ctx) if old is None else []
    if need:
        u.reset(need)
        classify.analyse(u, comp)
    u.includes += [h for h in evidence.base_includes(u, ctx.defined_in) if h not in u.includes]
    if u.kind == "generic" and not u.kcompiler:
        variants.check(u, ctx.variants())
    evidence.mark_enumerators(u)
    name_the_named(u, ctx, comp)
    if not u.commands and not u.plain:
        return u
    # on the reference ABI of the ARCH (the first in abis.yaml), as
    # tools/measure-sizes will
    u.error = argtypes.compile_error(u, comp)
    extra = internal.defining_header(u.kcompiler, u.error) if old is None else None
    if extra:
        u.reset(u.includes + [extra])
        u.error = classify.analyse(u, comp) or argtypes.compile_error(u, comp)
    u.compiles = u.error is None
    if u.compiles and (old is None or old.header_test) and not u.kcompiler:
        others = [] if u.kind == "arch" else [ctx.compiler(a) for a in ctx.arches if a != u.arch]
        argtypes.complete(u, comp, ctx.types.get(u.arch, comp.incdirs), others, ctx.size_limit)
    return u


def alias_other_headers(units, ctx):
    """A command the header defines as the name of another header's command
    is an alias of it (alias-of): 6.12's linux/ext4.h `#define
    EXT4_IOC_GETVERSION_OLD FS_IOC_GETVERSION`, linux/btrfs.h `#define
    BTRFS_IOC_GET_FSLABEL FS_IOC_GETFSLABEL` (classify.find_aliases does it
    within one header).  The other header's commands are the ones imported
    now and the registry's.  ioctlgen checks that both have one number on
    every ABI."""
    where = {c["name"]: h.path for h in ctx.old_headers.values() if not h.arch
             for c in h.commands if not c["reserved"]}
    where.update({f.name: u.rel for u in units if u.kind == "generic" for f in u.commands})
    for u in units:
        mine = {f.name for f in u.commands}
        for f in u.commands:
            if f.entry is None or f.entry.alias_of or f.enum_value is not None:
                continue
            defs = [d for d in u.text.defines if d.name == f.name]
            m = classify.ALIAS_BODY.match(defs[0].body) \
                if len(defs) == 1 and defs[0].params is None else None
            if m and m.group(1) not in mine and where.get(m.group(1)) not in (None, u.rel):
                f.entry.alias_of = m.group(1)


def name_the_named(u, ctx, comp):
    """alias-of and variants of the entries spelled as another's name: the
    name each is on its ARCH's reference ABI, and where it is another."""
    named = [e for e in u.plain if isinstance(e, NamedEntry)]
    if not named:
        return
    mine = [a for a in ctx.abis if u.kind == "generic" or a.arch == u.arch]
    if u.kcompiler:		# one configured tree: the other ABIs are not read
        mine = [a for a in mine if a.arch == u.arch][:1]
    compilers = [(mine[0].name, comp)] + \
        [(a.name, ctx.compiler(a.arch, a.compiler)) for a in mine[1:]]
    # a name #defined once as another is that one wherever it is defined;
    # the others (an #if, a ?: on sizeof(struct timeval)) are measured
    asked = [e for e in named if not e.alias_of or
             sum(d.name == e.name for d in u.text.defines) > 1]
    targets = variants.name_targets(u, asked, compilers) if asked else {}
    for e in named:
        if e not in asked:
            continue
        e.alias_of = targets.get(mine[0].name, {}).get(e.name)
        if e.alias_of is None:
            u.plain.remove(e)
            u.leave(e.line, e.name, classify.R_PLAIN_ALIAS,
                    " or ".join(variants.name_candidates(u, e)))
            continue
        other = {}
        for a in mine[1:]:
            t = targets.get(a.name, {}).get(e.name)
            if t is not None and t != e.alias_of:
                other.setdefault(t, []).append(a.name)
        e.variants = [NameVariant(tuple(abis), t,
                                  f"Where the header makes {e.name} {t}: an #if on the word "
                                  f"size, the ARCH or the size of time_t.")
                      for t, abis in other.items()]


def needed_includes(u, ctx):
    """The exported headers that define the constants a header uses but does
    not include (BASE_VIDIOC_PRIVATE, MD_MAJOR); for an arch header, its
    ARCH's own asm/ headers first (s390's asm/cmb.h uses asm/dasd.h's
    DASD_IOCTL_LETTER)."""
    need = []
    for x in u.left:
        idents = re.findall(r"[A-Za-z_]\w*", x.detail or "") if x.reason == classify.R_CONST else []
        own = (ctx.arch_defined_in.get((u.arch, i)) if u.kind == "arch" else None for i in idents)
        for h in (o or ctx.defined_in.get(i) for o, i in zip(own, idents)):
            if h and h != u.rel and h not in need:
                need.append(h)
    return need


def default_nr_count(f, u):
    """From nr up to the next number of this magic in the header, or the field's end."""
    nxt = 256
    for o in u.commands:
        if o is f or o.magic != f.magic or o.nr <= f.nr:
            continue
        body = u.text.body_of(o.name)
        if body and re.search(r"\b%s\s*\(" % re.escape(f.name), body):
            continue
        nxt = min(nxt, o.nr)
    return nxt - f.nr


def describe(u):
    """Docs of the imported entries: the header's comment, else a sentence."""
    for f in u.commands:
        e = f.entry
        doc = u.text.doc_near(f.line) or f"Imported from {u.where}; no comment in the header."
        if e.nr_param:
            n = default_nr_count(f, u)
            e.nr_count = "0x%02x" % n
            doc += (f" nr-count {n:#x} is the importer's default: {e.nr_param} runs from nr "
                    f"{f.nr:#04x} up to the next number of this magic in the header (or the "
                    f"end of the nr field); the header does not state the range.")
        e.doc = doc
    for e in u.plain:
        e.doc = u.text.doc_near(e.line) or f"Imported from {u.where}; no comment in the header."


def abis_of(ctx, label):
    """The ABIs a label of variants.check stands for: an ABI (i386), or
    every ABI of an ARCH (mips), in abis.yaml order."""
    names = [a.name for a in ctx.abis]
    if label in names:
        return [label]
    return [a.name for a in ctx.abis if a.arch == label]


def direction(layout, exp):
    """none/read/write/read-write of an expanded _IOC direction on a layout."""
    v = variants.dir_bits(exp)
    if v is None or layout is None:
        return None
    return (("read" if v & layout["read"] else "") + ("-" if v & layout["read"] and
            v & layout["write"] else "") + ("write" if v & layout["write"] else "")) or "none"


def same_dir(ctx, u, label, ref, call):
    """Do the reference ABI's and the label's direction mean the same?"""
    def layout(abi_name):
        abi = next((a for a in ctx.registry.doc["abis"] if a["name"] == abi_name), None)
        return next((l for l in ctx.registry.doc["layouts"]
                     if abi and l["name"] == abi["layout"]), None)
    ref_abi = next(a.name for a in ctx.abis if a.arch == u.arch)
    mine = abis_of(ctx, label)
    d = direction(layout(ref_abi), ref.dir_exp)
    return d is not None and mine and all(direction(layout(a), call.dir_exp) == d for a in mine)


def variants_of(u, f, ctx):
    """The variants of a command spelled otherwise on some ABIs, or None
    when they differ in more than a literal nr."""
    found = variants.propose(f, u.variant_all.get(f.name, []), lambda l: abis_of(ctx, l),
                             lambda label, ref, call: same_dir(ctx, u, label, ref, call))
    if found is None:
        return None
    order = [a.name for a in ctx.abis]
    return [Variant(tuple(sorted(abis, key=order.index)), nr,
                    f"Where the header spells it {expand_text(call, f.params)}: an #if on the "
                    f"word size or the ARCH.") for abis, nr, call in found]


def entries_of(u, old, ctx, left):
    """The entries of a unit the registry can hold; the others go to left."""
    known = {e.name for e in old.records} if old else set()
    olds = {e.name: e for e in old.records} if old else {}
    # a name the registry holds (a reserved entry: BLKELVGET under #if 0) is not left out
    left += [(u.label, x) for x in u.left if x.name not in known]
    out = []
    for f in u.commands:
        e = f.entry
        evidence.keep_first(e, olds.get(f.name), ctx.version, ctx.versions)
        if f.name in u.variant:
            e.variants = variants_of(u, f, ctx) or []
            mine = olds.get(f.name)
            if mine and mine.variants and \
                    [(v.abis, c_int(v.nr)) for v in mine.variants] != \
                    [(v.abis, c_int(v.nr)) for v in e.variants]:
                warn(f"{old.path}: warning: {f.name}: the registry's variants are not what "
                     f"{u.label} spells on the other ABIs: " +
                     (", ".join(f"{'/'.join(v.abis)} nr {v.nr}" for v in e.variants) or
                      "not only another nr") + "; kept")
        elif f.name in olds and olds[f.name].variants:
            warn(f"{old.path}: warning: {f.name} has variants, but {u.label} spells it alike "
                 f"on every ABI; kept")
        if f.name not in known and (why := why_left_out(u, f, ctx)):
            left.append((u.label, LeftOut(f.line, f.name, *why)))
        else:
            out.append((f.line, e))
    # the commands spelled as plain numbers, in header order among the others
    for e in u.plain:
        other = ctx.command_header.get(e.name) if getattr(e, "evidence", None) else None
        evidence.keep_first(e, olds.get(e.name), ctx.version, ctx.versions)
        # an ARCH's own header that includes this one and defines the name
        # with the ioctl macros (sparc's asm/fbio.h FBIOGETCMAP after
        # linux/fb.h's 0x4604) wins there: tools/measure-sizes records this
        # entry absent on that ARCH, and it is the header's number elsewhere
        if other and other.startswith("arch" + os.sep) and u.kind == "generic" and \
                u.rel in ctx.old_headers[other].includes:
            other = None
        if other not in (None, u.spec_rel) and e.name not in known:
            left.append((u.label, LeftOut(e.line, e.name, evidence.R_NAME_ELSEWHERE,
                                          f"{e.number}; {other}")))
        else:
            out.append((e.line, e))
    return [e for _, e in sorted(out, key=lambda le: le[0])]


def why_left_out(u, f, ctx):
    """(reason, detail) of a new command the registry cannot hold, or None."""
    why = why_not(u, f, ctx)
    if why and why[0] == classify.R_NOCOMPILE and u.kcompiler:
        return classify.R_NOCOMPILE_KERNEL, why[1]
    return why


def why_not(u, f, ctx):
    if f.name in u.variant and not f.entry.variants:
        label, call = u.variant[f.name]
        how = expand_text(call, f.params) if call else "no single ioctl macro"
        return classify.R_VARIANT, f"{label}: {how}"
    if f.enum_value is not None and not f.entry.kind and len(f.entry.evidence) < 2:
        return classify.R_ENUM, f.enum_value
    e, types = f.entry, f.entry.types()
    if not u.compiles and (e.type or e.legacy and e.legacy.passes != "void"):
        return classify.R_NOCOMPILE, u.error	# its argument needs the header
    if u.compiles:
        miss = [t for t in types if t in u.bad_types]
        if miss:
            return classify.R_TYPE_UNDEF, miss[0]
        big = [t for t in types if t in u.overflow]
        if big:
            return classify.R_OVERFLOW, (f"{big[0]}: {u.overflow[big[0]]} bytes, more than "
                                         f"the {ctx.size_field} holds")
    return None


def expand_text(call, params):
    return classify.expand.PARAM_RE.sub(lambda m: params[int(m.group(1))], call.c_text())


class Stats:
    def __init__(self, arches):
        self.per_arch = {a: 0 for a in arches}
        self.headers = self.new = self.kept = self.families = self.legacy = 0
        self.new_names = set()
        self.evidence = {}	# kind of evidence -> new commands it admitted

    def count(self, u, merged, old):
        self.headers += 1
        for e, _ in merged:
            if e.reserved:
                continue
            self.families += bool(e.nr_param)
            self.legacy += e.legacy is not None
            for a in (self.per_arch if u.kind == "generic" else [u.arch]):
                self.per_arch[a] += 1
        known = {e.name for e in old.records} if old else set()
        imported = {f.name for f in u.commands} | {e.name for e in u.plain}
        self.kept += len(imported & known)
        fresh = {e.name for e, _ in merged if e.name in imported - known}
        self.new += len(fresh)
        self.new_names |= fresh
        for e, _ in merged:
            if e.name in fresh:
                for k in (["protocol-code"] if getattr(e, "kind", None) else []) + \
                        [x.split()[0] for x in getattr(e, "evidence", [])]:
                    self.evidence[k] = self.evidence.get(k, 0) + 1

    def print(self, left):
        print("commands per ARCH: " + ", ".join(f"{a} {n}" for a, n in self.per_arch.items()))
        print(f"header files: {self.headers}; commands from the registry: {self.kept}, "
              f"new: {self.new}; families: {self.families}; legacy: {self.legacy}")
        if self.evidence:
            print("evidence of the new commands: " +
                  ", ".join(f"{k} {n}" for k, n in sorted(self.evidence.items())))
        print(f"left out: {len(left)}")
        for r, n in leftout.counts(left):
            print(f"  {n:5d}  {r}")


def read_back(spec, expect, new):
    """What ioctlgen reads from the files written must be what was written,
    and a new legacy entry must spell its number with the type ioctlgen
    says its size argument has (written-type), as the compiler said."""
    got = registry.load(spec, "dump").header_by_spec()
    for path, entries in expect.items():
        cmds = got[path].commands if path in got else []
        back = [Entry.from_registry(c) for c in cmds]
        if len(back) != len(entries) or not all(a.same(b) for a, b in zip(back, entries)):
            names = [e.name for e in back]
            raise Error(f"{path}: error: the importer wrote entries that ioctlgen reads "
                        f"otherwise ({len(back)} read back: {', '.join(names[:5])}...)")
        for c in cmds:
            lg = c["legacy"]
            if c["name"] in new and lg and lg["spell-as"] != "bad" and \
                    lg["spell-as"] != lg["written-type"]:
                raise Error(f"{c['source']}: error: {c['name']}: the compiler says "
                            f"{lg['written']} is a {lg['spell-as']}, ioctlgen's written-type "
                            f"says {lg['written-type']}")


def parse_args(argv):
    ap = argparse.ArgumentParser(prog="tools/import-uapi",
                                 description="Import the ioctl commands of the exported UAPI.")
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--uapi", default="build/uapi", help="headers_install output per ARCH")
    ap.add_argument("--tree", default="build/linux-source-6.1", help="the kernel source tree")
    ap.add_argument("--arches", help="comma-separated ARCHes, the first for the generic "
                    "headers (default: the ARCHes of the ABIs, in abis.yaml order)")
    ap.add_argument("-I", dest="incdirs", action="append", default=[],
                    help="more include directories, searched after the ARCH's")
    ap.add_argument("--spec", default="spec", help="the spec directory; headers go to SPEC/headers")
    ap.add_argument("--left-out", help="left-out list (default SPEC/left-out.txt)")
    ap.add_argument("--only", action="append", default=[], metavar="HEADER",
                    help="import only this header (as installed: linux/fs.h), repeatable")
    ap.add_argument("--version", metavar="V",
                    help="the known kernel version (spec/versions.yaml) the tree is: its new "
                         "commands get `since: V`, and when V is the newest, the commands "
                         "it no longer defines `removed: V`")
    ap.add_argument("--cache", default="build", metavar="DIR",
                    help="where the tree's case labels are kept between runs (evidence.py)")
    ap.add_argument("--internal", action="append", default=[], metavar="HEADER",
                    help="import only this kernel-internal header of the tree's include/ "
                         "(scsi/sg.h) in kernel context, as `kernel-internal: true`; repeatable")
    ap.add_argument("--kernel-context", action="append", metavar="ABI=SRC:OBJ",
                    help="the configured tree --internal compiles with (kcontext.py)")
    ap.add_argument("-q", "--quiet", action="store_true")
    return ap.parse_args(argv)


def context(args):
    reg = registry.load(args.spec, "dump")
    arches = args.arches.split(",") if args.arches else registry.arches(reg)
    for a in arches:
        if not os.path.isdir(os.path.join(args.uapi, a, "include")):
            raise Error(f"{args.uapi}/{a}/include: error: no exported headers for ARCH {a}:"
                        f" run `make build/uapi/{a}/.done`")
    compilers = reg.reference_compilers()
    for a in arches:
        if a not in compilers:
            raise Error(f"{args.spec}/abis.yaml: error: no ABI has ARCH {a}: its headers "
                        f"cannot be compiled (add the ABI first)")
    hdir = os.path.join(args.spec, "headers")
    old, old_headers, names = {}, {}, {}
    for h in reg.headers:
        if h.kernel_internal != (h.path in args.internal):
            continue	# the tree's include/ only when --internal names it
        rel = os.path.relpath(h.spec, hdir)
        old_headers[rel] = h
        old[rel] = OldFile(h.spec, [Entry.from_registry(c) for c in h.commands],
                           [c["source"] for c in h.commands])
        for c in h.commands:
            names.setdefault(c["name"], rel)
    bits = reg.smallest_size_bits
    versions = reg.versions()
    return Context(args.uapi, args.incdirs, arches, compilers, reg.abis, old, old_headers,
                   (1 << bits) - 1, f"{bits}-bit size field of the smallest layout", reg,
                   version=registry.tree_version(args.spec, versions, args.version),
                   versions=versions, command_header=names)


def main(argv=None):
    args = parse_args(argv)
    hdir = os.path.join(args.spec, "headers")
    left_path = args.left_out or os.path.join(args.spec, "left-out.txt")
    try:
        ctx = context(args)
        stubs = tempfile.TemporaryDirectory(prefix="import-uapi-")
        ctx.stubs = cc.stub_flags(cc.stub_dir(stubs.name, [p for h in ctx.old_headers.values()
                                                           for p in h.stub_includes]))
        all_units = discover(args.uapi, args.tree, ctx.arches)
        for u in all_units:
            u.text = HeaderText(u.path)
            for d in u.text.defines:
                if d.params is None and d.body.strip():
                    if u.kind == "generic":
                        ctx.defined_in.setdefault(d.name, u.rel)
                    else:
                        ctx.arch_defined_in.setdefault((u.arch, d.name), u.rel)
        units = [u for u in all_units if not args.only or u.rel in args.only]
        if args.internal:
            abi, kcc = internal.compiler(ctx.registry, args.kernel_context)
            units = internal.units(args.tree, args.internal, abi, kcc)
            args.only = args.internal
        bases = {c["name"]: c["number"] for h in ctx.registry.headers if not h.arch
                 for c in h.commands if c.get("number") is not None and not c["reserved"]}
        ev = evidence.Evidence(evidence.CaseLabels(args.tree, args.cache),
                               evidence.MagicRows(ctx.registry.magic_codes, ctx.version), bases)
        for u in units:
            u.evidence = ev
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as ex:
            results_of([ex.submit(analyse, u, ctx) for u in units])
        alias_other_headers(units, ctx)
        status = write(args, ctx, units, hdir, left_path)
    except Error as e:
        print(e, file=sys.stderr)
        return 2
    return status


def dead_types(tree, left):
    """A command left out because no exported header defines its type,
    when no file of the kernel tree defines it either (r128_drm.h's
    drm_r128_clear2_t), is a dead definition: nothing can build it and no
    kernel serves it.  One grep over the tree for all such types."""
    undef = {x.detail for _, x in left if x.reason == classify.R_TYPE_UNDEF}
    if not undef:
        return left
    tag = {t: re.sub(r"^(struct|union|enum)\s+", "", t) for t in undef}
    names = "|".join(sorted(re.escape(n) for n in set(tag.values())))
    r = subprocess.run(["grep", "-rhoE", "--include=*.h", "--include=*.c",
                        rf"(struct|union|enum) +({names}) *\{{|\}} *({names}) *;", tree],
                       capture_output=True, text=True)
    if r.returncode > 1:
        raise Error(f"{tree}: error: grep for the definitions of {', '.join(sorted(undef))} "
                    f"failed: {r.stderr.strip()}")
    found = set(re.findall(r"\b(?:" + names + r")\b", r.stdout))
    return [(label, replace(x, reason=classify.R_TYPE_NOWHERE) if x.reason ==
             classify.R_TYPE_UNDEF and tag[x.detail] not in found else x) for label, x in left]


def write(args, ctx, units, hdir, left_path):
    status = 0
    left, written, expect = [], set(), {}
    stats = Stats(ctx.arches)
    for u in units:
        old = ctx.old.get(u.spec_rel)
        for label, names in sorted(u.not_ioctl.items()):
            warn(f"{u.label}: warning: on {label} {len(names)} commands are not _IO* "
                 f"commands ({', '.join(names[:3])}{', ...' if len(names) > 3 else ''}): "
                 f"tools/measure-sizes must record them absent there")
        describe(u)
        entries = entries_of(u, old, ctx, left)
        if not entries and old is None:
            continue
        written.add(u.spec_rel)
        if old is not None and ctx.version not in (None, ctx.versions[-1]):
            entries = in_registry_order(entries, old)
        merged, unmatched = specwrite.merge(entries, old, key=lambda e: e.name)
        merged, unmatched, removed = history_of_import(ctx, old, entries, merged, unmatched)
        if removed and not args.quiet:
            print(f"  {'REMOVED':<7} {u.label}: {len(removed)} commands removed in "
                  f"{ctx.version}: {', '.join(removed[:4])}{', ...' if len(removed) > 4 else ''}")
        for e in unmatched:
            warn(f"{old.path}: warning: {e.name} is in the registry but not defined in "
                 f"{u.label} any more; kept: mark it `reserved: true` or delete it")
            status = 1
        stats.count(u, merged, old)
        if old is not None:
            text = specwrite.header_file(old.preamble, merged, includes=u.includes,
                                         grew=u.includes != ctx.old_headers[u.spec_rel].includes)
        else:
            text = specwrite.header_file(None, merged, header=u.rel, includes=u.includes,
                                         doc=u.text.top_doc() or f"Ioctl commands of {u.rel}.",
                                         arch=u.arch if u.kind == "arch" else None,
                                         header_test=u.compiles,
                                         kernel_internal=u.kcompiler is not None)
        path = os.path.join(hdir, u.spec_rel)
        expect[os.path.normpath(path)] = [e for e, _ in merged]
        if specwrite.write_if_changed(path, text) and not args.quiet:
            print(f"  {'IMPORT':<7} {path}")
    for rel, old in ctx.old.items():
        h = ctx.old_headers[rel]
        if rel in written or (args.only and h.path not in args.only):
            continue
        if h.new:	# the registry's own header: no tree has it, none removes it
            continue
        live = [e for e in old.records if not e.reserved and
                specwrite.exists_in(e, ctx.version, ctx.versions)]
        if not live:
            continue
        V = ctx.version
        if V is not None and V == ctx.versions[-1] and V != ctx.versions[0]:
            # the whole header is gone from the tree (drm/i810_drm.h in 6.12)
            gone = {id(e) for e in live}
            merged = [(replace(r, removed=V), None) if id(r) in gone else (r, b)
                      for r, b in zip(old.records, old.blocks)]
            text = specwrite.header_file(old.preamble, merged, includes=h.includes)
            expect[os.path.normpath(old.path)] = [r for r, _ in merged]
            if specwrite.write_if_changed(old.path, text) and not args.quiet:
                print(f"  {'REMOVED':<7} {h.path}: every command ({len(live)}) removed in {V}")
            continue
        warn(f"{old.path}: warning: no command of {h.path} is defined in the tree any "
             f"more; file kept")
        status = 1
    read_back(args.spec, expect, stats.new_names)
    left = dead_types(args.tree, left)
    text = leftout.render(left, internal=bool(args.internal))
    if specwrite.write_if_changed(left_path, text) and not args.quiet:
        print(f"  {'LEFTOUT':<7} {left_path}")
    if not args.quiet:
        stats.print(left)
    return status
