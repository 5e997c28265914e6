# SPDX-License-Identifier: GPL-2.0
"""tools/use-tree, step 3: the exported UAPI of every ARCH,
build/tree/NAME/uapi/<arch>: `make headers_install` of the snapshot
(tools/headers-install, as the Makefile runs it), or a known tree's export
when headers_install would read the same files, or nothing when they are
the last run's."""

import hashlib
import json
import os
import shutil
import stat
import subprocess
import time

from .. import pipeline
from . import TOP, Fail, read_json, rel, say, tail, write_json

# What `make headers_install` reads: the top Makefile and Kbuild, the arch
# directories (the arch Makefile, its syscall tables and uapi headers),
# include/ (uapi and the asm-generic Kbuild lists), scripts/ (Kbuild,
# headers_install.sh, unifdef), usr/ and tools/include (host tools).
HDR_INPUTS = ("Makefile", "Kbuild", "arch", "include", "scripts", "usr", "tools/include")


def hdr_inputs(root):
    """(name, path, lstat) of every file headers_install reads under root."""
    for top in HDR_INPUTS:
        base = os.path.join(root, top)
        if os.path.isfile(base) or os.path.islink(base):
            walk = [(root, [], [top])]
        else:
            walk = os.walk(base)
        for r, _, files in walk:
            for f in files:
                p = os.path.join(r, f)
                yield os.path.relpath(p, root), p, os.lstat(p)


def hdr_manifest(root, cache_file):
    """{path: [sha256, mtime_ns]} of the files headers_install reads under
    root, hashing again only the files whose inode, size, mtime or ctime
    changed since cache_file was written."""
    try:
        with open(cache_file, encoding="utf-8") as f:
            old = json.load(f)
    except (OSError, ValueError):
        old = {}
    new, out = {}, {}
    for n, p, st in hdr_inputs(root):
        sig = [st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns]
        o = old.get(n)
        if o and o[:4] == sig:
            digest = o[4]
        elif stat.S_ISLNK(st.st_mode):
            digest = "link:" + os.readlink(p)
        elif stat.S_ISREG(st.st_mode):
            hh = hashlib.sha256()
            with open(p, "rb") as fh:
                for chunk in iter(lambda: fh.read(1 << 20), b""):
                    hh.update(chunk)
            digest = hh.hexdigest() + ("x" if st.st_mode & 0o111 else "")
        else:
            continue
        new[n] = sig + [digest]
        out[n] = [digest, st.st_mtime_ns]
    write_json(cache_file, new)
    return out


def manifest_digest(m):
    h = hashlib.sha256()
    for n in sorted(m):
        h.update(f"{n}\0{m[n][0]}\n".encode("utf-8", "surrogateescape"))
    return h.hexdigest()


def reference(version, known, arch):
    """(tree, exported headers of arch) of a known version (known: the
    registry's versions), as the Makefile makes them (pipeline.Where.of),
    or None when they are not there (up to date)."""
    w = pipeline.Where.of(version, known)
    tree, uapi = os.path.join(TOP, w.tree), os.path.join(TOP, w.uapi, arch)
    try:
        if os.path.getmtime(os.path.join(uapi, ".done")) >= \
                os.path.getmtime(os.path.join(tree, ".extracted")):
            return tree, uapi
    except OSError:
        pass
    return None


def src_manifest(W, src):
    """(the manifest of what headers_install reads of the snapshot, its digest)."""
    cur = hdr_manifest(src, os.path.join(W, "state", "hdr-hashes.json"))
    return cur, manifest_digest(cur)


def headers(W, src, cur, digest, arches, version, known, jobs, logdir):
    """build/tree/NAME/uapi/<arch> for every arch: the snapshot's
    headers_install, or a known tree's when the inputs are the same (cur,
    digest: src_manifest(); known: the registry's versions when version is
    one of them, else None)."""
    ref_digest = None
    made = {"same": 0, "copied": 0, "built": 0, "rebuilt": 0}
    for arch in arches:
        out = os.path.join(W, "uapi", arch)
        stamp = os.path.join(out, ".digest")
        try:
            with open(stamp) as f:
                if f.read().strip() == digest:
                    made["same"] += 1
                    continue
        except OSError:
            pass
        ref = reference(version, known, arch) if known else None
        if ref and ref_digest is None:
            ref_digest = manifest_digest(hdr_manifest(
                ref[0], os.path.join(TOP, "build", "tree", ".reference", f"{version}.json")))
        if ref and ref_digest == digest:
            say("HDRINST", f"{rel(out)} (the sources of {rel(ref[0])}: its {rel(ref[1])})")
            shutil.rmtree(out, ignore_errors=True)
            shutil.copytree(ref[1], out, symlinks=True)
            made["copied"] += 1
        else:
            kobj = os.path.join(W, "kobj-hdr", arch)
            kstate = read_json(kobj + ".json") or {}
            old = read_json(os.path.join(W, "state", "manifests", f"{kstate.get('digest')}.json"))
            fresh = not (old and os.path.isdir(kobj) and
                         incremental_ok(old, cur, kstate.get("built-at", 0)))
            if fresh:
                shutil.rmtree(kobj, ignore_errors=True)
            say("HDRINST", f"{rel(out)} ({'from scratch' if fresh else 'incremental'})")
            shutil.rmtree(out, ignore_errors=True)
            os.makedirs(kobj, exist_ok=True)
            log = os.path.join(logdir, f"headers-{arch}.log")
            with open(log, "w") as lf:
                r = subprocess.run(pipeline.headers_install(src, kobj, arch, out, f"-j{jobs}"),
                                   stdout=lf, stderr=subprocess.STDOUT)
            if r.returncode != 0:
                if os.path.exists(kobj + ".json"):
                    os.unlink(kobj + ".json")
                raise Fail(f"make headers_install ARCH={arch} of {rel(src)} failed "
                           f"(exit {r.returncode}; {rel(log)}):\n" + tail(log))
            write_json(os.path.join(W, "state", "manifests", f"{digest}.json"), cur)
            write_json(kobj + ".json", {"digest": digest, "built-at": time.time_ns()})
            made["rebuilt" if not fresh else "built"] += 1
        with open(os.path.join(out, ".done"), "w"):
            pass
        with open(stamp, "w") as f:
            f.write(digest + "\n")
    # Keep the manifests a kobj still refers to.
    keep = {f"{(read_json(os.path.join(W, 'kobj-hdr', a + '.json')) or {}).get('digest')}.json"
            for a in arches}
    mdir = os.path.join(W, "state", "manifests")
    for f in os.listdir(mdir) if os.path.isdir(mdir) else ():
        if f not in keep:
            os.unlink(os.path.join(mdir, f))
    return made


def incremental_ok(old, cur, built_at):
    """Can Kbuild's objects of the build that read `old` be reused for
    `cur`?  Kbuild compares mtimes: only when no file went away and every
    file whose content changed is newer than that build."""
    if any(n not in cur for n in old):
        return False
    return all(cur[n][1] > built_at for n in cur if n in old and old[n][0] != cur[n][0])
