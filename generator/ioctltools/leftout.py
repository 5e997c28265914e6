# SPDX-License-Identifier: GPL-2.0
"""spec/left-out.txt: the #defines that look like commands but are not imported."""

import re

from .specwrite import SPDX

HEAD = [SPDX.replace("GPL-2.0 WITH Linux-syscall-note", "GPL-2.0"),
        "# #defines of the exported 6.1 UAPI that look like ioctl commands but that",
        "# tools/import-uapi does not register, grouped by reason, as",
        "# header:line NAME [detail].  An arch header is named with its ARCH in brackets.",
        "# Written by `make import`; do not edit by hand."]


INTERNAL_HEAD = [HEAD[0],
                 "# #defines of the kernel-internal headers `tools/import-uapi --internal` reads",
                 "# (the tree's include/, in kernel context) that look like ioctl commands but",
                 "# that it does not register, grouped by reason, as header:line NAME [detail].",
                 "# Written by `make import-internal`; do not edit by hand."]


def render(left, internal=False):
    """left: [(unit label, LeftOut)]."""
    groups = {}
    for label, x in left:
        groups.setdefault(x.reason, set()).add((label, x.line, x.name, x.detail))
    out = list(INTERNAL_HEAD if internal else HEAD)
    for reason in sorted(groups, key=lambda r: (-len(groups[r]), r)):
        items = sorted(groups[reason], key=lambda x: (x[0], x[1], x[2]))
        out += ["", f"## {reason} ({len(items)})"]
        for label, line, name, detail in items:
            d = "  " + re.sub(r"\s+", " ", detail) if detail else ""
            if " [" in label:
                path, arch = label.split(" [")
                out.append(f"{path}:{line} [{arch} {name}{d}")
            else:
                out.append(f"{label}:{line} {name}{d}")
    return "\n".join(out) + "\n"


def counts(left):
    by_reason = {}
    for _, x in left:
        by_reason[x.reason] = by_reason.get(x.reason, 0) + 1
    return sorted(by_reason.items(), key=lambda x: -x[1])
