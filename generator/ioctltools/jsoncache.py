# SPDX-License-Identifier: GPL-2.0
"""Big JSON of build/ read fast: after an edit about ten processes (render,
the series, the audits, the site ...) each read the 21 MB build/model.json,
and two (the site, the exports) the lookup table's dump.  The first keeps
what it parsed as a pickle beside it (build/.model.json.pickle,
build/.ioctl.table.dump.pickle), keyed by the SHA-256 of all it was made
from, so it can never answer for other content; the others load that
instead (the model: 0.2 -> 0.08 CPU-s, the collector paused while the
objects are built).

What was read is then frozen out of the cyclic garbage collector
(gc.freeze()): its later passes, and the one at exit, no longer walk it.
The objects are read-only data of a process that exits when its stage is
done.

Only files below the checkout's build/ get a cache: a fixture's model in
the source tree or a test's temporary directory is parsed as it is."""

import gc
import hashlib
import json
import os
import pickle
import tempfile

from . import TOP

BUILD = os.path.join(TOP, "build")


def cache_path(path, what=""):
    """Where the object read from path (what: of which kind) is kept: None
    outside build/."""
    a = os.path.abspath(path)
    if not a.startswith(BUILD + os.sep):
        return None
    d, name = os.path.split(a)
    return os.path.join(d, "." + name + (what and "." + what) + ".pickle")


def cached(key, cache, make):
    """make()'s object, or the one cache (a path or None) keeps under key
    (bytes: a digest of all make() reads)."""
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
        obj = make()
        if cache:
            _save(cache, key, obj)
    gc.freeze()
    return obj


def loads(data, cache=None):
    """data (bytes) parsed as JSON; cache: where its pickle is kept."""
    return cached(hashlib.sha256(data).digest(), cache, lambda: json.loads(data))


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
    return loads(data, cache_path(path))
