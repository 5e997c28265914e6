# SPDX-License-Identifier: GPL-2.0
"""tools/import-uapi as a program: importer.main() (importer.py is the importer)."""

import sys

from .importer import main

if __name__ == "__main__":
    sys.exit(main())
