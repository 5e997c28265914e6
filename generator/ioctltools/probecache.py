# SPDX-License-Identifier: GPL-2.0
"""The result cache of tools/measure-sizes: a probe is compiled again only
when something it depends on changed.

An entry is one probe (one header spec on one ABI) and holds what the probe
found (sizes, defined commands, failed types, why the header is unusable;
never a result with errors).  Its key is the SHA-256 of everything the
compile reads that is not a file on disk:
  - the ABI's whole compiler command line (cc, cflags, -I, -idirafter ...),
  - the compiler's identity: the driver and cc1 as files (path, content),
  - the directories the compiler searches (`cc -v`, toolchain.check()),
  - the names of every exported kernel header (they tell a missing kernel
    header from a missing C library one),
  - the source of these Python modules (how a probe is read back),
  - the probe's full C text, its -E variants and what it expects (commands,
    types, the asm-generic file its include must pull in).
Beside the key the entry records the files the compiles read, from their
.d files (a probe whose compile stops at a missing header: `-M -MG`), each
with the SHA-256 of its content, and the include names the compiler did not
find.  An entry is used only when every file still has its content (size,
mtime, inode and ctime as recorded mean the same content; otherwise the file
is hashed again), no search directory before the one that held a file has
one of its include name now (a header that would shadow it), and no search
directory has a name that was not found.  The toolchain check's entry (its
result is the search list) also records the directories the compiler
ignored as nonexistent: one that appears changes the list.  A file that changed while the probe ran
(mtime after the run's start) keeps the entry from being stored.

The store is one JSON file per ABI in the cache directory; a run of every
probe keeps the entries it used or made and drops the others, a partial
run (measure-sizes --only: an edit's headers) keeps the others too.  Each
kernel version has a directory of its own (pipeline.Where.probe_cache): the
runs of two versions would drop each other's entries."""

import hashlib
import json
import os
import shutil
import subprocess
import threading
import time

from . import cc

VERSION = 2
MODULES = ("cc.py", "probeengine.py", "probecache.py", "sizeprobe.py", "toolchain.py", "measure.py",
           "newheader.py")


def sha(text):
    return hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest()


def code_hash():
    """The source of the modules that make and read probes."""
    h = hashlib.sha256()
    here = os.path.dirname(os.path.abspath(__file__))
    for m in MODULES:
        try:
            with open(os.path.join(here, m), "rb") as f:
                h.update(m.encode() + b"\0" + f.read() + b"\0")
        except FileNotFoundError:
            h.update(m.encode() + b"\0-\0")
    return h.hexdigest()


class Files:
    """Content hashes of files and whether paths exist, each found once a
    run; file hashes are kept across runs by stat."""

    def __init__(self, stats):
        self.stats = stats		# path -> [size, mtime_ns, ino, ctime_ns, sha]
        self.used = {}
        self.there = {}		# path -> exists
        self.lock = threading.Lock()
        self.start_ns = time.time_ns()
        self.changed = False		# a file hashed again: its stat entry is new

    def content(self, path):
        """SHA-256 of the file's content, None when it is missing, "changing"
        when it changed after the run started."""
        with self.lock:
            if path in self.used:
                return self.used[path]
        try:
            st = os.stat(path)
        except OSError:
            digest = None
        else:
            stamp = [st.st_size, st.st_mtime_ns, st.st_ino, st.st_ctime_ns]
            old = self.stats.get(path)
            if old and old[:4] == stamp:
                digest = old[4]
            else:
                try:
                    with open(path, "rb") as f:
                        digest = hashlib.sha256(f.read()).hexdigest()
                except OSError:
                    digest = None
                if digest and max(st.st_mtime_ns, st.st_ctime_ns) >= self.start_ns:
                    digest = "changing"	# racy: never trusted, never stored
                elif digest:
                    self.stats[path] = stamp + [digest]
                    self.changed = True
        with self.lock:
            self.used[path] = digest
        return digest

    def exists(self, path):
        with self.lock:
            if path in self.there:
                return self.there[path]
        there = os.path.lexists(path)
        with self.lock:
            self.there[path] = there
        return there

    def kept_stats(self):
        return {p: self.stats[p] for p in self.used if p in self.stats}


def compiler_identity(argv, files):
    """The driver and its cc1 as files: another compiler version, or the same
    version rebuilt, is another identity."""
    out = []
    driver = shutil.which(argv[0])
    for path in [driver] + ([prog_name(argv, "cc1")] if driver else []):
        if path:
            real = os.path.realpath(path)
            out.append(f"{real} {files.content(real)}")
    return "\n".join(out) or argv[0]


