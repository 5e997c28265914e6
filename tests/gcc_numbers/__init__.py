# SPDX-License-Identifier: GPL-2.0
"""The parts of tests/gcc-numbers.py: probe (the probes and their compiles),
numbers (every number against gcc), tree (coverage and layouts)."""
