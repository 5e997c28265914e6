#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The registry in the formats its consumers take, from the
lookup table decode answers from (build/ioctl.table, read through
libioctlreg: generator/ioctltools/table_reader.py): OUT/<consumer>/..., each file
written atomically and only when it changed; a file an earlier run wrote
there and this one does not is removed.  docs/exports/*.rst describe each
format.

    export.py -t build/ioctl.table -o build/exports [--ioctlgen build/ioctlgen] [--only CONSUMER]...

Consumers: strace, syzkaller, go, rust, data (JSON and CSV)."""

import argparse
import gc
import hashlib
import json
import os
import sys
import time

from . import export_data
from . import export_go
from . import export_rows
from . import export_rust
from . import export_strace
from . import export_syzkaller
from . import renderlib
from . import table_reader

WRITERS = {
    "strace": export_strace.files,
    "syzkaller": export_syzkaller.files,
    "go": export_go.files,
    "rust": export_rust.files,
    "data": export_data.files,
}


def write_tree(top, files):
    """Write {relative path: text} below top; drop the files it lacks."""
    for rel, text in files.items():
        renderlib.write_if_changed(os.path.join(top, rel), text)
    keep = {os.path.normpath(os.path.join(top, rel)) for rel in files}
    for d, _, names in os.walk(top):
        for n in names:
            p = os.path.normpath(os.path.join(d, n))
            if p not in keep:
                os.unlink(p)


def code_key():
    """The source of every module of this directory the writers run."""
    h = hashlib.sha256()
    here = os.path.dirname(os.path.abspath(__file__))
    for name, m in sorted(sys.modules.items()):
        path = getattr(m, "__file__", None) or ""
        if os.path.dirname(os.path.abspath(path)) == here:
            with open(path, "rb") as f:
                h.update(name.encode() + b"\0" + f.read() + b"\0")
    return h.hexdigest()


def record_path(out, name):
    return os.path.join(out, "." + name + ".inputs")


def listing(top):
    """{relative path: size} of the files below top."""
    return {os.path.relpath(os.path.join(d, n), top): os.path.getsize(os.path.join(d, n))
            for d, _, names in os.walk(top) for n in names}


def up_to_date(out, name, key):
    """Whether OUT/<name> is what key (the dump's and the code's SHA-256)
    gives: its record says so and its files are there, of the sizes
    written."""
    try:
        with open(record_path(out, name), encoding="utf-8") as f:
            rec = json.load(f)
    except (OSError, ValueError):
        return False
    return rec.get("key") == key and rec.get("files") == listing(os.path.join(out, name))


def record(out, name, key):
    renderlib.write_if_changed(record_path(out, name), json.dumps(
        {"key": key, "files": listing(os.path.join(out, name))}, sort_keys=True) + "\n")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-t", "--table", required=True, help="the lookup table (build/ioctl.table)")
    ap.add_argument("--ioctlgen", default=os.path.join(renderlib.TOP, "build", "ioctlgen"),
                    help="the ioctlgen that reads it (its table --dump)")
    ap.add_argument("-o", "--out", required=True)
    ap.add_argument("--only", action="append", choices=sorted(WRITERS))
    ap.add_argument("-v", "--verbose", action="store_true", help="time each consumer")
    a = ap.parse_args(argv)
    t0 = time.monotonic()
    try:
        data = table_reader.dump(a.table, a.ioctlgen)
    except (OSError, table_reader.TableError) as e:
        sys.exit(f"{a.table}: error: cannot read the lookup table: {e}")
    # A consumer's files are all the dump and this code give: after an
    # edit that changed no number (a doc), the dump is the same, and so are
    # they (OUT/.<consumer>.inputs records what wrote them).
    key = hashlib.sha256(data + code_key().encode()).hexdigest()
    todo = [n for n in a.only or sorted(WRITERS) if not up_to_date(a.out, n, key)]
    if not todo:
        return 0
    try:
        table = table_reader.load(a.table, a.ioctlgen, data)
    except ValueError as e:
        sys.exit(f"{a.table}: error: cannot read the lookup table: {e}")
    model = table_reader.meta(table)	# versions, ABIs: what the writers take besides rows
    rows = export_rows.table_rows(table)
    groups = export_rows.grouped(rows)
    gc.freeze()		# read-only from here: the collector need not walk them again
    if a.verbose:
        print(f"  table and rows: {len(rows)} rows, {time.monotonic() - t0:.2f} s")
    for name in todo:
        t = time.monotonic()
        files = WRITERS[name](model, rows, groups)
        write_tree(os.path.join(a.out, name), files)
        record(a.out, name, key)
        if a.verbose:
            print(f"  {name}: {len(files)} files, {time.monotonic() - t:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
