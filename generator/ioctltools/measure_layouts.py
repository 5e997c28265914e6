#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Measure the layout of every struct and union the registry defines, on
every ABI: size, alignment, each member's offset and size, the holes.

usage: tools/measure-layouts MODEL UAPI_DIR OUT

MODEL is build/model.json; UAPI_DIR holds each ARCH's exported headers
(build/uapi/<arch>/include, `make uapi`); OUT is the JSON file the site's
struct layout view reads (build/layouts.json), written whole or not at all.
See generator/ioctltools/layouts.py."""

import json
import os
import sys

from . import Error, layouts, model_reader


def main(argv):
    if len(argv) != 4:
        sys.exit(__doc__.split("\n\n")[1])
    model_path, uapi, out = argv[1:]
    try:
        model = model_reader.load(model_path)
        probe = layouts.probe_source(model)
        key = layouts.inputs_key(model, uapi, probe[0])
        try:
            with open(out, encoding="utf-8") as f:
                if json.load(f).get("key") == key:
                    os.utime(out)	# up to date: make need not ask again
                    return
        except (OSError, ValueError):
            pass
        result = layouts.measure(model, uapi, probe)
        result["key"] = key
    except (OSError, ValueError) as e:
        sys.exit(f"{model_path}: error: {e}")
    except Error as e:
        sys.exit(str(e))
    tmp = out + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(result, f, indent=1, sort_keys=True)
        f.write("\n")
    os.replace(tmp, out)


if __name__ == "__main__":
    main(sys.argv)
