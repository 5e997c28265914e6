#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Audit a consumer's own ioctl table against the registry (`ioctlgen audit`).

usage: tools/audit [--model MODEL] [--version V] [--notes-dir DIR] [--json OUT]
                   [--summary] FORMAT PATH...
       tools/audit [--model MODEL] ... --each FORMAT PATH OUT [--each ...]

FORMAT and PATH:
  strace-binary  strace's executable (its x86_64, i386 and x32 tables)
  strace-rows    --abi ABI, strace's ioctls_inc*.h / ioctls_arch*.h files
  syzkaller      sys/linux/*.txt.const files
  go             the directory of x/sys/unix's zerrors_linux_<GOARCH>.go
  rust           linux-raw-sys' src/ (the <arch>/ioctl.rs files)

For every ABI the table has: the names both have with equal numbers, each
name with another number (the consumer's, the registry's, and why they
differ), the names the consumer lacks, the names the registry lacks (with
spec/consumers/*.txt's reason where it has one).  Exit 0 when the audit
ran, whatever it found; 1 when an input is wrong; 2 for the command line.

--each audits several consumers in one process, the model read and its
views built once (make audit: tools/audit-debian), each with its one PATH,
its result to OUT as --json writes it, the texts one after the other."""

import argparse
import glob
import json
import os
import sys
import tempfile

from . import TOP, Error, audit, consumer_notes, consumer_tables, regindex

PROG = os.environ.get("IOCTLGEN_AUDIT_PROG") or "tools/audit"
FORMATS = ("strace-binary", "strace-rows", "syzkaller", "go", "rust")


def read_table(fmt, paths, abi, model, auditor):
    if fmt == "strace-binary":
        def agree(abi, table):
            view = auditor.view(abi)
            return sum(1 for n, c in table if n in view.by_name and view.by_name[n].number == c)
        return consumer_tables.strace_binary(paths[0], agree)
    if fmt == "strace-rows":
        if not abi:
            raise Error("strace-rows needs --abi: strace's rows do not say their ABI")
        layout = regindex.AbiView(model, abi, regindex.version_names(model)[-1]).layout
        return consumer_tables.strace_rows(paths, abi, layout)
    if fmt == "syzkaller":
        return consumer_tables.syzkaller_const(paths)
    if fmt == "go":
        return consumer_tables.go_zerrors(paths[0])
    return consumer_tables.rust_ioctl(paths[0])


def read_notes(directory, consumer):
    """This consumer's notes, and what every file says of a name."""
    own, by_name = {}, {}
    for path in sorted(glob.glob(os.path.join(glob.escape(directory), "*.txt"))):
        notes = consumer_notes.read(path)
        if os.path.basename(path) == consumer + ".txt":
            own = notes
        by_name.update({k: n for k, n in notes.items() if n.kind != "wrong-number"})
    return own, by_name


def text(result, out):
    print(f"{result['consumer']} ({result['source']}) against the registry's Linux "
          f"{result['version']}", file=out)
    if result["skipped-arches"]:
        print(f"  arches without a registry ABI: {', '.join(result['skipped-arches'])}", file=out)
    for abi, r in result["abis"].items():
        print(f"{abi}: {r['compared']} names compared, {r['equal']} equal, "
              f"{len(r['different'])} different, consumer lacks {len(r['consumer-lacks'])}, "
              f"registry lacks {len(r['registry-lacks'])}", file=out)
        for d in r["different"]:
            print(f"  different {d['name']}: {d['consumer']}, registry {d['registry']}: "
                  f"{audit.REASONS[d['reason']]}: {d['why']}" +
                  (f" [{d['note']}]" if d["note"] else ""), file=out)
        if not result.get("summary"):
            for m in r["registry-lacks"]:
                print(f"  registry lacks {m['name']} {m['value']}" +
                      (f" (the registry's: {', '.join(m['registry-names'])})" if m["registry-names"] else "") +
                      (f"; {m['elsewhere']}" if m["elsewhere"] else "") +
                      (f": {m['note'][0]}: {m['note'][1]}" if m["note"] else ""), file=out)
            for n in r["consumer-lacks"]:
                print(f"  consumer lacks {n}", file=out)


def main():
    ap = argparse.ArgumentParser(prog=PROG, description=__doc__.split("\n\n")[0])
    ap.add_argument("--model", default=os.path.join(TOP, "build", "model.json"))
    ap.add_argument("--version", help="the registry version to compare with (default: the oldest known)")
    ap.add_argument("--abi", help="the ABI of strace-rows")
    ap.add_argument("--notes-dir", default=os.path.join(TOP, "spec", "consumers"))
    ap.add_argument("--json", metavar="OUT", help="also write the result as JSON")
    ap.add_argument("--summary", action="store_true", help="counts and differences only")
    ap.add_argument("--each", nargs=3, action="append", metavar=("FORMAT", "PATH", "OUT"),
                    help="audit this consumer too, its result to OUT (instead of FORMAT PATH...)")
    ap.add_argument("format", nargs="?", help=f"one of: {', '.join(FORMATS)}")
    ap.add_argument("paths", nargs="*")
    args = ap.parse_args()
    if args.each and (args.format or args.json):
        ap.error("--each takes the place of FORMAT PATH... and --json")
    if not args.each and not args.format:
        ap.error("the following arguments are required: format, paths")
    jobs = [(f, [p], out) for f, p, out in args.each or []] or \
        [(args.format, args.paths, args.json)]
    for fmt, paths, _ in jobs:
        if fmt not in FORMATS:
            ap.error(f"argument format: invalid choice: {fmt!r} "
                     f"(choose from {', '.join(repr(f) for f in FORMATS)})")
        if not paths:
            ap.error("the following arguments are required: paths")
    try:
        model = regindex.load_model(args.model)
        version = args.version or regindex.version_names(model)[0]
        auditor = audit.Auditor(model, version)
        results = []
        for fmt, paths, out in jobs:
            table = read_table(fmt, paths, args.abi, model, auditor)
            own, by_name = read_notes(args.notes_dir, table.consumer)
            results.append((auditor.audit(table, own, by_name), out))
    except Error as e:
        print(str(e) if ": error: " in str(e) else f"{PROG}: error: {e}", file=sys.stderr)
        return 1
    for result, out in results:
        result["summary"] = args.summary
        try:
            text(result, sys.stdout)
        except BrokenPipeError:     # | head
            sys.stderr.close()
            return 0
        if out:
            write_json(result, out)
    return 0


def write_json(result, path):
    """Written whole and renamed, with the umask's mode."""
    d = os.path.dirname(os.path.abspath(path))
    with tempfile.NamedTemporaryFile("w", dir=d, delete=False, suffix=".tmp") as f:
        json.dump(result, f, indent=1, sort_keys=True)
        f.write("\n")
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(f.name, 0o666 & ~umask)
    os.replace(f.name, path)


if __name__ == "__main__":
    sys.exit(main())
