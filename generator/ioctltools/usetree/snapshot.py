# SPDX-License-Identifier: GPL-2.0
"""tools/use-tree, steps 1 and 2: the tree (is it one, its version), its
snapshot as hard links in build/tree/NAME/src, and the copy of the
registry, with the tree's version added when it is new."""

import errno
import hashlib
import os
import re
import shutil
import stat
import subprocess

from .. import Error, registry, renderlib, specwrite
from . import PROG, RST, TOP, Fail, die, rel, say

# Kbuild's in-tree build state: an O= build refuses a tree that has it.
BUILD_STATE = re.compile(r"^(\.config(\.old)?|include/(config|generated)/.*|"
                         r"arch/[^/]+/include/generated/.*)$")


def kernel_tree(path):
    """The absolute path of TREE, or a clear error: it must exist, be a
    readable directory and look like a kernel tree."""
    if not path:
        die("no tree: say which kernel tree to use (make TREE=/path/to/linux, "
            f"or {PROG} /path/to/linux)")
    tree = os.path.realpath(os.path.abspath(path))
    if not os.path.exists(tree):
        die(f"{path}: no such file or directory")
    if not os.path.isdir(tree):
        die(f"{path}: not a directory (a kernel tree is one)")
    if not os.access(tree, os.R_OK | os.X_OK):
        die(f"{path}: cannot read the directory")
    if tree == TOP or TOP.startswith(tree + os.sep):
        die(f"{path}: that is (or holds) this project, not a kernel tree")
    work_root = os.path.join(TOP, "build", "tree")
    if tree == work_root or tree.startswith(work_root + os.sep):
        die(f"{path}: a directory of {rel(work_root)}, where {PROG} works; "
            "name the tree itself")
    missing = [p for p in ("Makefile", "include/uapi", "arch", RST)
               if not os.path.exists(os.path.join(tree, p))]
    if missing:
        die(f"{path}: not a kernel tree (no {', '.join(missing)})")
    mk = os.path.join(tree, "Makefile")
    try:
        with open(mk, "rb") as f:
            f.read(1)
    except OSError as e:
        die(f"{path}/Makefile: cannot read it: {e.strerror}")
    full = renderlib.tree_version(tree)
    if not full:
        die(f"{path}/Makefile:1:1: error: not a kernel Makefile: no VERSION and "
            "PATCHLEVEL lines")
    return tree, full


def extraversion(tree):
    try:
        with open(os.path.join(tree, "Makefile"), encoding="utf-8", errors="replace") as f:
            for line in f:
                m = re.match(r"EXTRAVERSION\s*=\s*(\S*)\s*$", line)
                if m:
                    return m.group(1)
    except OSError:
        pass
    return ""


def git(tree, *args, check=True):
    r = subprocess.run(["git", "-c", "safe.directory=*", "-c", "core.quotepath=off",
                        "-C", tree, *args], capture_output=True)
    if check and r.returncode != 0:
        raise Fail(f"git -C {tree} {' '.join(args)}: "
                   f"{r.stderr.decode(errors='replace').strip()}")
    return r


def is_git_checkout(tree):
    r = git(tree, "rev-parse", "--show-toplevel", check=False)
    return r.returncode == 0 and \
        os.path.realpath(r.stdout.decode(errors="surrogateescape").strip()) == tree


def source_files(tree, is_git):
    """The files of the snapshot, relative to tree."""
    if is_git:
        listed = git(tree, "ls-files", "-z", "-c", "-o", "--exclude-standard").stdout
        deleted = git(tree, "ls-files", "-z", "-d").stdout
        names = set(listed.decode("utf-8", "surrogateescape").split("\0")) - \
            set(deleted.decode("utf-8", "surrogateescape").split("\0"))
        names.discard("")
    else:
        names = set()
        for root, dirs, files in os.walk(tree):
            dirs[:] = [d for d in dirs if d != ".git"]
            r = os.path.relpath(root, tree)
            for f in files:
                names.add(f if r == "." else os.path.join(r, f))
    # This project's stamp of an extracted tree is no source (and the
    # snapshot's own must not be a link to it).
    return sorted(n for n in names if n != ".extracted" and not BUILD_STATE.match(n))


