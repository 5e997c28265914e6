# SPDX-License-Identifier: GPL-2.0
"""Python tools of ioctl-registry: the UAPI importer, tools/measure-sizes and
the rules they and the tests share.  The registry itself reaches them only as
the JSON that ioctlgen writes (registry.py); no module here parses spec/."""

import os
import sys

# The clone's top directory (this file is generator/ioctltools/__init__.py).
TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class Error(Exception):
    """A failure that stops a tool; its text says what the tool was doing."""


def run_main(main):
    """A module's entry point: exit with main(argv)'s status, or print the
    Error that stopped it and exit 1."""
    try:
        sys.exit(main(sys.argv[1:]))
    except Error as e:
        print(e, file=sys.stderr)
        sys.exit(1)


def read_text(path, doing=""):
    """A text file's content (bytes that are not UTF-8 replaced), or an
    Error naming path and what the caller was doing."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read()
    except OSError as e:
        raise Error(f"{path}: error: {doing + ': ' if doing else ''}{e.strerror}") from e


def results_of(futures):
    """The results of futures, in order; the Errors they raised, as one Error."""
    out, errors = [], []
    for f in futures:
        try:
            out.append(f.result())
        except Error as e:
            errors.append(str(e))
    if errors:
        raise Error("\n".join(errors))
    return out
