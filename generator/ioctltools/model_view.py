#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The model as one kernel tree's version has it.

usage: tools/model-view MODEL KERNEL_TREE -o OUT

A registry that knows several kernel versions (spec/versions.yaml) holds
the commands and magic-code rows of all of them, each command with the
numbers of its newest version.  What is checked against one tree (the
series applied to it, its compiled headers, its ioctl-number.rst) must see
that tree's version only: its commands, its rows, its numbers
(renderlib.view_for_tree(), the version read from the tree's Makefile).
A registry without versions is written as it is."""

import argparse
import json
import sys

from . import model_reader, renderlib


def main():
    ap = argparse.ArgumentParser(prog="tools/model-view", description=__doc__.split("\n\n")[0])
    ap.add_argument("model")
    ap.add_argument("tree")
    ap.add_argument("-o", "--out", required=True)
    args = ap.parse_args()
    try:
        view = renderlib.view_for_tree(model_reader.load(args.model), args.tree)
    except model_reader.ModelError as e:
        sys.exit(str(e))
    except (OSError, ValueError) as e:
        sys.exit(f"{args.model}: error: {e}")
    renderlib.write_if_changed(args.out, json.dumps(view, indent=1, sort_keys=True) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
