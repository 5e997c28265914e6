# SPDX-License-Identifier: GPL-2.0
"""The rows of ioctl-number.rst's magic-code table, laid out in Linux 6.1's
columns.  Python rather than Jinja2: the layout pads, counts lines across
four cells, escapes every cell and refuses a cell its column cannot hold,
with the spec line of the row; the template only places the rows
(templates/kernel/ioctl-number.rst.j2 calls row_lines(row))."""

import unicodedata

from . import escape

# The 6.1 columns of the magic-code table: Code, Seq# and Include File are
# this wide; Comments, the last column, runs to the end of the line.
RST_CODE_WIDTH, RST_SEQ_WIDTH, RST_INCLUDE_WIDTH = 4, 5, 57


def column_width(text):
    """The columns text takes where docutils lays out a table: a wide or
    fullwidth East Asian character (east_asian_width W or F) takes two, a
    combining character none, any other one (docutils.utils.column_width()).
    A cell padded by code points instead ends early or late by as many
    columns as it holds such characters, and the table no longer parses."""
    return sum(0 if unicodedata.combining(ch) else
               2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _pad(text, width):
    return text + " " * (width - column_width(text))


def magic_row_lines(row):
    """The lines of one row of ioctl-number.rst's table, in the 6.1 columns:
    code and seq on the first line; the Include File cell one header per
    line, or as the row's include-cell (spec) lays it out, and likewise the
    Seq# cell from seq-cell; in Comments the doc lines and the contact,
    the first prefixed with "conflict!" when the row overlaps another (as
    ioctlgen computed).  Every cell line goes through escape.rst_cell(), is
    measured and padded in display columns (column_width()), and a cell
    wider than its column is an error (escape.UnsafeText): it would break
    the table."""
    hdrs = row["include-cell"] or row["headers"]
    seqs = row["seq-cell"] or [row["seq"]]
    notes = (row["doc"].split("\n") if row["doc"] else []) + \
        ([row["contact"]] if row["contact"] else [])
    if row["overlaps"]:
        notes = [("conflict! " + notes[0]) if notes else "conflict!"] + notes[1:]
    cells = [[escape.rst_cell(row["code-text"])]] + \
        [[escape.rst_cell(x) for x in col] for col in (seqs, hdrs, notes)]
    for col, width, name in zip(cells, (RST_CODE_WIDTH, RST_SEQ_WIDTH, RST_INCLUDE_WIDTH),
                                ("Code", "Seq#", "Include File")):
        for text in col:
            if column_width(text) > width:
                raise escape.UnsafeText(f"{row['source']}: error: {text!r} is wider than the "
                                        f"{name} column of ioctl-number.rst ({width} columns; "
                                        f"it takes {column_width(text)})")
    lines = []
    for i in range(max(len(c) for c in cells)):
        code, seq, inc, note = (c[i] if i < len(c) else "" for c in cells)
        lines.append(f"{_pad(code, RST_CODE_WIDTH)}  {_pad(seq, RST_SEQ_WIDTH)}  "
                     f"{_pad(inc, RST_INCLUDE_WIDTH)} {note}".rstrip())
    return lines
