#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Read one guest's console for the KTAP of tests/verify/gen_kunit.py's suite.

Usage: ktap.py ARCH ABI UNITS CONSOLE [SKIPPED-CASE...]

Prints one TAP line ("ok - ..." / "not ok - ...", numbered by the caller)
per unit of UNITS (gen_kunit.py's list), each naming the architecture, and
one for the suite's closing totals.  A missing line, a second line, a
failed expectation (the command is named), a panic or a console without
the suite is a failure.  SKIPPED-CASEs did not compile in kernel context;
their lines must say SKIP.
"""
import re
import sys

from tap import Tap  # noqa: E402

# A console line: maybe a printk timestamp, then KTAP indented by 4 per level.
PREFIX = re.compile(r"^(?:\[\s*\d+\.\d+\]\s)?")
RESULT = re.compile(r"^\s*(ok|not ok) (\d+) (?:- )?(\S+)(?: # (.*))?$")
FAILED = re.compile(r"(\w+) \(kernel macros vs registry")
CHECKED = re.compile(r"# \S+: <(.*)>: (\d+) commands checked, (\d+) not defined, "
                     r"(\d+) of another type in kernel context")
TOTALS = re.compile(r"^\s*# \S+: pass:(\d+) fail:(\d+) skip:(\d+) total:(\d+)")


def main():
    arch, abi, units_path, console = sys.argv[1:5]
    skipped = set(sys.argv[5:])
    tag = "verify/%s" % arch
    t = Tap(numbered=False)
    units = []
    with open(units_path) as f:
        for line in f:
            _, case, count, path = line.split(None, 3)
            units.append((case, int(count), path.strip()))
    suite = "ioctl_registry_" + abi
    lines = [PREFIX.sub("", l.rstrip("\r\n")) for l in open(console, errors="replace")]
    panic = [l for l in lines if "Kernel panic" in l]
    if panic:
        t.not_ok("%s: kernel panic: %s" % (tag, panic[0].strip()))
    if not any(l.strip() == "# Subtest: " + suite for l in lines):
        t.not_ok("%s: no KTAP suite %s on the console" % (tag, suite))
        return
    results, failed, checked, totals = {}, [], {}, None
    for l in lines:
        m = FAILED.search(l)
        if m:
            failed.append(m.group(1))
        m = CHECKED.search(l)
        if m:
            checked[m.group(1)] = (int(m.group(2)), int(m.group(3)), int(m.group(4)))
        m = RESULT.match(l)
        if m and l.startswith("    "):
            results.setdefault(m.group(3), []).append((m.group(1), m.group(4) or "", failed))
            failed = []
        m = TOTALS.match(l)
        if m and suite in l:
            totals = tuple(int(x) for x in m.groups())
    commands = 0
    for case, count, path in units:
        r = results.pop(case, [])
        what = "%s: <%s>" % (tag, path)
        if not r:
            t.not_ok("%s: no KTAP result line" % what)
            continue
        if len(r) > 1:
            t.not_ok("%s: %d KTAP result lines" % (what, len(r)))
            continue
        status, directive, bad = r[0]
        if case in skipped:
            t.check(directive.startswith("SKIP"), "%s # SKIP does not compile in kernel context" % what)
            continue
        done, absent, other = checked.get(path, (0, 0, 0))
        commands += done
        if status != "ok" or bad:
            t.not_ok("%s: wrong number for %s" % (what, ", ".join(bad) or "(see the console)"))
        elif done + absent != count:
            t.not_ok("%s: %d of %d commands reported" % (what, done + absent, count))
        else:
            note = ", %d not defined in kernel context" % absent if absent else ""
            if other:
                note += (", %d of another type in kernel context (tests/verify/kernel-context.txt):"
                         " they differ in the size field alone" % other)
            t.ok("%s: %d commands, kernel macros == registry %s%s" % (what, done, abi, note))
    for case in results:
        t.not_ok("%s: unexpected KTAP case %s" % (tag, case))
    if totals is None:
        t.not_ok("%s: no closing totals line for %s" % (tag, suite))
    else:
        p, f, s, n = totals
        t.check(f == 0 and n == len(units), "%s: KTAP pass:%d fail:%d skip:%d total:%d; %d commands "
                "checked in the guest" % (tag, p, f, s, n, commands))


if __name__ == "__main__":
    main()
