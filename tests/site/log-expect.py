#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""tests/site/log-expect.py EXPECT_JSON MODEL: add to the browser tests'
expectations a pasted log and, per line, the names the decoder must give.

The log is written here in the shapes of docs/dev/log-grammar.md (as Debian's
strace 6.1 prints them: `strace -f`'s [pid N], -y paths, -X verbose,
_IOC(...) for numbers it cannot name; a dmesg line), from the model's
numbers on x86_64 (else the first ABI).  The names each number must get are
the model's commands whose number on that ABI is that number, in any
version, or in the version picked; the decoder's code plays no part.
Numbers that a family (nr-count > 1, caller-given size) could also match
are not picked, so that plain equality gives the whole answer.
"""
import json
import sys

from ioctltools import model_reader

expect_path, model_path = sys.argv[1:3]
e = json.load(open(expect_path))
m = model_reader.load(model_path)
abis = [a["name"] for a in m["abis"]]
abi = "x86_64" if "x86_64" in abis else abis[0]
layout = next(lay for lay in m["layouts"]
              if lay["name"] == next(a["layout"] for a in m["abis"] if a["name"] == abi))
versions = [v["name"] for v in m.get("versions", [])]
DIRS = {"none": "_IOC_NONE", "read": "_IOC_READ", "write": "_IOC_WRITE",
        "read-write": "_IOC_READ|_IOC_WRITE"}

carriers = {}	# number -> {version or None: set of names}
family_keys = set()	# (type, nr) a family could match
cmds = [c for _, c in model_reader.commands(m)]
for c in cmds:
    n = c["numbers"].get(abi)
    if n is None:
        continue
    if c["nr-count"] > 1 or c["size-param"]:
        family_keys.update((c["magic"], c["nr"] + a) for a in range(c["nr-count"]))
        continue
    per = {v: nums[abi]["number"] for v, nums in c["numbers-by-version"].items()
           if abi in nums} or {v: n["number"] for v in (c.get("versions") or [None])}
    for v, num in per.items():
        carriers.setdefault(num, {}).setdefault(v, set()).add(c["name"])


def split(n):
    nr_bits, type_bits = layout["nr-bits"], layout["type-bits"]
    return n >> nr_bits & ((1 << type_bits) - 1), n & ((1 << nr_bits) - 1)


def names(n, version=None):
    by = carriers.get(n, {})
    return sorted(set().union(*[s for v, s in by.items() if version in (None, v) or v is None]))


def usable(n):
    return split(n) not in family_keys


def pick(pred):
    return next((c for c in cmds if c["numbers"].get(abi) and c["nr-count"] == 1 and
                 not c["size-param"] and usable(c["numbers"][abi]["number"]) and pred(c)), None)


lines = []


def add(text, number, version=None):
    lines.append({"text": text, "names": None if number is None else names(number, version),
                  "version": version})


single = pick(lambda c: c["macro"] and len(names(c["numbers"][abi]["number"])) == 1)
ioc = pick(lambda c: c["macro"] and c["dir"] != "none" and c is not single and
           c["numbers"][abi]["size"] is not None)
plain = pick(lambda c: c["macro"] is None and c["number"] is not None)
kernel = pick(lambda c: c["macro"] and c not in (single, ioc))
if None in (single, ioc, plain, kernel):
    print(f"# no pasted-log test on this model: it lacks a command of each kind on {abi}")
    sys.exit(0)
n = single["numbers"][abi]["number"]
add(f"ioctl(0x3, {n:#x}, 0x7ffd9a8c0c70)  = -1 ENOTTY (Inappropriate ioctl for device)", n)
n = ioc["numbers"][abi]
add(f"[pid  4242] 1796545383.634229 ioctl(4</dev/x, y>, _IOC({DIRS[ioc['dir']]}, "
    f"{ioc['magic']:#x}, {ioc['nr']:#x}, {n['size']:#x}), 0x7fff5fde0ef0) = 0", n["number"])
n = plain["numbers"][abi]["number"]
add(f"ioctl(5, {n:#x} /* SOMETHING */, [0]) = 0", n)
n = kernel["numbers"][abi]["number"]
add(f"[   12.345678] frob 0000:00:02.0: unknown ioctl {n:#010x} (pid 77)", n)
# pasted text stays text: the line must read back as written
add(f"<img src=x onerror=alert(1)> <b>IOCTL</b> cmd={n:#x} &amp;", n)
# two commands on one number: the first conflict of the model on the ABI
shared = next((col for col in m["collisions"] if col["abi"] == abi and col["conflict"] and
               usable(int(col["number"], 16) if isinstance(col["number"], str) else col["number"])
               and len(names(int(col["number"], 16) if isinstance(col["number"], str)
                             else col["number"])) > 1), None)
if shared:
    n = int(shared["number"], 16) if isinstance(shared["number"], str) else shared["number"]
    add(f"[pid 99] ioctl(6<socket:[1234]>, {n:#x}, 0x1) = 0", n)
# a number no command has
unknown = next(x for x in range(0xc010e17b, 0xc010ffff) if x not in carriers and usable(x))
add(f"ioctl(7, {unknown:#x}, 0x7ffe87c9a000) = -1 ENOTTY (Inappropriate ioctl for device)", unknown)
add(f'write(1, "{single["numbers"][abi]["number"]:#x}", 10) = 10', None)
add(f"[pid  4242] <... ioctl resumed>, {plain['numbers'][abi]['number']:#x}) = 0", None)
add(f"ioctl(8, TCGETS, {plain['numbers'][abi]['number']:#x}) = 0", None)
# a command of one version only, in the other version
if len(versions) > 1:
    young = pick(lambda c: c.get("versions") == versions[1:] and not c["numbers-by-version"]
                 and len(names(c["numbers"][abi]["number"])) == 1)
    if young:
        n = young["numbers"][abi]["number"]
        e["log_version"] = {"version": versions[0], "text": f"ioctl(3, {n:#x}, 0) = 0",
                            "names": names(n, versions[0]), "all": names(n)}
e["log"] = {"abi": abi, "lines": lines}
json.dump(e, open(expect_path, "w"))
