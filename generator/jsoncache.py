# SPDX-License-Identifier: GPL-2.0
"""A big JSON file of build/ read fast: after an edit about ten processes
(render, the series, the audits, the site ...) each read the 21 MB
build/model.json.  The first keeps what it parsed as a pickle beside it
(build/.model.json.pickle), keyed by the SHA-256 of the JSON's bytes, so it
can never answer for other content; the others load that instead
(0.2 -> 0.08 CPU-s each, the collector paused while it builds the objects).

What was read is then frozen out of the cyclic garbage collector
(gc.freeze()): its later passes, and the one at exit, no longer walk the
whole model (export: 1.6 -> 1.1 CPU-s).  The objects are read-only data of a
process that exits when its stage is done.

Only files below the checkout's build/ get a cache: a fixture's model in
the source tree or a test's temporary directory is parsed as it is."""

import gc
import hashlib
import json
import os
import pickle
import tempfile

BUILD = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "build")


def _cache_path(path):
    a = os.path.abspath(path)
    if not a.startswith(BUILD + os.sep):
        return None
    d, name = os.path.split(a)
    return os.path.join(d, "." + name + ".pickle")


def loads(data, cache=None):
    """data (bytes) parsed as JSON; cache: where its pickle is kept."""
    key = hashlib.sha256(data).digest()
    obj = None
    if cache:
        try:
            with open(cache, "rb") as f:
                if f.read(len(key)) == key:
                    gc.disable()
                    try:
                        obj = pickle.load(f)
                    finally:
                        gc.enable()
        except (OSError, EOFError, ValueError, pickle.UnpicklingError):
            obj = None
    if obj is None:
        obj = json.loads(data)
        if cache:
            _save(cache, key, obj)
    gc.freeze()
    return obj


def _save(cache, key, obj):
    """Written whole and renamed: a reader beside sees the old one or this."""
    try:
        fd, tmp = tempfile.mkstemp(dir=os.path.dirname(cache), prefix=".tmp-")
    except OSError:
        return          # a read-only build/: no cache, the same answer
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(key)
            pickle.dump(obj, f, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, cache)
    except OSError:
        try:
            os.unlink(tmp)
        except OSError:
            pass


def load(path):
    """The JSON file at path (OSError, ValueError as json.load raises them)."""
    with open(path, "rb") as f:
        data = f.read()
    return loads(data, _cache_path(path))
