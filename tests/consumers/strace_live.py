#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The registry against a real consumer: Debian's strace 6.1, whose x86_64
ioctl table was regenerated from Linux 6.1.

One compiled program issues ioctl(-1, N, 0) for every candidate N under
`strace -e trace=ioctl`: every number of strace's own x86_64 table (read
from its binary, generator/ioctltools/strace_elf.py) and every x86_64 number of
the registry's 6.1 view.  strace prints the names it has for N (several
joined by " or ", a decoder's as NAME(arg)).  Then:

- every (name, N) strace prints is a name the registry gives N, or
  spec/consumers/strace.txt says why not;
- no line of that file is stale: its name is printed for its number and the
  registry still lacks it;
- the table read from the binary is what strace prints (the reader is
  right), and so is its i386 table for a 32-bit program (which of the two
  32-bit tables is i386 is right too).

Counts go to the TAP diagnostics: strace's names, agreed, registry-only,
strace-only per reason."""

import os
import re
import subprocess
import tempfile
from collections import Counter

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import tap  # noqa: E402
from ioctltools import Error, consumer_notes, regindex, strace_elf  # noqa: E402

STRACE = os.environ.get("STRACE", "/usr/bin/strace")
MODEL = os.environ.get("MODEL", os.path.join(TOP, "build", "model.json"))
NOTES = os.path.join(TOP, "spec", "consumers", "strace.txt")
VERSION, ABI = "6.1", "x86_64"
CALL = re.compile(r"^ioctl\(-1, ")


def command_field(line):
    """The second argument of a printed ioctl call, balanced parentheses
    kept: 'FOO or BAR(3)'."""
    rest = CALL.sub("", line, count=1)
    depth = 0
    for i, ch in enumerate(rest):
        if ch == "(":
            depth += 1
        elif ch == ")":
            if depth == 0:
                return rest[:i]
            depth -= 1
        elif ch == "," and depth == 0:
            return rest[:i]
    return rest


def printed_names(field):
    """The names in a command field; strace's own number forms (_IOC(...),
    0x...) are no names."""
    out = []
    for part in field.split(" or "):
        name = part.split("(", 1)[0].strip()
        if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name) and name != "_IOC":
            out.append(name)
    return out


def run_strace(numbers, work, cflags=()):
    probe = os.path.join(work, "ioctl-probe")
    subprocess.run(["gcc", "-O2", *cflags, "-o", probe,
                    os.path.join(TOP, "tests", "consumers", "ioctl-probe.c")], check=True)
    listing = os.path.join(work, "numbers")
    with open(listing, "w") as f:
        f.writelines(f"{n:#x}\n" for n in numbers)
    out = os.path.join(work, "trace")
    with open(listing) as f:
        subprocess.run([STRACE, "-e", "trace=ioctl", "-o", out, probe], stdin=f, check=True)
    with open(out) as f:
        calls = [line for line in f.read().splitlines() if CALL.match(line)]
    return calls


def probe(view, table):
    """{number: [names strace prints]} for every number of strace's table
    and of the view; None when strace printed another count of calls."""
    numbers = sorted({c for _, c in table} | set(view.numbers()))
    with tempfile.TemporaryDirectory() as work:
        calls = run_strace(numbers, work)
    if len(calls) != len(numbers):
        return numbers, None
    return numbers, {n: printed_names(command_field(line)) for n, line in zip(numbers, calls)}


def check_i386(model):
    """The i386 table read from the binary (told from x32's by the numbers
    each shares with the registry, strace_elf.personalities()) is the one
    strace uses for a 32-bit program: every row, printed for its number."""
    views = {abi: regindex.AbiView(model, abi, VERSION) for abi in ("i386", "x32")}

    def agree(abi, t):
        v = views[abi]
        return sum(1 for n, c in t if n in v.by_name and v.by_name[n].number == c)
    table = strace_elf.personalities(STRACE, agree).get("i386")
    if table is None:
        tap.not_ok("strace's binary has an i386 and an x32 table")
        return
    numbers = sorted({c for _, c in table})
    with tempfile.TemporaryDirectory() as work:
        try:
            calls = run_strace(numbers, work, ("-m32",))
        except subprocess.CalledProcessError as e:
            tap.skip("strace's i386 table, live", f"no 32-bit probe: {e}")
            return
    printed = dict(zip(numbers, (printed_names(command_field(line)) for line in calls)))
    misread = [f"{name} {code:#x}: strace prints {printed.get(code) or 'no name'}"
               for name, code in table if name not in printed.get(code, ())]
    tap.check(len(calls) == len(numbers) and not misread,
              f"every row of the i386 table read from the binary ({len(table)}) is a name "
              f"strace prints for its number to a 32-bit program",
              [f"{len(numbers)} numbers, {len(calls)} calls"] + misread[:20])


def main():
    if not os.access(STRACE, os.X_OK):
        tap.skip("strace live check", f"{STRACE} is not installed (apt-get install strace)")
        tap.done()
    version = subprocess.run([STRACE, "-V"], capture_output=True, text=True).stdout.split("\n")[0]
    if not version.endswith(" 6.1"):
        tap.skip("strace live check", f"this check is about strace 6.1, not {version!r}")
        tap.done()
    try:
        model = regindex.load_model(MODEL)
        view = regindex.AbiView(model, ABI, VERSION)
        table = strace_elf.native_table(STRACE)
        notes = consumer_notes.read(NOTES)
    except Error as e:
        tap.not_ok("inputs: the model, strace's table, the reasons file", str(e))
        tap.done()
    tap.ok(f"read strace's x86_64 table ({len(table)} rows), the registry's {VERSION} "
           f"{ABI} view and {len(notes)} reasons")
    numbers, printed = probe(view, table)
    if not tap.check(printed is not None, "strace printed one ioctl call per number"):
        tap.done()

    misread = [f"{name} {code:#x}: strace prints {printed[code] or 'no name'}"
               for name, code in table if name not in printed[code]]
    tap.check(not misread, "every row read from the binary is a name strace prints for its number",
              misread[:20])

    counts, unexplained, by_kind = Counter(), [], Counter()
    used = set()
    for n in numbers:
        reg = {e.name for e in view.names_for(n)}
        for name in printed[n]:
            counts["strace"] += 1
            if name in reg:
                counts["agreed"] += 1
            elif (name, n) in notes:
                note = notes[(name, n)]
                used.add((name, n))
                by_kind[note.kind + (f"/{note.category}" if note.category else "")] += 1
            else:
                unexplained.append(f"{name} {n:#x}: strace names it, the registry gives "
                                   f"{sorted(reg) or 'nothing'}")
        counts["registry-only"] += len(reg - set(printed[n]))
    tap.check(not unexplained, "every name strace prints is one the registry gives that number, "
              "or spec/consumers/strace.txt says why", unexplained[:40] +
              ([f"... {len(unexplained) - 40} more"] if len(unexplained) > 40 else []))
    stale = [f"{notes[k].where}: {k[0]} {k[1]:#x}: " +
             ("the registry now gives that name" if k[0] in {e.name for e in view.names_for(k[1])}
              else "strace does not print it for that number")
             for k in sorted(set(notes) - used)]
    tap.check(not stale, "no reason in spec/consumers/strace.txt is stale", stale[:40])

    check_i386(model)
    tap.diag(f"strace {VERSION} on {ABI}: {len(numbers)} numbers probed, "
             f"{counts['strace']} (name, number) pairs printed by strace",
             f"agreed {counts['agreed']}, registry-only {counts['registry-only']}, "
             f"strace-only {counts['strace'] - counts['agreed']}: " +
             ", ".join(f"{k} {v}" for k, v in sorted(by_kind.items())),
             f"numbers below 0x10000 strace names: "
             f"{sum(1 for n in numbers if n < 0x10000 and printed[n])}, of which the registry names "
             f"{sum(1 for n in numbers if n < 0x10000 and printed[n] and view.names_for(n))}")
    tap.done()


if __name__ == "__main__":
    main()
