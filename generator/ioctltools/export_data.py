# SPDX-License-Identifier: GPL-2.0
"""The plain data for everyone else: ioctls.json (spec/schema/
export.schema.json describes it) and ioctls.csv, one row per (known
version, ABI, command), the columns of export_rows.COLUMNS.  A JSON row is
an array in the order of `columns`, not an object: a third of the size and
of the time to write and read."""

import csv
import io
import json
import operator

from . import export_rows

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
        "rows": list(map(_VALUES, rows_)),	# tuples: JSON arrays
    }
    return json.dumps(doc, separators=(",", ":"), ensure_ascii=True) + "\n"


_VALUES = operator.itemgetter(*export_rows.COLUMNS)	# a row's values in COLUMNS order
_LIST = export_rows.COLUMNS.index("shared-with")
_BOOL = export_rows.COLUMNS.index("family")


def csv_row(values):
    """One CSV row from a row's values in COLUMNS order: a null is an empty
    cell (the csv module's own rule), a list its names separated by blanks,
    a boolean 0 or 1."""
    values[_LIST] = " ".join(values[_LIST])
    values[_BOOL] = int(values[_BOOL])
    return values


def csv_text(rows_):
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(export_rows.COLUMNS)
    w.writerows(csv_row(list(_VALUES(r))) for r in rows_)
    return buf.getvalue()


def files(model, rows_, groups):
    return {"ioctls.json": json_text(model, rows_), "ioctls.csv": csv_text(rows_)}