def place(s, d, st):
    """d as a hard link to s (or a copy, or the same symbolic link)."""
    if os.path.lexists(d) or os.path.isdir(d):
        if os.path.isdir(d) and not os.path.islink(d):
            shutil.rmtree(d)
        else:
            os.unlink(d)
    parent = os.path.dirname(d)
    try:
        os.makedirs(parent, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        # a file of the last snapshot where a directory is now
        p = parent
        while not os.path.isdir(p):
            if os.path.lexists(p):
                os.unlink(p)
                break
            p = os.path.dirname(p)
        os.makedirs(parent, exist_ok=True)
    if stat.S_ISLNK(st.st_mode):
        os.symlink(os.readlink(s), d)
        return "link"
    try:
        os.link(s, d)
        return "hard"
    except OSError as e:
        if e.errno not in (errno.EXDEV, errno.EPERM, errno.EMLINK, errno.EACCES):
            raise
    shutil.copy2(s, d)
    return "copy"


def snapshot(tree, is_git, src):
    """Make src hold exactly the tree's source files; the fingerprint of
    what it holds (names, inodes, sizes, mtimes) and counts."""
    names = source_files(tree, is_git)
    os.makedirs(src, exist_ok=True)
    h = hashlib.sha256()
    counts = {"kept": 0, "hard": 0, "copy": 0, "link": 0, "gone": 0}
    want = set()
    for n in names:
        s, d = os.path.join(tree, n), os.path.join(src, n)
        try:
            st = os.lstat(s)
        except FileNotFoundError:
            counts["gone"] += 1
            continue
        if not (stat.S_ISREG(st.st_mode) or stat.S_ISLNK(st.st_mode)):
            continue
        want.add(n)
        h.update(f"{n}\0{st.st_mode}\0{st.st_ino}\0{st.st_size}\0{st.st_mtime_ns}\n"
                 .encode("utf-8", "surrogateescape"))
        try:
            dt = os.lstat(d)
        except (FileNotFoundError, NotADirectoryError):
            dt = None
        if dt is not None:
            if stat.S_ISLNK(st.st_mode):
                if stat.S_ISLNK(dt.st_mode) and os.readlink(d) == os.readlink(s):
                    counts["kept"] += 1
                    continue
            elif (dt.st_ino, dt.st_dev) == (st.st_ino, st.st_dev) or (
                    stat.S_ISREG(dt.st_mode) and dt.st_nlink == 1 and
                    (dt.st_size, dt.st_mtime_ns) == (st.st_size, st.st_mtime_ns) and
                    dt.st_dev != st.st_dev):
                counts["kept"] += 1	# the same file, or an unchanged copy
                continue
        counts[place(s, d, st)] += 1
    # What the tree no longer has.
    removed = 0
    for root, dirs, files in os.walk(src, topdown=False):
        r = os.path.relpath(root, src)
        for f in files:
            n = f if r == "." else os.path.join(r, f)
            if n not in want and n != ".extracted":
                os.unlink(os.path.join(root, f))
                removed += 1
        for d in dirs:
            p = os.path.join(root, d)
            n = d if r == "." else os.path.join(r, d)
            if os.path.islink(p):
                if n not in want:
                    os.unlink(p)
                    removed += 1
            elif not os.listdir(p):
                os.rmdir(p)
    counts["removed"] = removed
    return h.hexdigest(), len(want), counts


def append_version(spec, version, tree, full, is_git):
    """Add version, newest, to spec/versions.yaml of the copy: text after
    the last entry (versions.yaml ends with its list)."""
    what = f"Linux {full}{extraversion(tree)}"
    if is_git:
        head = git(tree, "rev-parse", "--short=12", "HEAD", check=False).stdout.decode().strip()
        dirty = git(tree, "status", "--porcelain", "--untracked-files=normal",
                    check=False).stdout.strip()
        origin = f"a git checkout at {head or '(no commit)'}" + \
            (" with uncommitted changes" if dirty else "")
    else:
        origin = "an unpacked source tree"
    doc = (f"{what}, {origin} ({tree}), added by tools/use-tree: a developer's own "
           "tree, not a Debian one; say where it comes from before contributing it.")
    path = os.path.join(spec, "versions.yaml")
    with open(path, encoding="utf-8") as f:
        text = f.read()
    if not text.endswith("\n"):
        text += "\n"
    text += f'  - name: "{version}"\n    doc: {specwrite.scalar(doc)}\n'
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def snapshot_step(tree, is_git, W, src):
    """Step 1: the snapshot, and a new stamp of it when it changed; its
    fingerprint."""
    fp, nfiles, counts = snapshot(tree, is_git, src)
    fp_file = os.path.join(W, "state", "src.fingerprint")
    os.makedirs(os.path.dirname(fp_file), exist_ok=True)
    old_fp = open(fp_file).read().strip() if os.path.exists(fp_file) else None
    stamp = os.path.join(src, ".extracted")
    if fp != old_fp or not os.path.exists(stamp):
        # make-patches commits the tree again when this stamp is newer
        with open(stamp, "w"):
            pass
        with open(fp_file, "w") as f:
            f.write(fp + "\n")
    changed = counts["hard"] + counts["copy"] + counts["link"] + counts["removed"]
    say("TREE", f"{rel(src)}: {nfiles} files of {tree} "
        f"({'git: tracked and untracked, not ignored' if is_git else 'unpacked: every file'}; "
        f"{changed} changed: {counts['hard']} linked, {counts['copy']} copied, "
        f"{counts['removed']} removed)")
    return fp


def spec_step(run, logdir, spec_from, tree, full, version, known, append, is_git):
    """Step 2: run/ anew, the copy of the registry in run/spec with the
    tree's version added when it is new, as ioctlgen reads it."""
    all_versions = known + ([version] if append else [])
    shutil.rmtree(run, ignore_errors=True)
    os.makedirs(logdir)
    spec = os.path.join(run, "spec")
    shutil.copytree(spec_from, spec, symlinks=True)
    if append:
        append_version(spec, version, tree, full, is_git)
    try:
        reg = registry.load(rel(spec), "dump")
    except Error as e:
        raise Fail(f"the copy of the registry with {version} added is refused:\n{e}")
    if reg.versions() != all_versions:
        raise Fail(f"{rel(spec)}/versions.yaml: ioctlgen reads the versions "
                   f"{', '.join(reg.versions())}, not {', '.join(all_versions)}")
    say("VERSION", f"Linux {full}{extraversion(tree)}: " +
        (f"{version}, new: added to {rel(spec)}/versions.yaml after {known[-1]}" if append
         else f"{version}, a version the registry knows"))
    return spec, reg
