#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The magic-code table, in and out (TAP).

  - the rows ioctlgen reads from spec/magic.yaml, written back in the
    shape of the YAML, validate against spec/schema/magic.schema.json,
    which rejects broken rows (spec/magic.yaml itself: tests/schema-check.py);
  - for each kernel tree (6.1, and 6.12 when build/linux-source-6.12 is
    there), in the view of the model that tree's version has
    (renderlib.view_for_tree()):
    - every row of its table is in spec/magic.yaml, in order (counted by
      a column parse of its own, not by the importer);
    - the overlaps in the view are those of an independent computation;
    - templates/kernel/ioctl-number.rst.j2, rendered from the view, gives
      back the tree's file byte for byte except for the conflict! markers,
      each row's Comments text that version's (doc-since); rows whose
      computed marker differs from the hand-kept one are diagnostics;
    - a planted wrong text (the row of a doc-since rendered with another
      version's text) is caught by the same comparison;
    - tools/import-ioctl-number --version V gives back spec/magic.yaml
      byte for byte; a table whose comment changes records it as V's
      doc-since (or drops an override that no longer changes anything);
  - into an empty registry the importer writes rows that ioctlgen reads
    as the registry's; it rejects bad tables with path:line:col errors.

Run from the repository root: /usr/bin/python3 tests/rst-roundtrip.py
The registry comes from build/ioctlgen (`ioctlgen model`): this test reads
no YAML.
"""

import copy
import difflib
import json
import os
import re
import shutil
import subprocess
import tempfile

import jsonschema

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
from ioctltools import renderlib  # noqa: E402
from ioctltools import Error, registry  # noqa: E402
import tap  # noqa: E402
from tap import diag  # noqa: E402

KTREE = os.path.join(TOP, "build", "linux-source-6.1")
TREES = [KTREE, os.path.join(TOP, "build", "linux-source-6.12")]
RST = "Documentation/userspace-api/ioctl/ioctl-number.rst"
SPEC = os.path.join(TOP, "spec")
MAGIC = os.path.join(SPEC, "magic.yaml")
SCHEMA = os.path.join(SPEC, "schema", "magic.schema.json")
IMPORTER = os.path.join(TOP, "tools", "import-ioctl-number")
MARKER = "conflict!"
COMMENTS = 71		# the column of the Comments cell (rst_table.py's widths)

# ------------------------------------------------------------ independent reads
def table_rows(lines):
    """Rows of the 6.1 table, by a plain column parse: a row starts at a line
    whose first four columns are not blank.  Returns [(first, last, code, seq)]
    with 0-based line indexes."""
    borders = [i for i, t in enumerate(lines) if t.startswith("====  =====  ==")]
    start, end = borders[1] + 1, borders[2]
    rows = []
    for i in range(start, end):
        if lines[i][:4].strip():
            rows.append([i, i, lines[i][:4].strip(), lines[i][6:11].strip()])
        else:
            rows[-1][1] = i
    return rows, start, end


def seq_range(seq):
    if seq == "all":
        return 0, 255
    a, _, b = seq.partition("-")
    return int(a, 16), int(b or a, 16)


def code_value(text):
    return int(text, 16) if text.startswith("0x") else ord(text[1])


def yaml_shape(row):
    """A model row as spec/magic.yaml writes it, for the schema."""
    code = row["code-text"]
    out = {"code": int(code, 16) if code.startswith("0x") else code, "seq": row["seq"],
           "headers": row["headers"], "doc": row["doc"]}
    for k in ("contact", "include-cell", "seq-cell"):
        if row[k] is not None:
            out[k] = row[k]
    if row["accept"]:
        out["accept"] = row["accept"]
    return out


def compute_overlaps(rows):
    keyed = [(code_value(r["code-text"]),) + seq_range(r["seq"]) for r in rows]
    out = []
    for i, (c, a, b) in enumerate(keyed):
        out.append([j for j, (c2, a2, b2) in enumerate(keyed)
                    if j != i and c2 == c and a2 <= b and a <= b2])
    return out


def strip_marker(line):
    line = line.replace(MARKER + " ", "")
    line = re.sub(r" ?" + re.escape(MARKER) + r"$", "", line)
    return line.rstrip()


def run(cmd, **kw):
    return subprocess.run(cmd, cwd=TOP, capture_output=True, text=True, **kw)


# ------------------------------------------------------------ tests
def table_diffs(model, lines, tstart, tend):
    """Render the table from model (a version's view); return the rendered
    lines, the lines outside the table that differ and the table lines that
    differ otherwise than by a conflict! marker."""
    env = renderlib.environment("kernel")
    out = env.get_template("ioctl-number.rst.j2").render(model=model)
    olines = out.split("\n")
    outside = [i for i in list(range(tstart)) + list(range(tend, len(lines)))
               if i >= len(olines) or olines[i] != lines[i]]
    differ = []
    for i in range(tstart, tend):
        o = olines[i] if i < len(olines) else None
        if o == lines[i]:
            continue
        if o is None or strip_marker(o) != strip_marker(lines[i]) \
                or (MARKER not in o and MARKER not in lines[i]):
            differ.append(i)
    return olines, outside, differ


def main():
    with open(SCHEMA, encoding="utf-8") as f:
        schema = json.load(f)
    with open(MAGIC, encoding="utf-8") as f:
        magic_text = f.read()
    try:
        full = registry.load(SPEC, "model").doc
        # the rows of the table 6.1's tree has (a registry that knows 6.12
        # too keeps 6.12's new rows beside them)
        model = renderlib.view_for_tree(full, KTREE)
    except (Error, ValueError) as e:
        tap.check(False, "build/ioctlgen model spec writes a model (run make)")
        diag(e)
        return
    srows = [dict(r, line=int(r["source"].rsplit(":", 2)[1])) for r in model["magic-codes"]]
    data = {"doc": "The rows as ioctlgen read them.", "magic-codes": [yaml_shape(r) for r in srows]}

    # (a) schema
    try:
        jsonschema.Draft202012Validator.check_schema(schema)
        ok = True
    except jsonschema.SchemaError as e:
        ok = False
        diag(e.message)
    tap.check(ok, "magic.schema.json is a valid draft 2020-12 schema")
    v = jsonschema.Draft202012Validator(schema)
    errs = sorted(v.iter_errors(data), key=lambda e: list(e.path))
    for e in errs[:20]:
        diag(f"{'/'.join(map(str, e.path))}: {e.message}")
    tap.check(not errs, f"the rows of spec/magic.yaml validate against the schema ({len(errs)} errors)")
    bad = copy.deepcopy(data)
    bad["magic-codes"][0].update({"code": 256, "seq": "0-0-0", "Extra": 1})
    bad["magic-codes"][1]["code"] = "'EE'"
    del bad["magic-codes"][2]["doc"]
    got = {e.validator for e in v.iter_errors(bad)}
    tap.check(got >= {"oneOf", "pattern", "additionalProperties", "required"},
        f"the schema rejects a bad code, seq, key and a missing doc ({sorted(got)})")

    rst_text = None
    for tree in TREES:
        text = one_tree(full, tree, magic_text, oldest=tree == KTREE)
        if tree == KTREE:
            rst_text = text
    if rst_text is None:
        return
    lines = rst_text.split("\n")
    fresh_import(srows)

    bad_cases = [
        ("0x12  all    linux/fs.h", "0xZ2  all    linux/fs.h",
         1, "error: magic code '0xZ2' is neither 0xNN nor 'c'"),
        ("'K'   all    linux/kd.h", "'K'   all    linux/kd.h/a/very/long/path/that/runs/into/the/comments/column",
         71, "error: text crosses a column boundary"),
        ("'R'   E0     uapi/linux/fsl_mc.h", "'R'   G0     uapi/linux/fsl_mc.h",
         7, "error: sequence 'G0' is not all, NN or NN-NN"),
    ]
    for old, new, col, msg in bad_cases:
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, RST)
            os.makedirs(os.path.dirname(path))
            i = lines.index(old)
            with open(path, "w", encoding="utf-8") as f:
                f.write(rst_text.replace(old + "\n", new + "\n", 1))
            p = run([IMPORTER, "-o", "-", d])
            want = f"{path}:{i + 1}:{col}: {msg}"
            tap.check(p.returncode == 1 and p.stdout == "" and want in p.stderr.splitlines(),
                f"the importer rejects line {i + 1} with {new[:12]!r}...: {msg}")
            if p.returncode != 1 or want not in p.stderr:
                diag(f"want {want!r}, exit {p.returncode}, stderr {p.stderr[-500:]!r}")
    p = run([IMPORTER, "-o", "-", "/nonexistent"])
    tap.check(p.returncode == 1 and p.stdout == "" and "error:" in p.stderr,
        "the importer reports a missing kernel tree")


def one_tree(full, tree, magic_text, oldest):
    """The checks (b) to (d) of one kernel tree in its version's view of
    the model; returns the tree's ioctl-number.rst text, or None."""
    rst_path = os.path.join(tree, RST)
    if not os.path.exists(rst_path):
        if oldest:
            tap.check(False, f"{rst_path} exists (run 'make tree')")
        else:
            tap.skip(f"the {os.path.basename(tree)} table", f"no {rst_path} (make tree)")
        return None
    try:
        version = renderlib.version_of_tree(full, tree)
        model = renderlib.view_for_tree(full, tree)
    except ValueError as e:
        tap.check(False, f"{tree} is a version the registry knows")
        diag(e)
        return None
    V = version or os.path.basename(tree)
    srows = [dict(r, line=int(r["source"].rsplit(":", 2)[1])) for r in model["magic-codes"]]
    with open(rst_path, encoding="utf-8") as f:
        rst_text = f.read()
    lines = rst_text.split("\n")

    # (b) every row
    trows, tstart, tend = table_rows(lines)
    tap.check(len(srows) == len(trows),
        f"spec/magic.yaml has every row of the {V} table ({len(srows)} of {len(trows)})")
    pairs_t = [(c, s) for _, _, c, s in trows]
    pairs_s = [(r["code-text"], r["seq"]) for r in srows]
    mism = [(i, a, b) for i, (a, b) in enumerate(zip(pairs_t, pairs_s)) if a != b]
    for i, a, b in mism[:10]:
        diag(f"row {i}: table {a}, spec {b}")
    tap.check(not mism and len(pairs_t) == len(pairs_s),
        f"the rows of {V} have its table's codes and seqs, in table order")
    tagged = [any(MARKER in lines[k] for k in range(a, b + 1)) for a, b, _, _ in trows]
    accepted = ["overlap" in r["accept"] for r in srows]
    tap.check(tagged == accepted,
        f"accept: [overlap] on exactly the {sum(tagged)} rows {V} tags conflict!")

    mine = compute_overlaps(srows)
    theirs = [r["overlaps"] for r in model["magic-codes"]]
    diff = [i for i, (a, b) in enumerate(zip(mine, theirs)) if sorted(b) != a]
    for i in diff[:10]:
        diag(f"row {i}: ioctlgen {theirs[i]}, computed here {mine[i]}")
    tap.check(len(mine) == len(theirs) and not diff,
        f"the overlaps of {V}'s view are those computed independently here")

    # (c) render
    olines, outside, differ = table_diffs(model, lines, tstart, tend)
    tap.check(len(olines) == len(lines),
        f"the rendered {V} file has its line count ({len(olines) - 1} of {len(lines) - 1})")
    for i in outside[:10]:
        diag(f"line {i + 1}: {V} {lines[i]!r}")
        diag(f"line {i + 1}: out {olines[i] if i < len(olines) else None!r}")
    tap.check(not outside, f"the {V} prose and table heading are byte-identical "
        f"({tstart + len(lines) - tend} lines)")
    for i in differ[:20]:
        diag(f"line {i + 1}: {V} {lines[i]!r}")
        diag(f"line {i + 1}: out {olines[i] if i < len(olines) else None!r}")
    tap.check(not differ and len(olines) == len(lines),
        f"the {tend - tstart} table lines of {V} are byte-identical but for conflict! "
        f"markers ({len(differ)} differ otherwise)")
    planted_text(full, tree, version, lines, tstart, tend)

    if len(olines) == len(lines):
        computed = [any(MARKER in olines[k] for k in range(a, b + 1)) for a, b, _, _ in trows]
        moved = [r for r, (a, b, _, _) in enumerate(trows) if tagged[r] and computed[r]
                 and any(lines[k] != olines[k] for k in range(a, b + 1))]
        only_hand = [r for r in range(len(trows)) if tagged[r] and not computed[r]]
        only_comp = [r for r in range(len(trows)) if computed[r] and not tagged[r]]
        diag(f"{V}: {len(trows)} rows: {sum(tagged)} tagged conflict! by hand, "
             f"{sum(computed)} computed, {sum(a and b for a, b in zip(tagged, computed))} both")

        def show(r):
            a, _, c, s = trows[r]
            return f"  line {a + 1}: {c} {s} {', '.join(srows[r]['headers']) or '-'}"
        diag(f"tagged in {V}, no overlap computed ({len(only_hand)}):")
        for r in only_hand:
            diag(show(r))
        diag(f"overlap computed, not tagged in {V} ({len(only_comp)}):")
        for r in only_comp:
            diag(show(r) + "  overlaps " + ", ".join(
                f"{trows[j][2]} {trows[j][3]}" for j in model["magic-codes"][r]["overlaps"]))
        diag(f"tagged and computed, marker written elsewhere in {V} ({len(moved)}):")
        for r in moved:
            diag(show(r))

    # (d) importer
    vargs = ["--version", version] if version else []
    p = run([IMPORTER, "--quiet", "-o", "-", tree] + vargs)
    tap.check(p.returncode == 0 and p.stdout == magic_text,
        f"tools/import-ioctl-number --version {V} gives back spec/magic.yaml byte for byte")
    if p.returncode != 0:
        diag(p.stderr)
    if version:
        planted_import(full, tree, version, rst_text, magic_text)
    return rst_text


def planted_text(full, tree, version, lines, tstart, tend):
    """The comparison must catch a row rendered with another version's
    text: each row with doc-since gets, in this version's view, the text
    of a version it does not have there."""
    names = renderlib.version_names(full)
    rows = [i for i, r in enumerate(full["magic-codes"])
            if r.get("doc-since") and version in r["versions"]]
    if not rows:
        tap.skip(f"a wrong per-version text in the {version} table is caught",
                 "no row with doc-since exists in this version")
        return
    wrong = copy.deepcopy(full)
    for i in rows:
        r = wrong["magic-codes"][i]
        texts = [renderlib.doc_in(r, v, names) for v in r["versions"]]
        mine = renderlib.doc_in(r, version, names)
        other = next(t for t in texts if t != mine)
        # as if the renderer had taken the other version's text
        r["doc"], r["doc-since"] = other, {}
        r["in-version"][version]["doc"] = other
    _, _, differ = table_diffs(renderlib.version_view(wrong, version), lines, tstart, tend)
    tap.check(len(differ) >= len(rows),
        f"a row of {version} rendered with another version's text is caught "
        f"({len(differ)} lines differ for {len(rows)} planted rows)")


def planted_import(full, tree, version, rst_text, magic_text):
    """A table whose comment of a row with doc-since changes: the importer
    records the new text as this version's (or, when it becomes the text
    before, drops the override), and changes nothing else."""
    names = renderlib.version_names(full)
    rows = [r for r in full["magic-codes"] if r.get("doc-since") and version in r["versions"]]
    if not rows:
        return
    r = rows[0]
    lines = rst_text.split("\n")
    def import_changed(lines):
        """The importer run on the table lines; the magic.yaml lines it changes."""
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, RST)
            os.makedirs(os.path.dirname(path))
            with open(path, "w", encoding="utf-8") as f:
                f.write("\n".join(lines))
            p = run([IMPORTER, "--quiet", "-o", "-", "--version", version, d])
        return p, [l for l in difflib.unified_diff(magic_text.split("\n"), p.stdout.split("\n"),
                                                   lineterm="", n=0)
                   if l[:1] in "+-" and not l.startswith(("+++", "---"))]

    trows, _, _ = table_rows(lines)
    view_rows = renderlib.view_for_tree(full, tree)["magic-codes"]
    at = next(k for k, v in enumerate(view_rows) if v["source"] == r["source"])
    first = trows[at][0]
    new = "CHANGED comment"
    old_line = lines[first]
    comment = old_line[COMMENTS:]
    keep = MARKER + " " if comment.startswith(MARKER) else ""
    lines[first] = old_line[:COMMENTS].ljust(COMMENTS) + keep + new
    p, changed = import_changed(lines)
    if version == names[0]:
        want = [f"+    doc: {new}"]
        ok = p.returncode == 0 and f"    doc: {new}" in p.stdout.split("\n") and \
            all(l.startswith("-") or l in want for l in changed)
    else:
        want = [f'+      "{version}": {new}']
        ok = p.returncode == 0 and changed[-1:] == want and \
            all(l.startswith("-") or l in want for l in changed)
    tap.check(ok, f"the importer records a changed {version} comment of {r['code-text']} "
              f"{r['seq']} as {want[0][1:].strip()!r}, nothing else", changed[:10] or p.stderr[-500:])
    if version == names[0]:
        return
    # the table goes back to the text before: the override goes
    before = renderlib.doc_in(r, names[names.index(version) - 1], names)
    lines[first] = (old_line[:COMMENTS].ljust(COMMENTS) + keep + before).rstrip()
    p, changed = import_changed(lines)
    tap.check(p.returncode == 0 and changed == ["-    doc-since:", f'-      "{version}": {r["doc-since"][version]}'],
              f"a {version} table that writes {r['code-text']} {r['seq']}'s text of the version "
              f"before drops the override", changed[:10] or p.stderr[-500:])


ROW_KEYS = ("code-text", "seq", "headers", "doc", "contact", "accept", "include-cell", "seq-cell")


def fresh_import(srows):
    """Into a registry without magic.yaml: the rows ioctlgen reads back are
    the registry's (the writer's own style may differ from the file's)."""
    what = "a fresh import reads back as the registry's rows, include-cell and seq-cell too"
    if not tap.check(any(r["include-cell"] or r["seq-cell"] for r in srows),
                     "spec/magic.yaml carries the irregular rows' include-cell/seq-cell"):
        return
    with tempfile.TemporaryDirectory() as d:
        for f in ("layouts.yaml", "abis.yaml"):
            shutil.copy(os.path.join(SPEC, f), d)
        p = run([IMPORTER, "--quiet", "--spec", d, KTREE])
        if not tap.check(p.returncode == 0, "tools/import-ioctl-number imports into an empty registry",
                         p.stderr):
            return
        try:
            got = registry.load(d, "dump").magic_codes
        except Error as e:
            got = []
            diag(e)
        diff = [i for i, (a, b) in enumerate(zip(got, srows))
                if [a[k] for k in ROW_KEYS] != [b[k] for k in ROW_KEYS]]
        for i in diff[:10]:
            diag(f"row {i}: fresh {[got[i][k] for k in ROW_KEYS]}")
            diag(f"row {i}: spec  {[srows[i][k] for k in ROW_KEYS]}")
        tap.check(len(got) == len(srows) and not diff, f"{what} ({len(diff)} of {len(srows)} differ)")


if __name__ == "__main__":
    main()
    tap.done()
