# SPDX-License-Identifier: GPL-2.0
"""The plain data for everyone else: ioctls.json (spec/schema/
export.schema.json describes it) and ioctls.csv, one row per (known
version, ABI, command), the columns of export_rows.COLUMNS.  A JSON row is
an array in the order of `columns`, not an object: a third of the size and
of the time to write and read."""

import csv
import io
import json

import export_rows

FORMAT_VERSION = 1


def json_text(model, rows_):
    doc = {
        "format": "ioctl-registry-export",
        "format-version": FORMAT_VERSION,
        "model-version": model["model-version"],
        "versions": [v["name"] for v in model["versions"]],
        "abis": [{"name": a["name"], "layout": a["layout"], "arch": a["arch"],
                  "variant-of": a.get("variant-of")} for a in model["abis"]],
        "columns": list(export_rows.COLUMNS),
        "rows": [[r[k] for k in export_rows.COLUMNS] for r in rows_],
    }
    return json.dumps(doc, separators=(",", ":"), ensure_ascii=True) + "\n"


def cell(v):
    if v is None:
        return ""
    if isinstance(v, bool):
        return "1" if v else "0"
    if isinstance(v, list):
        return " ".join(v)
    return v


def csv_text(rows_):
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(export_rows.COLUMNS)
    w.writerows([cell(r[k]) for k in export_rows.COLUMNS] for r in rows_)
    return buf.getvalue()


def files(model, rows_, groups):
    return {"ioctls.json": json_text(model, rows_), "ioctls.csv": csv_text(rows_)}
