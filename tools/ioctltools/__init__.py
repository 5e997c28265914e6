# SPDX-License-Identifier: GPL-2.0
"""Python tools of ioctl-registry: the UAPI importer, tools/measure-sizes and
the rules they and the tests share.  The registry itself reaches them only as
the JSON that ioctlgen writes (registry.py); no module here parses spec/."""


class Error(Exception):
    """A failure that stops a tool; its text says what the tool was doing."""
