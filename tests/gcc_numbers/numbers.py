# SPDX-License-Identifier: GPL-2.0
"""The numbers of the model against gcc (tests/gcc-numbers.py): every
command on every ABI, its family's members, its absences, and the plain
numbers `ioctlgen decode` must name."""

import concurrent.futures
import os
import re
import tempfile

from ioctltools import Error
from ioctltools import probeengine

from .probe import FIELDS, CHUNK, GROUP, JOBS, Probe, applies, compiler, emit, \
    members, run, run_chunk, run_group, shareable, unusable, value_of

NUMBERED = set()	# (ABI, name, number) of every command the model numbers
# (ABI, name, generic header) where an ARCH header that includes that header
# numbers the name with the ioctl macros (sparc's asm/fbio.h FBIOGETCMAP
# after linux/fb.h): gcc checks that number on the ARCH header's probe
REDEFINED = set()
RECHECKED = []		# (ABI, header) read from a shared unit, compiled again on its own


def compare(abi, p, found, build, work):
    """The mismatches of one header on one ABI, and (numbers, absences) checked."""
    name = abi["name"]
    bad, n_num, n_abs = [], 0, 0
    for i, c in enumerate(p.commands):
        if name not in c["numbers"]:
            n_abs += 1
            if ("D", i) in found:
                real, why = value_of(abi, p.header, c, build, p.macros, work)
                # a command spelled as a plain number is absent where the
                # name is an ioctl-macro command, and must be where it is not
                # and where the name has another registered command's value
                # (arm's FIOQSIZE 0x545E, before asm-generic/ioctls.h's 0x5460),
                # or where an ARCH header including this one defines it again
                plain_here = why == "defined without the ioctl macros" and \
                    (name, c["name"], real) not in NUMBERED and \
                    (name, c["name"], p.header["path"]) not in REDEFINED
                if (why is None) if c.get("number") is None else plain_here:
                    bad.append(f"{c['name']} on {name}: model absent, gcc {real:#010x}: "
                               f"{p.header['path']} defines it and it compiles")
            elif ("U", i) not in found:
                bad.append(f"{c['name']} on {name}: no marker in the assembly")
            continue
        n_num += 1
        want = c["numbers"][name]["number"]
        if i in p.broken:
            bad.append(f"{c['name']} on {name}: model {want:#010x}, gcc cannot compute it: "
                       f"{p.broken[i]}")
            continue
        if ("U", i) in found:
            bad.append(f"{c['name']} on {name}: model {want:#010x}, gcc: not defined by "
                       f"{p.header['path']} (absent)")
            continue
        if ("N", i) not in found:
            bad.append(f"{c['name']} on {name}: no value in the assembly")
            continue
        real = found[("N", i)]
        rf = {f: found[("F" + f, i)] for f in FIELDS}
        mf = {f: found[("M" + f, i)] for f in FIELDS}
        if c.get("nr-param"):
            last = c["nr"] + c["nr-count"] - 1
            lnr, ltype = found.get(("Lnr", i)), found.get(("Ltype", i))
            if (lnr, ltype) != (last, c["magic"]):
                bad.append(f"{c['name']} on {name}: {c['nr-param']} = "
                           f"{c['nr-count'] - 1} gives nr {lnr:#x} and type {ltype:#x}, "
                           f"not nr {last:#x} and type {c['magic']:#x}: nr-count "
                           f"{c['nr-count']} overflows the nr field")
        if real != want:
            diff = ", ".join(f"{f} {mf[f]:#x} vs {rf[f]:#x}" for f in FIELDS if rf[f] != mf[f])
            bad.append(f"{c['name']} on {name}: model {want:#010x}, gcc {real:#010x} "
                       f"(differs in {diff or 'bits outside the fields'}; model vs gcc)")
        for j, (member, number) in enumerate(members(c, p.layout, c["numbers"][name])):
            got = found.get((f"P{j}", i))
            n_num += 1
            if got != number:
                bad.append(f"{member} on {name}: model {number:#010x}, gcc "
                           f"{'no value' if got is None else f'{got:#010x}'}")
    return bad, n_num, n_abs