def prog_name(argv, prog):
    try:
        r = subprocess.run(argv + [f"-print-prog-name={prog}"], capture_output=True, text=True)
    except OSError:
        return None
    p = r.stdout.strip()
    return p if r.returncode == 0 and os.path.isabs(p) else None


class Store:
    """The entries of one ABI."""

    def __init__(self, cache_dir, abi, files, partial=False):
        self.partial = partial
        self.path = os.path.join(cache_dir, abi + ".json") if cache_dir else None
        self.files = files
        self.entries, self.kept = {}, {}
        self.where = {}		# path -> (index of its search dir, include name)
        self.dirty = False
        self.hits = self.misses = 0
        if not self.path:
            return
        try:
            with open(self.path, encoding="utf-8") as f:
                doc = json.load(f)
        except (OSError, ValueError):
            return
        if doc.get("version") == VERSION:
            self.entries = doc.get("entries") or {}
            for p, st in (doc.get("stats") or {}).items():
                files.stats.setdefault(p, st)

    def get(self, key, search, count=True):
        """The stored result of key, when every file it depends on has the
        content it had and no search directory before the one that held it
        (search, the compiler's list; None: the result is that list) has a
        file of its name now, nor any a name the compiler did not find."""
        e = self.entries.get(key)
        ok = e is not None and \
            all(self.files.content(p) == h for p, h in e["files"]) and \
            not any(self.files.exists(p) for p in e["absent"]) and \
            not self.shadowed(e, e["result"] if search is None else search)
        if ok:
            self.kept[key] = e
        if count:
            self.hits += ok
            self.misses += not ok
        return e["result"] if ok else None

    def shadowed(self, e, search):
        """Is a file of e, or a name it did not find, now in a search
        directory before the one that held it?  A name held by several
        directories (#include_next: gcc's limits.h, then glibc's) counts
        from the first of them."""
        memo, first = self.where, {}
        for p, _ in e["files"]:
            if p not in memo:
                memo[p] = where(p, search)
            k, rel = memo[p]
            if rel is not None and first.get(rel, k) >= k:
                first[rel] = k
        if any(self.files.exists(os.path.join(search[j], rel))
               for rel, k in first.items() for j in range(k)):
            return True
        return any(self.files.exists(os.path.join(d, rel)) for rel in e["missing"]
                   for d in search)

    def put(self, key, result, deps, missing, absent=()):
        """Store result under key with the files deps (absolute paths, from
        the .d files) and their content, the include names the compiler
        did not find (missing), and paths that must stay absent (the
        directories the compiler ignored as nonexistent)."""
        files = {}
        for d in deps:
            p = os.path.normpath(os.path.abspath(d))
            files[p] = self.files.content(p)
            if files[p] in (None, "changing"):
                return False
        self.kept[key] = {"result": result, "files": sorted(files.items()),
                          "missing": sorted(set(missing)), "absent": sorted(set(absent))}
        self.dirty = True
        return True

    def save(self):
        """Write the entries the run used or made, unless they are the
        ones read."""
        if not self.path or not (self.dirty or self.files.changed or
                                 (not self.partial and self.kept.keys() != self.entries.keys())):
            return
        os.makedirs(os.path.dirname(self.path), exist_ok=True)
        kept = dict(self.entries, **self.kept) if self.partial else self.kept
        used = {p for e in kept.values() for p, _ in e["files"]}
        doc = {"version": VERSION, "entries": kept,
               "stats": {p: st for p, st in self.files.stats.items() if p in used}}
        tmp = self.path + ".tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump(doc, f, separators=(",", ":"), sort_keys=True)
        os.replace(tmp, self.path)


def where(path, search):
    """(index of the search directory path is under, the include name), the
    longest directory winning; (None, None) outside them all."""
    best = None
    for i, d in enumerate(search):
        if path.startswith(d + os.sep) and (best is None or len(d) > len(search[best])):
            best = i
    if best is None:
        return None, None
    return best, os.path.relpath(path, search[best])


def key(*parts):
    return sha(json.dumps(parts, sort_keys=True, separators=(",", ":")))


def probe_key(base, probe):
    """The key of one probe on one ABI: base (the ABI's) and every text the
    probe's compiles read that is no file on disk."""
    h = probe.header
    src, _ = probe.source()
    defines = "\n".join(cc.prologue(h.includes, probe.include, h.prelude))
    return key(base, src, probe.ioc_text_lines(), defines, probe.stem, probe.include,
               probe.require, h.header_test, sorted(probe.types),
               [(c.name, c.plain, c.number, c.nparams, c.types) for c in probe.commands])
