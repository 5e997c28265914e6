# SPDX-License-Identifier: GPL-2.0
"""The C words ioctlgen knows from the kernel's own headers: the ioctl
macros of <asm/ioctl.h> and the fixed-width types of <linux/types.h>.
One list each, in C (generator/cwords.c); the model carries them
(`ioctl-macros`, `fixed-width-types`), and the tools that read C before any
registry or model exists (the importer, the probes) ask
`ioctlgen dump --c-words` for them, once per run."""

import functools
import json
import os
import re
import subprocess

from . import TOP, Error
IOCTLGEN = os.environ.get("IOCTLGEN") or os.path.join(TOP, "build", "ioctlgen")


@functools.cache
def words(ioctlgen=None):
    """The `ioctlgen dump --c-words` document."""
    cmd = [ioctlgen or IOCTLGEN, "dump", "--c-words"]
    try:
        r = subprocess.run(cmd, capture_output=True, text=True)
    except OSError as e:
        raise Error(f"{cmd[0]}: error: cannot run it ({e.strerror}): make build/ioctlgen") from None
    if r.returncode:
        raise Error(f"{' '.join(cmd)}: error: exit {r.returncode}: {r.stderr.strip()}")
    return json.loads(r.stdout)


def ioctl_macros():
    """The ioctl macros, _IO first: [{"name", "dir" (None for _IOC), "legacy"}]."""
    return words()["ioctl-macros"]


def macro_dirs():
    """{macro: direction} of the macros that fix one (all but _IOC)."""
    return {m["name"]: m["dir"] for m in ioctl_macros() if m["dir"] is not None}


@functools.cache
def ioctl_call():
    """A call of an ioctl macro: its name and the '(' after it."""
    names = sorted((m["name"] for m in ioctl_macros()), key=len, reverse=True)
    return re.compile(r"\b(?:%s)\s*\(" % "|".join(map(re.escape, names)))


@functools.cache
def fixed_types():
    """The types a registry struct member may have besides a registry
    struct or union: the fixed-width integers and char."""
    return frozenset(t["name"] for t in words()["fixed-width-types"])