def check_numbers(tap, model, build, label=""):
    """One TAP line per ABI; returns the mismatch texts."""
    all_bad = []
    NUMBERED.update((a, c["name"], n["number"]) for h in model["headers"] for c in h["commands"]
                    for a, n in c["numbers"].items())
    REDEFINED.update((a, c["name"], inc) for h in model["headers"] if h["arch"]
                     for c in h["commands"] if c.get("number") is None
                     for a in c["numbers"] for inc in h["includes"])
    with tempfile.TemporaryDirectory() as tmp, \
            concurrent.futures.ThreadPoolExecutor(max_workers=JOBS) as ex:
        futs, unexported = [], {a["name"]: [] for a in model["abis"]}
        layouts = {lay["name"]: lay for lay in model["layouts"]}
        for abi in model["abis"]:
            work = os.path.join(tmp, abi["name"])
            os.makedirs(work)
            probes = []
            for k, h in enumerate(model["headers"]):
                cmds = [c for c in h["commands"] if not c["reserved"]]
                if not cmds or not applies(h, abi):
                    continue
                why = unusable(abi, h, build)
                if why:
                    unexported[abi["name"]].append((h, cmds, why))
                    continue
                probes.append(Probe(abi, h, cmds, f"h{k}", layouts.get(abi["layout"])))
            shared = [p for p in probes if shareable(p)]
            alone = [p for p in probes if not shareable(p)]
            for i in range(0, len(shared), GROUP):
                futs.append((abi, work, ex.submit(run_group, abi, shared[i:i + GROUP],
                                                  build, work)))
            for i in range(0, len(alone), CHUNK):
                futs.append((abi, work, ex.submit(run_chunk, abi, alone[i:i + CHUNK],
                                                  build, work)))
        results = {a["name"]: [] for a in model["abis"]}
        for abi, work, fut in futs:
            try:
                for p, found, problems in fut.result():
                    results[abi["name"]].append((work, p, found, problems))
            except (RuntimeError, OSError, Error) as e:
                results[abi["name"]].append((work, None, None, [str(e)]))
        for abi in model["abis"]:
            name = abi["name"]
            bad, n_num, n_abs, n_hdr, n_shared = [], 0, 0, 0, 0
            for h, cmds, why in unexported[name]:
                for c in cmds:
                    if name in c["numbers"]:
                        bad.append(f"{c['name']} on {name}: model "
                                   f"{c['numbers'][name]['number']:#010x}, gcc: not defined, "
                                   f"{why}")
                        n_num += 1
                    else:
                        n_abs += 1
            for work, p, found, problems in results[name]:
                if p is not None and not problems:
                    b, nn, na = compare(abi, p, found, build, work)
                    if b and p.shared:
                        # Only agreement is read from a shared unit: the
                        # header on its own says what differs.
                        p.shared = False
                        RECHECKED.append((name, p.header["path"]))
                        [(p, found, problems)] = run_chunk(abi, [p], build, work)
                        if not problems:
                            b, nn, na = compare(abi, p, found, build, work)
                bad += problems
                if p is None or problems:
                    continue
                n_hdr += 1
                n_shared += p.shared
                bad += b
                n_num += nn
                n_abs += na
            tap.check(not bad, f"{label}{name}: {n_num} numbers of {n_hdr} headers and "
                      f"{n_abs} absent commands checked against the compiler, "
                      f"{len(bad)} differ", bad)
            print(f"# {label}{name}: {n_shared} of the {n_hdr} headers compiled in shared "
                  f"translation units, the others each on its own")
            all_bad += bad
    return all_bad


# The most frequent ioctls of any trace, which their headers spell as plain
# numbers (and powerpc and mips otherwise): ABI, the header userspace
# includes, the name.
DECODE_CASES = [("x86_64", "asm/ioctls.h", "TCGETS"), ("x86_64", "asm/ioctls.h", "FIONREAD"),
                ("x86_64", "linux/sockios.h", "SIOCGIFCONF"),
                ("i386", "asm/ioctls.h", "TIOCGWINSZ"),
                ("powerpc64le", "asm/ioctls.h", "TCGETS"), ("powerpc64le", "asm/ioctls.h", "FIONREAD"),
                ("mips", "asm/ioctls.h", "TCGETS"), ("mips", "asm/ioctls.h", "FIONREAD"),
                ("sparc64", "asm/ioctls.h", "TCGETS"), ("alpha", "linux/sockios.h", "SIOCGIFCONF")]


def check_decode(tap, model, build, ioctlgen):
    """`ioctlgen decode --abi ABI N` names the command, where N is what the
    ABI's compiler makes of the name on the real exported headers."""
    abis = {a["name"]: a for a in model["abis"]}
    for abi_name, inc, name in DECODE_CASES:
        abi = abis.get(abi_name)
        if abi is None:
            tap.skip(f"decode {name} on {abi_name}", f"the model has no ABI {abi_name}")
            continue
        # asm/ioctls.h names struct termios, which <asm/termbits.h> defines
        pre = "#include <asm/termbits.h>\n" if inc == "asm/ioctls.h" else ""
        src = pre + f"#include <{inc}>\nvoid f(void);\nvoid f(void)\n{{\n" + \
            emit("N", 0, f"(unsigned int)({name})") + "\n}\n"
        r = probeengine.text(compiler(abi, build) + ["-S"], src)
        found = [v & 0xffffffff for v in probeengine.values(r.asm or "", "N").values()]
        if r.asm is None or len(found) != 1:
            tap.check(False, f"decode {name} on {abi_name}: the compiler gives its number",
                      r.stderr.splitlines()[:5])
            continue
        num = f"{found[0]:#010x}"
        rc, out, err = run([ioctlgen, "decode", "--spec", model["spec-dir"], "--abi", abi_name, num])
        # the ABI's line after "abi commands" (a layout line may bear its name too)
        rows = re.split(r"(?m)^  abi +commands\n", out, maxsplit=1)[-1].splitlines()
        line = [l for l in rows if l.split()[:1] == [abi_name]]
        names = re.findall(r"([A-Za-z_]\w*) \(", line[0]) if line else []
        tap.check(rc == 0 and name in names,
                  f"ioctlgen decode --abi {abi_name} {num} names {name} (<{inc}>, {abi['cc']})",
                  (out + err).splitlines()[-4:])
