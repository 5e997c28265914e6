# SPDX-License-Identifier: GPL-2.0
"""Shared pieces of the renderers: the Jinja2 environment, the model, and
write-if-changed.  Renderers read only the JSON model, never the YAML spec."""

import json
import os
import sys
import tempfile

import jinja2

MODEL_VERSION = 1
TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TEMPLATES = os.path.join(TOP, "templates")


def load_model(path):
    with open(path, encoding="utf-8") as f:
        model = json.load(f)
    if model.get("model-version") != MODEL_VERSION:
        sys.exit(f"{path}: error: model version {model.get('model-version')!r}, "
                 f"this renderer reads version {MODEL_VERSION}")
    return model


def environment(subdir=""):
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(os.path.join(TEMPLATES, subdir)),
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        autoescape=False,
    )
    return env


def write_if_changed(path, text):
    """Write text to path atomically (temporary file + rename), and only if
    the content differs.  Returns True when the file was written."""
    data = text.encode("utf-8")
    try:
        with open(path, "rb") as f:
            if f.read() == data:
                return False
    except FileNotFoundError:
        pass
    d = os.path.dirname(path) or "."
    os.makedirs(d, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=d)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise
    return True
