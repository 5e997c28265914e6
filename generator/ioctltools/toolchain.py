# SPDX-License-Identifier: GPL-2.0
"""One ABI's toolchain for tools/measure-sizes: its compiler command, the
kernel headers it must use, the directories it searches, and the check
that it can compile the basic C library and kernel headers at all."""

import os
import re
import shlex

from . import Error, cc, probeengine

# Every toolchain must compile this before its probes are trusted: a missing
# C library header must never look like an absent command.
TOOLCHAIN_PROBE = """#include <stddef.h>
#include <stdint.h>
#include <time.h>
#include <sys/types.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <linux/types.h>
#include <linux/ioctl.h>
#include <asm/ioctls.h>
int toolchain_probe[sizeof(__u64) == 8 && sizeof(uint32_t) == 4 ? 1 : -1];
"""


def kernel_header_names(uapi_dir, arches):
    """Every header any of the ARCHes exports (uapi_dir/<arch>/include), as
    included: linux/fs.h."""
    names = set()
    for arch in arches:
        top = os.path.join(uapi_dir, arch, "include")
        for root, _, files in os.walk(top):
            names.update(os.path.relpath(os.path.join(root, f), top) for f in files)
    return names


def is_kernel_header(name, kernel_names):
    return name in kernel_names or name.split("/")[0] in ("linux", "asm", "asm-generic")


class Toolchain:
    def __init__(self, abi, uapi_dir, kernel_names, new_inc=None):
        self.abi = abi
        self.name = abi.name
        self.inc = os.path.abspath(os.path.join(uapi_dir, abi.arch, "include"))
        # the registry's new headers (measure.write_new_headers()), searched first
        self.new_inc = os.path.abspath(new_inc) if new_inc else None
        self.first = [self.new_inc] if new_inc else []
        self.cc = abi.compiler + cc.include_flags(self.first + [self.inc])
        self.kernel_names = kernel_names
        self.search = []

    def check(self, work):
        """Compile TOOLCHAIN_PROBE and learn the search list; raise on
        failure.  Returns the files it read and the directories the compiler
        ignored as nonexistent (for the cache)."""
        os.makedirs(work, exist_ok=True)
        src = os.path.join(work, "toolchain.c")
        with open(src, "w", encoding="utf-8") as f:
            f.write(TOOLCHAIN_PROBE)
        dep = os.path.join(work, "toolchain.d")
        r = probeengine.run(self.cc + ["-v", "-S", "-MD", "-MF", dep, "-o", os.path.join(work, "toolchain.s"),
                              src])
        if r.returncode != 0:
            raise Error(f"{self.abi.source}: error: ABI {self.name}: the toolchain cannot "
                        f"compile the basic C library and kernel headers "
                        f"(install its packages: tools/install-deps)\n  command: "
                        f"{shlex.join(self.cc)}\n" +
                        "\n".join("  " + l for l in r.stderr.splitlines() if "error" in l)[:2000])
        inside, ignored = False, []
        for line in r.stderr.splitlines():
            m = re.match(r'ignoring nonexistent directory "(.*)"$', line)
            if m:
                ignored.append(os.path.normpath(m.group(1)))
            elif line.startswith("#include <...> search starts here"):
                inside = True
            elif line.startswith("End of search list"):
                inside = False
            elif inside:
                self.search.append(os.path.normpath(line.strip().split(" (")[0]))
        if self.search[:len(self.first) + 1] != self.first + [self.inc]:
            raise Error(f"{self.abi.source}: error: ABI {self.name}: "
                        f"{' and '.join(self.first + [self.inc])} are not the first "
                        f"directories the compiler searches ({self.search[:3]})")
        return [d for d in cc.read_deps(dep) if not d.endswith(".c")], ignored

    def foreign_kernel_header(self, dep):
        """The include name of a kernel header found outside the exported
        tree (in the C library's own copy of the kernel headers), or None."""
        dep = os.path.normpath(os.path.abspath(dep))
        if any(dep.startswith(d + os.sep) for d in self.first + [self.inc]):
            return None
        best = None
        for d in self.search:
            if dep.startswith(d + os.sep) and (best is None or len(d) > len(best)):
                best = d
        if best is None:
            return None
        rel = os.path.relpath(dep, best)
        return rel if is_kernel_header(rel, self.kernel_names) else None

    def is_error_directive(self, path, line):
        """Is path:line an #error in the exported kernel headers?"""
        path = os.path.abspath(path)
        if not path.startswith(self.inc + os.sep):
            return False
        try:
            with open(path, encoding="utf-8", errors="replace") as f:
                text = f.read().splitlines()
        except OSError as e:
            raise Error(f"{path}: error: reading the header a diagnostic names: "
                        f"{e.strerror}") from e
        return 0 < line <= len(text) and re.match(r'\s*#\s*error\b', text[line - 1]) is not None
